"""`TableService`: the table service's one face to the bot, the tests and the benches.

The service runs a game at a table in a channel, one transaction per action (see core.py).
Its parts are plain modules of functions, each taking the `TableCore` they share: seating,
playing, hero_points, contests, timers and lifecycle. Functions rather than mixins or
collaborator classes: what they share is exactly the core (the tables in memory, one
action at a time per table, the commit and the notifying), so each part reads as what it
does to a table, imports only what it needs, and none holds state of its own (where one
part uses another's, as closing cashes out like leaving, it imports that function; classes
would have to hold each other). The core imports none of them: the one it calls back
(timers' `arm`, after every change) is handed to it here, so no import runs in a circle.

Each method here is its module's function of the same name, with the same signature; its
docstring is there.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bondbot.i18n import Lang
from bondbot.rules.shoe import SEED_BYTES
from bondbot.scheduler import Scheduler
from bondbot.shards import Shards
from bondbot.storage import tables as stored
from bondbot.storage.db import Database
from bondbot.tables.service import contests, hero_points, lifecycle, playing, seating, timers
from bondbot.tables.service.core import Clock, Listener, TableCore
from bondbot.tables.service.snapshot import TableSnapshot
from bondbot.tables.state import Choice


class TableService:
    """Tables: opening, seats, moves, Hero Point spends, contests, timers and closing."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock,
        guild_settings: Callable[[int], Awaitable[Any]],
        rng: random.Random | None = None,
        seed_source: Callable[[], bytes] = lambda: secrets.token_bytes(SEED_BYTES),
        scheduler: Scheduler | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.core = TableCore(
            db,
            clock=clock,
            guild_settings=guild_settings,
            rng=rng or random.SystemRandom(),
            seed_source=seed_source,
            scheduler=scheduler or Scheduler(clock),
            shards=shards or Shards(),
            arm=timers.arm,
        )
        # A timed move refused while the database was unreachable is made once it is back.
        db.link.listeners.append(self._database_changed)

    def _database_changed(self) -> None:
        timers.database_changed(self.core)

    # -- what the service is made with (read-only: the core holds them) --------------------

    @property
    def db(self) -> Database:
        return self.core.db

    @property
    def clock(self) -> Clock:
        return self.core.clock

    @property
    def rng(self) -> random.Random:
        return self.core.rng

    @property
    def seed_source(self) -> Callable[[], bytes]:
        return self.core.seed_source

    @property
    def scheduler(self) -> Scheduler:
        return self.core.scheduler

    @property
    def shards(self) -> Shards:
        """The guilds whose tables are this process's; another process runs the others'."""
        return self.core.shards

    @property
    def listeners(self) -> list[Listener]:
        """Told of every table's new snapshot (append and remove to listen)."""
        return self.core.listeners

    # -- reading (core, lifecycle) ---------------------------------------------------------

    async def open_in_channel(self, channel_id: int) -> int:
        return await lifecycle.open_in_channel(self.core, channel_id)

    async def latest_in_channel(self, channel_id: int) -> int:
        return await lifecycle.latest_in_channel(self.core, channel_id)

    async def snapshot(self, table_id: int, *, fresh: bool = False) -> TableSnapshot:
        return await self.core.snapshot(table_id, fresh=fresh)

    async def open_tables(self) -> list[TableSnapshot]:
        return await self.core.open_tables()

    async def guild_tables(self, guild_id: int) -> list[stored.OpenTable]:
        return await lifecycle.guild_tables(self.core, guild_id)

    # -- opening and closing (lifecycle) ---------------------------------------------------

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        actor_id: int,
        game: str,
        npc_id: int,
        min_bet: int,
        max_bet: int,
        packs: int | None = None,
        bankroll: int | None = None,
        options: dict[str, Any] | None = None,
        other_npc_ids: Sequence[int] = (),
        thread: bool = True,
        language: Lang | None = None,
    ) -> TableSnapshot:
        return await lifecycle.open_table(
            self.core,
            guild_id=guild_id,
            channel_id=channel_id,
            actor_id=actor_id,
            game=game,
            npc_id=npc_id,
            min_bet=min_bet,
            max_bet=max_bet,
            packs=packs,
            bankroll=bankroll,
            options=options,
            other_npc_ids=other_npc_ids,
            thread=thread,
            language=language,
        )

    async def close(
        self, table_id: int, actor_id: int | None, *, why: str | None = None
    ) -> TableSnapshot:
        return await lifecycle.close(self.core, table_id, actor_id, why=why)

    async def close_orphan(self, table_id: int, why: str) -> TableSnapshot | None:
        return await lifecycle.close_orphan(self.core, table_id, why)

    async def resume(self) -> list[TableSnapshot]:
        return await lifecycle.resume(self.core)

    async def closed_drawn(self, table_id: int) -> None:
        await lifecycle.closed_drawn(self.core, table_id)

    # -- its message and thread (lifecycle) ------------------------------------------------

    def latest_thread(self, table_id: int) -> int | None:
        return lifecycle.latest_thread(self.core, table_id)

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        await lifecycle.set_thread(self.core, table_id, thread_id)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await lifecycle.set_message(self.core, table_id, message_id)

    async def forget_message(self, table_id: int, shown: int | None) -> TableSnapshot | None:
        return await lifecycle.forget_message(self.core, table_id, shown)

    # -- seats (seating) -------------------------------------------------------------------

    async def join(
        self, table_id: int, user_id: int, character_id: int, buy_in: int, *, by_gm: bool = False
    ) -> TableSnapshot:
        return await seating.join(self.core, table_id, user_id, character_id, buy_in, by_gm=by_gm)

    async def leave(
        self, table_id: int, user_id: int, *, character_id: int | None = None
    ) -> TableSnapshot:
        return await seating.leave(self.core, table_id, user_id, character_id=character_id)

    async def choose(self, table_id: int, user_id: int, choice: Choice) -> TableSnapshot:
        return await seating.choose(self.core, table_id, user_id, choice)

    # -- play (playing) --------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int | None,
        kind: str,
        *,
        amount: int | None = None,
        target: str | None = None,
        moves: int | None = None,
        hand: int | None = None,
        as_gm: bool = False,
        for_npc: bool = False,
    ) -> TableSnapshot:
        return await playing.act(
            self.core,
            table_id,
            user_id,
            kind,
            amount=amount,
            target=target,
            moves=moves,
            hand=hand,
            as_gm=as_gm,
            for_npc=for_npc,
        )

    async def pause(self, table_id: int, actor_id: int, paused: bool) -> TableSnapshot:
        return await playing.pause(self.core, table_id, actor_id, paused)

    async def set_npc_auto(self, table_id: int, actor_id: int, auto: bool) -> TableSnapshot:
        return await playing.set_npc_auto(self.core, table_id, actor_id, auto)

    async def set_npc_level(self, table_id: int, actor_id: int, level: int) -> TableSnapshot:
        return await playing.set_npc_level(self.core, table_id, actor_id, level)

    # -- Hero Points (hero_points) ---------------------------------------------------------

    async def spend(self, table_id: int, user_id: int, offer_id: int) -> TableSnapshot:
        return await hero_points.spend(self.core, table_id, user_id, offer_id)

    async def character_changed(self, character_id: int) -> None:
        await hero_points.character_changed(self.core, character_id)

    # -- the rulebook's contests (contests) ------------------------------------------------

    async def contest(
        self, table_id: int, user_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        return await contests.contest(self.core, table_id, user_id, stake, ease)

    async def contest_step(
        self, table_id: int, user_id: int, contest_id: int, seen: int
    ) -> TableSnapshot:
        return await contests.contest_step(self.core, table_id, user_id, contest_id, seen)

    async def contest_settle(self, table_id: int, user_id: int, contest_id: int) -> TableSnapshot:
        return await contests.contest_settle(self.core, table_id, user_id, contest_id)

    async def pot_start(
        self, table_id: int, actor_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        return await contests.pot_start(self.core, table_id, actor_id, stake, ease)

    async def pot_step(self, table_id: int, user_id: int, pot_id: int, seen: int) -> TableSnapshot:
        return await contests.pot_step(self.core, table_id, user_id, pot_id, seen)

    async def pot_settle(self, table_id: int, actor_id: int) -> TableSnapshot:
        return await contests.pot_settle(self.core, table_id, actor_id)

    # -- timers (timers) -------------------------------------------------------------------

    def arm(self, snapshot: TableSnapshot) -> None:
        timers.arm(self.core, snapshot)

    async def run_timer(self, table_id: int, deadline: str) -> TableSnapshot | None:
        return await timers.run_timer(self.core, table_id, deadline)

    async def timed_move(self, table_id: int, deadline: str) -> TableSnapshot:
        return await timers.timed_move(self.core, table_id, deadline)

    async def run_due(self) -> None:
        await timers.run_due(self.core)

    def stop_timers(self) -> None:
        timers.stop_timers(self.core)
