"""Per-server settings, cached: every interaction needs the language and the GM role."""

from __future__ import annotations

from typing import Any

from bondbot.config import Settings
from bondbot.storage import settings as store
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database
from bondbot.storage.settings import GuildSettings


class GuildSettingsService:
    def __init__(self, db: Database, config: Settings) -> None:
        self.db = db
        self._defaults = {
            "default_locale": config.default_locale,
            "default_currency": config.currency,
        }
        self._cache: dict[int, GuildSettings] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        cached = self._cache.get(guild_id)
        if cached is None:
            async with self.db.read() as conn:
                cached = await store.get_settings(conn, guild_id, **self._defaults)
            self._cache[guild_id] = cached
        return cached

    async def read(self, conn: Connection, guild_id: int) -> GuildSettings:
        """Inside a caller's transaction (no second lock taken)."""
        cached = self._cache.get(guild_id)
        if cached is None:
            cached = await store.get_settings(conn, guild_id, **self._defaults)
        return cached

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        async with self.db.transaction() as conn:
            updated = await store.update_settings(conn, guild_id, **self._defaults, **changes)
        self._cache[guild_id] = updated
        return updated
