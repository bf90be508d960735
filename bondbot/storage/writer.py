"""The group-commit writer: one task owns the write connection and commits jobs in batches.

Why: a table action is some ten statements. Run inline (`storage.sqlite`), they hold the
event loop, and a lock held by another process freezes the bot for the busy timeout; run
as one aiosqlite hop per statement, they pay ~170 µs a hop with the database lock held.
Here a caller hands over its whole write as one *job*; the writer runs every job waiting
in the queue in one transaction on aiosqlite's thread (one hop per batch), commits once,
and only then answers each job. The event loop never runs sqlite3, and one commit (one
fsync with synchronous=FULL) is shared by every action of the batch. While a batch runs,
the loop waits for it a few milliseconds (HANDOFF_S) before going on: the thread then
has the GIL to itself instead of taking it back from the busy loop statement by statement.
Its SQLite connections (the write one, the read-only `Reader`) open in `storage.sqliteconn`.

Use (after `Database.migrate()`):

    writer = await Writer.open(path)
    def job(conn: sqlite3.Connection) -> int:           # runs on the writer's thread
        ledger.append_transfer(conn, guild_id=g, kind="cash", amount=500,
                               src=f"chips:{t}:{c}", dst=f"bank:{t}", reason="table.lost",
                               now=now)
        conn.execute("UPDATE card_tables SET state = ? WHERE id = ?", (state_json, t))
        return 1
    await writer.submit(job, deadline=deadline_after(2.5))   # returns what job returned
    await writer.execute([(sql, params), ...], deadline=...) # a job made of statements
    rows = await writer.reader.fetchall("SELECT …", params)  # read-only connection
    await writer.close()

The contract a job relies on:

- **Answered only once on disk.** `submit` returns after the COMMIT of the job's batch
  returned; a job's result is what its function returned.
- **A job fails alone.** Each job runs inside its own SAVEPOINT: an exception from it
  (a CHECK, `InsufficientFunds`, a `Refusal`) rolls back that job only and is raised to
  its caller unchanged; the rest of the batch commits.
- **A failed batch refuses everyone in it.** Disk full, an I/O error, a failed COMMIT:
  the transaction rolls back and every job of the batch raises `WriteFailed`; nothing of
  them is on disk. The owner of in-memory state reloads what those jobs touched.
- **A deadline per job.** Another process holding the write lock never blocks the event
  loop: the thread retries `BEGIN IMMEDIATE` in short busy-timeout slices, and at its
  deadline a job is refused with `Busy` ("busy, try again") — by a timer on the loop,
  even while the thread is still waiting. A refused job is never applied: the thread
  re-checks every deadline just before COMMIT, and a batch holding a job past its
  deadline (or withdrawn) rolls back and runs again without it.
- **A job may run more than once** (that retry), so it only writes through the
  connection it is given and keeps no Python side effects. Jobs run in the order they
  were submitted; a caller that wants two writes ordered awaits the first.
- **Cancelling** `submit` withdraws a job not yet committing; once its batch is
  committing, the job commits (its result is dropped).
- **A lost connection refuses, never defers.** A batch whose connection went away raises
  `Unreachable` to every job of it, and marks the database down (`storage.link`): jobs
  submitted until it is back are refused at once, so nothing refused is applied later.
  A batch that failed at BEGIN (nothing of it ran) runs once more if new connections open
  in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiosqlite

from bondbot import background
from bondbot.storage.link import Link, Unreachable
from bondbot.storage.sqliteconn import Reader, open_sqlite

log = logging.getLogger(__name__)

T = TypeVar("T")
Job = Callable[[sqlite3.Connection], T]
Statement = tuple[str, Sequence[Any] | dict[str, Any]]

COMMIT_MARGIN_S = 0.02  # a job this close to its deadline is refused rather than committed
MAX_BATCH = 256
HANDOFF_S = 0.005  # the loop waits for a batch this long, blocked, then awaits the rest
# Errors that are the database's, not a job's: SQLite may have rolled the whole transaction
# back, so the batch fails (primary result codes, sqlite3.h).
_BATCH_ERRORS = frozenset(
    {
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_INTERRUPT,
    }
)


class WriteFailed(Exception):
    """The job's batch did not commit (disk full, I/O error…): nothing of it is on disk."""


class Busy(WriteFailed):
    """The write lock was not free before the job's deadline: nothing applied; try again."""


class _Lost(Exception):
    """The connection went away under a batch (raised on the writer's thread). `untouched`:
    it failed at BEGIN, before any job ran, so the batch may run again on a new one."""

    def __init__(self, cause: BaseException, *, untouched: bool) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.untouched = untouched


Opener = Callable[[], Awaitable[tuple[Any, Any]]]


def deadline_after(seconds: float) -> float:
    """A deadline `seconds` from now, on the clock `submit` uses (time.monotonic)."""
    return time.monotonic() + seconds


async def acquire_by(lock: asyncio.Lock, deadline: float | None) -> bool:
    """Take `lock`, waiting no later than `deadline` (time.monotonic; None: no limit);
    False if it was still held then."""
    try:
        async with asyncio.timeout(None if deadline is None else deadline - time.monotonic()):
            await lock.acquire()
    except TimeoutError:
        return False
    return True


@dataclass(eq=False, slots=True)
class _Job:
    run: Callable[[sqlite3.Connection], Any]
    deadline: float
    future: asyncio.Future[Any]
    withdrawn: bool = False  # refused (deadline, cancel): never to be committed
    committing: bool = False  # in a batch past its deadline check: it will be committed
    outcome: tuple[bool, Any] | None = None  # (ok, result or exception), set by the thread


@dataclass(slots=True)
class WriterStats:
    """Counters for tests and benchmarks."""

    batches: int = 0  # hops to the thread
    commits: int = 0  # transactions committed
    committed: int = 0  # jobs committed
    failed: int = 0  # jobs that failed alone (their exception)
    refused: int = 0  # jobs refused with WriteFailed or Busy
    sizes: list[int] = field(default_factory=list)  # jobs per committed transaction


def sqlite_lost(exc: BaseException) -> bool:
    """Whether an error means the SQLite connection is gone (closed under us, its file
    unreadable or missing) rather than a job's own failure or a lock held elsewhere."""
    if isinstance(exc, _Lost):
        return True
    if isinstance(exc, sqlite3.ProgrammingError):
        return "closed" in str(exc)
    if isinstance(exc, sqlite3.Error):
        return _code(exc) in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_NOTADB)
    # aiosqlite's own, once its thread has stopped
    return isinstance(exc, ValueError) and (
        "Connection closed" in str(exc) or "no active" in str(exc)
    )


class Writer:
    """Owns the write connection; `submit` jobs, `close` when done."""

    def __init__(
        self,
        conn: aiosqlite.Connection,
        reader: Reader,
        *,
        max_batch: int = MAX_BATCH,
        opener: Opener | None = None,
        name: str = "",
    ) -> None:
        self._conn = conn
        self.reader = reader
        self._opener = opener  # new connections after the old ones were lost (None: none)
        self.link = Link(name, self._reopen, self._probe, self._is_lost)
        self.stats = WriterStats()
        self._max_batch = max_batch
        self._queue: asyncio.Queue[_Job | None] = asyncio.Queue()
        self._lock = threading.Lock()  # guards withdrawn/committing between loop and thread
        # The connection is the batches' or, between two batches, one exclusive user's.
        self._turn = asyncio.Lock()
        self._closing = False
        self._pending: set[_Job] = set()  # submitted, not yet answered
        self._watchdog: asyncio.TimerHandle | None = None  # at the earliest pending deadline
        self._watchdog_due = 0.0
        self._task = background.spawn(self._drain(), name="bondbot-writer")

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "FULL",
        max_batch: int = MAX_BATCH,
    ) -> Writer:
        """Open the write connection (WAL, foreign keys on, a short busy timeout) and the
        read-only one. The database must exist and be migrated."""
        conn, reader = await open_sqlite(path, synchronous=synchronous)

        def reopen() -> Awaitable[tuple[Any, Any]]:
            return open_sqlite(path, synchronous=synchronous, create=False)

        return cls(conn, reader, max_batch=max_batch, opener=reopen, name=str(path))

    async def submit(self, job: Job[T], *, deadline: float) -> T:
        """Run `job` in the next batch; its result once committed. Raises what the job
        raised (it alone rolled back), `WriteFailed` (its batch failed) or `Busy`."""
        if self._closing:
            raise WriteFailed("the writer is closed")
        if self.link.down:
            await self.link.check(deadline)
        entry = _Job(job, deadline, asyncio.get_running_loop().create_future())
        self._queue.put_nowait(entry)
        self._pending.add(entry)
        self._watch(deadline)
        try:
            return await entry.future
        except asyncio.CancelledError:
            with self._lock:
                if not entry.committing:
                    entry.withdrawn = True
            raise
        finally:
            self._pending.discard(entry)

    @property
    def connection(self) -> aiosqlite.Connection:
        return self._conn

    @asynccontextmanager
    async def exclusive(
        self, *, deadline: float | None = None
    ) -> AsyncIterator[aiosqlite.Connection]:
        """The write connection to oneself between two batches (a transaction whose reads
        decide its writes, a migration, a backup): batches wait until it is given back.
        Refused with `Busy` if the batch or user before it still has it at `deadline`, and
        with `Unreachable` while the database is (see `storage.link`)."""
        if self.link.down:
            await self.link.check(deadline)
        if not await acquire_by(self._turn, deadline):
            raise Busy("the database is busy: try again")
        try:
            yield self._conn
        finally:
            self._turn.release()

    async def execute(self, statements: Iterable[Statement], *, deadline: float) -> None:
        """A job made of statements, run in order (one savepoint for all of them)."""
        fixed = list(statements)

        def run(conn: sqlite3.Connection) -> None:
            for sql, params in fixed:
                conn.execute(sql, params)

        await self.submit(run, deadline=deadline)

    async def close(self) -> None:
        """Answer every job already submitted, then close both connections."""
        self._closing = True
        self._queue.put_nowait(None)
        await self._task
        if self._watchdog is not None:
            self._watchdog.cancel()
        await self.link.close()
        await _quietly_close(self.reader)
        await _quietly_close(self._conn)

    # -- the connection lost and found -----------------------------------------------------

    def _is_lost(self, exc: BaseException) -> bool:
        return sqlite_lost(exc)

    async def _reopen(self) -> None:
        """New connections in place of the lost ones; the old ones closed. Nothing can be
        using the old ones to any effect: they are dead."""
        if self._opener is None or self._closing:
            raise WriteFailed("this writer cannot reconnect")
        conn, reader = await self._opener()
        try:
            await self._check(conn, reader)
        except BaseException:
            await _quietly_close(reader)
            await _quietly_close(conn)
            raise
        old = (self._conn, self.reader)
        self._conn, self.reader = conn, reader
        for gone in old:
            await _quietly_close(gone)

    async def _probe(self) -> None:
        await self._check(self._conn, self.reader)

    @staticmethod
    async def _check(conn: Any, reader: Any) -> None:
        """A query on each connection that reads the database (not a constant)."""
        await conn.execute_fetchall("SELECT count(*) FROM sqlite_master")
        await reader.fetchall("SELECT count(*) FROM sqlite_master")

    async def __aenter__(self) -> Writer:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # -- on the loop -------------------------------------------------------------------------

    def _watch(self, deadline: float) -> None:
        """One timer for the earliest deadline of the jobs not yet answered, rather than
        one per job: a job is almost always answered long before its deadline."""
        if self._watchdog is not None:
            if self._watchdog_due <= deadline:
                return
            self._watchdog.cancel()
        self._watchdog_due = deadline
        self._watchdog = background.call_later(
            max(0.0, deadline - time.monotonic()), self._expire_due
        )

    def _expire_due(self) -> None:
        self._watchdog = None
        now = time.monotonic()
        waiting = [job for job in self._pending if not job.future.done()]
        for job in waiting:
            if job.deadline <= now:
                self._expire(job)
        later = [job.deadline for job in waiting if not job.future.done()]
        if later:
            self._watch(min(later))

    def _expire(self, job: _Job) -> None:
        """The job's deadline: refuse it now unless its batch is already committing."""
        with self._lock:
            if job.committing or job.future.done():
                return
            job.withdrawn = True
        self.stats.refused += 1
        job.future.set_exception(Busy("the database is busy: try again"))

    async def _drain(self) -> None:
        stopping = False
        while not stopping:
            first = await self._queue.get()
            batch: list[_Job] = []
            if first is None:
                stopping = True
            else:
                batch.append(first)
            while len(batch) < self._max_batch and not self._queue.empty():
                more = self._queue.get_nowait()
                if more is None:
                    stopping = True
                else:
                    batch.append(more)
            if stopping:  # the jobs submitted before close() still get their batch
                while not self._queue.empty():
                    leftover = self._queue.get_nowait()
                    if leftover is not None:
                        batch.append(leftover)
            live = [job for job in batch if not job.future.done()]
            if live:
                async with self._turn:
                    await self._commit(live)

    async def _commit(self, batch: list[_Job], *, again: bool = False) -> None:
        self.stats.batches += 1
        try:
            committed = await self._run_on_thread(batch)
        except Exception as exc:
            lost = exc if isinstance(exc, _Lost) else None
            if lost is None and self._is_lost(exc):  # the hop itself: its thread is gone
                lost = _Lost(exc, untouched=True)
            if lost is None:
                log.exception("writer batch failed")
                for job in batch:
                    job.outcome = (False, WriteFailed(str(exc)))
            else:
                self.link.lost(lost.cause)
                live = [job for job in batch if not job.future.done() and not job.withdrawn]
                if lost.untouched and not again and live:
                    latest = max(job.deadline for job in live)
                    if await self.link.available(latest):  # back at once: run it there
                        for job in live:
                            job.outcome = None
                        await self._commit(live, again=True)
                        return
                for job in batch:  # nothing of the batch was committed
                    job.outcome = (False, self.link.refuse(lost.cause))
            committed = 0
        if committed:
            self.stats.commits += 1
            self.stats.sizes.append(committed)
        for job in batch:
            if job.future.done() or job.outcome is None:
                continue
            ok, value = job.outcome
            if ok:
                self.stats.committed += 1
                job.future.set_result(value)
            else:
                if isinstance(value, WriteFailed | Unreachable):
                    self.stats.refused += 1
                else:
                    self.stats.failed += 1
                job.future.set_exception(value)

    async def _run_on_thread(self, batch: list[_Job]) -> int:
        """`_run_batch` in one hop to the connection's thread (a backend's own hop)."""
        conn = self._conn
        return await _on_thread(conn, lambda: self._run_batch(conn._conn, batch))

    # -- on the writer's thread -----------------------------------------------------------

    def _run_batch(self, conn: sqlite3.Connection, batch: list[_Job]) -> int:
        """BEGIN, every live job in its savepoint, check deadlines, COMMIT; retried without
        the jobs whose deadline passed meanwhile. Returns how many jobs committed."""
        pending = batch
        while True:
            pending = [job for job in pending if self._still_wanted(job)]
            if not pending:
                return 0
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                if _code(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    time.sleep(0.001)  # the busy handler waited its slice; never a spin
                    continue  # another process holds the lock: retry until the deadlines
                if sqlite_lost(exc):
                    raise _Lost(exc, untouched=True) from exc
                _refuse(pending, exc)
                return 0
            try:
                for job in pending:
                    _run_job(conn, job)
                if not self._claim(pending):
                    conn.execute("ROLLBACK")
                    continue
                conn.execute("COMMIT")
            except Exception as exc:
                if sqlite_lost(exc):
                    with contextlib.suppress(sqlite3.Error):
                        conn.execute("ROLLBACK")
                    raise _Lost(exc, untouched=False) from exc
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                _refuse(pending, exc)
                return 0
            return len(pending)

    def _claim(self, pending: Sequence[_Job]) -> bool:
        """Mark the batch as committing if every job is still wanted; False (and the late
        ones refused) if any is not, so the batch is rolled back and run without them."""
        with self._lock:
            if not all([self._still_wanted(job) for job in pending]):
                return False
            for job in pending:
                job.committing = True
            return True

    def _still_wanted(self, job: _Job) -> bool:
        """Not refused yet, and far enough from its deadline to commit (else refused)."""
        if job.withdrawn:
            return False
        if time.monotonic() + COMMIT_MARGIN_S >= job.deadline:
            job.withdrawn = True
            job.outcome = (False, Busy("the database is busy: try again"))
            return False
        return True


async def _on_thread(conn: aiosqlite.Connection, call: Callable[[], T]) -> T:
    """`call` on the connection's thread. The loop first waits for it, blocked, up to
    HANDOFF_S: the GIL is then the thread's alone and a batch runs in one go, rather than
    taking the GIL back from the busy loop before each of its statements (see "The writer
    hands the GIL over" in docs/decisions.md). A longer call (another process's lock, a
    slow disk) is awaited like any other."""
    if not conn._running or conn._connection is None:
        raise ValueError("Connection closed")
    finished = threading.Lock()
    finished.acquire()
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as exc:  # raised on the loop
            outcome.append((False, exc))
        finally:
            finished.release()

    done = asyncio.get_running_loop().create_future()  # aiosqlite sets it once `run` returned
    conn._tx.put_nowait((done, run))  # what `conn._execute` does, without awaiting at once
    if not finished.acquire(timeout=HANDOFF_S):
        await done
    ok, value = outcome[0]
    if not ok:
        raise value
    return value


def _run_job(conn: sqlite3.Connection, job: _Job) -> None:
    """The job in its own savepoint: its exception rolls back only its writes."""
    conn.execute("SAVEPOINT job")
    try:
        result = job.run(conn)
    except sqlite3.Error as exc:
        if _code(exc) in _BATCH_ERRORS or not conn.in_transaction:
            raise  # the database's failure, not the job's: the whole batch
        _undo(conn)
        job.outcome = (False, exc)
    except Exception as exc:
        _undo(conn)
        job.outcome = (False, exc)
    else:
        conn.execute("RELEASE job")
        job.outcome = (True, result)


def _code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code (0 for an error raised by the sqlite3 module itself)."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def _undo(conn: sqlite3.Connection) -> None:
    conn.execute("ROLLBACK TO job")
    conn.execute("RELEASE job")


async def _quietly_close(conn: Any) -> None:
    """Close a connection that may be dead already: its error says nothing new."""
    with contextlib.suppress(Exception):
        await conn.close()


def _refuse(jobs: list[_Job], exc: BaseException) -> None:
    log.error("writer batch of %d jobs failed: %s", len(jobs), exc)
    for job in jobs:
        job.outcome = (False, WriteFailed(f"not saved: {exc}"))
