"""Hand strength and hand names, from eval7 (a C evaluator) or, without it, `evaluator`.

One evaluator names the hands, runs the NPC's Monte Carlo and, through `hand.Eval7Hand`,
compares hands at pokerkit's showdowns. eval7 (~0.5 µs for seven cards) is an optional
speed-up (`pip install 'bondbot[fast]'`): it has no wheel for ARM, so where it is missing
the pure-Python `evaluator` (~2 µs) gives the very same values. Either gives every hand of
five to seven cards an integer (higher wins, equal ties) whose bits say its category and
the ranks that decide it, which is all a hand's name needs: "two pair, kings and sevens,
queen kicker" is `two_pair`, ranks `K 7`, kicker `Q`. Names stay language-neutral (a
category key and ranks); the Discord layer translates them. `bench/odds/holdem_categories.py`
checks the categories against holdem.md's counts over every seven-card hand.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any

from bondbot.games.contract import Frozen
from bondbot.games.holdem import evaluator
from bondbot.rules.cards import RANKS, Card

try:
    with warnings.catch_warnings():  # eval7 0.1.11 still uses pyparsing 2 names
        warnings.simplefilter("ignore", DeprecationWarning)
        import eval7
except ImportError:  # no wheel for this machine (ARM) and no compiler
    eval7 = None

# holdem.md's categories, low to high, in eval7's order (the category is value >> 24).
CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",  # a royal flush is the ace-high one: ranks ("A",)
)
# How many of the five rank nibbles name the hand; the rest (up to five) are its kickers.
_NAMING = (1, 1, 2, 1, 1, 1, 2, 1, 1)
_KICKERS = (4, 3, 1, 2, 0, 4, 0, 1, 0)

# Which evaluator this process uses: "eval7" or "python" (`evaluator`).
EVALUATOR = "python" if eval7 is None else "eval7"
_EVAL7: dict[Card, Any] = (
    evaluator.CARDS if eval7 is None else {card: eval7.Card(card.code) for card in Card.ALL}
)


def eval7_cards(cards: Iterable[Card]) -> list[Any]:
    """The evaluator's own cards, for `evaluate` (convert once, evaluate many times)."""
    return [_EVAL7[card] for card in cards]


# The value of the best five of the evaluator's cards (from `eval7_cards`), as `strength`:
# the one call a Monte Carlo makes in its loop.
evaluate: Callable[[list[Any]], int] = evaluator.evaluate if eval7 is None else eval7.evaluate


_BY_CODE = {card.code: value for card, value in _EVAL7.items()}


def eval7_value(codes: Iterable[str]) -> int:
    """The value of the best five of these cards (`As`, `Td`), as `strength`."""
    return evaluate([_BY_CODE[code] for code in codes])


def strength(cards: Iterable[Card]) -> int:
    """The hand's value: the best five of these cards, higher wins, equal splits."""
    return evaluate(eval7_cards(cards))


class HandName(Frozen):
    """A hand's name as data: its category, the ranks that name it, then its kickers."""

    category: str
    ranks: tuple[str, ...]
    kickers: tuple[str, ...] = ()


def name_of(value: int) -> HandName:
    """The name of a value (eval7's layout: category and deciding ranks, high first)."""
    kind = value >> 24
    nibbles = [RANKS[(value >> shift) & 0xF] for shift in (16, 12, 8, 4, 0)]
    naming = _NAMING[kind]
    return HandName(
        category=CATEGORIES[kind],
        ranks=tuple(nibbles[:naming]),
        kickers=tuple(nibbles[naming : naming + _KICKERS[kind]]),
    )


def hand_name(cards: Iterable[Card]) -> HandName:
    """The name of the best five-card hand among these cards."""
    return name_of(strength(cards))
