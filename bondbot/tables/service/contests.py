"""The rulebook's Gambling contests, run through the core's one action at a time: a PC's
own against the NPC (he chose the rulebook; see tables/contest.py), and the pot of a
table with several NPCs (see tables/pot.py)."""

from __future__ import annotations

from bondbot.tables import contest as rulebook_contest
from bondbot.tables import pot
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.snapshot import TableSnapshot

# -- the rulebook contest (a PC who chose the rulebook) ----------------------------------


async def contest(
    core: TableCore, table_id: int, user_id: int, stake: int, ease: int = 5
) -> TableSnapshot:
    """Both sides roll Gambling for `stake`; the PC sees his roll and may then spend."""
    return await core.mutate(
        table_id,
        user_id,
        lambda ctx: rulebook_contest.start(ctx, user_id, stake, ease, core.rng),
    )


async def contest_step(
    core: TableCore, table_id: int, user_id: int, contest_id: int, seen: int
) -> TableSnapshot:
    return await core.mutate(
        table_id, user_id, lambda ctx: rulebook_contest.step(ctx, user_id, contest_id, seen)
    )


async def contest_settle(
    core: TableCore, table_id: int, user_id: int, contest_id: int
) -> TableSnapshot:
    return await core.mutate(
        table_id, user_id, lambda ctx: rulebook_contest.settle(ctx, user_id, contest_id)
    )


# -- the pot contest (a table with several NPCs) -----------------------------------------


async def pot_start(
    core: TableCore, table_id: int, actor_id: int, stake: int, ease: int = 5
) -> TableSnapshot:
    """The GM starts a round: everyone stakes and rolls."""
    return await core.mutate(table_id, actor_id, lambda ctx: pot.start(ctx, stake, ease, core.rng))


async def pot_step(
    core: TableCore, table_id: int, user_id: int, pot_id: int, seen: int
) -> TableSnapshot:
    return await core.mutate(table_id, user_id, lambda ctx: pot.step(ctx, user_id, pot_id, seen))


async def pot_settle(core: TableCore, table_id: int, actor_id: int) -> TableSnapshot:
    return await core.mutate(table_id, actor_id, lambda ctx: pot.settle(ctx))
