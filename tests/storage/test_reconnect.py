"""The connections lost under a `Database` (storage.link), on both backends: replaced by
themselves, the requests of the outage refused as `Unreachable` and never applied later.

A lost connection is made here without stopping anything: on PostgreSQL the server ends
the bot's own backends (`pg_terminate_backend`, what a restart does to them); on SQLite
the connections are closed under aiosqlite (what an I/O error leaves)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from bondbot.storage import link
from bondbot.storage.conn import Unreachable
from bondbot.storage.db import Database
from bondbot.storage.writer import deadline_after


@pytest.fixture
async def scratch(database_target: Path | str) -> Any:
    db = await Database.open(database_target)
    try:
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE scratch (x INTEGER NOT NULL)")
        yield db
    finally:
        await db.close()


async def cut(db: Database) -> None:
    """End both connections from outside, as a server restart or an I/O error does."""
    writer = db.writer
    if db.dialect == "postgresql":
        import psycopg

        pids = [
            (await writer.connection.execute_fetchall("SELECT pg_backend_pid()"))[0][0],
            (await writer.reader.fetchall("SELECT pg_backend_pid()"))[0][0],
        ]
        with psycopg.connect(db.url, autocommit=True) as admin:  # type: ignore[attr-defined]
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        return
    for conn in (writer.reader.connection, writer.connection):
        await conn._execute(conn._conn.close)


def insert(x: int) -> Any:
    return lambda conn: conn.execute("INSERT INTO scratch (x) VALUES (?)", (x,))


async def xs(db: Database) -> list[int]:
    async with db.read() as conn:
        return [row[0] for row in await conn.execute_fetchall("SELECT x FROM scratch ORDER BY x")]


def said(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    return [
        (r.levelname, r.getMessage().split(" (")[0].split(" after")[0])
        for r in caplog.records
        if r.name.startswith("bondbot") and r.levelno >= logging.INFO
    ]


async def test_connections_cut_between_requests_are_replaced_at_the_next_one(
    scratch: Database, caplog: pytest.LogCaptureFixture
) -> None:
    db = scratch
    await db.submit(insert(1))
    with caplog.at_level(logging.INFO, logger="bondbot"):
        await cut(db)
        await db.submit(insert(2))  # its BEGIN found the connection dead: run on a new one
        assert await xs(db) == [1, 2]
        await cut(db)
        assert await xs(db) == [1, 2]  # a read too
        async with db.transaction() as conn:  # and a transaction
            await conn.execute("INSERT INTO scratch (x) VALUES (3)")
    assert await xs(db) == [1, 2, 3]
    name = str(db.path)
    assert said(caplog) == [
        ("WARNING", f"database {name} unreachable"),
        ("INFO", f"database {name} reachable again"),
        ("WARNING", f"database {name} unreachable"),
        ("INFO", f"database {name} reachable again"),
    ]
    assert not any(r.exc_info for r in caplog.records)


async def test_a_batch_whose_connection_is_lost_midway_is_refused_and_never_lands(
    scratch: Database,
) -> None:
    db = scratch
    postgres = db.dialect == "postgresql"

    def then_lost(conn: Any) -> None:
        conn.execute("INSERT INTO scratch (x) VALUES (7)")
        if postgres:
            conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
        else:
            conn.close()
        conn.execute("INSERT INTO scratch (x) VALUES (8)")

    with pytest.raises(Unreachable) as refused:
        await db.submit(then_lost, deadline=deadline_after(2.0))
    assert refused.value.key == "errors.unreachable"
    assert "sqlite" not in str(refused.value.reason).lower() or not postgres
    assert await xs(db) == []  # neither then, nor once the connection is back
    await db.submit(insert(9))
    assert await xs(db) == [9]


async def test_while_it_cannot_reconnect_every_request_is_refused_at_once(
    tmp_path: Path,
) -> None:
    """SQLite: the file gone, the connections closed: refused, and it comes back with the
    file (never as a new, empty database in its place)."""
    path = tmp_path / "gone.sqlite3"
    db = await Database.open(path)
    try:
        await db.migrate()
        async with db.transaction() as conn:
            await conn.execute("CREATE TABLE scratch (x INTEGER NOT NULL)")
        await db.submit(insert(1))
        await cut(db)
        path.rename(tmp_path / "aside.sqlite3")
        for _ in range(3):
            with pytest.raises(Unreachable):
                await db.submit(insert(2), deadline=deadline_after(0.5))
            with pytest.raises(Unreachable):
                await xs(db)
        assert db.link.down and not path.exists()  # no empty database made in its place
        (tmp_path / "aside.sqlite3").rename(path)
        for _ in range(100):  # the bot's own retries (a request also asks for one)
            if await db.link.available(deadline_after(1.0)):
                break
            await asyncio.sleep(0.1)
        await db.submit(insert(3))
        assert await xs(db) == [1, 3]
    finally:
        await db.close()


async def test_a_watched_database_notices_an_outage_without_any_request(
    scratch: Database, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A running bot watches its database: the outage shows (log, health file) and ends
    though nobody clicked."""
    monkeypatch.setattr(link, "PROBE_S", 0.05)
    db = scratch
    went: list[bool] = []
    db.link.listeners.append(lambda: went.append(db.link.down))
    with caplog.at_level(logging.INFO, logger="bondbot"):
        db.watch()
        await cut(db)
        for _ in range(200):
            if went == [True, False]:
                break
            await asyncio.sleep(0.05)
    assert went == [True, False]
    assert [level for level, _ in said(caplog)] == ["WARNING", "INFO"]
    await db.submit(insert(1))
    assert await xs(db) == [1]
