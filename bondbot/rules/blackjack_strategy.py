"""Basic strategy as data: the published multi-deck chart, adjusted to the table's rules.

The grids are the published 4–8 deck chart for a dealer standing on soft 17, double after
split, late surrender (Wikipedia, "Blackjack", § Basic strategy); the hint button and the
simulations read the same cells. Columns are the dealer's up card 2–9, T (any ten), A.
Cells: H hit, S stand, D double else hit, Ds double else stand, P split, R surrender,
`.` nothing from this table (fall through). Order of the questions: split (PAIRS) →
surrender (SURRENDER) → the total (SOFT or HARD).

The table's rules change a few cells, as the published charts for those rules do:
- the dealer hits soft 17 (H17_CELLS): double 11 v A, A,7 v 2 and A,8 v 6; surrender
  15 and 17 v A (the same Wikipedia section);
- a European deal where a dealer blackjack takes doubles and splits too (no hole card,
  `european_lose_all`): never double against a ten or an Ace, never split against an Ace,
  and do not split 8s against a ten. With only the original bet at risk the American
  chart stands.
Options the charts do not separate (pack count, hands after splits, split by rank) use
the same cells: close to optimal, and always legal thanks to the fallbacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bondbot.rules.blackjack import VALUES, Action, BlackjackRules, hand_total
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
    19: "S  S  S  S  S  S  S  S  S  S",
    20: "S  S  S  S  S  S  S  S  S  S",  # 20 and 21
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


# (grid, player's total or pair rank, up card) → the H17 chart's cell.
H17_CELLS: dict[tuple[str, int | str, str], str] = {
    ("hard", 11, "A"): "D",
    ("soft", 18, "2"): "Ds",
    ("soft", 19, "6"): "Ds",
    ("surrender", 15, "A"): "R",
    ("surrender", 17, "A"): "R",
}
# No hole card, doubles and splits lost to a dealer blackjack: never double against a ten
# or an Ace, never split against an Ace, do not split 8s against a ten.
NO_DOUBLE_AGAINST = frozenset({"T", "A"})
NO_SPLIT = frozenset({(rank, "A") for rank in PAIRS} | {("8", "T")})


def _rows(grid: str, rows: dict[Any, str], hit_soft_17: bool, no_hole_card: bool) -> dict[Any, str]:
    """The S17 rows of one grid with the table's rules applied, in the same text form."""
    changed = {key: row.split() for key, row in rows.items()}
    if hit_soft_17:
        for (name, key, up), cell in H17_CELLS.items():
            if name == grid:
                changed.setdefault(key, ["."] * len(UP_CARDS))[UP_CARDS.index(up)] = cell
    if no_hole_card:
        for key, cells in changed.items():
            for index, up in enumerate(UP_CARDS):
                if grid in ("hard", "soft") and up in NO_DOUBLE_AGAINST:
                    cells[index] = {"D": "H", "Ds": "S"}.get(cells[index], cells[index])
                if grid == "pairs" and (key, up) in NO_SPLIT:
                    cells[index] = "."
    return {key: "  ".join(cells) for key, cells in changed.items()}


def _grid(rows: dict[int, str], low: int, high: int) -> dict[tuple[int, int], str]:
    """Expand rows to (total, up value) cells; a total past the last row uses its nearest."""
    cells: dict[tuple[int, int], str] = {}
    for total in range(low, high + 1):
        row = rows[min(max(total, min(rows)), max(rows))].split()
        assert len(row) == len(UP_CARDS), total
        for up, cell in zip(UP_CARDS, row, strict=True):
            cells[total, VALUES[up]] = cell
    return cells


@dataclass(frozen=True, slots=True)
class Chart:
    """Every cell of one rule set, by card values (Ace 1, tens 10)."""

    hard: dict[tuple[int, int], str]
    soft: dict[tuple[int, int], str]
    surrender: dict[tuple[int, int], bool]
    pairs: dict[tuple[int, int], bool]


@cache
def chart(hit_soft_17: bool = False, no_hole_card: bool = False) -> Chart:
    """The chart for a dealer hitting soft 17 and/or a no-hole-card, lose-all deal."""
    hard = _rows("hard", HARD, hit_soft_17, no_hole_card)
    soft = _rows("soft", SOFT, hit_soft_17, no_hole_card)
    surrender = _rows("surrender", SURRENDER, hit_soft_17, no_hole_card)
    pairs = _rows("pairs", PAIRS, hit_soft_17, no_hole_card)
    return Chart(
        hard=_grid(hard, 4, 21),
        soft=_grid(soft, 12, 21),
        surrender={
            (total, VALUES[up]): cell == "R"
            for total in range(4, 22)
            for up, cell in zip(UP_CARDS, surrender.get(total, ". " * 10).split(), strict=True)
        },
        pairs={
            (VALUES[rank], VALUES[up]): cell == "P"
            for rank, row in pairs.items()
            for up, cell in zip(UP_CARDS, row.split(), strict=True)
        },
    )


def chart_for(rules: BlackjackRules | None) -> Chart:
    """The chart a table with these rules plays (the default table's without rules)."""
    if rules is None:
        return chart()
    return chart(rules.hit_soft_17, rules.european and rules.european_lose_all)


def decide(
    total: int,
    soft: bool,
    pair: int,
    up: int,
    can_double: bool,
    can_split: bool,
    can_surrender: bool,
    cells: Chart | None = None,
) -> Action:
    """The fast path: card values only (Ace 1, tens 10; `pair` 0 when not a pair)."""
    cells = cells or chart()
    if can_split and pair and cells.pairs[pair, up]:
        return Action.SPLIT
    if can_surrender and not soft and cells.surrender[total, up]:
        return Action.SURRENDER
    if total >= 21:
        return Action.STAND
    cell = (cells.soft if soft else cells.hard)[total, up]
    if cell == "H":
        return Action.HIT
    if cell == "S":
        return Action.STAND
    if can_double:
        return Action.DOUBLE
    return Action.STAND if cell == "Ds" else Action.HIT


def basic_strategy(
    hand: Sequence[Card],
    dealer_up: Card,
    legal: Sequence[Action],
    rules: BlackjackRules | None = None,
) -> Action:
    """The chart's advice for the table's `rules` among `legal` actions (hint, automatic play)."""
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
        chart_for(rules),
    )
    if action in legal:
        return action
    return Action.STAND if Action.STAND in legal else legal[0]
