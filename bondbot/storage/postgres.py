"""PostgreSQL as the database: the same `Database`, writer and guarantees as SQLite's.

Chosen by a `postgresql://` URL (`Database.open`). What changes, and why:

- **Batches.** The group-commit writer is the same (`storage.writer`): one connection
  per process commits every job waiting in one transaction, each job in its savepoint, and
  answers each only once COMMIT returned. Several processes write at once; PostgreSQL
  orders them row by row (a table's state has its version check, balances their CHECK).
- **Busy.** There is no database-wide write lock: a batch waits only for rows another
  process holds, and no longer than its latest job's deadline (`lock_timeout`); a lock
  wait, deadlock or serialization failure rolls the batch back and runs it again without
  the jobs whose deadline passed, which the loop has already refused with `Busy`.
- **Transactions.** `transaction()` is BEGIN … COMMIT with the same `lock_timeout`; a
  lock not had in time is `Busy`. `read()` is a REPEATABLE READ, READ ONLY snapshot on a
  second connection.
- **Migrations.** The same numbered history; `NNNN_name.postgresql.sql` where the SQL
  differs. Two processes migrating at once queue on an advisory lock.
- **Backup.** `pg_dump`, PostgreSQL's own tool, when it is installed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors

from bondbot.storage import pgurl
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database, shown
from bondbot.storage.pgconn import AsyncConnection, SyncConnection, pg_cause
from bondbot.storage.writer import MAX_BATCH, Busy, Writer, _Job, _Lost, _refuse

log = logging.getLogger(__name__)
T = TypeVar("T")
MIGRATION_LOCK = 0x00B0_0D07  # pg_advisory_xact_lock key: one migrating process at a time
_BUSY = (
    pg_errors.LockNotAvailable,
    pg_errors.DeadlockDetected,
    pg_errors.SerializationFailure,
    pg_errors.QueryCanceled,
)


class BackupUnavailable(RuntimeError):
    """This backend's backup tool is not installed; the message says what to use."""


def _is_busy(exc: BaseException) -> bool:
    return isinstance(pg_cause(exc), _BUSY)


# The server's words for "this connection is over": it shut down or crashed, or is starting.
_GONE_STATES = ("57P01", "57P02", "57P03")


def pg_lost(exc: BaseException) -> bool:
    """Whether an error means the connection to the server is gone (a restart, a network
    cut), rather than a statement refused or a lock not had in time."""
    if isinstance(exc, _Lost):
        return True
    cause = pg_cause(exc)
    if cause is None:  # a connection's thread shut down after it was replaced
        return isinstance(exc, RuntimeError) and "shutdown" in str(exc)
    if not isinstance(cause, psycopg.OperationalError):
        return False
    state = cause.sqlstate
    return state is None or state.startswith("08") or state in _GONE_STATES


def _lock_wait_ms(deadline: float) -> int:
    return max(1, int((deadline - time.monotonic()) * 1000))


class PgReader:
    """The read-only connection: pages and lists never wait for, nor hold up, the writer."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn

    @property
    def connection(self) -> AsyncConnection:
        return self._conn

    @classmethod
    async def open(cls, url: str) -> PgReader:
        return cls(await AsyncConnection.connect(url, read_only=True))

    async def fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[Any]:
        return await self._conn.execute_fetchall(sql, params)

    async def run(self, read: Callable[[SyncConnection], T]) -> T:
        """Run `read` on the reader's thread: several SELECTs in one hop, one snapshot."""
        sync = self._conn.sync

        def snapshot() -> T:
            sync.raw.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            try:
                return read(sync)
            finally:
                sync.raw.execute("ROLLBACK")

        return await self._conn.run(snapshot)

    async def close(self) -> None:
        await self._conn.close()


class PgWriter(Writer):
    """The group-commit writer on a psycopg connection (see `storage.writer`)."""

    def __init__(
        self, conn: AsyncConnection, reader: PgReader, *, max_batch: int = MAX_BATCH, url: str = ""
    ) -> None:
        super().__init__(  # type: ignore[arg-type]
            conn, reader, max_batch=max_batch, opener=lambda: _connect(url), name=shown(url)
        )

    @classmethod
    async def open(cls, url: str, *, max_batch: int = MAX_BATCH) -> PgWriter:  # type: ignore[override]
        conn, reader = await _connect(url)
        return cls(conn, reader, max_batch=max_batch, url=url)

    def _is_lost(self, exc: BaseException) -> bool:
        return pg_lost(exc)

    @staticmethod
    async def _check(conn: Any, reader: Any) -> None:
        await conn.execute_fetchall("SELECT 1")
        await reader.fetchall("SELECT 1")

    async def _run_on_thread(self, batch: list[_Job]) -> int:
        conn: AsyncConnection = self._conn  # type: ignore[assignment]
        return await conn.run(lambda: self._run_batch(conn.sync, batch))  # type: ignore[arg-type]

    def _run_batch(self, conn: SyncConnection, batch: list[_Job]) -> int:  # type: ignore[override]
        """BEGIN, every live job in its savepoint, check deadlines, COMMIT; run again
        without the jobs whose deadline passed (a lock wait, a deadlock). Returns how many
        jobs committed.

        The statements without parameters go together: BEGIN, the lock timeout and the
        first job's savepoint in one round trip; the release of a job's savepoint with the
        next one's; the last one released by COMMIT."""
        pending = batch
        raw = conn.raw
        while True:
            pending = [job for job in pending if self._still_wanted(job)]
            if not pending:
                return 0
            began = False
            try:
                wait = _lock_wait_ms(max(job.deadline for job in pending))
                conn.chatter(f"BEGIN; SET LOCAL lock_timeout = {wait}; SAVEPOINT job")
                began = True
                for index, job in enumerate(pending):
                    _run_job(conn, job, "RELEASE SAVEPOINT job; SAVEPOINT job" if index else "")
                if not self._claim(pending):
                    raw.execute("ROLLBACK")
                    continue
                raw.execute("COMMIT")
            except Exception as exc:
                _end(conn)
                if _is_busy(exc) and not conn.broken:
                    time.sleep(0.001)
                    continue  # without the jobs refused meanwhile
                if conn.broken or pg_lost(exc):
                    raise _Lost(exc, untouched=not began) from exc
                _refuse(pending, exc)
                return 0
            return len(pending)


def _run_job(conn: SyncConnection, job: _Job, opening: str) -> None:
    """The job in its own savepoint (`opening` sends it, unless BEGIN did): its exception
    rolls back only its writes; the server's trouble (a lock wait, a lost connection, a
    full disk) fails the batch.

    It first runs with its writes bare (no savepoint each: one round trip less per write).
    If one of them failed, PostgreSQL aborted the transaction, where SQLite would have
    failed that statement alone and let the job read on (the ledger reads the balance a
    CHECK refused): the job is rolled back to its savepoint and runs again, each write in
    a savepoint of its own, as it always did. A job may run more than once (the writer's
    contract), so this changes nothing it returns or writes."""
    if opening:
        conn.chatter(opening)
    if _attempt(conn, job, careful=False):
        return
    conn.chatter("ROLLBACK TO SAVEPOINT job")
    _attempt(conn, job, careful=True)


def _attempt(conn: SyncConnection, job: _Job, *, careful: bool) -> bool:
    """Run the job once; False if it must run again, careful (a bare write failed)."""
    conn.careful, conn.failed_bare = careful, False
    try:
        result = job.run(conn)
    except Exception as exc:
        if conn.broken or isinstance(pg_cause(exc), psycopg.OperationalError):
            raise
        if conn.failed_bare:
            return False
        conn.chatter("ROLLBACK TO SAVEPOINT job")
        job.outcome = (False, exc)
    else:
        if conn.failed_bare:  # it went on after a failed write: its reads saw nothing
            return False
        job.outcome = (True, result)
    finally:
        conn.careful = True
    return True


def _end(conn: SyncConnection) -> None:
    if conn.in_transaction and not conn.broken:
        try:
            conn.raw.execute("ROLLBACK")
        except psycopg.Error as exc:
            if not pg_lost(exc):
                log.exception("ROLLBACK failed")


async def _connect(url: str) -> tuple[AsyncConnection, PgReader]:
    """The write connection and the read-only one."""
    conn = await AsyncConnection.connect(url)
    try:
        reader = await PgReader.open(url)
    except BaseException:
        await conn.close()
        raise
    return conn, reader


class PgDatabase(Database):
    """`Database` on PostgreSQL; `path` is the URL without its password."""

    dialect = "postgresql"

    def __init__(self, writer: PgWriter, url: str) -> None:
        super().__init__(writer, shown(url))
        self.url = url

    @classmethod
    async def open(cls, path: str | os.PathLike[str]) -> PgDatabase:
        url = str(path)
        return cls(await PgWriter.open(url), url)

    @asynccontextmanager
    async def transaction(self, *, deadline: float | None = None) -> AsyncIterator[Connection]:
        try:
            async with super().transaction(deadline=deadline) as conn:
                yield conn
        except sqlite3.Error as exc:
            if _is_busy(exc):
                raise Busy("the database is busy: try again") from exc
            raise

    async def _begin(self, conn: Connection, deadline: float) -> None:
        pg: AsyncConnection = conn  # type: ignore[assignment]
        wait = _lock_wait_ms(deadline)
        await pg.run(lambda: pg.sync.chatter(f"BEGIN; SET LOCAL lock_timeout = {wait}"))

    async def _begin_read(self, conn: Connection) -> None:
        await conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    async def _rollback(self, conn: Connection) -> None:
        pg: AsyncConnection = conn  # type: ignore[assignment]
        if pg.sync.broken:
            return
        try:
            await conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            if pg_lost(exc):
                raise  # the connection is gone: the caller marks the database down
            log.exception("ROLLBACK failed")

    async def _lock_migrations(self, conn: Connection) -> None:
        await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")

    async def _applied(self, conn: Connection) -> list[int]:
        rows = await conn.execute_fetchall("SELECT to_regclass('schema_version') IS NOT NULL")
        if not rows[0][0]:
            return []
        rows = await conn.execute_fetchall("SELECT version FROM schema_version ORDER BY version")
        return [int(row[0]) for row in rows]

    async def _apply(self, conn: Connection, script: str) -> None:
        pg: AsyncConnection = conn  # type: ignore[assignment]
        await pg.run(lambda: pg.sync.script(script))

    async def backup(self, target: str | os.PathLike[str]) -> None:
        """`pg_dump --format=custom` of the database to `target` (restore with
        pg_restore); written to a temporary file then renamed, never a half copy."""
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise BackupUnavailable(
                "backup: pg_dump is not installed here: back up PostgreSQL with its own tool,"
                f" e.g. pg_dump --format=custom --file=FILE '{self.path}'"
            )
        final = Path(target)
        temporary = final.with_name(final.name + ".partial")
        temporary.unlink(missing_ok=True)
        dbname, env = _dump_target(self.url)
        try:
            process = await asyncio.create_subprocess_exec(
                pg_dump,
                "--format=custom",
                f"--file={temporary}",
                f"--dbname={dbname}",
                stderr=asyncio.subprocess.PIPE,
                env=env,
            )
            _, error = await process.communicate()
            if process.returncode != 0:
                raise OSError(f"pg_dump failed: {error.decode(errors='replace').strip()}")
            os.replace(temporary, final)
        finally:
            temporary.unlink(missing_ok=True)


def _dump_target(url: str) -> tuple[str, dict[str, str] | None]:
    """pg_dump's --dbname and environment: the password in PGPASSWORD, never on its command
    line (`ps` shows that to every user of the machine)."""
    dbname, password = pgurl.split_password(url)
    return dbname, None if password is None else {**os.environ, "PGPASSWORD": password}
