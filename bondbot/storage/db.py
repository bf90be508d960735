"""The database: one writer that commits in batches, one read-only connection for reads.

Nothing runs sqlite3 on the event loop: both connections are aiosqlite's, each on its own
thread. Writes go through the group-commit writer (`storage.writer`): a table action hands
over its whole write as one job, committed with every other job waiting, and is answered
once it is on disk. A transaction whose reads decide its writes (a GM grant, a sheet edit,
a migration) takes the write connection between two batches (`transaction()`), so its
order with the table actions is kept. Reads (`read()`) use the read-only connection: a
long page never holds up a commit.

Another process holding SQLite's write lock never blocks the loop either: a write waits
for it in short slices on the writer's thread until its deadline, then is refused
(`Busy`: "busy, try again"), and a write refused is never applied afterwards. A lost
connection (a server restarted, a file gone) is `Unreachable` until new connections open
(`storage.link`); nothing refused meanwhile is applied afterwards either.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, closing
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from bondbot.storage import characters, pgurl
from bondbot.storage.conn import Connection
from bondbot.storage.link import Link
from bondbot.storage.writer import (
    Busy,
    Job,
    Writer,
    deadline_after,
    open_sqlite,
    sqlite_lost,
)

log = logging.getLogger(__name__)

Clock = Callable[[], str]
T = TypeVar("T")
# How long a write may wait for the lock before it is refused: an interaction must be
# answered within Discord's 3 s, and a write must never land after its refusal.
WRITE_DEADLINE_S = 2.5
# When (time.monotonic) the interaction being handled must have its writes on disk: set as
# its handler starts, so a write that waited behind others (the table's earlier clicks, a
# lock held by another process) is refused while its answer can still reach Discord.
answer_by: ContextVar[float | None] = ContextVar("answer_by", default=None)
_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)(?:\.(postgresql))?\.sql$")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def shown(target: object) -> str:
    """A database as messages and logs name it: a URL without its password."""
    return pgurl.shown(target) if isinstance(target, str) and is_postgres(target) else str(target)


def is_postgres(target: object) -> bool:
    """Whether a `database` setting names a PostgreSQL server (a URL) rather than a file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


def database_file(target: str | os.PathLike[str]) -> Path | None:
    """The file a `database` setting names (SQLite), or None for a server's URL."""
    return None if is_postgres(target) else Path(target)


def write_deadline() -> float:
    """When a write submitted now must be on disk or refused: WRITE_DEADLINE_S from now, or
    sooner when the interaction behind it started earlier."""
    mine = deadline_after(WRITE_DEADLINE_S)
    theirs = answer_by.get()
    return mine if theirs is None else min(mine, theirs)


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


def load_migrations(
    directory: Traversable | Path | None = None, *, dialect: str = "sqlite"
) -> list[Migration]:
    """The `NNNN_name.sql` files of `directory` (default: the package's), by version: one
    history for both backends. Where PostgreSQL's SQL differs, `NNNN_name.postgresql.sql`
    replaces `NNNN_name.sql` for it (same number, same name)."""
    folder = directory if directory is not None else resources.files(__package__) / "migrations"
    found: dict[int, Migration] = {}
    own: dict[int, Migration] = {}
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        version, variant = int(match.group(1)), match.group(3)
        migration = Migration(version, match.group(2), entry.read_text(encoding="utf-8"))
        if variant is None:
            if version in found:
                raise MigrationError(f"two migrations numbered {version:04d}")
            found[version] = migration
        elif variant == dialect:
            own[version] = migration
    for version, migration in own.items():
        shared = found.get(version)
        if shared is None or shared.name != migration.name:
            raise MigrationError(f"{dialect} migration {version:04d} has no shared twin")
        found[version] = migration
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
    """`submit` a job or open a `transaction()` to write, `read()` to read.

    `Database.open` takes a SQLite file's path or a PostgreSQL URL (`storage.postgres`);
    both give this interface, and nothing outside `storage` sees which one it has."""

    dialect = "sqlite"

    def __init__(self, writer: Writer, path: Path | str) -> None:
        self.writer = writer
        self.path = path
        self._read_lock = asyncio.Lock()  # one snapshot at a time on the read connection
        self._holders: set[asyncio.Task[object]] = set()

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> Database:
        """Open (creating if needed) in WAL mode with foreign keys on; does not migrate.
        A `postgresql://` URL opens that database instead (`storage.postgres`)."""
        if is_postgres(path):
            from bondbot.storage.postgres import PgDatabase

            return await PgDatabase.open(str(path))
        options: dict[str, Any] = {
            "synchronous": "NORMAL",
            "functions": characters.SQL_FUNCTIONS,
            "rows": True,
        }
        conn, reader = await open_sqlite(path, **options)

        def reopen() -> Awaitable[tuple[Any, Any]]:  # never creates: the file must be there
            return open_sqlite(path, create=False, **options)

        return cls(Writer(conn, reader, opener=reopen, name=str(path)), Path(path))

    @property
    def link(self) -> Link:
        """Whether the database answers (`storage.link`)."""
        return self.writer.link

    def watch(self) -> None:
        """Check the connections every few seconds, so an outage is noticed without a
        request (a running bot does; a command-line tool does not need to)."""
        self.link.watch()

    async def close(self) -> None:
        """Answer every write already submitted, then close both connections."""
        async with self._read_lock:
            await self.writer.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def submit(self, job: Job[T], *, deadline: float | None = None) -> T:
        """Run `job(sqlite3_connection)` in the writer's next batch; its result once on disk."""
        return await self.writer.submit(job, deadline=deadline or write_deadline())

    @asynccontextmanager
    async def _held(self) -> AsyncIterator[None]:
        task = asyncio.current_task()
        if task is not None and task in self._holders:
            raise RuntimeError("nested db.transaction()/db.read(): pass the connection down")
        if task is not None:
            self._holders.add(task)
        try:
            yield
        finally:
            self._holders.discard(task)  # type: ignore[arg-type]

    @asynccontextmanager
    async def transaction(self, *, deadline: float | None = None) -> AsyncIterator[Connection]:
        """BEGIN IMMEDIATE … COMMIT on the write connection, between two batches; ROLLBACK
        if the block raises. Refused with `Busy` if the connection or the lock is not had
        by `deadline`, and never committed after it."""
        deadline = deadline or write_deadline()
        link = self.link
        async with self._held(), self.writer.exclusive(deadline=deadline) as conn:
            try:
                await self._begin(conn, deadline)
            except Exception as exc:  # a connection lost before: once more on a new one
                if not link.is_lost(exc):
                    raise
                link.lost(exc)
                await link.check(deadline)
                conn = self.writer.connection
                await self._refused_if_lost(self._begin(conn, deadline))
            try:
                yield conn
                if time.monotonic() >= deadline:
                    raise Busy("the database is busy: try again")
                await conn.execute("COMMIT")
            except BaseException as exc:
                await self._quiet_rollback(conn)
                if link.is_lost(exc):
                    link.lost(exc)
                    raise link.refuse(exc) from exc
                raise

    async def _refused_if_lost(self, step: Awaitable[None]) -> None:
        """`step`, its lost connection refused as `Unreachable`."""
        try:
            await step
        except Exception as exc:
            if not self.link.is_lost(exc):
                raise
            self.link.lost(exc)
            raise self.link.refuse(exc) from exc

    async def _quiet_rollback(self, conn: Connection) -> None:
        """ROLLBACK, unless the connection is gone (then nothing is left to roll back)."""
        try:
            await self._rollback(conn)
        except Exception as exc:
            if not self.link.is_lost(exc):
                raise
            self.link.lost(exc)

    async def _begin(self, conn: Connection, deadline: float) -> None:
        await _begin_immediate(conn, deadline)

    async def _begin_read(self, conn: Connection) -> None:
        await conn.execute("BEGIN")

    async def _rollback(self, conn: Connection) -> None:
        await _rollback(conn)

    async def _lock_migrations(self, conn: Connection) -> None:
        """One migrating process at a time (SQLite's BEGIN IMMEDIATE already is that)."""

    async def _applied(self, conn: Connection) -> list[int]:
        return await _applied(conn)

    async def _apply(self, conn: Connection, script: str) -> None:
        for statement in split_statements(script):
            await conn.execute(statement)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        """A consistent snapshot for several SELECTs, on the read-only connection."""
        link = self.link
        async with self._held(), self._read_lock:
            if link.down:
                await link.check(write_deadline())
            conn = self.writer.reader.connection
            try:
                await self._begin_read(conn)
            except Exception as exc:  # a connection lost before: once more on a new one
                if not link.is_lost(exc):
                    raise
                link.lost(exc)
                await link.check(write_deadline())
                conn = self.writer.reader.connection
                await self._refused_if_lost(self._begin_read(conn))
            try:
                yield conn
            except Exception as exc:
                if link.is_lost(exc):
                    link.lost(exc)
                    raise link.refuse(exc) from exc
                raise
            finally:
                await self._quiet_rollback(conn)

    async def schema_versions(self) -> list[int]:
        """The migrations applied to this database, in order."""
        async with self.read() as conn:
            return await self._applied(conn)

    async def migrate(self, directory: Traversable | Path | None = None) -> list[int]:
        """Apply pending migrations in order, each in its own transaction; return their versions.

        Safe to re-run and against a second process: each migration re-checks, under the
        write lock, whether it was applied meanwhile.
        """
        migrations = load_migrations(directory, dialect=self.dialect)
        known = {m.version for m in migrations}
        applied_now: list[int] = []
        async with self.transaction() as conn:
            await self._lock_migrations(conn)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
        for migration in migrations:
            async with self.transaction() as conn:
                await self._lock_migrations(conn)
                done = await self._applied(conn)
                unknown = sorted(set(done) - known)
                if unknown:
                    raise MigrationError(
                        f"database has migrations {unknown} this version of the bot does not know"
                    )
                if migration.version in done:
                    continue
                await self._apply(conn, migration.sql)
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
        assert isinstance(self.path, Path)
        if final.resolve() == self.path.resolve():
            raise ValueError("a backup cannot replace the database it copies")
        temporary = final.with_name(final.name + ".partial")
        temporary.unlink(missing_ok=True)
        try:
            async with self.writer.exclusive():
                await asyncio.to_thread(_copy, self.path, temporary)
            os.replace(temporary, final)
        finally:
            temporary.unlink(missing_ok=True)


async def _begin_immediate(conn: Connection, deadline: float) -> None:
    """Take the write lock, waiting for another process in short slices until `deadline`."""
    while True:
        try:
            await conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        if time.monotonic() >= deadline:
            raise Busy("the database is busy: try again")


async def _rollback(conn: Connection) -> None:
    try:
        await conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:  # already ended, e.g. a failed COMMIT
        if "no transaction is active" in str(exc):
            return
        if sqlite_lost(exc):
            raise  # the connection is gone: the caller marks the database down
        log.exception("ROLLBACK failed")


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
