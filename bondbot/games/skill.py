"""How an NPC's Gambling level shapes his automatic play, the one rule every game's npc.py
follows: each decision is the strong policy's with probability level / GAMBLING_MAX, else
the novice's. A Gambling 15 NPC always plays the strongest play his game affords, a
Gambling 0 one always plays like a novice (legal but loose), and the levels between lie
between the two in proportion. The draw comes from the table's generator, so a replay
decides the same. A game whose lines span several decisions may draw once a line instead
(`strong_by_draw`: hold'em, once a hand, so one player plays the hand through)."""

from __future__ import annotations

import random

from bondbot.games.contract import GAMBLING_MAX


def strong_share(level: int) -> float:
    """The share of his decisions an NPC of this level takes by the strong policy."""
    return min(max(level, 0), GAMBLING_MAX) / GAMBLING_MAX


def plays_strong(level: int, rng: random.Random) -> bool:
    """Whether this decision is the strong policy's (always at 15, never at 0; a draw
    from `rng` only between, so the extremes consume no randomness)."""
    share = strong_share(level)
    if share >= 1.0:
        return True
    if share <= 0.0:
        return False
    return rng.random() < share


def strong_by_draw(level: int, draw: float | None) -> bool:
    """The same rule for a game that keeps one player for a whole line (hold'em, a hand):
    strong when `draw`, uniform in [0, 1) and drawn once for the line from the table's
    generator, falls under the level's share (always at 15, never at 0, whatever the
    draw; None: no draw was needed yet, only possible at the extremes)."""
    share = strong_share(level)
    if share >= 1.0:
        return True
    if share <= 0.0 or draw is None:
        return False
    return draw < share
