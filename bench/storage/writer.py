"""Three ways to write a table action, side by side at 1/10/50/150 concurrent actions.

An action is what a table click writes: read the seats' chips and the bank, six ledger
rows (three wagers lost to the bank, three paid back, through the real triggers and
CHECKs) and the table's state (a 2 KB JSON document) — ten statements in one
transaction. Each client plays its own table in a closed loop until `--actions` actions
are done in all. The ways:

- transaction: `storage.db.Database.transaction()`, the connection taken between two
  batches and a hop to aiosqlite's thread per statement (migrations, backups, the few
  writes whose reads decide them);
- aiosqlite: the same transaction, one aiosqlite hop per statement, under one lock;
- writer: `storage.writer.Writer`, the action as one job; batches commit together.

Prints actions/s, p50/p99 latency (a client's previous answer to this one: the time it
waits for the loop counts, as a user's would) and the event loop thread's CPU per
action (time.thread_time on the loop: what the bot's other work cannot use). Every way
runs with the same `--synchronous` (NORMAL: no fsync per commit, today's setting). Also
printed: actions per commit. No targets: it compares.

    .venv/bin/python bench/storage/writer.py [--actions 3000] [--clients 1,10,50,150]
                                             [--synchronous NORMAL|FULL] [--database URL]
                                             [--rounds 1]

`--database postgresql://…`: the group-commit writer on SQLite and on that PostgreSQL
database (a schema of its own, dropped after), alternated `--rounds` times, with the
process's CPU per action (every thread: PostgreSQL's work is on the connection's thread)
and the ratio PostgreSQL/SQLite; the server's own CPU is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bondbot.storage.db import Database
from bondbot.storage.writer import Writer, deadline_after

NOW = "2026-01-02T03:04:05.000+00:00"
STATE = json.dumps({"seats": [{"character_id": i, "wager": 100 * i} for i in range(40)]})
Statement = tuple[str, tuple[Any, ...]]


def action(table: int) -> list[Statement]:
    """The ten statements of one action at `table` (seats are characters 1-3)."""
    chips = [f"chips:{table}:{seat}" for seat in (1, 2, 3)]
    bank = f"bank:{table}"
    insert = (
        "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id, created_at)"
        " VALUES (1, 'cash', ?, ?, ?, ?, ?, ?)"
    )
    return [
        ("SELECT account, balance FROM balances WHERE account IN (?, ?, ?)", tuple(chips)),
        ("SELECT balance FROM balances WHERE account = ? AND kind = 'cash'", (bank,)),
        *((insert, (100, c, bank, "table.lost", table, NOW)) for c in chips),
        *((insert, (100, bank, c, "table.won", table, NOW)) for c in chips),
        ("UPDATE card_tables SET state = ?, updated_at = ? WHERE id = ?", (STATE, NOW, table)),
    ]


async def prepare(path: Path, tables: int, synchronous: str) -> None:
    async with await Database.open(path) as db:
        await db.migrate()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("BEGIN")
    for table in range(1, tables + 1):
        conn.execute(
            "INSERT INTO card_tables (id, guild_id, channel_id, game, status, state, created_at,"
            " updated_at) VALUES (?, 1, ?, 'punto_banco', 'open', ?, ?, ?)",
            (table, table, STATE, NOW, NOW),
        )
        conn.execute(
            "INSERT INTO balances (account, kind, unlimited) VALUES (?, 'cash', 1)",
            (f"bank:{table}",),
        )
        for seat in (1, 2, 3):
            conn.execute(
                "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, created_at)"
                " VALUES (1, 'cash', 1000000000, NULL, ?, 'bench', ?)",
                (f"chips:{table}:{seat}", NOW),
            )
    conn.execute("COMMIT")
    conn.close()


class Transaction:
    name = "Database.transaction"

    async def open(self, path: Path, synchronous: str) -> None:
        self.db = await Database.open(path)
        async with self.db.transaction() as conn:
            await conn.execute("SELECT 1")
        async with self.db.writer.exclusive() as conn:
            await conn.execute(f"PRAGMA synchronous = {synchronous}")

    async def run(self, statements: list[Statement]) -> None:
        async with self.db.transaction() as conn:
            for sql, params in statements:
                await conn.execute_fetchall(sql, params)

    async def close(self) -> None:
        await self.db.close()


class PerStatement:
    name = "aiosqlite, a hop per statement"

    async def open(self, path: Path, synchronous: str) -> None:
        self.conn = await aiosqlite.connect(path, isolation_level=None)
        for pragma in ("journal_mode = WAL", f"synchronous = {synchronous}", "busy_timeout = 5000"):
            await self.conn.execute(f"PRAGMA {pragma}")
        self.lock = asyncio.Lock()

    async def run(self, statements: list[Statement]) -> None:
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    await self.conn.execute_fetchall(sql, params)
                await self.conn.execute("COMMIT")
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise

    async def close(self) -> None:
        await self.conn.close()


class GroupCommit:
    name = "group-commit writer"

    async def open(self, path: Path, synchronous: str) -> None:
        self.writer = await Writer.open(path, synchronous=synchronous)

    async def run(self, statements: list[Statement]) -> None:
        def job(conn: sqlite3.Connection) -> None:
            for sql, params in statements:
                conn.execute(sql, params).fetchall()

        await self.writer.submit(job, deadline=deadline_after(10.0))

    async def close(self) -> None:
        await self.writer.close()


class PgGroupCommit(GroupCommit):
    name = "group-commit writer, PostgreSQL"

    async def open(self, path: Any, synchronous: str) -> None:
        from bondbot.storage.postgres import PgWriter

        self.writer = await PgWriter.open(path)


async def prepare_pg(url: str, tables: int) -> str:
    """A fresh schema of `url`, migrated and seeded as `prepare` seeds SQLite."""
    import psycopg

    schema = f"bench_writer_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.execute(f"CREATE SCHEMA {schema}")
    target = f"{url}{'&' if '?' in url else '?'}options=" + urllib.parse.quote(
        f"-csearch_path={schema}"
    )
    async with await Database.open(target) as db:
        await db.migrate()
        for table in range(1, tables + 1):
            await db.writer.execute(
                [
                    (
                        "INSERT INTO card_tables (id, guild_id, channel_id, game, status, state,"
                        " created_at, updated_at) VALUES (?, 1, ?, 'punto_banco', 'open', ?, ?, ?)",
                        (table, table, STATE, NOW, NOW),
                    ),
                    (
                        "INSERT INTO balances (account, kind, unlimited) VALUES (?, 'cash', 1)",
                        (f"bank:{table}",),
                    ),
                    *(
                        (
                            "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason,"
                            " created_at) VALUES (1, 'cash', 1000000000, NULL, ?, 'bench', ?)",
                            (f"chips:{table}:{seat}", NOW),
                        )
                        for seat in (1, 2, 3)
                    ),
                ],
                deadline=deadline_after(60.0),
            )
    return target


def drop_pg(url: str, target: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA IF EXISTS bench_writer_{os.getpid()} CASCADE")


async def measure(
    way: Any, path: Path, clients: int, actions: int, synchronous: str
) -> dict[str, float]:
    await way.open(path, synchronous)
    latencies: list[float] = []
    left = actions

    async def client(table: int, run: Callable[[list[Statement]], Awaitable[None]]) -> None:
        nonlocal left
        statements = action(table)
        start = time.perf_counter()
        while left > 0:
            left -= 1
            await asyncio.sleep(0)  # the next click is a new event: the others go first
            await run(statements)
            # from the previous answer: the wait for the loop counts
            done = time.perf_counter()
            latencies.append(done - start)
            start = done

    cpu, wall, process = time.thread_time(), time.perf_counter(), time.process_time()
    await asyncio.gather(*(client(t, way.run) for t in range(1, clients + 1)))
    cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    process = time.process_time() - process
    batches = getattr(getattr(way, "writer", None), "stats", None)
    await way.close()
    latencies.sort()
    return {
        "rate": len(latencies) / wall,
        "p50": statistics.median(latencies) * 1000,
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "cpu": cpu / len(latencies) * 1000,
        "process": process / len(latencies) * 1000,
        "per_commit": (
            statistics.mean(batches.sizes) if batches is not None and batches.sizes else 1.0
        ),
    }


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--clients", default="1,10,50,150")
    parser.add_argument("--synchronous", choices=("NORMAL", "FULL"), default="NORMAL")
    parser.add_argument("--database", metavar="URL", help="also the writer on this PostgreSQL")
    parser.add_argument("--rounds", type=int, default=1, help="with --database: alternations")
    args = parser.parse_args()
    levels = [int(n) for n in args.clients.split(",")]
    if args.database:
        return await backends(args, levels)
    print(f"{args.actions} actions per cell, synchronous={args.synchronous}")
    print(
        f"{'way':<32} {'clients':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8}"
        f" {'loop CPU/action ms':>19} {'actions/commit':>15}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for way_class in (Transaction, PerStatement, GroupCommit):
            for clients in levels:
                path = Path(scratch) / f"{way_class.__name__}-{clients}.sqlite3"
                await prepare(path, max(levels), args.synchronous)
                row = await measure(way_class(), path, clients, args.actions, args.synchronous)
                print(
                    f"{way_class.name:<32} {clients:>7} {row['rate']:>10.0f} {row['p50']:>8.2f}"
                    f" {row['p99']:>8.2f} {row['cpu']:>19.3f} {row['per_commit']:>15.1f}"
                )
    return 0


async def backends(args: argparse.Namespace, levels: list[int]) -> int:
    """The group-commit writer on SQLite and on PostgreSQL, alternated, by clients."""
    print(f"{args.actions} actions per cell; process CPU per action (every thread)")
    print(
        f"{'round':>5} {'clients':>7} {'backend':<11} {'actions/s':>10} {'p99 ms':>8}"
        f" {'CPU/action ms':>14} {'PG/SQLite CPU':>14}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for number in range(1, args.rounds + 1):
            for clients in levels:
                rows: dict[str, dict[str, float]] = {}
                order = ["SQLite", "PostgreSQL"][:: 1 if number % 2 else -1]
                for backend in order:
                    if backend == "SQLite":
                        path: Any = Path(scratch) / f"{number}-{clients}.sqlite3"
                        await prepare(path, clients, args.synchronous)
                        way: Any = GroupCommit()
                    else:
                        path = await prepare_pg(args.database, clients)
                        way = PgGroupCommit()
                    try:
                        rows[backend] = await measure(
                            way, path, clients, args.actions, args.synchronous
                        )
                    finally:
                        if backend != "SQLite":
                            drop_pg(args.database, path)
                for backend in order:
                    row = rows[backend]
                    share = row["process"] / rows["SQLite"]["process"]
                    print(
                        f"{number:>5} {clients:>7} {backend:<11} {row['rate']:>10.0f}"
                        f" {row['p99']:>8.2f} {row['process']:>14.3f}"
                        f" {f'{share:.2f}x' if backend != 'SQLite' else '':>14}"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
