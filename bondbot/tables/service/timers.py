"""Timed moves: each open table's pending deadline (a turn's timeout, a scheduled deal, the
close of its Hero Point offers) is armed on the scheduler and made when due, unless a
player's own move overtook it; a database back from an outage makes the ones it missed."""

from __future__ import annotations

import logging
from datetime import datetime

from bondbot import background
from bondbot.errors import Refusal
from bondbot.games.contract import Event, Record
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import Played
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.snapshot import TableSnapshot

log = logging.getLogger(__name__)


def arm(core: TableCore, snapshot: TableSnapshot) -> None:
    """Schedule the table's pending timed move, replacing any older one."""
    key = ("move", snapshot.id)
    owned = snapshot.open and core.shards.owns(snapshot.guild_id)  # its process arms it
    deadline = snapshot.state.deadline if owned else None
    if deadline is None:
        core.scheduler.cancel(key)
        return
    core.scheduler.at(
        key,
        datetime.fromisoformat(deadline),
        lambda: background.spawn(run_timer(core, snapshot.id, deadline)),
    )


async def run_timer(core: TableCore, table_id: int, deadline: str) -> TableSnapshot | None:
    """The scheduler's job: the timed move, quietly skipped if it was overtaken."""
    try:
        return await timed_move(core, table_id, deadline)
    except Refusal as refusal:  # overtaken by a player's own move: nothing to do
        log.debug("table %s timer at %s: %s", table_id, deadline, refusal.key)
    except Exception:
        log.exception("table %s: timed move at %s failed", table_id, deadline)
    return None


async def timed_move(core: TableCore, table_id: int, deadline: str) -> TableSnapshot:
    """Make the table's timed move; refused unless `deadline` is still the table's own."""

    async def run(ctx: TableContext) -> Event:
        state, engine = ctx.state, ctx.state.engine
        if state.deadline != deadline or state.deadline > iso(ctx.now):
            raise Refusal("table.timer_stale")
        if state.paused:
            raise Refusal("table.paused")
        records: list[Record] = []
        if state.deadline_action == "timeout":
            for seat in engine.turn():
                move = engine.timeout_move(seat) if seat in engine.turn() else None
                if move is not None:  # marked, so the table can say a timer played it
                    records += ctx.play(move.model_copy(update={"auto": "timeout"}))
        elif (scheduled := engine.scheduled()) is not None:
            core.fresh_shoe(ctx)
            records += ctx.play(scheduled[1])
        elif state.deadline_action == "offers" and (end := engine.after_offers()):
            records += ctx.play(end)
        if not records:
            raise Refusal("table.timer_stale")
        return Played(records=tuple(records))

    return await core.mutate(table_id, None, run)


async def run_due(core: TableCore) -> None:
    """Make every timed move whose deadline has passed (tests call this with a clock)."""
    now = iso(core.clock())
    for snapshot in list(core.latest.values()):
        deadline = snapshot.state.deadline
        if deadline is not None and deadline <= now:
            await run_timer(core, snapshot.id, deadline)


def database_changed(core: TableCore) -> None:
    """The database link's listener: a timed move refused while the database was
    unreachable is made once it is back."""
    if not core.db.link.down:
        background.spawn(run_due(core), name="bondbot-timers-after-outage")


def stop_timers(core: TableCore) -> None:
    core.scheduler.cancel_all()
