"""The services the Discord layer calls: each owns its transactions and its refusals."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime

from bondbot.config import Settings
from bondbot.scheduler import Scheduler
from bondbot.services.gm import GmService
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.rolls import RollService
from bondbot.services.sheets import SheetService
from bondbot.storage.db import Database
from bondbot.tables.service import TableService


def utc_clock() -> datetime:
    return datetime.now(UTC)


class Services:
    """Everything the cogs use, built once per bot; tests inject the clock and randomness."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        *,
        clock: Callable[[], datetime] = utc_clock,
        rng: random.Random | None = None,
        seed_source: Callable[[], bytes] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng if rng is not None else random.SystemRandom()
        self.guilds = GuildSettingsService(db, settings)
        self.sheets = SheetService(db, clock)
        self.gm = GmService(db, self.guilds, clock)
        self.rolls = RollService(db, self.guilds, clock, self.rng)
        # One scheduler for everything that happens later: turn timers, auto-deals, the
        # redraw when a Hero Point window closes, a roll's button going.
        self.scheduler = Scheduler(clock)
        extra = {} if seed_source is None else {"seed_source": seed_source}
        self.tables = TableService(
            db,
            clock=clock,
            guild_settings=self.guilds.get,
            rng=rng,
            scheduler=self.scheduler,
            shards=settings.shards,
            **extra,
        )
