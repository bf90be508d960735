"""`bondbot copy-database FROM TO`: a group's data from one backend to the other.

SQLite to PostgreSQL (a bot outgrowing one process) and back (leaving a server). The
target is migrated to the same version as the source and must hold no data; everything
is written in one transaction, and before it commits every balance is checked against
the ledger (recomputed from the ledger rows alone) and every table's row count against
the source's, so a copy is whole or is not.

Into SQLite, the ledger is replayed in its order: the target's own triggers rebuild the
balances, as they were built the first time. Every account starts unlimited for the
replay (an NPC's bank may have been unlimited then limited again), and takes the source's
flag at the end, where the CHECK against overdraft holds again. Into PostgreSQL, a replay
would update a bank's row some thousands of times in one transaction, each update walking
the row's versions before it (quadratic): there the balance trigger is off while the
ledger is copied (ALTER TABLE … DISABLE TRIGGER, inside the transaction, on a database
nobody else uses yet), the balances are copied with their CHECK, and the check against
the ledger below proves them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bondbot.storage import ledger
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database, MigrationError
from bondbot.storage.writer import deadline_after

COPY_DEADLINE_S = 3600.0
CHUNK = 5000
# Every stored column of every table, in an order foreign keys accept (generated columns
# are the target's own). A migration that adds a column adds it here:
# tests/storage/test_copy_database.py compares every column of every row.
TABLES: dict[str, tuple[str, ...]] = {
    "guild_settings": [
        "guild_id",
        "gm_role_id",
        "locale",
        "currency",
        "spend_window_s",
        "turn_timer_s",
        "award_table",
    ],
    "characters": [
        "id",
        "guild_id",
        "name",
        "name_key",
        "kind",
        "owner_id",
        "revealed",
        "alive",
        "data",
        "created_at",
        "updated_at",
        "name_fold",
        "rank",
        "house_skills",
    ],
    "active_characters": ["guild_id", "user_id", "character_id"],
    "card_tables": [
        "id",
        "guild_id",
        "channel_id",
        "game",
        "status",
        "message_id",
        "state",
        "created_at",
        "updated_at",
        "closed_at",
        "version",
        "closed_drawn",
        "thread_id",
    ],
    "rolls": [
        "id",
        "guild_id",
        "character_id",
        "roller_id",
        "spender_id",
        "skill",
        "characteristic",
        "char_value",
        "level",
        "ease",
        "effective_ease",
        "primary_chance",
        "success_chance",
        "d100",
        "quality",
        "steps",
        "secret",
        "created_at",
        "updated_at",
    ],
    "ledger": [
        "id",
        "guild_id",
        "kind",
        "amount",
        "src",
        "dst",
        "reason",
        "table_id",
        "actor_id",
        "note",
        "created_at",
    ],
}
WITH_IDS = ("characters", "card_tables", "rolls", "ledger")


class CopyRefused(Exception):
    """The copy cannot be made (or did not check out); nothing was written to the target."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    rows: dict[str, int]  # rows copied, by table
    accounts: int  # balances checked against the ledger


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copy every row of `source` into `target` (both open; `source` migrated)."""
    versions = await source.schema_versions()
    if not versions:
        raise CopyRefused(f"copy-database: {source.path} holds no BondBot data")
    try:
        await target.migrate()
    except MigrationError as exc:
        raise CopyRefused(f"copy-database: {target.path}: {exc}") from None
    if await target.schema_versions() != versions:
        raise CopyRefused(
            f"copy-database: {source.path} is at schema {versions[-1]:04d}, this BondBot at"
            f" {(await target.schema_versions())[-1]:04d}: run `bondbot migrate` on it first"
        )
    async with source.read() as conn:
        rows = {table: await _rows(conn, table, columns) for table, columns in TABLES.items()}
        flags = list(
            await conn.execute_fetchall("SELECT account, kind, balance, unlimited FROM balances")
        )
    async with target.transaction(deadline=deadline_after(COPY_DEADLINE_S)) as conn:
        for table in (*TABLES, "balances"):
            found = await conn.execute_fetchall(f"SELECT 1 FROM {table} LIMIT 1")
            if list(found):
                raise CopyRefused(
                    f"copy-database: {target.path} is not empty (its {table} has rows):"
                    " name a new, empty database"
                )
        replay = target.dialect == "sqlite"
        if replay:
            await _insert(
                conn,
                "INSERT INTO balances (account, kind, unlimited) VALUES (?, ?, 1)",
                [(account, kind) for account, kind, _, _ in flags],
            )
        else:  # see the module's docstring
            await conn.execute("ALTER TABLE ledger DISABLE TRIGGER ledger_moves_balances")
        for table, columns in TABLES.items():
            marks = ", ".join("?" for _ in columns)
            await _insert(
                conn,
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                rows[table],
            )
        if replay:
            await _insert(
                conn,
                "UPDATE balances SET unlimited = ? WHERE account = ? AND kind = ?",
                [
                    (unlimited, account, kind)
                    for account, kind, _, unlimited in flags
                    if not unlimited
                ],
            )
        else:
            await conn.execute("ALTER TABLE ledger ENABLE TRIGGER ledger_moves_balances")
            await _insert(
                conn,
                "INSERT INTO balances (account, kind, balance, unlimited) VALUES (?, ?, ?, ?)",
                [tuple(flag) for flag in flags],
            )
        if target.dialect == "postgresql":  # identities continue after the copied ids
            for table in WITH_IDS:
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
        await _check(conn, source, target, rows, len(flags))
    return CopyReport({table: len(found) for table, found in rows.items()}, len(flags))


async def _rows(conn: Connection, table: str, columns: tuple[str, ...] | list[str]) -> list[Any]:
    order = "id" if table in WITH_IDS else ", ".join(columns[:2])
    found = await conn.execute_fetchall(
        f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}"
    )
    return [tuple(row) for row in found]


async def _insert(conn: Connection, sql: str, rows: list[Any]) -> None:
    for start in range(0, len(rows), CHUNK):
        await conn.executemany(sql, rows[start : start + CHUNK])


async def _check(
    conn: Connection, source: Database, target: Database, rows: dict[str, list[Any]], accounts: int
) -> None:
    """Before COMMIT: every balance equals its ledger, every table has the source's rows."""
    wrong = await ledger.verify_balances(conn)
    if wrong:
        sample = ", ".join(f"{account} {kind}" for account, kind in sorted(wrong)[:5])
        raise CopyRefused(
            f"copy-database: {len(wrong)} balances disagree with the ledger after the copy"
            f" ({sample}); nothing was written to {target.path}"
        )
    counts = {**{table: len(found) for table, found in rows.items()}, "balances": accounts}
    for table, expected in counts.items():
        found = await conn.execute_fetchall(f"SELECT COUNT(*) FROM {table}")
        if int(found[0][0]) != expected:
            raise CopyRefused(
                f"copy-database: {table} has {found[0][0]} rows after the copy, {source.path}"
                f" {expected}; nothing was written to {target.path}"
            )
