"""Card tables in SQLite: one row per table, its whole state one JSON document.

The table service is the only writer of this table; it keeps each open table's latest
state in memory and writes it here in the same commit as the ledger rows of the action
that changed it: the writes are writer jobs (`storage.writer`, on the writer's thread),
the reads run on the read-only connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from bondbot.errors import Refusal
from bondbot.storage.conn import Connection


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    state: str  # the TableState as JSON
    version: int  # how many times the state was saved
    thread_id: int | None = None  # its thread (0: not allowed to start one)


class TableChanged(Refusal):
    """The table was saved by someone else since this action read it; nothing was written."""

    def __init__(self) -> None:
        super().__init__("table.changed_elsewhere")


def insert(
    conn: sqlite3.Connection, *, guild_id: int, channel_id: int, game: str, state: str, now: str
) -> int:
    """A new open table (in a writer job); refused when the channel already has one."""
    try:
        cursor = conn.execute(
            "INSERT INTO card_tables (guild_id, channel_id, game, status, state, created_at,"
            " updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)",
            (guild_id, channel_id, game, state, now, now),
        )
    except sqlite3.IntegrityError:
        raise Refusal("table.already_open") from None
    return int(cursor.lastrowid or 0)


async def load(conn: Connection, table_id: int) -> TableRow | None:
    cursor = await conn.execute(
        "SELECT id, guild_id, channel_id, message_id, status, state, version, thread_id"
        " FROM card_tables"
        " WHERE id = ?",
        (table_id,),
    )
    row = await cursor.fetchone()
    return None if row is None else TableRow(*row)


def save(
    conn: sqlite3.Connection,
    table_id: int,
    state: str,
    *,
    version: int,
    now: str,
    closed: bool = False,
) -> None:
    """Write the state over `version` (in a writer job; its next version is `version + 1`)."""
    cursor = conn.execute(
        "UPDATE card_tables SET state = ?, updated_at = ?, version = version + 1,"
        " status = ?, closed_at = ? WHERE id = ? AND version = ? AND status = 'open'",
        (state, now, "closed" if closed else "open", now if closed else None, table_id, version),
    )
    if cursor.rowcount != 1:
        raise TableChanged


def set_thread(conn: sqlite3.Connection, table_id: int, thread_id: int) -> None:
    conn.execute("UPDATE card_tables SET thread_id = ? WHERE id = ?", (thread_id, table_id))


def set_message(conn: sqlite3.Connection, table_id: int, message_id: int | None) -> None:
    conn.execute("UPDATE card_tables SET message_id = ? WHERE id = ?", (message_id, table_id))


async def with_messages(
    conn: Connection, guild_id: int, message_ids: set[int]
) -> list[tuple[int, int]]:
    """The guild's tables (open or closed) whose message is one of `message_ids`, as
    (table, message): a moderator deleted it (read through the guild's index)."""
    if not message_ids:
        return []
    marks = ", ".join("?" for _ in message_ids)
    cursor = await conn.execute(
        f"SELECT id, message_id FROM card_tables WHERE guild_id = ? AND message_id IN ({marks})",
        (guild_id, *sorted(message_ids)),
    )
    return [(int(row[0]), int(row[1])) for row in await cursor.fetchall()]


async def with_thread(conn: Connection, guild_id: int, thread_id: int) -> list[int]:
    """The guild's tables playing in this thread (open, or closed with their summary
    still to post)."""
    cursor = await conn.execute(
        "SELECT id FROM card_tables WHERE guild_id = ? AND thread_id = ?", (guild_id, thread_id)
    )
    return [int(row[0]) for row in await cursor.fetchall()]


async def open_in_channel(conn: Connection, channel_id: int) -> int | None:
    cursor = await conn.execute(
        "SELECT id FROM card_tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
    )
    row = await cursor.fetchone()
    return None if row is None else int(row[0])


def _of_shards(shard_count: int | None, shard_ids: Sequence[int] | None) -> tuple[str, list[int]]:
    """The condition (and its values) keeping the tables of these shards' guilds: Discord's
    `(guild_id >> 22) % shard_count` (bondbot/shards.py); none when every shard is here."""
    if shard_count is None or shard_ids is None:
        return "", []
    marks = ", ".join("?" for _ in shard_ids)
    return f" AND (guild_id >> 22) % ? IN ({marks})", [shard_count, *shard_ids]


async def latest_in_channel(conn: Connection, channel_id: int) -> int | None:
    """The channel's open table, or else the last one closed there (None: never one)."""
    cursor = await conn.execute(
        "SELECT id FROM card_tables WHERE channel_id = ?"
        " ORDER BY status = 'open' DESC, id DESC LIMIT 1",
        (channel_id,),
    )
    row = await cursor.fetchone()
    return None if row is None else int(row[0])


async def closed_undrawn(
    conn: Connection, *, shard_count: int | None = None, shard_ids: Sequence[int] | None = None
) -> list[int]:
    """Closed tables whose message may still show them open (see `mark_drawn`), of the
    guilds of these shards (all without a filter)."""
    where, values = _of_shards(shard_count, shard_ids)
    cursor = await conn.execute(
        "SELECT id FROM card_tables WHERE status = 'closed' AND closed_drawn = 0" + where, values
    )
    return [int(row[0]) for row in await cursor.fetchall()]


def mark_drawn(conn: sqlite3.Connection, table_id: int) -> None:
    """The closed table's message now shows it closed (in a writer job)."""
    conn.execute("UPDATE card_tables SET closed_drawn = 1 WHERE id = ?", (table_id,))


async def open_ids(
    conn: Connection, *, shard_count: int | None = None, shard_ids: Sequence[int] | None = None
) -> list[int]:
    """The open tables of the guilds of these shards (all without a filter)."""
    where, values = _of_shards(shard_count, shard_ids)
    cursor = await conn.execute("SELECT id FROM card_tables WHERE status = 'open'" + where, values)
    return [int(row[0]) for row in await cursor.fetchall()]


@dataclass(frozen=True, slots=True)
class OpenTable:
    """An open table as `/gm tables` lists it: where it is and when it last changed."""

    id: int
    channel_id: int
    game: str
    updated_at: str  # its last saved action (ISO)


async def open_of_guild(conn: Connection, guild_id: int) -> list[OpenTable]:
    """The guild's open tables, wherever they are, oldest first (index card_tables_by_guild)."""
    cursor = await conn.execute(
        "SELECT id, channel_id, game, updated_at FROM card_tables"
        " WHERE guild_id = ? AND status = 'open' ORDER BY id",
        (guild_id,),
    )
    return [OpenTable(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in await cursor.fetchall()]
