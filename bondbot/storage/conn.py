"""What every storage function takes: an aiosqlite connection (SQLite on its own thread,
never on the event loop) with rows as `sqlite3.Row`, or its PostgreSQL twin
(`storage.pgconn`), which speaks the same. A job of the writer takes a `JobConnection`.

Errors are the DB-API's (`sqlite3.IntegrityError` for a refused constraint on both), named
here so that code outside `storage` names no backend.
"""

from __future__ import annotations

import sqlite3
from sqlite3 import Row
from typing import Any

from aiosqlite import Connection

JobConnection = sqlite3.Connection  # what a writer job gets (or its PostgreSQL twin)
DatabaseError = sqlite3.Error
IntegrityError = sqlite3.IntegrityError

__all__ = ["Connection", "DatabaseError", "IntegrityError", "JobConnection", "Row", "dialect_of"]


def dialect_of(conn: Any) -> str:
    """ "sqlite" or "postgresql": for the few queries whose SQL must differ."""
    return str(getattr(conn, "dialect", "sqlite"))
