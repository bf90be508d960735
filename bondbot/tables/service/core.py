"""What every part of the table service shares: one action at a time per table, its commit.

Each open table's latest state is kept in memory (this service is the only writer of
tables; one action at a time per table). An action takes that state object from the
latest snapshot (which reads from its saved JSON from then on) and works on it and on a
copy of the table's money (`TableContext`), reading through the read-only connection: it
checks who may do what, plays the game's move through the engine (`TableContext.play`),
and returns; then the new state and the action's ledger rows go to the group-commit
writer as one job, and only once they are on disk does the new state become the table's
(`TableCore.mutate`). A refusal, a busy database or a crash changes nothing, and a restart
resumes every open table.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bondbot.errors import Refusal
from bondbot.games.contract import Event
from bondbot.scheduler import Scheduler
from bondbot.shards import Shards, shard_of
from bondbot.storage import tables as stored
from bondbot.storage.conn import Connection, JobConnection
from bondbot.storage.db import Database, answer_by
from bondbot.storage.link import Unreachable
from bondbot.storage.writer import Busy, WriteFailed, acquire_by
from bondbot.tables.context import TableContext, iso
from bondbot.tables.money import TableMoney
from bondbot.tables.service import shoes
from bondbot.tables.service.snapshot import TableSnapshot, snapshot_of
from bondbot.tables.state import TableState

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
Listener = Callable[[TableSnapshot], Awaitable[None]]
Action = Callable[[TableContext], Awaitable[Event]]
T = TypeVar("T")


class TableCore:
    """The tables in memory and the one way to change one (`mutate`), which the parts of
    the service (seating, playing, Hero Points, contests, timers, lifecycle) all go through.

    `arm` schedules a table's timed move after each change: handed in by the facade, so
    this module knows nothing of timers (which need the core to make their moves).
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock,
        guild_settings: Callable[[int], Awaitable[Any]],
        rng: random.Random,
        seed_source: Callable[[], bytes],
        scheduler: Scheduler,
        shards: Shards,
        arm: Callable[[TableCore, TableSnapshot], None],
    ) -> None:
        self.db = db
        # The guilds whose tables are this process's; another process runs the others'.
        self.shards = shards
        self.seed_source = seed_source
        self.clock = clock
        self.guild_settings = guild_settings
        self.rng = rng
        self.listeners: list[Listener] = []
        self.scheduler = scheduler
        self.latest: dict[int, TableSnapshot] = {}
        self.all_loaded = False  # every open table is in `latest`
        # One action at a time per table: an action takes the latest state to work on,
        # and two actions must never race to be the next one.
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: Counter[int] = Counter()  # per table: the actions holding or awaiting it
        self._arm = arm

    # -- reading ---------------------------------------------------------------------------

    async def snapshot(self, table_id: int, *, fresh: bool = False) -> TableSnapshot:
        """The table as it stands (from memory unless `fresh`: Hero Points may have moved
        elsewhere, through the GM or a roll)."""
        cached = self.latest.get(table_id)
        if cached is not None and not fresh:
            return cached
        async with self.db.read() as conn:
            row = await _row(conn, table_id, must_be_open=False)
            state = TableState.model_validate_json(row.state)
            money = await _money(conn, table_id, state)
        snapshot = snapshot_of(row, state, money, status=row.status)
        self.remember(snapshot)
        return snapshot

    def remember(self, snapshot: TableSnapshot) -> None:
        if snapshot.open and self.shards.owns(snapshot.guild_id):
            self.latest[snapshot.id] = snapshot
        else:
            self.latest.pop(snapshot.id, None)

    async def open_tables(self) -> list[TableSnapshot]:
        async with self.db.read() as conn:
            ids = await stored.open_ids(conn, **self.filter)
        found = [await self.snapshot(table_id) for table_id in ids]
        self.all_loaded = True
        return found

    async def load_all(self) -> None:
        """Every open table in memory (done at start by `resume`)."""
        if not self.all_loaded:
            await self.open_tables()

    def seating(self, character_id: int) -> list[TableSnapshot]:
        """The open tables where this PC sits (at most one), once `load_all` has run."""
        return [
            t for t in self.latest.values() if t.state.seat_of_character(character_id) is not None
        ]

    @property
    def filter(self) -> dict[str, Any]:
        """The storage filter keeping this process's guilds' tables."""
        if self.shards.everything:
            return {}
        return {"shard_count": self.shards.count, "shard_ids": self.shards.ids}

    def refuse_foreign(self, guild_id: int, table_id: int | None = None) -> None:
        """A table of a guild on another process's shard is never touched here: two
        processes acting on one table would race for it (its version check would refuse
        one, but its timers and messages would run twice). Discord does not send such a
        guild's events here; if one comes anyway, the shard settings disagree."""
        if self.shards.owns(guild_id):
            return
        assert self.shards.count is not None
        log.warning(
            "refused: table %s of guild %s is on shard %s, not one of this process's %s;"
            " check that every process has the same shard_count",
            "(new)" if table_id is None else table_id,
            guild_id,
            shard_of(guild_id, self.shards.count),
            self.shards.describe(),
        )
        raise Refusal("table.other_process")

    # -- changing --------------------------------------------------------------------------

    def fresh_shoe(self, ctx: TableContext) -> None:
        """Between hands, a finished shoe is replaced before any move (see shoes.py)."""
        shoes.fresh_shoe(ctx, self.seed_source)

    async def mutate(
        self, table_id: int, actor_id: int | None, run: Action, *, quiet: bool = False
    ) -> TableSnapshot:
        """Run an action on the table's state (taken from its latest snapshot), then commit
        what it wrote in one writer job: the ledger rows, the new state (over the version
        it started from) and any other write it asked for. Only once that is on disk does
        the new state become the table's, so a refused or failed action leaves the table
        as it was (its snapshot parses the saved state again)."""
        async with self.turn(table_id):
            now = self.clock()
            cached = self.latest.get(table_id)
            if cached is None:  # read once; then the table lives in memory
                async with self.db.read() as conn:
                    row = await _row(conn, table_id)
                    state = TableState.model_validate_json(row.state)
                    money = await _money(conn, table_id, state)
            else:
                row = stored.TableRow(
                    cached.id,
                    cached.guild_id,
                    cached.channel_id,
                    cached.message_id,
                    "open",
                    cached.saved,
                    cached.version,
                    cached.thread_id,
                )
                state = cached.take_state()
                money = cached.money.copy()
            self.refuse_foreign(row.guild_id, table_id)
            settings = await self.guild_settings(row.guild_id)
            ctx = TableContext(
                db=self.db,
                table_id=table_id,
                guild_id=row.guild_id,
                state=state,
                money=money,
                now=now,
                actor_id=actor_id,
                spend_window=timedelta(seconds=settings.spend_window_s),
                turn_timer=timedelta(seconds=settings.turn_timer_s),
                rng=self.rng,
            )
            ctx.fresh_shoe = self.fresh_shoe
            money.hand = state.hand_no  # until a move says otherwise (TableContext._apply)
            event = await run(ctx)
            saved = state.model_dump_json()

            def job(sql: JobConnection) -> None:
                ctx.money.write(sql, guild_id=row.guild_id, actor_id=actor_id, now=iso(now))
                for write in ctx.writes:
                    write(sql)
                stored.save(
                    sql, table_id, saved, version=row.version, now=iso(now), closed=ctx.closed
                )

            try:
                await self.commit(job)
            except Unreachable:  # nothing written: the table stands as it was
                raise
            except Refusal:  # the database disagreed (a balance, the version): read it again
                self.latest.pop(table_id, None)
                raise
            status = "closed" if ctx.closed else "open"
            row = replace(row, state=saved, version=row.version + 1)
            snapshot = snapshot_of(row, state, ctx.money, status=status, event=event)
            if cached is not None:
                snapshot.message_id = cached.message_id
            self.remember(snapshot)
        await self.notify(snapshot, tell=not quiet)  # quiet: nowhere to draw it
        return snapshot

    @asynccontextmanager
    async def turn(self, table_id: int, *, waits: bool = False) -> AsyncIterator[None]:
        """The table to this action alone; refused as busy if the others before it hold it
        past the time its interaction must be answered by (`answer_by`), unless it `waits`
        as long as it takes (a redraw, answering no one)."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        due = None if waits else answer_by.get()
        ahead = self._queued[table_id]
        self._queued[table_id] = ahead + 1
        try:
            if not ahead:  # nobody holds it or waits for it: taken at once, no timer
                await lock.acquire()
            elif not await acquire_by(lock, due):
                raise Refusal("errors.busy")
            try:
                yield
            finally:
                lock.release()
        finally:
            self._queued[table_id] -= 1

    async def commit(self, job: Callable[[JobConnection], T]) -> T:
        """A writer job, answered once on disk; a busy or failed database is a refusal."""
        try:
            return await self.db.submit(job)
        except Busy:
            raise Refusal("errors.busy") from None
        except WriteFailed:
            log.exception("a table write failed")
            raise Refusal("errors.not_saved") from None

    async def notify(self, snapshot: TableSnapshot, *, tell: bool = True) -> None:
        """The snapshot becomes the table's, its timer is armed, and (unless not to `tell`)
        every listener hears of it; a listener's failure is logged, never the action's."""
        self.remember(snapshot)
        self._arm(self, snapshot)
        for listener in self.listeners if tell else ():
            try:
                await listener(snapshot)
            except Exception:
                log.exception("table %s listener failed", snapshot.id)


async def _row(conn: Connection, table_id: int, *, must_be_open: bool = True) -> stored.TableRow:
    row = await stored.load(conn, table_id)
    if row is None or (must_be_open and row.status != "open"):
        raise Refusal("table.closed")
    return row


async def _money(conn: Connection, table_id: int, state: TableState) -> TableMoney:
    return await TableMoney.load(
        conn, table_id, state.npc_id, [seat.character_id for seat in state.seats]
    )
