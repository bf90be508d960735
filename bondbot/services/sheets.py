"""Character sheets as the commands use them: lookups by name, the active character."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bondbot.errors import Refusal
from bondbot.storage import characters
from bondbot.storage.db import Database


class SheetService:
    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self.db = db
        self.clock = clock

    def now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    async def active(self, guild_id: int, user_id: int) -> int | None:
        """The id of the user's active character in this server, if he chose one."""
        async with self.db.read() as conn:
            character = await characters.get_active_character(conn, guild_id, user_id)
        return None if character is None else character.id

    async def find_id(self, guild_id: int, name: str, *, kind: str | None = None) -> int:
        """A living character's id by name (case-insensitive); refuses unknown names."""
        async with self.db.read() as conn:
            character = await characters.find_character(conn, guild_id, name)
        if character is None or (kind is not None and character.kind != kind):
            raise Refusal("characters.not_found", name=name)
        return character.id
