"""What an opponent's public actions say about his two cards: a range, and equity against it.

A range weighs each of the 1,326 two-card combinations. It starts even and each action the
player took narrows it:
- pre-flop, by the hand's class (AKs, 72o...) ranked by its equity against one random hand
  (`PREFLOP`, shipped below): an open raise keeps about the top 40% of hands, a re-raise
  the top 12%, a third raise the top 5%, a call of a raise the top 40% (the very best
  mostly re-raise), a limp the top 70%;
- after the flop, by the hand's strength on the board of that street, as a quantile of
  the range as it then stood: a bet keeps the upper half, a raise the top quarter, a call
  drops the bottom third, a check makes the very top (slow plays) less likely.
No cut is ever total: a floor keeps every combination possible (bluffs, draws, players who
play badly). A bet or raise of three times the pot or more (four before the flop), an
overbet, a shove mostly, reads as a strong hand unless the notes read the player wild:
before the flop a shover's range (nines or better and ace-king, a 1% floor for the
rest), after it the top fifth of his range; his later bets and raises in the hand read
the same way. The cuts are smooth (a logistic in the percentile) and come from tables
computed at import.

Across hands, from public actions and the cards shown at showdown: `hand_note` says what
a finished hand said of a player ("w" he overbet, "f" he folded to a bet or raise, "c" he
faced one and never folded; after an overbet, "x" he showed a wild hand, "s" a strong
one); the engine keeps each player's last NOTES notes, and `read_of` reads him WILD (a
wild hand shown as often as a strong one, or overbets in 4: his
actions say nothing, his range is every hand), STICKY (faced bets in 3, never folded: his
calls and checks say nothing, his raises still do) or TIGHT (folded to bets in 2: his
re-raises before the flop read as four-bets).

Hands are evaluated only through `names` (`eval7_cards`, `evaluate`). Caches, all pure: a
board's ranking of the combinations (a few boards per hand), the ranges of pre-flop action
sequences, and the pre-flop equity of a class against them (each entry from a generator
seeded by its key, so the table's generator is never drawn on and a replay decides the
same whatever the cache holds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from bondbot.games.holdem.names import eval7_cards, evaluate
from bondbot.rules.cards import Card

ORDER = "AKQJT98765432"
# Equity (per mille) of each pre-flop class against one random hand, row by row in
# ORDER: the diagonal the pairs, above it suited (row's rank high), below it offsuit
# (column's rank high). 30,000 deals a class (about 0.3% error): bench/odds/holdem_preflop.py.
PREFLOP = """
850 670 660 650 643 629 620 610 603 602 593 586 573
661 827 633 628 620 599 585 576 564 553 551 542 531
644 611 797 602 592 579 562 540 539 523 517 510 502
637 604 580 773 579 553 542 522 504 500 487 485 475
629 598 570 556 753 543 529 506 492 477 466 461 450
605 576 553 535 515 720 508 490 476 452 440 432 429
594 562 540 515 489 483 688 477 463 447 426 411 401
589 550 517 492 481 463 451 666 454 434 419 398 381
580 542 515 469 461 443 436 418 633 429 410 399 373
578 530 500 475 443 430 414 402 399 606 417 397 380
564 518 486 461 436 411 393 385 379 380 572 387 368
559 516 482 453 425 400 375 367 359 363 353 534 361
550 504 472 440 415 391 372 348 342 343 334 323 499
"""

CARDS = Card.ALL
INDEX = {card: i for i, card in enumerate(CARDS)}
E7 = eval7_cards(CARDS)
COMBOS = tuple((a, b) for a in range(52) for b in range(a + 1, 52))
COMBO_E7 = tuple([E7[a], E7[b]] for a, b in COMBOS)


def _class_of(first: Card, second: Card) -> tuple[int, int]:
    """The hand's cell in PREFLOP (row, column)."""
    high, low = sorted((ORDER.index(first.rank), ORDER.index(second.rank)))
    if first.suit == second.suit:
        return high, low  # above the diagonal (pairs cannot be suited)
    return low, high


def _percentiles() -> dict[tuple[int, int], float]:
    """Each class's place among all 1,326 combinations, strongest first: the share of
    combinations better than it plus half its own (0 near AA, 1 near 72o)."""
    table = [[int(v) for v in row.split()] for row in PREFLOP.strip().splitlines()]
    cells = [(r, c) for r in range(13) for c in range(13)]
    count = {cell: 6 if cell[0] == cell[1] else 4 if cell[0] < cell[1] else 12 for cell in cells}
    ranked = sorted(cells, key=lambda cell: -table[cell[0]][cell[1]])
    found, below = {}, 0
    for cell in ranked:
        found[cell] = (below + count[cell] / 2) / 1326
        below += count[cell]
    return found


_PERCENTILE = _percentiles()
COMBO_PCT = tuple(_PERCENTILE[_class_of(CARDS[a], CARDS[b])] for a, b in COMBOS)


def percentile(hole: Sequence[Card]) -> float:
    """The pre-flop place of two cards among all hands: 0 the best (AA), 1 the worst."""
    return _PERCENTILE[_class_of(hole[0], hole[1])]


def _logistic(x: float) -> float:
    return 1 / (1 + math.exp(-x))


# Pre-flop actions: (top share kept, floor, share of the very top that re-raises instead,
# its weight). "check": the big blind's option, its strongest hands would have raised.
PREFLOP_CUTS = {
    "open": (0.40, 0.10, 0.0, 1.0),
    "3bet": (0.12, 0.08, 0.0, 1.0),
    "4bet": (0.05, 0.08, 0.0, 1.0),
    "limp": (0.70, 0.15, 0.08, 0.4),
    "call1": (0.40, 0.10, 0.04, 0.5),
    "call2": (0.14, 0.08, 0.03, 0.5),
    "check": (1.0, 1.0, 0.10, 0.5),
}

# An overbet before the flop ("overbet", a shove mostly) from a player the notes do not
# read wild: a shover's range, nines or better and ace-king, and a floor for the rest
# (bluffs, players who shove worse). Not a share of the percentiles: those rank by equity
# against one random hand (ace-queen suited and king-queen suited above nines), where a
# shover holds pairs.
SHOVER = frozenset({"AA", "KK", "QQ", "JJ", "TT", "99", "AK"})
SHOVE_FLOOR = 0.01


def _shoves(a: int, b: int) -> bool:
    ranks = "".join(sorted((CARDS[a].rank, CARDS[b].rank), key=ORDER.index))
    return ranks in SHOVER


COMBO_SHOVE = tuple(1.0 if _shoves(a, b) else SHOVE_FLOOR for a, b in COMBOS)


def _preflop_factor(code: str, pct: float) -> float:
    top, floor, capped, weight = PREFLOP_CUTS[code]
    keep = floor + (1 - floor) * _logistic((top - pct) / (0.12 * top + 0.02))
    if capped:
        keep *= 1 - (1 - weight) * _logistic((capped - pct) / 0.01)
    return keep


@lru_cache(maxsize=256)
def preflop_weights(codes: tuple[str, ...]) -> tuple[float, ...]:
    """A player's range after his pre-flop actions (codes of PREFLOP_CUTS or "overbet",
    in order)."""
    weights = [1.0] * len(COMBOS)
    for code in codes:
        if code == "overbet":
            weights = [w * shove for w, shove in zip(weights, COMBO_SHOVE, strict=True)]
            continue
        pairs = zip(weights, COMBO_PCT, strict=True)
        weights = [w * _preflop_factor(code, pct) for w, pct in pairs]
    return tuple(weights)


# After the flop: the factor by the hand's quantile q in the range (0 weakest, 1 best).
STEPS = 64
POSTFLOP_CUTS = {
    "bet": lambda q: 0.25 + 0.75 * _logistic((q - 0.55) / 0.08),
    "raise": lambda q: 0.12 + 0.88 * _logistic((q - 0.75) / 0.06),
    "call": lambda q: 0.35 + 0.65 * _logistic((q - 0.35) / 0.10),
    "check": lambda q: 1 - 0.6 * _logistic((q - 0.88) / 0.04),
    "overbet": lambda q: 0.05 + 0.95 * _logistic((q - 0.8) / 0.06),  # a shove: his best
}
_FACTORS = {
    code: tuple(cut((step + 0.5) / STEPS) for step in range(STEPS))
    for code, cut in POSTFLOP_CUTS.items()
}


@lru_cache(maxsize=32)
def ranking(board: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The combinations that fit `board` (card indices), in groups of equal strength on
    it, weakest first."""
    shared = [E7[i] for i in board]
    cards = set(board)
    values: dict[int, list[int]] = {}
    for number, (a, b) in enumerate(COMBOS):
        if a not in cards and b not in cards:
            value = evaluate(COMBO_E7[number] + shared)
            values.setdefault(value, []).append(number)
    return tuple(tuple(values[value]) for value in sorted(values))


def narrow(weights: list[float], board: tuple[int, ...], code: str) -> None:
    """Narrow `weights` in place by an action (POSTFLOP_CUTS) taken on `board`."""
    factors = _FACTORS[code]
    groups = ranking(board)
    total = sum(weights[n] for group in groups for n in group)
    if total <= 0:
        return
    below = 0.0
    for group in groups:
        held = sum(weights[n] for n in group)
        if not held:
            continue
        factor = factors[min(int((below + held / 2) / total * STEPS), STEPS - 1)]
        below += held
        for n in group:
            weights[n] *= factor


@dataclass(frozen=True)
class Seen:
    """A player's public action: who (his index in the order of play), on which street
    (0 pre-flop to 3 the river), what (`raise` for any bet or raise, `call`, `check`,
    `fold`), and his bet in the round after it."""

    player: int
    street: int
    kind: str
    to: int = 0
    pot: int = 0  # every chip in the middle before it
    added: int = 0  # the chips it put in (bets and raises)

    @property
    def overbet(self) -> bool:
        """A bet or raise of OVERBET times the pot or more (4 before the flop, where the
        blinds make a small pot): a shove mostly. From a player the notes do not read
        wild, a strong hand (a shover's range); from a wild one, any hand."""
        times = OVERBET + (self.street == 0)
        return self.kind == "raise" and self.pot > 0 and self.added >= times * self.pot


OVERBET = 3


def preflop_codes(player: int, history: Sequence[Seen], read: str = "") -> tuple[str, ...]:
    """`player`'s pre-flop actions as PREFLOP_CUTS codes (open, 3bet, call1...). A raise
    is an open, a re-raise or more by the raises before it, a call likewise; an overbet
    (a shove) is "overbet", a shover's range, whatever came before. A WILD player's
    actions give no code (any hand), a STICKY one's calls and checks none."""
    if read == WILD:
        return ()
    codes: list[str] = []
    raises = 0
    for seen in history:
        if seen.street != 0:
            continue
        if seen.player == player and seen.kind != "fold":
            if seen.overbet:
                codes.append("overbet")
            elif seen.kind == "raise":
                codes.append(("open", "3bet", "4bet")[min(raises, 2)])
            elif seen.kind == "call":
                codes.append(("limp", "call1", "call2")[min(raises, 2)])
            else:
                codes.append("check")
            if read == STICKY and codes[-1] in PASSIVE:
                codes.pop()
            elif read == TIGHT and codes[-1] == "3bet":  # his re-raises hold fewer hands
                codes[-1] = "4bet"
        raises += seen.kind == "raise"
    return tuple(codes)


def overbet_this_hand(player: int, history: Sequence[Seen]) -> bool:
    """Whether `player` overbet this hand (he is committed: no bluffing him)."""
    return any(seen.player == player and seen.overbet for seen in history)


UNIFORM = (1.0,) * len(COMBOS)
PASSIVE = frozenset({"limp", "call1", "call2", "check", "call"})


def range_of(
    player: int, history: Sequence[Seen], board: Sequence[Card], read: str = ""
) -> tuple[float, ...]:
    """The weights of `player`'s range after the public actions of the hand so far, as a
    player of this `read` (`read_of`) makes them: a wild one's actions say nothing (any
    hand), a sticky one's calls and checks say nothing (his bets and raises still do)."""
    if read == WILD:
        return UNIFORM
    postflop: list[tuple[int, str]] = []
    aggression: dict[int, int] = {}
    overbet = False  # once he overbet, his bets and raises read as overbets
    for seen in history:
        overbet |= seen.player == player and seen.overbet
        if seen.street == 0 or seen.kind == "fold":
            continue
        raised = aggression.get(seen.street, 0)
        aggression[seen.street] = raised + (seen.kind == "raise")
        if seen.player != player:
            continue
        code = seen.kind if seen.kind != "raise" else ("bet" if raised == 0 else "raise")
        code = "overbet" if overbet and seen.kind == "raise" else code
        if read == STICKY and code in PASSIVE:
            continue
        postflop.append((seen.street, code))
    cards = tuple(INDEX[card] for card in board)
    return _range(preflop_codes(player, history, read), tuple(postflop), cards)


# Notes across hands, from public actions and the cards shown at showdown: what each hand
# said of a player (letters of `hand_note`), the last NOTES hands kept by the engine per
# seat, read by `read_of`.
NOTES = 8
WILD, STICKY, TIGHT = "wild", "sticky", "tight"
WILD_HANDS = 4  # hands with an overbet, of his last NOTES, that make a player wild (half:
# no strong range is that wide; at 3, a player who overbets his top 10% read wild one hand
# in 25, and level 15 called him with ace-high). So does a wild hand shown after an
# overbet, unless he showed as many strong ones: a hand outside the top quarter before
# the flop (or below the median of all hands on that street's board) is a wild one.
SHOWN_STRONG_PREFLOP, SHOWN_STRONG_POSTFLOP = 0.25, 0.5
STICKY_HANDS = 3  # hands where he faced a bet and never folded (and none where he did)
TIGHT_HANDS = 2  # hands where he folded to a bet or raise


def hand_note(
    player: int,
    history: Sequence[Seen],
    shown: Sequence[Card] = (),
    board: Sequence[Card] = (),
) -> str:
    """What a hand said of `player`: "w" he overbet, "f" he folded to a bet or raise, "c"
    he faced one and never folded; and when he overbet and showed his cards at showdown
    (`shown`, with the `board`), "x" if they were a wild hand on the street of his last
    overbet, "s" if a strong one (letters in that order, "" if none)."""
    overbet = faced = folded = False
    street = -1  # of his last overbet
    bets: dict[int, int] = {}  # the highest bet of each street
    mine: dict[int, int] = {}
    for seen in history:
        if seen.player == player:
            facing = bets.get(seen.street, 0) > mine.get(seen.street, 0)
            overbet |= seen.overbet
            street = seen.street if seen.overbet else street
            faced |= facing and seen.kind != "fold"
            folded |= facing and seen.kind == "fold"
            if seen.kind == "raise":
                mine[seen.street] = seen.to
        if seen.kind == "raise":
            bets[seen.street] = max(bets.get(seen.street, 0), seen.to)
    note = "w" * overbet + "f" * folded + "c" * (faced and not folded)
    if overbet and len(shown) == 2:
        note += "s" if _shown_strong(shown, board, street) else "x"
    return note


def _shown_strong(hole: Sequence[Card], board: Sequence[Card], street: int) -> bool:
    """Whether a hand shown at showdown was a strong one on `street` (0 before the flop):
    in the top quarter of hands before the flop, above the median of every hand after it."""
    if street == 0:
        return percentile(hole) <= SHOWN_STRONG_PREFLOP
    cards = tuple(INDEX[card] for card in board[: street + 2])
    mine = COMBOS.index(tuple(sorted((INDEX[hole[0]], INDEX[hole[1]]))))
    below = total = 0
    for group in ranking(cards):
        if mine in group:
            below = total + len(group) / 2
        total += len(group)
    return below / total >= SHOWN_STRONG_POSTFLOP


def read_of(notes: Sequence[str]) -> str:
    """A player read from his last hands' notes: WILD (he overbets with any hand: he
    showed a wild hand after an overbet, more often than not, or overbet in WILD_HANDS
    hands, too many for strong hands), STICKY (he calls bets and never folds to
    one: his calls mean nothing), TIGHT (he folds to bets and raises: steal his blinds),
    or "". Without such notes his overbets read as strong hands (`preflop_codes`)."""
    recent = notes[-NOTES:]
    wild = sum("x" in note for note in recent)
    strong = sum("s" in note for note in recent)
    overbets = sum("w" in note for note in recent)
    if (wild and wild >= strong) or overbets >= WILD_HANDS:
        return WILD
    folds = sum("f" in note for note in recent)
    if sum("c" in note for note in recent) >= STICKY_HANDS and not folds:
        return STICKY
    return TIGHT if folds >= TIGHT_HANDS else ""


@lru_cache(maxsize=256)
def _range(
    preflop: tuple[str, ...], postflop: tuple[tuple[int, str], ...], board: tuple[int, ...]
) -> tuple[float, ...]:
    """A range from its actions (players who acted alike share it: a table of callers
    costs one)."""
    weights = list(preflop_weights(preflop))
    for street, code in postflop:
        narrow(weights, board[: street + 2], code)
    return tuple(weights)


@lru_cache(maxsize=4096)
def preflop_equity(cell: tuple[int, int], opponents: tuple[tuple[str, ...], ...]) -> float:
    """The equity of a pre-flop class (its PREFLOP cell) against opponents with these
    pre-flop actions: a table filled as hands come, each entry from its own generator
    seeded by its key (so a cached entry and a fresh one agree, and the table's generator
    is not drawn on)."""
    row, column = cell
    suits = ("s", "s") if row < column else ("s", "h")
    hole = [Card(ORDER[row], suits[0]), Card(ORDER[column], suits[1])]
    weights = [preflop_weights(codes) for codes in opponents]
    trials = max(300, PREFLOP_EVALUATIONS // (len(opponents) + 1))
    return equity(hole, (), weights, trials, random.Random(repr((cell, opponents))))


PREFLOP_EVALUATIONS = 1500


def preflop_cell(hole: Sequence[Card]) -> tuple[int, int]:
    return _class_of(hole[0], hole[1])


def equity(
    hole: Sequence[Card],
    board: Sequence[Card],
    ranges: Sequence[Sequence[float]],
    trials: int,
    rng: random.Random,
) -> float:
    """Share of the pot these cards win against one hand from each range (ties split),
    each hand drawn by its weight among those the known cards allow."""
    known = {INDEX[card] for card in (*hole, *board)}
    fits = [n for n, (a, b) in enumerate(COMBOS) if a not in known and b not in known]
    draws = []
    for weights in ranges:
        cumulative, running = [], 0.0
        for n in fits:
            running += weights[n]
            cumulative.append(running)
        if running <= 0:  # nothing left of it: any hand
            cumulative = list(range(1, len(fits) + 1))
        draws.append(cumulative)
    picks = [rng.choices(fits, cum_weights=cum, k=trials) for cum in draws]
    deck = [E7[i] for i in range(52) if i not in known]
    mine, shared = eval7_cards(hole), eval7_cards(board)
    missing = 5 - len(shared)
    random_, size = rng.random, len(deck)
    won = 0.0
    if len(ranges) == 1:  # heads-up, the common case, kept lean
        for combo in picks[0]:
            hand = COMBO_E7[combo]
            first, second = hand
            runout = shared.copy()
            while len(runout) < 5:  # the cards to come, drawn one at a time
                card = deck[int(random_() * size)]
                if card is not first and card is not second and card not in runout:
                    runout.append(card)
            value, theirs = evaluate(mine + runout), evaluate(hand + runout)
            won += 1.0 if value > theirs else 0.5 if value == theirs else 0.0
        return won / trials
    spare = missing + 2 * len(ranges)
    for trial in range(trials):
        hands = []
        used: set[int] = set()
        for opponent, cum in enumerate(draws):
            combo = picks[opponent][trial]
            tries = 0
            while (COMBOS[combo][0] in used or COMBOS[combo][1] in used) and tries < 20:
                combo = rng.choices(fits, cum_weights=cum)[0]
                tries += 1
            used.update(COMBOS[combo])
            hands.append(COMBO_E7[combo])
        taken = {E7[i] for i in used}
        runout = shared + [card for card in rng.sample(deck, spare) if card not in taken][:missing]
        value = evaluate(mine + runout)
        tied = 1
        for hand in hands:
            theirs = evaluate(hand + runout)
            if theirs > value:
                break
            tied += theirs == value
        else:
            won += 1 / tied
    return won / trials
