"""What every storage function takes: an aiosqlite connection (SQLite on its own thread,
never on the event loop) with rows as `sqlite3.Row`."""

from __future__ import annotations

from sqlite3 import Row

from aiosqlite import Connection

__all__ = ["Connection", "Row"]
