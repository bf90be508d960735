"""What every storage function takes: an aiosqlite connection (SQLite on its own thread,
never on the event loop) with rows as `sqlite3.Row`, or its PostgreSQL twin
(`storage.pgconn`), which speaks the same. A job of the writer takes a `JobConnection`.

Errors are the DB-API's (`sqlite3.IntegrityError` for a refused constraint on both; on
PostgreSQL subclasses of them named for no backend), named here so that code outside
`storage` names no backend. A lost connection is neither: it is `Unreachable` on both
(`storage.link`), a refusal the user is told about.
"""

from __future__ import annotations

import sqlite3
from sqlite3 import Row
from typing import Any

from aiosqlite import Connection

from bondbot.storage.link import Unreachable

JobConnection = sqlite3.Connection  # what a writer job gets (or its PostgreSQL twin)
DatabaseError = sqlite3.Error
IntegrityError = sqlite3.IntegrityError

__all__ = [
    "Connection",
    "DatabaseError",
    "IntegrityError",
    "JobConnection",
    "Row",
    "Unreachable",
    "dialect_of",
]


def dialect_of(conn: Any) -> str:
    """ "sqlite" or "postgresql": for the few queries whose SQL must differ."""
    return str(getattr(conn, "dialect", "sqlite"))
