"""How a Macao hand counts: card values, the table's counting scheme, naturals.

Every total the bot shows goes through `hand_total`, so a table's scheme is applied in one
place. Under `bust` the total is the plain sum and anything above 9 is a bust; the other
two schemes keep every total within 0–9, so nobody can bust under them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from bondbot.rules.cards import Card


class Counting(StrEnum):
    MINUS9 = "minus9"  # the seed's own: a total above 9 loses 9 as often as needed
    MODULO10 = "modulo10"  # the baccarat count: the units digit
    BUST = "bust"  # a total above 9 is bust


BUST_ABOVE = 9
# What a natural (a two-card 7, 8 or 9) is paid, in stakes.
NATURAL_MULTIPLE: dict[int, int] = {7: 1, 8: 2, 9: 3}
HIGHEST_MULTIPLE = max(NATURAL_MULTIPLE.values())

_RANK_VALUE: dict[str, int] = {card.rank: card.baccarat_value for card in Card.ALL}


def card_value(card: Card) -> int:
    """Ace 1; king, queen, jack and ten 0; the other cards their number."""
    return _RANK_VALUE[card.rank]


def count(points: int, counting: Counting) -> int:
    """The total of a hand whose card values add up to `points`, under `counting`."""
    if points <= BUST_ABOVE or counting is Counting.BUST:
        return points
    if counting is Counting.MODULO10:
        return points % 10
    return (points - 1) % 9 + 1  # minus9: 10 → 1, 11 → 2, 18 → 9, 19 → 1


def hand_total(cards: Iterable[Card], counting: Counting) -> int:
    """The total shown for a hand: above 9 only under `bust`, where it means bust."""
    return count(sum(_RANK_VALUE[card.rank] for card in cards), counting)


def is_bust(total: int) -> bool:
    return total > BUST_ABOVE


def natural_of(total: int, cards: int) -> int | None:
    """The natural a hand of `cards` cards totalling `total` shows (7, 8 or 9), if any."""
    return total if cards == 2 and total in NATURAL_MULTIPLE else None
