"""An asyncio face on sqlite3 that runs each statement inline, on the event loop.

Why not a worker thread (aiosqlite): a table action runs some ten statements inside one
transaction while holding the database lock. A statement takes tens of microseconds in
SQLite; a hop to a worker thread and back costs several times that, and when the bot is
busy the hop back waits behind every other ready task — with the lock still held. The
load benchmark (bench/load.py) measured the bot three times faster inline. Writes are
cheap because the database runs in WAL mode with synchronous=NORMAL (no fsync per
commit); the one long operation, the online backup, runs in a thread.

The API is the small part of aiosqlite's that the storage layer uses, so callers read
as ordinary async database code.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

Row = sqlite3.Row
Params = Iterable[Any] | dict[str, Any]


class Cursor:
    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()


class Connection:
    """One sqlite3 connection in autocommit mode: transactions are explicit BEGIN/COMMIT."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    @property
    def row_factory(self) -> Any:
        return self._conn.row_factory

    @row_factory.setter
    def row_factory(self, factory: Any) -> None:
        self._conn.row_factory = factory

    @property
    def in_transaction(self) -> bool:
        return self._conn.in_transaction

    @property
    def total_changes(self) -> int:
        return self._conn.total_changes

    async def execute(self, sql: str, parameters: Params = ()) -> Cursor:
        return Cursor(self._conn.execute(sql, parameters))

    async def execute_fetchall(self, sql: str, parameters: Params = ()) -> list[Any]:
        return self._conn.execute(sql, parameters).fetchall()

    async def execute_insert(self, sql: str, parameters: Params = ()) -> Any:
        """Run an INSERT; the row `(last_insert_rowid(),)`."""
        cursor = self._conn.execute(sql, parameters)
        return (cursor.lastrowid,)

    async def executemany(self, sql: str, parameters: Iterable[Params]) -> Cursor:
        return Cursor(self._conn.executemany(sql, parameters))

    async def create_function(
        self, name: str, num_params: int, func: Callable[..., Any], deterministic: bool = False
    ) -> None:
        self._conn.create_function(name, num_params, func, deterministic=deterministic)

    async def close(self) -> None:
        self._conn.close()


async def connect(path: str | os.PathLike[str]) -> Connection:
    """Open `path` in autocommit mode (the caller issues BEGIN and COMMIT itself)."""
    return Connection(sqlite3.connect(os.fspath(path), isolation_level=None))
