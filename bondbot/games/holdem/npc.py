"""The NPC's automatic play at hold'em: equity against random hands, pot odds, position.

The NPC sees what its seat may see: its two cards, the board, the pot and bets, how many
opponents are still in and where it sits. Its hand strength is its equity against that
many random hands (Monte Carlo with eval7, a bounded number of evaluations so a decision
stays a few milliseconds), read against its fair share of the pot (1 / players in):

- nothing to call: bet two thirds of the pot with a hand worth 1.3 fair shares, the pot
  with 2; otherwise check, or now and then (2%, 6% in position) bluff half the pot;
- facing a bet: raise with 1.6 fair shares (and half a pot more than the bet), call when
  its equity beats the pot odds (a little less demanded in position), else fold, or very
  rarely (1%) raise as a bluff;
- a bet worth most of its chips goes all-in instead; bets are whole small blinds.

Every random draw comes from the `rng` the table passes in, so a replay decides the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bondbot.games.contract import Move, Option
from bondbot.games.holdem.names import eval7_cards, evaluate
from bondbot.rules.cards import Card

EVALUATIONS = 2400  # hand evaluations per decision: trials × (opponents + 1)
VALUE, STRONG, RAISE = 1.3, 2.0, 1.6  # in fair shares of the pot
BLUFF, BLUFF_IN_POSITION, BLUFF_RAISE = 0.02, 0.06, 0.01
POSITION_DISCOUNT = 0.03  # equity it needs less when it acts last
SHOVE = 0.7  # a bet of more than this share of its chips goes all-in


@dataclass(frozen=True)
class Situation:
    """What the NPC may know when it must act."""

    hole: tuple[Card, Card]
    board: tuple[Card, ...]
    opponents: int  # players still in besides the NPC
    pot: int  # every chip in the middle, bets of this round included
    to_call: int
    chips: int  # its chips behind
    in_position: bool  # it acts last after the flop
    options: tuple[Option, ...]  # its legal moves
    chip: int = 1  # its bets are whole multiples of this (the small blind)


def equity(
    hole: Sequence[Card], board: Sequence[Card], opponents: int, trials: int, rng: random.Random
) -> float:
    """Share of the pot these cards win against `opponents` random hands (ties split)."""
    known = {*hole, *board}
    deck = eval7_cards(card for card in Card.ALL if card not in known)
    mine, shared = eval7_cards(hole), eval7_cards(board)
    missing = 5 - len(shared)
    won = 0.0
    for _ in range(trials):
        draw = rng.sample(deck, missing + 2 * opponents)
        runout = shared + draw[:missing]
        value = evaluate(mine + runout)
        tied = 1
        for start in range(missing, missing + 2 * opponents, 2):
            theirs = evaluate(draw[start : start + 2] + runout)
            if theirs > value:
                break
            tied += theirs == value
        else:
            won += 1 / tied
    return won / trials


def decide(situation: Situation, rng: random.Random) -> Move:
    """The NPC's move (one of `situation.options`)."""
    trials = max(100, EVALUATIONS // (situation.opponents + 1))
    share = equity(situation.hole, situation.board, situation.opponents, trials, rng)
    strength = share * (situation.opponents + 1)
    pot = situation.pot
    if situation.to_call == 0:
        if strength >= STRONG:
            return _bet(situation, pot)
        if strength >= VALUE:
            return _bet(situation, pot * 2 // 3)
        bluff = BLUFF_IN_POSITION if situation.in_position else BLUFF
        if rng.random() < bluff:
            return _bet(situation, pot // 2)
        return _pick(situation, "check")
    if strength >= RAISE:
        return _bet(situation, situation.to_call + (pot + situation.to_call) // 2)
    odds = situation.to_call / (pot + situation.to_call)
    if share + (POSITION_DISCOUNT if situation.in_position else 0.0) >= odds:
        return _pick(situation, "call")
    if rng.random() < BLUFF_RAISE:
        return _bet(situation, situation.to_call + pot)
    return _pick(situation, "fold")


def _option(situation: Situation, *kinds: str) -> Option | None:
    for option in situation.options:
        if option.kind in kinds:
            return option
    return None


def _pick(situation: Situation, kind: str) -> Move:
    """`kind` if it is legal, else the nearest legal move (call, then check, then fold)."""
    for choice in (kind, "call", "check", "fold"):
        option = _option(situation, choice)
        if option is not None:
            return Move(kind=option.kind, seat=option.seat, amount=option.min)
    raise AssertionError("the NPC has no legal move")


def _bet(situation: Situation, size: int) -> Move:
    """Put `size` more chips in as a bet or raise (all-in when that is most of its chips)."""
    option = _option(situation, "bet", "raise")
    if option is None:
        return _pick(situation, "all_in" if size >= situation.chips else "call")
    assert option.min is not None and option.max is not None
    if size >= SHOVE * situation.chips and _option(situation, "all_in"):
        return Move(kind="all_in", seat=option.seat)
    current = option.max - situation.chips  # its bet in the round so far
    chip = situation.chip
    target = (current + size + chip // 2) // chip * chip
    target = min(max(target, option.min), option.max)
    return Move(kind=option.kind, seat=option.seat, amount=target)
