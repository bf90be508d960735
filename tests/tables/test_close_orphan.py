"""A table nobody can reach closes once, whoever closes it (issue 30).

Two events in one process (CHANNEL_DELETE and the start-up check), or two processes on one
database: one close, its ledger rows written once and saying why; the others are told
nothing was left to close. Nothing is drawn for it: its listeners are not called.
"""

from __future__ import annotations

import asyncio

from table_helpers import BOND_OWNER, VESPER_OWNER, Clock, assert_conserved, open_table, service

from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot


async def _seated(db: Database, clock: Clock) -> tuple[int, dict[str, int]]:
    tables, table, ids = await open_table(db, clock, [], game="punto_banco")
    await tables.join(table, BOND_OWNER, ids["bond"], 30_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 20_000)
    return table, ids


async def _reasons(db: Database, table: int) -> list[str]:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT reason FROM ledger WHERE table_id = ? AND reason LIKE 'table.%'"
            " AND reason NOT IN ('table.buy_in', 'table.bankroll') ORDER BY id",
            (table,),
        )
    return [str(reason) for (reason,) in rows]


async def test_two_events_in_one_process_close_once(db: Database) -> None:
    clock = Clock()
    table, _ = await _seated(db, clock)
    tables = service(db, clock)
    told: list[TableSnapshot] = []

    async def listener(snapshot: TableSnapshot) -> None:
        told.append(snapshot)

    tables.listeners.append(listener)
    await tables.resume()
    first, second = await asyncio.gather(
        tables.close_orphan(table, "channel_deleted"), tables.close_orphan(table, "bot_removed")
    )
    assert [first is None, second is None].count(True) == 1
    closed = first or second
    assert closed is not None and not closed.open
    why = "channel_deleted" if first else "bot_removed"
    assert await _reasons(db, table) == [f"table.cash_out.{why}"] * 2 + [f"table.bank_close.{why}"]
    assert told == []  # its channel is gone: nothing to draw
    assert await tables.close_orphan(table, "channel_deleted") is None
    await assert_conserved(db)


async def test_two_processes_close_once(db: Database) -> None:
    clock = Clock()
    table, _ = await _seated(db, clock)
    one, other = service(db, clock), service(db, clock)
    await one.resume()
    await other.resume()  # both hold the table in memory, as two processes would
    results = await asyncio.gather(
        one.close_orphan(table, "channel_deleted"), other.close_orphan(table, "channel_deleted")
    )
    assert sorted(r is None for r in results) == [False, True]
    assert await _reasons(db, table) == ["table.cash_out.channel_deleted"] * 2 + [
        "table.bank_close.channel_deleted"
    ]
    await assert_conserved(db)
