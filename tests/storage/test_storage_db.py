from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import aiosqlite
import pytest

from bondbot.storage.conn import Connection
from bondbot.storage.db import (
    Database,
    MigrationError,
    load_migrations,
    split_statements,
)
from bondbot.storage.writer import Busy, deadline_after

EXPECTED_TABLES = {
    "schema_version",
    "guild_settings",
    "characters",
    "active_characters",
    "ledger",
    "balances",
}


async def _tables(db: Database) -> set[str]:
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
    return {row[0] for row in rows}


async def test_migrate_from_empty_then_idempotent(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "new.sqlite3")
    try:
        known = [m.version for m in load_migrations()]
        assert known[0] == 1 and known == sorted(known)
        assert await db.migrate() == known
        assert await db.schema_versions() == known
        assert await _tables(db) >= EXPECTED_TABLES
        assert await db.migrate() == []
        assert await db.schema_versions() == known
    finally:
        await db.close()
    reopened = await Database.open(tmp_path / "new.sqlite3")
    try:
        assert await reopened.migrate() == []
    finally:
        await reopened.close()


async def _pragma(conn: Connection, name: str) -> object:
    rows = list(await conn.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def test_wal_foreign_keys_and_busy_timeout(db: Database) -> None:
    if db.dialect == "sqlite":
        async with db.transaction() as conn:  # the write connection
            mode = await _pragma(conn, "journal_mode")
            fks = await _pragma(conn, "foreign_keys")
            timeout = await _pragma(conn, "busy_timeout")
        assert (mode, fks) == ("wal", 1)
        assert isinstance(timeout, int) and timeout > 0
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO active_characters (guild_id, user_id, character_id) VALUES (1, 2, 999)"
            )


def _write(folder: Path, name: str, sql: str) -> None:
    (folder / name).write_text(sql, encoding="utf-8")


async def test_failed_migration_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    _write(folder, "0001_good.sql", "CREATE TABLE a (x INTEGER);")
    _write(folder, "0002_bad.sql", "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);")
    db = await Database.open(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(sqlite3.OperationalError, match="nowhere"):
            await db.migrate(folder)
        assert await db.schema_versions() == [1]
        tables = await _tables(db)
        assert "a" in tables and "b" not in tables
        _write(folder, "0002_bad.sql", "CREATE TABLE b (x INTEGER);")
        assert await db.migrate(folder) == [2]
    finally:
        await db.close()


async def test_database_newer_than_code_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    _write(folder, "0001_a.sql", "CREATE TABLE a (x INTEGER);")
    _write(folder, "0002_b.sql", "CREATE TABLE b (x INTEGER);")
    db = await Database.open(tmp_path / "m.sqlite3")
    try:
        await db.migrate(folder)
        (folder / "0002_b.sql").unlink()
        with pytest.raises(MigrationError, match=r"\[2\]"):
            await db.migrate(folder)
    finally:
        await db.close()


def test_duplicate_migration_numbers_are_refused(tmp_path: Path) -> None:
    _write(tmp_path, "0001_a.sql", "SELECT 1;")
    _write(tmp_path, "0001_b.sql", "SELECT 1;")
    with pytest.raises(MigrationError):
        load_migrations(tmp_path)


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (x TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no'); END;
    INSERT INTO t VALUES ('last')
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    assert statements[2] == "INSERT INTO t VALUES ('last')"


async def test_transaction_commits_or_rolls_back(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (1)")
    with pytest.raises(RuntimeError, match="boom"):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (2)")
            raise RuntimeError("boom")
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT guild_id FROM guild_settings")
    assert [row[0] for row in rows] == [1]


async def test_nested_transaction_is_an_error_not_a_deadlock(db: Database) -> None:
    async with db.transaction():
        with pytest.raises(RuntimeError, match="nested"):
            async with db.transaction():
                pass


async def test_read_refuses_writes(db: Database) -> None:
    with pytest.raises(sqlite3.Error, match=r"readonly|read-only"):
        async with db.read() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (1)")
    async with db.read() as conn:
        assert list(await conn.execute_fetchall("SELECT * FROM guild_settings")) == []


async def test_concurrent_coroutines_never_interleave(db: Database) -> None:
    """A read waiting on a failing transaction must not see its uncommitted row."""
    inside = asyncio.Event()

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (7)")
                inside.set()
                await asyncio.sleep(0.05)
                raise RuntimeError("abandon")

    async def reader() -> int:
        await inside.wait()
        async with db.read() as conn:
            return len(list(await conn.execute_fetchall("SELECT * FROM guild_settings")))

    _, seen = await asyncio.gather(writer(), reader())
    assert seen == 0


async def test_read_modify_write_from_many_tasks_loses_nothing(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id, spend_window_s) VALUES (1, 1)")

    async def bump() -> None:
        async with db.transaction() as conn:
            rows = await conn.execute_fetchall(
                "SELECT spend_window_s FROM guild_settings WHERE guild_id = 1"
            )
            value = next(iter(rows))[0]
            await asyncio.sleep(0)  # invite another task in between read and write
            await conn.execute("UPDATE guild_settings SET spend_window_s = ?", (value + 1,))

    await asyncio.gather(*(bump() for _ in range(100)))
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT spend_window_s FROM guild_settings")
    assert next(iter(rows))[0] == 101


async def test_cancelled_transaction_rolls_back_and_frees_the_lock(db: Database) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (3)")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (4)")
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT guild_id FROM guild_settings")
    assert [row[0] for row in rows] == [4]


@pytest.mark.sqlite_only
async def test_backup_of_a_live_database_is_readable(db: Database, tmp_path: Path) -> None:
    stop = asyncio.Event()

    async def keep_writing() -> None:
        guild = 1000
        while not stop.is_set():
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (?)", (guild,))
            guild += 1
            await asyncio.sleep(0)

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(0.02)
    target = tmp_path / "backups" / "copy.sqlite3"
    target.parent.mkdir()
    await db.backup(target)
    stop.set()
    await writer

    assert not (target.parent / "copy.sqlite3.partial").exists()
    copy = await aiosqlite.connect(target)
    try:
        assert await _pragma(copy, "integrity_check") == "ok"
        assert await _pragma(copy, "journal_mode") == "delete"
        rows = await copy.execute_fetchall("SELECT COUNT(*) FROM guild_settings")
        copied = next(iter(rows))[0]
        versions = await copy.execute_fetchall("SELECT version FROM schema_version")
    finally:
        await copy.close()
    assert copied > 0
    assert [row[0] for row in versions] == await db.schema_versions()
    reopened = await Database.open(target)
    try:
        assert await reopened.migrate() == []
    finally:
        await reopened.close()


@pytest.mark.sqlite_only
async def test_backup_refuses_to_overwrite_its_source(db: Database) -> None:
    with pytest.raises(ValueError, match="cannot replace"):
        await db.backup(db.path)
    async with db.read() as conn:
        assert await _pragma(conn, "integrity_check") == "ok"


async def test_a_transaction_waiting_for_the_connection_is_refused_at_its_deadline(
    db: Database,
) -> None:
    """The writer's connection held past a transaction's deadline (a batch waiting for
    another process's lock, a backup): refused busy then, not whenever it comes free."""
    async with db.writer.exclusive():
        start = time.monotonic()
        with pytest.raises(Busy):
            async with db.transaction(deadline=deadline_after(0.2)) as conn:
                await conn.execute("INSERT INTO guild_settings (guild_id) VALUES (5)")
        waited = time.monotonic() - start
    assert waited >= 0.19  # at its own deadline, the connection still held (not a hang)
    async with db.read() as conn:
        assert await conn.execute_fetchall("SELECT guild_id FROM guild_settings") == []
