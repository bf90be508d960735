"""The NPC's automatic use of Survival Points in a rulebook contest."""

from __future__ import annotations

import pytest

from bondbot.tables.contest import npc_cancels
from bondbot.tables.state import Contest, ContestRoll


def contest(pc_quality: int | None, steps: int, npc_quality: int | None) -> Contest:
    def roll(character_id: int, level: int, quality: int | None, steps: int) -> ContestRoll:
        return ContestRoll(
            character_id=character_id,
            name="x",
            level=level,
            perception=10,
            success_chance=50,
            roll=40,
            quality=quality,
            steps=steps,
        )

    # The NPC has the higher Gambling level: he wins equal results.
    return Contest(
        id=1, stake=100, pc=roll(1, 5, pc_quality, steps), npc=roll(2, 12, npc_quality, 0)
    )


@pytest.mark.parametrize(
    ("pc_quality", "steps", "npc_quality", "survival", "expected"),
    [
        (None, 3, 3, 5, 1),  # QR 2 beats QR 3; one cancel makes it QR 3, and the tie is his
        (None, 4, 3, 5, 2),  # QR 1: two cancels bring it to QR 3
        (None, 4, 3, 1, 0),  # one point cannot stop QR 1 from winning: keep it
        (None, 2, 3, 5, 0),  # QR 3 against QR 3 already goes to the NPC
        (4, 1, 4, 0, 0),  # no Survival Points, nothing to spend
        (2, 0, 1, 5, 0),  # no Hero Point spent, nothing to cancel
    ],
)
def test_the_npc_spends_the_fewest_points_that_save_him(
    pc_quality: int | None, steps: int, npc_quality: int | None, survival: int, expected: int
) -> None:
    assert npc_cancels(contest(pc_quality, steps, npc_quality), survival) == expected
