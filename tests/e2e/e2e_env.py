"""End-to-end harness: the real BondBot, on a real SQLite file, against the fake Discord.

`bot_env.run()` starts a fresh bot object (as a restart would) on the same database;
`bot_env.clock` is the bot's clock, so tests move time without sleeping.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fakediscord.fixtures import DefaultWorld, run_bot

from bondbot.bot.client import BondBot
from bondbot.config import Settings
from bondbot.local import FakeDiscord


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime.now(UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class BotEnv:
    fake: FakeDiscord
    world: DefaultWorld
    database: Path | str  # a SQLite file or a PostgreSQL URL
    clock: Clock = field(default_factory=Clock)
    seeds: list[bytes] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    message_interval: float = 0.05  # the least time between two edits of a table message

    @property
    def settings(self) -> Settings:
        return Settings(
            token="test-token",
            database=self.database,
            default_locale="en",
            dev_guild_id=self.world.guild.id,
            discord_api_base=self.fake.api_base,
        )

    def _seed(self) -> bytes:
        return self.seeds.pop(0) if self.seeds else random.randbytes(32)

    @contextlib.asynccontextmanager
    async def run(self) -> AsyncIterator[BondBot]:
        bot = BondBot(
            self.settings,
            guild_ready_timeout=0.05,
            message_interval=self.message_interval,
            freeze_gc=False,
            clock=self.clock,
            rng=self.rng,
            seed_source=self._seed,
        )
        async with run_bot(bot, self.fake) as running:
            yield running
