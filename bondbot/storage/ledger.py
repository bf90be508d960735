"""The ledger: the only way cash and Hero Points move, one append-only row per movement.

Each row takes `amount` from `src` and gives it to `dst` (NULL = outside the game), so
every row balances by construction. The `balances` table is kept by triggers on the
ledger INSERT itself and can be rebuilt from the ledger alone (`recompute_balances`).
Call these inside `db.transaction()`, so a movement commits with the state explaining it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Literal

from bondbot.errors import Refusal
from bondbot.money import MAX_AMOUNT
from bondbot.storage.conn import Connection, dialect_of

LedgerKind = Literal["cash", "hero"]
KINDS: tuple[LedgerKind, ...] = ("cash", "hero")
NOTE_MAX = 500
PAGE_MAX = 100
MAX_ID = 2**63 - 1  # above every row id: the cursor of the newest page
_ACCOUNT = re.compile(
    r"^(?:sheet:\d+|chips:\d+:\d+|bank:\d+|pot:\d+:[a-z0-9_]{1,24}|layout:\d+:[A-Za-z0-9_]{1,24})$"
)
_ACCOUNT_PREFIX = re.compile(r"^[a-z]+(?::\d*)*$")
_REASON = re.compile(r"^[a-z0-9_.:-]{1,64}$")


def sheet_account(character_id: int) -> str:
    """A character sheet's cash or Hero Points (by the row's kind)."""
    return f"sheet:{character_id}"


class InsufficientFunds(Refusal):
    """A limited account would go below zero; nothing was written."""

    def __init__(self, account: str, kind: str, available: int, requested: int) -> None:
        super().__init__(
            "ledger.insufficient_funds",
            account=account,
            kind=kind,
            available=available,
            requested=requested,
        )
        self.account = account
        self.kind = kind
        self.available = available
        self.requested = requested


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    guild_id: int
    kind: LedgerKind
    amount: int
    src: str | None
    dst: str | None
    reason: str
    table_id: int | None
    actor_id: int | None
    note: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class LedgerPage:
    """Newest first; pass `next_before_id` as `before_id` for the next (older) page."""

    entries: list[LedgerEntry]
    next_before_id: int | None


def _check_account(account: str | None) -> None:
    if account is not None and not _ACCOUNT.match(account):
        raise ValueError(f"not a ledger account: {account!r}")


def _check_transfer(
    kind: str,
    amount: int,
    src: str | None,
    dst: str | None,
    reason: str,
    note: str | None,
    now: str,
) -> None:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if type(amount) is not int or not 0 < amount <= MAX_AMOUNT:
        raise ValueError(f"amount must be a whole number 1..{MAX_AMOUNT}, not {amount!r}")
    _check_account(src)
    _check_account(dst)
    if src == dst:
        raise ValueError("a transfer needs two different ends (at most one outside the game)")
    if not _REASON.match(reason):
        raise ValueError(f"reason must be a short key like 'gm.grant', not {reason!r}")
    if note is not None and len(note) > NOTE_MAX:
        raise ValueError(f"note longer than {NOTE_MAX} characters")
    datetime.fromisoformat(now)  # raises ValueError on a malformed timestamp


_INSERT = (
    "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id, actor_id,"
    " note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def append_transfer(
    conn: sqlite3.Connection,
    *,
    guild_id: int,
    kind: LedgerKind,
    amount: int,
    src: str | None,
    dst: str | None,
    reason: str,
    table_id: int | None = None,
    actor_id: int | None = None,
    note: str | None = None,
    now: str,
) -> int:
    """`transfer` for a job of the group-commit writer (`storage.writer`): synchronous, on
    the writer's sqlite3 connection, inside the job's savepoint. Same checks, same
    InsufficientFunds (which fails that job alone)."""
    _check_transfer(kind, amount, src, dst, reason, note, now)
    if not conn.in_transaction:
        raise RuntimeError("ledger.append_transfer runs inside a writer job")
    try:
        cursor = conn.execute(
            _INSERT, (guild_id, kind, amount, src, dst, reason, table_id, actor_id, note, now)
        )
    except sqlite3.IntegrityError as exc:
        if src is not None and "CHECK constraint failed" in str(exc):
            held = conn.execute(
                "SELECT balance FROM balances WHERE account = ? AND kind = ?", (src, kind)
            ).fetchone()
            raise InsufficientFunds(src, kind, held[0] if held else 0, amount) from exc
        raise
    assert cursor.lastrowid is not None
    return cursor.lastrowid


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement for `append_transfers` (the rest of the row is the action's)."""

    kind: LedgerKind
    amount: int
    src: str | None
    dst: str | None
    reason: str
    note: str | None = None


def append_transfers(
    conn: sqlite3.Connection,
    transfers: Sequence[Transfer],
    *,
    guild_id: int,
    table_id: int | None = None,
    actor_id: int | None = None,
    now: str,
) -> None:
    """`append_transfer` for each, in order (an action's rows, in its writer job). On
    PostgreSQL one multi-row INSERT carries them all: one round trip instead of one a
    row; the triggers still move the balances row by row, in order, so a CHECK refuses
    exactly what it refused row by row. When one does, the rows are written again one by
    one (the statement wrote nothing) to raise the same `InsufficientFunds`."""
    if len(transfers) < 2 or dialect_of(conn) != "postgresql":
        for one in transfers:
            _append(conn, one, guild_id=guild_id, table_id=table_id, actor_id=actor_id, now=now)
        return
    for one in transfers:
        _check_transfer(one.kind, one.amount, one.src, one.dst, one.reason, one.note, now)
    if not conn.in_transaction:
        raise RuntimeError("ledger.append_transfers runs inside a writer job")
    values = [
        (guild_id, t.kind, t.amount, t.src, t.dst, t.reason, table_id, actor_id, t.note, now)
        for t in transfers
    ]
    try:
        conn.execute(_insert_rows(len(values)), [v for row in values for v in row])
    except sqlite3.IntegrityError as exc:
        if "CHECK constraint failed" not in str(exc):
            raise
        for one in transfers:  # the refused row raises as it would alone
            _append(conn, one, guild_id=guild_id, table_id=table_id, actor_id=actor_id, now=now)
        raise


def _append(
    conn: sqlite3.Connection,
    one: Transfer,
    *,
    guild_id: int,
    table_id: int | None,
    actor_id: int | None,
    now: str,
) -> None:
    append_transfer(
        conn,
        guild_id=guild_id,
        kind=one.kind,
        amount=one.amount,
        src=one.src,
        dst=one.dst,
        reason=one.reason,
        table_id=table_id,
        actor_id=actor_id,
        note=one.note,
        now=now,
    )


@lru_cache(maxsize=64)
def _insert_rows(count: int) -> str:
    """The ledger INSERT for `count` rows (one text per count: each is prepared once)."""
    return _INSERT + ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" * (count - 1)


async def transfer(
    conn: Connection,
    *,
    guild_id: int,
    kind: LedgerKind,
    amount: int,
    src: str | None,
    dst: str | None,
    reason: str,
    table_id: int | None = None,
    actor_id: int | None = None,
    note: str | None = None,
    now: str,
) -> int:
    """Move `amount` (cents, or Hero Points) from `src` to `dst`; return the ledger row id.

    Raises InsufficientFunds, writing nothing, when `src` is a limited account holding
    less than `amount`. Must run inside `db.transaction()`.
    """
    _check_transfer(kind, amount, src, dst, reason, note, now)
    if not conn.in_transaction:
        raise RuntimeError("ledger.transfer must run inside db.transaction()")
    # One statement: the triggers move the balances, and a limited account's CHECK
    # (balance >= 0) fails the whole INSERT when it would overdraw, so nothing is written.
    try:
        row = await conn.execute_insert(
            _INSERT, (guild_id, kind, amount, src, dst, reason, table_id, actor_id, note, now)
        )
    except sqlite3.IntegrityError as exc:
        if src is not None and "CHECK constraint failed" in str(exc):
            raise InsufficientFunds(src, kind, await balance(conn, src, kind), amount) from exc
        raise
    row_id = None if row is None else row[0]
    assert row_id is not None
    return row_id


async def balance(conn: Connection, account: str, kind: LedgerKind) -> int:
    """What `account` holds of `kind` (0 if it never moved); negative only when unlimited."""
    _check_account(account)
    rows = list(
        await conn.execute_fetchall(
            "SELECT balance FROM balances WHERE account = ? AND kind = ?", (account, kind)
        )
    )
    return rows[0][0] if rows else 0


async def set_unlimited(
    conn: Connection, account: str, kind: LedgerKind, unlimited: bool = True
) -> None:
    """Let `account` go below zero (an NPC's unlimited bank), or stop it (only from ≥ 0).

    A flag, not a movement: what an unlimited account pays out still goes through the
    ledger, so the books stay balanced.
    """
    _check_account(account)
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if not unlimited and await balance(conn, account, kind) < 0:
        raise ValueError(f"{account} is below zero: settle it before limiting it")
    await conn.execute(
        "INSERT INTO balances (account, kind, unlimited) VALUES (?, ?, ?)"
        " ON CONFLICT (account, kind) DO UPDATE SET unlimited = excluded.unlimited",
        (account, kind, int(unlimited)),
    )


def mark_unlimited(conn: sqlite3.Connection, account: str, kind: LedgerKind) -> None:
    """`set_unlimited` for a writer job: a new account that may go below zero."""
    _check_account(account)
    conn.execute(
        "INSERT INTO balances (account, kind, unlimited) VALUES (?, ?, 1)"
        " ON CONFLICT (account, kind) DO UPDATE SET unlimited = 1",
        (account, kind),
    )


async def account_states(
    conn: Connection, accounts: list[str], prefixes: list[str] = ()
) -> dict[tuple[str, str], tuple[int, bool]]:
    """Balance and unlimited flag of these accounts and of every account under `prefixes`.

    One query: what a table action needs of the ledger before it decides anything.
    """
    for account in accounts:
        _check_account(account)
    for prefix in prefixes:
        _check_prefix(prefix)
    clauses = []
    params: list[str | int] = []
    if accounts:
        clauses.append(f"account IN ({', '.join('?' * len(accounts))})")
        params += accounts
    for prefix in prefixes:  # a range on the primary key, not a scan
        clauses.append("(account >= ? AND account < ?)")
        params += [prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)]
    if not clauses:
        return {}
    rows = await conn.execute_fetchall(
        f"SELECT account, kind, balance, unlimited FROM balances WHERE {' OR '.join(clauses)}",
        params,
    )
    return {(account, kind): (value, bool(unlimited)) for account, kind, value, unlimited in rows}


async def recompute_balances(conn: Connection) -> dict[tuple[str, str], int]:
    """Every non-zero `(account, kind)` balance, from the ledger alone."""
    rows = await conn.execute_fetchall(
        "SELECT account, kind, CAST(SUM(delta) AS BIGINT) FROM ("
        " SELECT src AS account, kind, -amount AS delta FROM ledger WHERE src IS NOT NULL"
        " UNION ALL"
        " SELECT dst AS account, kind, amount AS delta FROM ledger WHERE dst IS NOT NULL"
        ") AS moves GROUP BY account, kind HAVING SUM(delta) != 0"
    )
    return {(row[0], row[1]): row[2] for row in rows}


async def stored_balances(conn: Connection) -> dict[tuple[str, str], int]:
    """Every non-zero balance as the balances table holds it."""
    rows = await conn.execute_fetchall(
        "SELECT account, kind, balance FROM balances WHERE balance != 0"
    )
    return {(row[0], row[1]): row[2] for row in rows}


async def verify_balances(
    conn: Connection,
) -> dict[tuple[str, str], tuple[int, int]]:
    """Accounts whose stored balance differs from the ledger: `{key: (stored, ledger)}`."""
    stored, computed = await stored_balances(conn), await recompute_balances(conn)
    return {
        key: (stored.get(key, 0), computed.get(key, 0))
        for key in stored.keys() | computed.keys()
        if stored.get(key, 0) != computed.get(key, 0)
    }


def _check_prefix(prefix: str) -> None:
    if not _ACCOUNT_PREFIX.match(prefix):
        raise ValueError(f"not an account prefix: {prefix!r}")


_ENTRY = (
    "SELECT id, guild_id, kind, amount, src, dst, reason, table_id, actor_id, note, created_at"
    " FROM ledger"
)


def _character_ids(direction: str) -> str:
    """Ids of one character's rows (`:character`) in `:guild` beyond `:cursor`, nearest
    first, at most `:count` from each end: two ranges of the src_character and
    dst_character indexes (0004), so the cost is the page's, not the ledger's.
    `direction` is `<` (older) or `>` (newer)."""
    order = "DESC" if direction == "<" else "ASC"
    return " UNION ALL ".join(
        f"SELECT id FROM (SELECT id FROM ledger WHERE {end}_character = :character"
        f" AND guild_id = :guild AND id {direction} :cursor ORDER BY id {order} LIMIT :count)"
        f" AS {end}_rows"
        for end in ("src", "dst")
    )


async def ledger_page(
    conn: Connection,
    guild_id: int,
    *,
    character_id: int | None = None,
    before_id: int | None = None,
    limit: int = 10,
) -> LedgerPage:
    """One page of a guild's ledger, newest first, optionally only the rows that touch a
    character's sheet or his chips at any table."""
    if not 1 <= limit <= PAGE_MAX:
        raise ValueError(f"limit must be 1..{PAGE_MAX}")
    cursor = MAX_ID if before_id is None else before_id
    if character_id is None:
        sql = f"{_ENTRY} WHERE guild_id = :guild AND id < :cursor ORDER BY id DESC LIMIT :count"
    else:
        sql = f"{_ENTRY} WHERE id IN ({_character_ids('<')}) ORDER BY id DESC LIMIT :count"
    params = {"character": character_id, "cursor": cursor, "count": limit + 1, "guild": guild_id}
    rows = list(await conn.execute_fetchall(sql, params))
    entries = [LedgerEntry(*row) for row in rows[:limit]]
    return LedgerPage(entries, entries[-1].id if len(rows) > limit else None)


async def newer_cursor(
    conn: Connection,
    guild_id: int,
    newest_shown: int,
    *,
    character_id: int | None = None,
    limit: int = 10,
) -> int | None:
    """The `before_id` of the page just newer than one whose newest row is `newest_shown`.

    That page holds the `limit` rows above `newest_shown` (the same rows `ledger_page`
    keeps); its cursor is the row after them, or None (the newest page) when there are
    not that many.
    """
    if character_id is None:
        sql = "SELECT id FROM ledger WHERE guild_id = :guild AND id > :cursor"
    else:
        sql = f"SELECT id FROM ledger WHERE id IN ({_character_ids('>')})"
    params = {"character": character_id, "cursor": newest_shown, "count": limit + 1}
    rows = list(
        await conn.execute_fetchall(
            f"{sql} ORDER BY id LIMIT 1 OFFSET :offset",
            {**params, "guild": guild_id, "offset": limit},
        )
    )
    return int(rows[0][0]) if rows else None


async def table_entries(conn: Connection, table_id: int) -> list[LedgerEntry]:
    """Every row a card table wrote, oldest first (its evening: `tables.summary.evening`)."""
    rows = await conn.execute_fetchall(f"{_ENTRY} WHERE table_id = ? ORDER BY id", (table_id,))
    return [LedgerEntry(*row) for row in rows]
