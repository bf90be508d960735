"""What the NPC's play at both baccarat-bank games shares: the draw or stand by its Gambling
level, the novice's draw by feel, and the noise below which two exact expectations are a
tie (the table's advice decides)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bondbot.games.contract import Move, SeatKey
from bondbot.games.skill import plays_strong
from bondbot.rules.baccarat import codes_value
from bondbot.rules.cards import Card

# The novice banker draws on his total up to one of these, drawn each time: by feel, from
# never drawing (0 draws only on 0) to always.
NOVICE_THRESHOLDS = tuple(range(8))
# Expectations closer than this are a tie: the table's advice decides (floats' noise).
EPSILON = 1e-9


def values(codes: list[str]) -> list[int]:
    return [Card.parse(code).baccarat_value for code in codes]


def novice_draw(banker: list[str], at_five: bool, rng: random.Random) -> bool:
    """A novice's draw: a coin as a hand-holder at 5; as banker, on his first two cards, a
    threshold drawn by feel (blind to the third cards)."""
    if at_five:
        return rng.random() < 0.5
    return codes_value(banker[:2]) <= rng.choice(NOVICE_THRESHOLDS)


def drawing(
    seat: SeatKey,
    level: int,
    rng: random.Random,
    strong: Callable[[], bool],
    banker: list[str],
    at_five: bool,
) -> Move:
    """The NPC's draw or stand: the strong play's (`strong`) as often as its Gambling
    `level` plays strong, else a novice's."""
    draw = strong() if plays_strong(level, rng) else novice_draw(banker, at_five, rng)
    return Move(kind="draw" if draw else "stand", seat=seat)
