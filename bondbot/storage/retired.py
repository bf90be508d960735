"""Deleted characters: kept (alive = 0) so the ledger still names them, and found again by
name so the GM can open the ledger of a character who is gone.

A deleted name is free, so several deleted characters (and a living one) can share it;
these functions list the deleted ones, most recently deleted first.
"""

from __future__ import annotations

from bondbot.storage.characters import Character, get_character, name_key
from bondbot.storage.conn import Connection

LISTED = 200  # the most recent deletions autocomplete looks through


async def _load(conn: Connection, rows: list[tuple[int]]) -> list[Character]:
    return [await get_character(conn, row[0], include_dead=True) for row in rows]


async def deleted_named(conn: Connection, guild_id: int, name: str) -> list[Character]:
    """The guild's deleted characters with this name (ignoring case), newest deletion first."""
    rows = await conn.execute_fetchall(
        "SELECT id FROM characters WHERE guild_id = ? AND name_key = ? AND alive = 0"
        " ORDER BY updated_at DESC, id DESC",
        (guild_id, name_key(name)),
    )
    return await _load(conn, list(rows))


async def deleted_characters(conn: Connection, guild_id: int) -> list[Character]:
    """The guild's most recently deleted characters, newest deletion first."""
    rows = await conn.execute_fetchall(
        "SELECT id FROM characters WHERE guild_id = ? AND alive = 0"
        " ORDER BY updated_at DESC, id DESC LIMIT ?",
        (guild_id, LISTED),
    )
    return await _load(conn, list(rows))
