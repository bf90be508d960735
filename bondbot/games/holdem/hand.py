"""One hand of no-limit hold'em on pokerkit's `State`, and what our rules add to it.

pokerkit keeps the hand: blinds, whose turn, legal amounts, uncalled bets, main and side
pots and who is eligible for each, the showdown and who wins each pot (comparing hands
with eval7 through `Eval7Hand`, hundreds of times faster than its own evaluator). We drive it with
hand-history actions (the PHH notation pokerkit parses: `d dh p1 AsKd`, `p2 cbr 600`,
`d db 9h8d2c`, `p1 sm -`), so the list of a hand's actions is all it takes to rebuild its
`State` after a restart. Players are numbered as pokerkit seats them: p1 is the first
player left of the button and the button is last (heads-up: p1 is the big blind, p2 the
button who posts the small blind).

Cards come from our shoe, never from pokerkit's deck: dealing is left manual, burns are
the unknown card `??` (a committed digital shoe has no top card to protect), and any
warning pokerkit raises while dealing (a card it already dealt) is an error. pokerkit
shuffles its own deck with the global `random` when a State is created; nothing is ever
drawn from it, so no outcome depends on it.

What pokerkit 0.7.7 does differently from holdem.md, and how we follow holdem.md:
- Before the flop an all-in raise smaller than a full raise reopens the betting for a
  player who already limped (pokerkit counts the blinds as no raise). `may_raise` applies
  the rule itself: a player who already acted in the round may raise again only when a
  full raise was made since he acted (a full raise: at least the big blind and the round's
  largest bet or raise). Several short all-ins do not add up to one (holdem.md). It only
  ever takes a raise away.
- pokerkit gives a split pot's whole odd remainder to the first winner; `split` deals the
  odd chips one at a time to the winners in turn from the first left of the button, a chip
  being one whole unit of the currency (holdem.md), not a cent.
- Once it has killed the losing hands pokerkit forgets that the losers were eligible, and
  merges pots that differed only by them; `outcome` cuts the pots again as they stood.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from pokerkit import (
    Automation,
    BetCollection,
    BlindOrStraddlePosting,
    BoardDealing,
    Card,
    CardsLike,
    CheckingOrCalling,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
    Folding,
    Mode,
    NoLimitTexasHoldem,
    StandardHighHand,
    State,
)
from pokerkit.hands import Hand
from pokerkit.notation import parse_action

from bondbot.games.holdem.names import eval7_value

# Everything but the cards and the shows is pokerkit's to do by itself.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class Eval7Hand(Hand):
    """pokerkit's hand type for our hold'em: the best five of a player's cards, valued by
    eval7. pokerkit compares these at the showdown, so the evaluator that decides the pots
    is the one that names the hands (checked against every seven-card hand by
    `bench/odds/holdem_categories.py`), and a showdown costs microseconds, not milliseconds."""

    lookup = StandardHighHand.lookup
    low = False

    def __init__(self, cards: tuple[Card, ...]) -> None:  # no lookup: eval7 values them
        self._cards = cards
        self.value = eval7_value(repr(card) for card in cards)

    @classmethod
    def from_game(cls, hole_cards: CardsLike, board_cards: CardsLike = ()) -> Eval7Hand:
        cards = (*filter(None, Card.clean(hole_cards)), *filter(None, Card.clean(board_cards)))
        if len(cards) < 5:
            raise ValueError("a hand needs five cards")
        return cls(cards)

    @property
    def cards(self) -> tuple[Card, ...]:
        return self._cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Eval7Hand):
            return NotImplemented
        return self.value == other.value

    def __lt__(self, other: Hand) -> bool:
        if not isinstance(other, Eval7Hand):
            return NotImplemented
        return self.value < other.value

    def __hash__(self) -> int:
        return hash(self.value)


class _NoLimitTexasHoldem(NoLimitTexasHoldem):
    hand_types = (Eval7Hand,)


class DuplicateCard(ValueError):
    """pokerkit was asked to deal a card it has already dealt in this hand."""


def new_state(stacks: Sequence[int], small: int, big: int) -> State:
    """A hand before its cards: blinds posted, players in pokerkit's order.

    Tournament mode: one runout of the board, and no folding when a check is free.
    """
    return _NoLimitTexasHoldem.create_state(
        AUTOMATIONS,
        False,
        0,
        (small, big),
        big,
        tuple(stacks),
        len(stacks),
        mode=Mode.TOURNAMENT,
    )


def act(state: State, action: str) -> None:
    """Apply one PHH action; a board deal burns `??` first. Any pokerkit warning raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        try:
            if action.startswith("d db") and state.can_burn_card("??"):
                state.burn_card("??")
            parse_action(state, action)
        except UserWarning as warning:
            raise DuplicateCard(str(warning)) from None


def rebuild(stacks: Sequence[int], small: int, big: int, actions: Sequence[str]) -> State:
    state = new_state(stacks, small, big)
    for action in actions:
        act(state, action)
    return state


def _round_start(state: State) -> int:
    """Index in `state.operations` where the current betting round began."""
    for index in range(len(state.operations) - 1, -1, -1):
        if isinstance(state.operations[index], BoardDealing):
            return index + 1
    return 0


def may_raise(state: State, player: int, big: int) -> bool:
    """holdem.md's reopening rule for `player`, whose turn it is (see the module's doc)."""
    bets = [0] * state.player_count
    acted = reopened = False
    full = big
    for operation in state.operations[_round_start(state) :]:
        if isinstance(operation, BlindOrStraddlePosting):
            bets[operation.player_index] = operation.amount
        elif isinstance(operation, CheckingOrCalling):
            bets[operation.player_index] += operation.amount
            if operation.player_index == player:
                acted, reopened = True, False
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            raised = operation.amount - max(bets)
            if raised >= full:  # a full raise: the next one must be as large
                full, reopened = raised, True
            bets[operation.player_index] = operation.amount
            if operation.player_index == player:
                acted, reopened = True, False
    return not acted or reopened


@dataclass(frozen=True)
class PotOutcome:
    """One pot at the end of a hand: who paid what into it, who could win it, who did."""

    amount: int
    paid: tuple[int, ...]  # per player (pokerkit index)
    eligible: tuple[int, ...]
    winners: tuple[int, ...]  # in pokerkit order: the first is the first left of the button
    shares: tuple[int, ...]  # per player (pokerkit index): what he takes from this pot


def contributions(state: State) -> list[int]:
    """What each player put into the pots (uncalled bets that came back are not in it)."""
    paid = [0] * state.player_count
    for operation in state.operations:
        if isinstance(operation, BetCollection):
            for index, amount in enumerate(operation.bets):
                paid[index] += amount
    return paid


def split(amount: int, winners: Sequence[int], players: int, chip: int = 1) -> tuple[int, ...]:
    """holdem.md: equal shares of whole chips (`chip`: one chip's worth), the odd chips one
    at a time from the first winner in order. Part of a chip, which whole-chip stacks never
    make (a hand dealt before chips were whole), goes to the first winner."""
    chips, part = divmod(amount, chip)
    quotient, remainder = divmod(chips, len(winners))
    shares = [0] * players
    for rank, index in enumerate(winners):
        shares[index] = (quotient + (1 if rank < remainder else 0)) * chip
    shares[winners[0]] += part
    return tuple(shares)


Cut = tuple[tuple[int, ...], tuple[int, ...]]  # a pot: each player's part, who is eligible


def pots_of(paid: Sequence[int], live: Sequence[int]) -> list[Cut]:
    """The pots of a finished hand as pokerkit cuts them (`State.pots`): contributions
    sliced at each distinct level, each slice open to the live players who paid up to it
    (the last player left, when the others folded, whatever he paid), consecutive slices
    open to the same players merged."""
    pots: list[Cut] = []
    previous = 0
    for level in sorted({amount for amount in paid if amount}):
        part = tuple(min(p, level) - min(p, previous) for p in paid)
        eligible = tuple(live) if len(live) == 1 else tuple(i for i in live if paid[i] >= level)
        if pots and pots[-1][1] == eligible:
            part = tuple(a + b for a, b in zip(pots.pop()[0], part, strict=True))
        pots.append((part, eligible))
        previous = level
    return pots


def outcome(state: State, chip: int = 1) -> list[PotOutcome]:
    """The pots of a finished hand (main pot first), re-split by holdem.md in whole chips
    of `chip`.

    pokerkit forgets the losers once it has killed their hands, and then merges pots that
    differed only by them: it paid the same winners for all of them. So the pots are cut
    from the contributions as pokerkit cut them before, and each takes the winners of the
    pokerkit pot it was merged into.
    """
    assert not state.status, "the hand is not over"
    paid = contributions(state)
    folded = {op.player_index for op in state.operations if isinstance(op, Folding)}
    live = [i for i in range(state.player_count) if i not in folded]
    merged: dict[int, tuple[int, set[int]]] = {}
    for push in state.operations:
        if isinstance(push, ChipsPushing):
            total, got = merged.get(push.pot_index, (0, set()))
            got.update(i for i, amount in enumerate(push.amounts) if amount)
            merged[push.pot_index] = (total + sum(push.amounts), got)
    paid_out = iter(merged[index] for index in sorted(merged))
    room, winners = 0, ()
    result = []
    for part, eligible in pots_of(paid, live):
        if room == 0:
            room, got = next(paid_out)
            # Every pot holds at least one chip per eligible player, so pokerkit's split
            # gives every winner something: those who got chips are exactly the winners.
            winners = tuple(sorted(got))
        amount = sum(part)
        room -= amount
        assert room >= 0 and set(winners) <= set(eligible), "pots do not match pokerkit's"
        result.append(
            PotOutcome(
                amount=amount,
                paid=part,
                eligible=eligible,
                winners=winners,
                shares=split(amount, winners, state.player_count, chip),
            )
        )
    assert room == 0 and next(paid_out, None) is None, "pots do not match pokerkit's"
    return result


def stacks_after(state: State, chip: int = 1) -> list[int]:
    """What each player has once the hand is over: pokerkit's stacks with its split of the
    pots (the whole odd remainder, in cents, to the first winner) replaced by `outcome`'s,
    in whole chips of `chip`: the chips the table's transfers leave him."""
    pushed = [0] * state.player_count
    for operation in state.operations:
        if isinstance(operation, ChipsPushing):
            for index, amount in enumerate(operation.amounts):
                pushed[index] += amount
    shares = [0] * state.player_count
    for pot in outcome(state, chip):
        for index, share in enumerate(pot.shares):
            shares[index] += share
    return [
        stack - got + share for stack, got, share in zip(state.stacks, pushed, shares, strict=True)
    ]
