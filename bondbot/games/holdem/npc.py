"""The NPC's automatic play at hold'em, as good as his Gambling level (0 to 15).

The NPC sees what its seat may see: its two cards, the board, the pot and bets, its chips
and its opponents', where it sits, every player's public actions this hand with their
sizes, and its notes on each player from his public actions in his last hands (never a
hidden card). Levels: one player for a whole hand. At its first decision of a hand the NPC
draws a number uniform in [0, 1) from the table's generator (the engine keeps it for the
hand, `Holdem.npc_line`); the hand is the strong policy's when it falls under level / 15,
else the novice's (`skill.strong_by_draw`: always strong at 15, always the novice at 0,
no draw at either). So a Gambling 10 NPC plays two hands in three as Gambling 15 and one
as Gambling 0, each line played through by one player, and a replay decides the same.

Overbets and shoves: a bet or raise of three times the pot or more (four before the
flop) from a player its notes do not read wild is a strong hand: before the flop a
shover's range (nines or better and ace-king, a floor of 1% for the rest), after it his
best hands on the board. So facing a 100-big-blind shove over its open, with no notes, it
calls with queens or better and jacks (what has the price against that range), not with
king-deuce.

Notes and reads (`ranges.hand_note`, `ranges.read_of`): as each hand ends the engine notes
what it said of every other player (he overbet; he folded to a bet or raise; he faced one
and never folded; after an overbet, the hand he showed at showdown, wild or strong) and
keeps his last 8 hands. A player who showed a wild hand after an overbet (as often as a
strong one), or overbet in 4 of them (too many for strong hands), reads WILD (his bets,
raises and folds are not his cards': any hand), one who faced a bet in 3 and never
folded STICKY (his calls and checks mean nothing), one who folded to a bet in 2 TIGHT (he
folds too much). The exploits, when every opponent still in is wild or wild/sticky
("loose"):
- his range is every hand (a sticky one's raises still narrow it);
- first in before the flop: raise with 1.3 fair shares of equity against random hands
  (a wild player re-raises at random, so it limps the middle hands) or 1.1 (a sticky one
  calls any raise), limp with 0.7, else fold;
- after the flop, checked to: bet two thirds of the pot with 0.75 fair shares against a
  wild player (he folds a quarter of the time whatever he holds), 1.05 against a sticky
  one, the pot with 1.25 (he pays any size); never bluff either;
- a call that puts it all in is priced at its equity, without realization or implied odds.
Against tight players (every opponent still in): its opening range widens by 30 points
(under the gun at four seats the top 60% instead of 30%: they give up their blinds too
often), and a tight player's re-raise reads as a four-bet (his top 5%).

The strong policy (Gambling 15):
- equity against the ranges the opponents' actions imply (`ranges`), not random hands;
- pre-flop, nobody in yet: raise (2.5 big blinds heads-up, 3 otherwise, one more per
  limper) with the top 80% of hands on the button heads-up, 55%, 45%, 30%, 24%, 18% with
  1, 2, 3, 4, 5+ players behind, else fold; the big blind raises limpers with its top 12%;
- pre-flop, facing a raise: re-raise (3 times it in position, 3.5 out, plus a big blind)
  with 1.25 fair shares of equity against the ranges of the players who have acted (the
  others may still fold), or heads-up as a bluff
  12% of the time with the hands ranked 15% to 35%; call when the equity it will
  realize (95% of it in position after the flop, 85% out of position, 115% against loose
  players: they misplay the streets to come) beats the pot odds (4% less against a single
  raise when deep, or loose players: the implied odds); else fold;
- after the flop, nothing to call: bet two thirds of the pot with 1.25 fair shares of
  equity, the pot with 1.7; heads-up, bluff a hand without showdown value (under 30%) or a
  draw (flop and turn) at the balanced frequency of the size: a bet of s times the pot
  needs s / (1 + s) bluffs per value bet, and its value bets are taken as 0.6 of its hands
  without value, so it bluffs with probability 0.6 · s / (1 + s) (24% at two thirds of
  the pot), two thirds of that out of position, never against a player who overbet this
  hand (he is committed) or reads wild or sticky (he does not fold as a sane player
  would); else check;
- facing a bet: raise by three quarters of the pot with 1.5 fair shares; call when its
  equity beats the pot odds (less 3% on the flop, 2% on the turn when deep: the streets
  to come); heads-up with a draw, semi-bluff raise 10% of the time; else fold.

The novice (Gambling 0), by feel: equity against random hands from 150 deals, read with
noise (spread 0.12 at every level); pre-flop he limps with 70% of hands, calls raises
with half of them (a quarter when it costs 30% of his chips), raises only the top 4%;
after the flop he bets half the pot when he feels strong (1.3 fair shares), bluffs 8% of
the time with any size whoever is in, calls when his feeling beats 60% of the pot odds or
his fair share, and raises (twice the bet) only with 1.8 fair shares.

A bet worth most of its chips goes all-in instead; bets are whole small blinds. Every
random draw comes from the `rng` the table passes in, so a replay decides the same.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from bondbot.games.contract import GAMBLING_MAX, Move, Option
from bondbot.games.holdem import ranges
from bondbot.games.holdem.names import eval7_cards, evaluate
from bondbot.games.holdem.ranges import Seen
from bondbot.games.skill import strong_by_draw, strong_share
from bondbot.rules.cards import RANKS, Card

EVALUATIONS = 1600  # hand evaluations per equity: trials × (opponents + 1)
SHOVE = 0.7  # a bet of more than this share of its chips goes all-in

# The strong policy.
OPEN = {1: 0.55, 2: 0.45, 3: 0.30, 4: 0.24}  # pre-flop opening range by players behind
OPEN_HEADS_UP = 0.80
OPEN_WIDE = 0.18  # five or more behind
BB_RAISE = 0.12  # the big blind raises limpers with this top share
VALUE, STRONG, RAISE = 1.25, 1.7, 1.5  # in fair shares of the pot
PREFLOP_RERAISE = 1.25
BLUFF_RERAISE, BLUFF_BAND = 0.12, (0.15, 0.35)  # re-raise bluffs: frequency, percentiles
AIR = 0.30  # heads-up equity below which a hand has no showdown value
VALUE_TO_AIR = 0.6  # its value bets per hand without value, when checked to
OUT_OF_POSITION = 2 / 3  # its bluffs out of position, relative to in position
SEMI_BLUFF_RAISE = 0.10
IMPLIED = {1: 0.03, 2: 0.02}  # by street, when deep
PREFLOP_IMPLIED = 0.04  # calling a single raise, when deep
REALIZED, REALIZED_OUT_OF_POSITION = 0.95, 0.85  # of its pre-flop equity, by the flop's seat
REALIZED_AGAINST_WEAK = 1.15  # when an opponent still in overbet this hand
# Against loose players (`loose`), in fair shares: bets when checked to (a wild player
# folds to a bet whatever he holds, a sticky one pays any size: the pot), first in before
# the flop, a raise (a sticky player calls it) or a limp (a wild one re-raises at random).
VALUE_LOOSE = {ranges.WILD: 0.75, ranges.STICKY: 1.05}
LOOSE_OPEN = {ranges.WILD: 1.3, ranges.STICKY: 1.1}
LOOSE_LIMP = 0.7
STEAL = 0.3  # opened wider when every player still in is tight

# The novice.
NOVICE_TRIALS = 150
NOISE = 0.12  # the spread of his misreading of his equity
NOVICE_PLAYS, NOVICE_CALLS, NOVICE_RAISES = 0.70, 0.50, 0.04  # pre-flop percentiles
NOVICE_BLUFF = 0.08
NOVICE_CALL_ODDS = 0.6  # he calls with this share of the equity the pot odds ask


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
    big: int = 2  # the big blind
    bet: int = 0  # its bet in this round so far
    me: int = 0  # its index in the order of play (0 first left of the button)
    players: int = 2  # players dealt in
    live: tuple[int, ...] = ()  # the opponents still in, by index (empty: unknown)
    history: tuple[Seen, ...] = ()  # every player's actions this hand, in order
    effective: int = 0  # the most any opponent still in can still bet (0: unknown)
    reads: tuple[str, ...] = ()  # each player's read from its notes (`ranges.read_of`)


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


def decide(
    situation: Situation, rng: random.Random, level: int = GAMBLING_MAX, line: float | None = None
) -> Move:
    """The NPC's move (one of `situation.options`) at this Gambling level; `line` its
    draw for the hand (`skill.strong_by_draw`; None: drawn now, for this decision only)."""
    if line is None and 0 < strong_share(level) < 1:
        line = rng.random()
    if strong_by_draw(level, line):
        return strong(situation, rng)
    return novice(situation, rng)


def read(situation: Situation, player: int) -> str:
    """What its notes say of `player`: ranges.WILD, STICKY, TIGHT or "" (no read)."""
    return situation.reads[player] if player < len(situation.reads) else ""


def loose(situation: Situation) -> str:
    """How every opponent still in plays outside a sane range, the exploits' trigger:
    ranges.WILD when the notes read each wild (he bets, raises and folds whatever he
    holds; an overbet this hand alone is a strong hand, not a mark), ranges.STICKY when
    each is that or sticky (he calls whatever he holds), "" when any one is neither."""
    reads = [read(situation, i) for i in situation.live]
    if not reads or not all(r in (ranges.WILD, ranges.STICKY) for r in reads):
        return ""
    return ranges.WILD if all(r == ranges.WILD for r in reads) else ranges.STICKY


# -- the strong policy ---------------------------------------------------------------------


def range_equity(situation: Situation, rng: random.Random) -> float:
    """Its equity against the hands its opponents' actions imply (pre-flop, by its hand's
    class, from `ranges.preflop_equity`'s table, against the players who have acted)."""
    unknown = situation.opponents - len(situation.live)
    if not situation.board:  # against those who acted: the rest may still fold
        acted = {seen.player for seen in situation.history if seen.kind != "fold"}
        codes = [
            ranges.preflop_codes(i, situation.history, read(situation, i))
            for i in situation.live
            if i in acted
        ]
        opponents = tuple(codes) + ((),) * unknown
        return ranges.preflop_equity(ranges.preflop_cell(situation.hole), opponents or ((),))
    weights = [
        ranges.range_of(i, situation.history, situation.board, read(situation, i))
        for i in situation.live
    ]
    weights += [(1.0,) * len(ranges.COMBOS)] * unknown
    trials = max(100, EVALUATIONS // (situation.opponents + 1))
    return ranges.equity(situation.hole, situation.board, weights, trials, rng)


def strong(situation: Situation, rng: random.Random) -> Move:
    """Gambling 15: the best play this module knows."""
    if not situation.board:
        return _strong_preflop(situation, rng)
    share = range_equity(situation, rng)
    fair = 1 / (situation.opponents + 1)
    strength = share / fair
    pot, street = situation.pot, len(situation.board) - 2
    heads_up = situation.opponents == 1
    exploit = loose(situation)
    if situation.to_call == 0:
        if strength >= STRONG or (exploit == ranges.STICKY and strength >= VALUE):
            return _bet(situation, pot)
        if strength >= VALUE or (exploit and strength >= VALUE_LOOSE[exploit]):
            return _bet(situation, pot * 2 // 3)
        size = 2 / 3
        candidate = share < AIR or (street < 3 and _draw(situation.hole, situation.board))
        bluff = VALUE_TO_AIR * size / (1 + size)
        if not situation.in_position:
            bluff *= OUT_OF_POSITION
        calls = any(  # he does not fold as a sane player would
            read(situation, i) in (ranges.WILD, ranges.STICKY)
            or ranges.overbet_this_hand(i, situation.history)
            for i in situation.live
        )
        if heads_up and candidate and not calls and rng.random() < bluff:
            return _bet(situation, pot * 2 // 3)
        return _pick(situation, "check")
    if strength >= RAISE:
        return _bet(situation, situation.to_call + (pot + situation.to_call) * 3 // 4)
    odds = situation.to_call / (pot + situation.to_call)
    deep = _behind(situation) - situation.to_call >= 4 * (pot + situation.to_call)
    implied = IMPLIED.get(street, 0.0) if deep else 0.0
    drawing = heads_up and street < 3 and deep and _draw(situation.hole, situation.board)
    if drawing and rng.random() < SEMI_BLUFF_RAISE:
        return _bet(situation, situation.to_call + (pot + situation.to_call) * 3 // 4)
    if share + implied >= odds:
        return _pick(situation, "call")
    return _pick(situation, "fold")


def _behind(situation: Situation) -> int:
    """The chips still to play for: its own, or the deepest opponent's when fewer."""
    if situation.effective:
        return min(situation.chips, situation.effective)
    return situation.chips


def _strong_preflop(situation: Situation, rng: random.Random) -> Move:
    pct = ranges.percentile(situation.hole)
    big = situation.big
    facing = situation.bet + situation.to_call  # the highest bet
    raises = sum(seen.kind == "raise" for seen in situation.history if seen.street == 0)
    limpers = sum(
        seen.kind == "call" for seen in situation.history if seen.street == 0 and not raises
    )
    kind = loose(situation)
    if raises == 0 and kind:  # his hands are any hands: play by their equity
        cell, everyone = ranges.preflop_cell(situation.hole), ((),) * situation.opponents
        strength = ranges.preflop_equity(cell, everyone) * (situation.opponents + 1)
        if strength >= LOOSE_OPEN[kind]:
            return _raise_to(situation, (3 if situation.to_call else 4) * big + big * limpers)
        if situation.to_call and strength >= LOOSE_LIMP:
            return _pick(situation, "call")
        return _pick(situation, "check" if situation.to_call == 0 else "fold")
    if raises == 0:
        if situation.to_call == 0:  # the big blind's option
            if pct <= BB_RAISE:
                return _raise_to(situation, 4 * big + big * limpers)
            return _pick(situation, "check")
        width = _open_width(situation)
        if all(read(situation, i) == ranges.TIGHT for i in situation.live):
            width = min(1.0, width + STEAL)  # they fold too much: steal their blinds
        if pct <= width:
            size = 5 * big // 2 if situation.players == 2 else 3 * big
            return _raise_to(situation, size + big * limpers)
        return _pick(situation, "fold")
    share = range_equity(situation, rng)
    acted = {seen.player for seen in situation.history if seen.kind != "fold"}
    against = len([i for i in situation.live if i in acted]) or 1
    strength = share * (against + 1)
    if strength >= PREFLOP_RERAISE:
        return _raise_to(situation, facing * (6 if situation.in_position else 7) // 2 + big)
    low, high = BLUFF_BAND
    if (
        situation.opponents == 1
        and raises == 1
        and low <= pct <= high
        and rng.random() < BLUFF_RERAISE
    ):
        return _raise_to(situation, facing * 3 + big)
    odds = situation.to_call / (situation.pot + situation.to_call)
    deep = _behind(situation) - situation.to_call >= 10 * situation.to_call
    implied = PREFLOP_IMPLIED if deep and raises == 1 else 0.0
    if _behind(situation) <= situation.to_call:  # all in: no streets to play, no more to win
        realized, implied = share, 0.0
    elif loose(situation):  # he will misplay the streets to come
        realized, implied = share * REALIZED_AGAINST_WEAK, PREFLOP_IMPLIED
    else:
        realized = share * (REALIZED if situation.in_position else REALIZED_OUT_OF_POSITION)
    if realized + implied >= odds:
        return _pick(situation, "call")
    return _pick(situation, "fold")


def _open_width(situation: Situation) -> float:
    """The share of hands it opens with from its seat (players left to act behind it)."""
    if situation.players == 2:
        return OPEN_HEADS_UP
    order = _preflop_order(situation.players)
    behind = situation.players - 1 - order.index(situation.me)
    return OPEN.get(behind, OPEN_WIDE)


def _preflop_order(players: int) -> list[int]:
    """The order of play before the flop: after the big blind (heads-up, the button)."""
    first = 1 if players == 2 else 2 % players
    return [(first + k) % players for k in range(players)]


def _draw(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Four to a flush or to an open-ended straight, with at least one of its own cards."""
    cards = (*hole, *board)
    for suit in {card.suit for card in hole}:
        if sum(card.suit == suit for card in cards) == 4:
            return True
    ranks = {RANKS.index(card.rank) for card in cards}
    mine = {RANKS.index(card.rank) for card in hole}
    for low in range(9):  # 2345 to TJQK: a card either end completes it
        window = set(range(low, low + 4))
        if window <= ranks and window & mine:
            return True
    return False


# -- the novice ----------------------------------------------------------------------------


def novice(situation: Situation, rng: random.Random, noise: float = NOISE) -> Move:
    """Gambling 0: legal but loose, by feel (`noise`: how far off his reading is)."""
    big = situation.big
    if not situation.board:
        pct = ranges.percentile(situation.hole) + rng.gauss(0, noise)
        facing = situation.bet + situation.to_call
        if pct <= NOVICE_RAISES and facing <= 3 * big:
            return _raise_to(situation, 3 * big + facing - big)
        if situation.to_call == 0:
            return _pick(situation, "check")
        if facing <= big:
            return _pick(situation, "call" if pct <= NOVICE_PLAYS else "fold")
        dear = situation.to_call >= 0.3 * situation.chips
        calls = NOVICE_CALLS / 2 if dear else NOVICE_CALLS
        return _pick(situation, "call" if pct <= calls else "fold")
    share = equity(situation.hole, situation.board, situation.opponents, NOVICE_TRIALS, rng)
    feel = share + rng.gauss(0, noise)
    fair = 1 / (situation.opponents + 1)
    pot = situation.pot
    if situation.to_call == 0:
        if feel >= 1.3 * fair:
            return _bet(situation, pot // 2)
        if rng.random() < NOVICE_BLUFF:
            return _bet(situation, int(pot * rng.uniform(0.25, 1.0)))
        return _pick(situation, "check")
    if feel >= 1.8 * fair:
        return _raise_to(situation, 2 * (situation.bet + situation.to_call))
    odds = situation.to_call / (pot + situation.to_call)
    if feel >= NOVICE_CALL_ODDS * odds or feel >= fair:
        return _pick(situation, "call")
    return _pick(situation, "fold")


# -- moves ---------------------------------------------------------------------------------


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


def _raise_to(situation: Situation, target: int) -> Move:
    """Bet or raise so that its bet in the round comes to `target`."""
    return _bet(situation, max(target - situation.bet, situation.to_call + 1))


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
