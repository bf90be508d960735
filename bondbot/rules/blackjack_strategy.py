"""Basic strategy for the default table (6 packs, S17, DAS, late surrender) as data.

The grids are the published multi-deck S17/DAS/LS chart; the hint button and the
simulations read the same cells. Columns are the dealer's up card 2–9, T (any ten), A.
Cells: H hit, S stand, D double else hit, Ds double else stand, P split, R surrender,
`.` nothing from this table (fall through). Order of the questions: split (PAIRS) →
surrender (SURRENDER) → the total (SOFT or HARD). Other tables' options use the same
chart: close to optimal, and always legal thanks to the fallbacks.
"""

from __future__ import annotations

from collections.abc import Sequence

from bondbot.rules.blackjack import VALUES, Action, hand_total
from bondbot.rules.cards import Card

UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")

HARD: dict[int, str] = {
    8: "H  H  H  H  H  H  H  H  H  H",  # 4 to 8
    9: "H  D  D  D  D  H  H  H  H  H",
    10: "D  D  D  D  D  D  D  D  H  H",
    11: "D  D  D  D  D  D  D  D  D  H",
    12: "H  H  S  S  S  H  H  H  H  H",
    13: "S  S  S  S  S  H  H  H  H  H",
    14: "S  S  S  S  S  H  H  H  H  H",
    15: "S  S  S  S  S  H  H  H  H  H",
    16: "S  S  S  S  S  H  H  H  H  H",
    17: "S  S  S  S  S  S  S  S  S  S",  # 17 to 21
}

SOFT: dict[int, str] = {
    12: "H  H  H  H  H  H  H  H  H  H",  # A A when it cannot be split
    13: "H  H  H  D  D  H  H  H  H  H",
    14: "H  H  H  D  D  H  H  H  H  H",
    15: "H  H  D  D  D  H  H  H  H  H",
    16: "H  H  D  D  D  H  H  H  H  H",
    17: "H  D  D  D  D  H  H  H  H  H",
    18: "S  Ds Ds Ds Ds S  S  H  H  H",
    19: "S  S  S  S  S  S  S  S  S  S",  # 19 to 21
}

PAIRS: dict[str, str] = {
    "A": "P  P  P  P  P  P  P  P  P  P",
    "T": ".  .  .  .  .  .  .  .  .  .",
    "9": "P  P  P  P  P  .  P  P  .  .",
    "8": "P  P  P  P  P  P  P  P  P  P",
    "7": "P  P  P  P  P  P  .  .  .  .",
    "6": "P  P  P  P  P  .  .  .  .  .",
    "5": ".  .  .  .  .  .  .  .  .  .",
    "4": ".  .  .  P  P  .  .  .  .  .",
    "3": "P  P  P  P  P  P  .  .  .  .",
    "2": "P  P  P  P  P  P  .  .  .  .",
}

SURRENDER: dict[int, str] = {
    15: ".  .  .  .  .  .  .  .  R  .",
    16: ".  .  .  .  .  .  .  R  R  R",
}


def _grid(rows: dict[int, str], low: int, high: int) -> dict[tuple[int, int], str]:
    """Expand rows to (total, up value) cells; a total past the last row uses its nearest."""
    cells: dict[tuple[int, int], str] = {}
    for total in range(low, high + 1):
        row = rows[min(max(total, min(rows)), max(rows))].split()
        assert len(row) == len(UP_CARDS), total
        for up, cell in zip(UP_CARDS, row, strict=True):
            cells[total, VALUES[up]] = cell
    return cells


_HARD = _grid(HARD, 4, 21)
_SOFT = _grid(SOFT, 12, 21)
_SURRENDER = {
    (total, VALUES[up]): cell == "R"
    for total in range(4, 22)
    for up, cell in zip(UP_CARDS, SURRENDER.get(total, ". " * 10).split(), strict=True)
}
_PAIRS = {
    (VALUES[rank], VALUES[up]): cell == "P"
    for rank, row in PAIRS.items()
    for up, cell in zip(UP_CARDS, row.split(), strict=True)
}


def decide(
    total: int,
    soft: bool,
    pair: int,
    up: int,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
) -> Action:
    """The fast path: card values only (Ace 1, tens 10; `pair` 0 when not a pair)."""
    if can_split and pair and _PAIRS[pair, up]:
        return Action.SPLIT
    if can_surrender and not soft and _SURRENDER[total, up]:
        return Action.SURRENDER
    if total >= 21:
        return Action.STAND
    cell = (_SOFT if soft else _HARD)[total, up]
    if cell == "H":
        return Action.HIT
    if cell == "S":
        return Action.STAND
    if can_double:
        return Action.DOUBLE
    return Action.STAND if cell == "Ds" else Action.HIT


def basic_strategy(hand: Sequence[Card], dealer_up: Card, legal: Sequence[Action]) -> Action:
    """The chart's advice among `legal` actions (hint button, automatic play)."""
    total, soft = hand_total(hand)
    pair = VALUES[hand[0].rank] if len(hand) == 2 else 0
    if pair and VALUES[hand[1].rank] != pair:
        pair = 0
    action = decide(
        total,
        soft,
        pair,
        VALUES[dealer_up.rank],
        Action.DOUBLE in legal,
        Action.SPLIT in legal,
        Action.SURRENDER in legal,
    )
    if action in legal:
        return action
    return Action.STAND if Action.STAND in legal else legal[0]
