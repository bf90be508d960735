"""Covering stakes with a bank: in order, until the bank is used; the rest is not in play.

Both chemin de fer (one table) and baccara à deux tableaux (each half of the bank on its
table) cover this way; the order is the game's (seat order from the banker's right, or
from a table's hand-holder).
"""

from __future__ import annotations

from collections.abc import Iterable

from bondbot.games.contract import Frozen, SeatKey


class Cover(Frozen):
    """One ponte's stake and the part of it the bank covers (the part in play)."""

    seat: SeatKey
    stake: int
    covered: int


def cover(stakes: Iterable[tuple[SeatKey, int]], bank: int) -> tuple[Cover, ...]:
    """Cover `stakes` in the order given until `bank` is used up."""
    left = bank
    covers = []
    for seat, stake in stakes:
        covered = min(stake, left)
        left -= covered
        covers.append(Cover(seat=seat, stake=stake, covered=covered))
    return tuple(covers)


def in_play(covers: Iterable[Cover]) -> tuple[Cover, ...]:
    """The covers with money in play, in their order."""
    return tuple(item for item in covers if item.covered > 0)
