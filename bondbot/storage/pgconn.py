"""PostgreSQL connections (psycopg 3) that speak like the SQLite ones the storage uses.

The storage modules write their SQL once, with `?` and `:name` placeholders, and call
`execute`, `execute_fetchall`, `lastrowid`, `rowcount`, `in_transaction`, rows read by
index or by column name, and catch `sqlite3.IntegrityError` (the DB-API classes). These
adapters give the same on a psycopg connection: placeholders become `%s` / `%(name)s`,
`x IS ?` becomes `IS NOT DISTINCT FROM`, `instr` becomes `strpos`, an INSERT into a table
with an `id` returns it, and psycopg's errors are raised as the DB-API class of the same
meaning (a CHECK violation reads "CHECK constraint failed", as SQLite says it). A query
that must differ by dialect asks `dialect_of(conn)`.

Each connection lives on one thread of its own (a one-worker executor): the async adapter
runs every statement there, so the event loop never waits on the network, and the writer's
batches run there in one hop, like aiosqlite's thread for SQLite.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.pq import ExecStatus, TransactionStatus

T = TypeVar("T")
DIALECT = "postgresql"
_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_IS_PARAM = re.compile(r"\bIS \?")
_INSTR = re.compile(r"\binstr\(")
_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)
_INSERT_WITH_ID = re.compile(
    r"^\s*INSERT INTO (ledger|characters|card_tables|rolls)\b(?!.*\bRETURNING\b)",
    re.IGNORECASE | re.DOTALL,
)


@lru_cache(maxsize=1024)
def _shape(sql: str, params: str) -> tuple[str, bool, bool]:
    """The translated query, whether it writes and whether it returns the new row's id:
    read once per query text, as the text is the same at every call."""
    return translate(sql, params), bool(_WRITE.match(sql)), bool(_INSERT_WITH_ID.match(sql))


@lru_cache(maxsize=1024)
def translate(sql: str, params: str) -> str:
    """SQLite's spelling of a storage query into PostgreSQL's (see the module's docstring);
    `params` is "named", "positional" or "none" (then psycopg reads no placeholder)."""
    text = sql
    if params != "none":
        text = text.replace("%", "%%")
        text = _IS_PARAM.sub("IS NOT DISTINCT FROM ?", text)
        text = _NAMED.sub(r"%(\1)s", text) if params == "named" else text.replace("?", "%s")
    text = _INSTR.sub("strpos(", text)
    if _INSERT_WITH_ID.match(text):
        text += " RETURNING id"
    return text


class Row(tuple):
    """A result row read by position or by column name, like `sqlite3.Row`."""

    _index: dict[str, int]

    def __new__(cls, values: Sequence[Any], index: dict[str, int]) -> Row:
        row = super().__new__(cls, values)
        row._index = index
        return row

    def __getitem__(self, key: Any) -> Any:  # type: ignore[override]
        if isinstance(key, str):
            return tuple.__getitem__(self, self._index[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._index)


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    result = cursor.pgresult  # its names straight from libpq: `description` costs more
    index = {} if result is None else _index(tuple(map(result.fname, range(result.nfields))))
    return lambda values: Row(values, index)


@lru_cache(maxsize=1024)
def _index(names: tuple[bytes | None, ...]) -> dict[str, int]:
    return {(name or b"").decode(): position for position, name in enumerate(names)}


# PostgreSQL's errors as the DB-API classes the storage catches (`sqlite3`'s, which every
# storage module names), under names of their own: a log on PostgreSQL never says sqlite3.
class DatabaseError(sqlite3.DatabaseError):
    """An error PostgreSQL reported."""


class IntegrityError(sqlite3.IntegrityError):
    """A constraint PostgreSQL refused (worded as SQLite words it)."""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL could not run the statement (a lock, a lost connection, bad SQL)."""


def as_dbapi(exc: psycopg.Error) -> sqlite3.Error:
    """The DB-API error of the same meaning, worded as SQLite words its constraints."""
    constraint = getattr(exc.diag, "constraint_name", None) or ""
    message = (exc.diag.message_primary or str(exc)).strip()
    if isinstance(exc, pg_errors.CheckViolation):
        return IntegrityError(f"CHECK constraint failed: {constraint} ({message})")
    if isinstance(exc, pg_errors.UniqueViolation):
        return IntegrityError(f"UNIQUE constraint failed: {constraint} ({message})")
    if isinstance(exc, pg_errors.NotNullViolation):
        return IntegrityError(f"NOT NULL constraint failed: {message}")
    if isinstance(exc, pg_errors.ForeignKeyViolation):
        return IntegrityError(f"FOREIGN KEY constraint failed: {message}")
    if isinstance(exc, psycopg.IntegrityError | pg_errors.RaiseException):
        return IntegrityError(message)  # a trigger's RAISE, as SQLite's RAISE(ABORT)
    if isinstance(exc, psycopg.OperationalError | pg_errors.InsufficientResources):
        return OperationalError(message)
    if isinstance(exc, psycopg.ProgrammingError | psycopg.DataError):
        return OperationalError(message)
    return DatabaseError(message)


def pg_cause(exc: BaseException) -> psycopg.Error | None:
    """The psycopg error behind a translated one, if any."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, psycopg.Error):
            return seen
        seen = seen.__cause__
    return None


class Result:
    """What `execute` returns: the rows (fetched at once), `lastrowid` and `rowcount`."""

    __slots__ = ("_at", "lastrowid", "rowcount", "rows")

    def __init__(self, rows: list[Row], lastrowid: int | None, rowcount: int) -> None:
        self.rows = rows
        self.lastrowid = lastrowid
        self.rowcount = rowcount
        self._at = 0

    def fetchone(self) -> Row | None:
        if self._at >= len(self.rows):
            return None
        self._at += 1
        return self.rows[self._at - 1]

    def fetchall(self) -> list[Row]:
        rest = self.rows[self._at :]
        self._at = len(self.rows)
        return rest

    def close(self) -> None:
        pass


class SyncConnection:
    """A psycopg connection as a writer job or a migration sees it (`sqlite3.Connection`'s
    `execute`, `in_transaction`), on its own thread."""

    dialect = DIALECT

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw
        self._cursor = raw.cursor()  # one for every statement: a new one costs ~30 µs
        # Whether a write inside a transaction gets a savepoint of its own, so that it
        # fails alone as in SQLite (see `_alone`). A writer job first runs without (a
        # round trip and PostgreSQL's subtransaction less per write); a failure then sets
        # `failed_bare` and the job runs again, careful (`postgres._run_job`).
        self.careful = True
        self.failed_bare = False

    @classmethod
    def connect(cls, url: str, *, read_only: bool = False) -> SyncConnection:
        raw = psycopg.connect(url, autocommit=True)
        raw.row_factory = _row_factory  # type: ignore[assignment]
        if read_only:
            raw.execute("SET default_transaction_read_only = on")
        return cls(raw)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status in (
            TransactionStatus.INTRANS,
            TransactionStatus.INERROR,
        )

    @property
    def broken(self) -> bool:
        return self.raw.closed or self.raw.info.transaction_status == TransactionStatus.UNKNOWN

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> Result:
        mode = "named" if isinstance(params, dict) else "positional" if params else "none"
        query, write, with_id = _shape(sql, mode)
        values = None if mode == "none" else params
        cursor = self._cursor
        try:
            if write and self.careful and self.in_transaction:
                rows, rowcount = self._alone(query, values)
            else:
                cursor.execute(query, values)
                result = cursor.pgresult
                ok = result and result.status == ExecStatus.TUPLES_OK
                rows, rowcount = (cursor.fetchall() if ok else []), cursor.rowcount
        except psycopg.Error as exc:
            if not self.careful and self.in_transaction:
                self.failed_bare = True  # the transaction is aborted: its job runs again
            raise as_dbapi(exc) from exc
        lastrowid = int(rows[0][0]) if rows and with_id else None
        return Result(rows, lastrowid, rowcount)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """One statement for many rows, pipelined (a copy's inserts)."""
        try:
            with self.raw.cursor() as cursor:
                cursor.executemany(translate(sql, "positional"), rows)
        except psycopg.Error as exc:
            raise as_dbapi(exc) from exc

    def _alone(self, query: str, values: Any) -> tuple[list[Row], int]:
        """A write that fails alone, as in SQLite: PostgreSQL aborts the whole transaction
        on an error, so the write runs in a savepoint of its own, rolled back to when it
        fails. Three round trips, not one pipeline: psycopg's pipeline costs the bot
        ~240 µs of CPU a write against ~140 (bench figures in docs/decisions.md)."""
        raw, cursor = self.raw, self._cursor
        cursor.execute(b"SAVEPOINT stmt")
        try:
            cursor.execute(query, values)
            result = cursor.pgresult
            rows = cursor.fetchall() if result and result.status == ExecStatus.TUPLES_OK else []
            rowcount = cursor.rowcount
        except psycopg.Error:
            if raw.info.transaction_status == TransactionStatus.INERROR:
                raw.execute(b"ROLLBACK TO SAVEPOINT stmt; RELEASE SAVEPOINT stmt")
            raise
        cursor.execute(b"RELEASE SAVEPOINT stmt")
        return rows, rowcount

    def chatter(self, sql: str) -> None:
        """Statements without parameters (BEGIN, SET LOCAL, SAVEPOINT …) in one round trip,
        on the simple protocol (`;`-separated)."""
        try:
            self.raw.execute(sql.encode())
        except psycopg.Error as exc:
            raise as_dbapi(exc) from exc

    def script(self, sql: str) -> None:
        """Several statements at once (a migration file: functions hold `;` in `$$`)."""
        try:
            self.raw.execute(sql.encode())  # bytes: no placeholder parsing, simple protocol
        except psycopg.Error as exc:
            raise as_dbapi(exc) from exc

    def close(self) -> None:
        self.raw.close()


class AsyncResult:
    """`Result` with aiosqlite's awaitable cursor methods."""

    __slots__ = ("_result", "lastrowid", "rowcount")

    def __init__(self, result: Result) -> None:
        self._result = result
        self.lastrowid = result.lastrowid
        self.rowcount = result.rowcount

    async def fetchone(self) -> Row | None:
        return self._result.fetchone()

    async def fetchall(self) -> list[Row]:
        return self._result.fetchall()

    async def close(self) -> None:
        pass


class AsyncConnection:
    """The same connection as aiosqlite's `Connection` is used (`await conn.execute`,
    `execute_fetchall`, `execute_insert`), each statement on the connection's thread."""

    dialect = DIALECT

    def __init__(self, sync: SyncConnection, executor: ThreadPoolExecutor) -> None:
        self.sync = sync
        self.executor = executor

    @classmethod
    async def connect(cls, url: str, *, read_only: bool = False) -> AsyncConnection:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bondbot-pg")
        loop = asyncio.get_running_loop()
        try:
            sync = await loop.run_in_executor(
                executor, lambda: SyncConnection.connect(url, read_only=read_only)
            )
        except BaseException:
            executor.shutdown(wait=False)
            raise
        return cls(sync, executor)

    async def run(self, call: Callable[[], T]) -> T:
        """`call` on the connection's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, call)

    @property
    def in_transaction(self) -> bool:
        return self.sync.in_transaction

    async def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> AsyncResult:
        return AsyncResult(await self.run(lambda: self.sync.execute(sql, params)))

    async def execute_fetchall(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> list[Row]:
        return (await self.run(lambda: self.sync.execute(sql, params))).rows

    async def execute_insert(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> tuple[int] | None:
        result = await self.run(lambda: self.sync.execute(sql, params))
        return None if result.lastrowid is None else (result.lastrowid,)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.run(lambda: self.sync.executemany(sql, rows))

    async def close(self) -> None:
        try:
            await self.run(self.sync.close)
        finally:
            self.executor.shutdown(wait=False)
