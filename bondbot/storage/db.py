"""The database: one SQLite connection shared by every coroutine, one statement stream.

A single connection has a single transaction, so two coroutines must never interleave
their statements on it: every transaction and every read holds one asyncio.Lock from its
BEGIN to its COMMIT/ROLLBACK. Statements run inline (see `storage.sqlite`), so a
cancelled coroutine's ROLLBACK runs before the lock passes on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from bondbot.storage import characters, sqlite
from bondbot.storage.sqlite import Connection

log = logging.getLogger(__name__)

Clock = Callable[[], str]
BUSY_TIMEOUT_MS = 5000
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


def utc_now() -> str:
    """The production clock: UTC, ISO 8601 to the millisecond (sorts as text)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class MigrationError(RuntimeError):
    """The migrations on disk and the database's schema_version do not fit together."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Traversable | Path | None = None) -> list[Migration]:
    """The `NNNN_name.sql` files of `directory` (default: the package's), by version."""
    folder = directory if directory is not None else resources.files(__package__) / "migrations"
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"two migrations numbered {version:04d}")
        found[version] = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


def split_statements(script: str) -> list[str]:
    """Split SQL into statements (triggers' inner `;` included), as executescript would.

    Migrations run statement by statement because executescript commits first, which
    would break the one-transaction-per-migration guarantee.
    """
    statements: list[str] = []
    start = 0
    for index, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : index + 1]):
            statements.append(script[start : index + 1].strip())
            start = index + 1
    tail = script[start:].strip()
    if tail:
        statements.append(tail)
    return [s for s in statements if s.strip(" \t\r\n;")]


class Database:
    """The bot's one connection; use `transaction()` to write and `read()` to read."""

    def __init__(self, conn: Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[object] | None = None

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Open (creating if needed) in WAL mode with foreign keys on; does not migrate."""
        conn = await sqlite.connect(path)
        try:
            conn.row_factory = sqlite.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            for name, (arity, function) in characters.SQL_FUNCTIONS.items():
                await conn.create_function(name, arity, function, deterministic=True)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, Path(path))

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection."""
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _exclusive(self) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        if self._lock.locked() and self._holder is task and task is not None:
            raise RuntimeError("nested db.transaction()/db.read(): pass the connection down")
        async with self._lock:
            self._holder = task
            try:
                yield self._conn
            finally:
                self._holder = None

    async def _rollback(self) -> None:
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:  # already ended, e.g. a cancelled COMMIT ran
            if "no transaction is active" not in str(exc):
                log.exception("ROLLBACK failed")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """BEGIN IMMEDIATE … COMMIT, or ROLLBACK if the block raises (or COMMIT fails)."""
        async with self._exclusive() as conn:
            await conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                await conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """A consistent snapshot for several SELECTs; a write inside raises and is undone."""
        async with self._exclusive() as conn:
            await conn.execute("BEGIN")
            before = conn.total_changes
            try:
                yield conn
            finally:
                changed = conn.total_changes != before
                await self._rollback()
            if changed:
                raise RuntimeError("db.read() is for reads; write inside db.transaction()")

    async def schema_versions(self) -> list[int]:
        """The migrations applied to this database, in order."""
        async with self.read() as conn:
            return await _applied(conn)

    async def migrate(self, directory: Traversable | Path | None = None) -> list[int]:
        """Apply pending migrations in order, each in its own transaction; return their versions.

        Safe to re-run and against a second process: each migration re-checks, under the
        write lock, whether it was applied meanwhile.
        """
        migrations = load_migrations(directory)
        known = {m.version for m in migrations}
        applied_now: list[int] = []
        async with self.transaction() as conn:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        for migration in migrations:
            async with self.transaction() as conn:
                done = await _applied(conn)
                unknown = sorted(set(done) - known)
                if unknown:
                    raise MigrationError(
                        f"database has migrations {unknown} this version of the bot does not know"
                    )
                if migration.version in done:
                    continue
                for statement in split_statements(migration.sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, utc_now()),
                )
            applied_now.append(migration.version)
            log.info("applied migration %04d_%s", migration.version, migration.name)
        return applied_now

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """Copy the live database to `target` with SQLite's online backup API.

        Runs between transactions (under the lock), so the copy holds only committed data;
        written to a temporary file then renamed, so `target` is never a half copy.
        """
        final = Path(target)
        if final.resolve() == self.path.resolve():
            raise ValueError("a backup cannot replace the database it copies")
        temporary = final.with_name(final.name + ".partial")
        temporary.unlink(missing_ok=True)
        try:
            async with self._exclusive():
                await asyncio.to_thread(_copy, self.path, temporary)
            os.replace(temporary, final)
        finally:
            temporary.unlink(missing_ok=True)


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup, from a connection of its own (it runs in a worker thread)."""
    with closing(sqlite3.connect(source)) as live, closing(sqlite3.connect(target)) as copy:
        live.backup(copy)
        copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file


async def _applied(conn: Connection) -> list[int]:
    exists = await conn.execute_fetchall(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not list(exists):
        return []
    rows = await conn.execute_fetchall("SELECT version FROM schema_version ORDER BY version")
    return [row[0] for row in rows]
