"""SQLite's two connections for the writer (`storage.writer`): the write connection
(WAL, foreign keys on, a busy timeout of short slices, so a lock held by another process
is waited for in steps between which deadlines are checked) and the read-only `Reader`, each
on its own aiosqlite thread; and `connect`, which leaves no thread behind a failed open."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")

BUSY_SLICE_MS = 50  # one wait for another process's lock; the loop re-checks deadlines after


async def connect(database: str, **options: Any) -> aiosqlite.Connection:
    """`aiosqlite.connect`, except that a connection that fails to open has ended its thread
    when the error is raised.

    On that path aiosqlite queues its thread's stop without waiting for it; the thread then
    answers an event loop that `asyncio.run` has already closed, and prints a 24-line
    "Event loop is closed" traceback after the operator's one-line message.
    """
    conn = aiosqlite.connect(database, **options)
    try:
        return await conn
    except BaseException:
        # aiosqlite ≥ 0.22 runs its worker in `_thread`; older ones are the thread.
        worker = conn if isinstance(conn, threading.Thread) else conn._thread
        if worker.ident is not None:
            await asyncio.to_thread(worker.join, 5)
        raise


async def open_sqlite(
    path: str | os.PathLike[str],
    *,
    synchronous: str = "FULL",
    create: bool = True,
    functions: dict[str, tuple[int, Callable[..., Any]]] | None = None,
    rows: bool = False,
) -> tuple[aiosqlite.Connection, Reader]:
    """The write connection (WAL, foreign keys on, a short busy timeout) and the read-only
    one. Unless `create`, a missing file is an error rather than a new, empty database (a
    reconnection must never start an empty one where the file went away)."""
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError("synchronous must be NORMAL or FULL")
    if create:
        conn = await connect(os.fspath(path), isolation_level=None)
    else:
        uri = f"{Path(path).resolve().as_uri()}?mode=rw"
        conn = await connect(uri, uri=True, isolation_level=None)
    try:
        if rows:
            conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_SLICE_MS}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {synchronous}")
        await conn.execute("PRAGMA foreign_keys = ON")
        for name, (arity, function) in (functions or {}).items():
            await conn.create_function(name, arity, function, deterministic=True)
        reader = await Reader.open(path)
        if rows:
            reader.connection.row_factory = sqlite3.Row
    except BaseException:
        await conn.close()
        raise
    return conn, reader


class Reader:
    """A read-only connection (its own aiosqlite thread) for pages and lists: in WAL mode
    it reads the last commit and never waits for, nor holds up, the writer."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._conn

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Reader:
        uri = f"{Path(path).resolve().as_uri()}?mode=ro"
        conn = await connect(uri, uri=True, isolation_level=None)
        await conn.execute("PRAGMA query_only = ON")
        return cls(conn)

    async def fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def run(self, read: Callable[[sqlite3.Connection], T]) -> T:
        """Run `read` on the reader's thread: several SELECTs in one hop, one snapshot."""
        conn = self._conn

        def snapshot() -> T:
            raw = conn._conn
            raw.execute("BEGIN")
            try:
                return read(raw)
            finally:
                raw.execute("ROLLBACK")  # always ended: an open read would pin the WAL

        return await conn._execute(snapshot)

    async def close(self) -> None:
        await self._conn.close()
