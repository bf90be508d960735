"""The evening's summary at a table's close: its ledger read, the summary, its text, its chart.

    python bench/storage/summary.py [--hands 200] [--pcs 6] [--other-tables 100] [--repeat 20]
                                    [--seed 7]

Builds a temp database where `--other-tables` evenings were played before (a busy server's
ledger) and then the measured one: `--pcs` PCs buy in, each of `--hands` hands settles
every PC's wager against the NPC in one action (blackjack-like), a third of the lost ones
are won back with a Hero Point, then everyone cashes out; each row noted with its hand,
as tables write them. Prints the ledger's size, then the median and worst of `--repeat`
runs of: the storage query (`ledger.table_entries`, one range of the `ledger_by_table`
index, on the bot's read connection), the pure summary (`tables.summary.evening`), both
together, its text and its chart (`pictures.chart.evening_chart`: a styled line per PC,
the NPC's, the Hero Point marks; with the chart's PNG size).
Target: query and summary together under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.money import format_amount
from bondbot.pictures.chart import evening_chart
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.money import hand_note
from bondbot.tables.summary import evening, evening_text

TARGET_MS = 50.0
GUILD = 1
Row = tuple[str, int, str | None, str | None, str, int, int | None, str, str]


def one_evening(table: int, pcs: list[int], hands: int, rng: random.Random) -> list[Row]:
    """(kind, amount, src, dst, reason, table, actor, created_at, note) of one evening; the
    note says the table's hand, as a table writes it (`tables.money.hand_note`)."""
    rows: list[Row] = []
    second = 0
    hand = 0

    def note() -> str:
        return hand_note(hand)

    def at() -> str:
        return f"2026-11-21T{20 + second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"

    for pc in pcs:
        second += 1
        rows.append(("cash", 500_000, None, f"sheet:{pc}", "gm.grant", None, 99, at(), note()))
        rows.append(("hero", 100, None, f"sheet:{pc}", "gm.grant", None, 99, at(), note()))
        rows.append(
            (
                "cash",
                100_000,
                f"sheet:{pc}",
                accounts.chips(table, pc),
                "table.buy_in",
                table,
                pc,
                at(),
                note(),
            )
        )
        rows.append(("hero", 2, None, f"sheet:{pc}", "award.simulate", table, pc, at(), note()))
    bank = accounts.bank(table)
    for _ in range(hands):
        hand += 1
        second += 5
        lost = []
        for pc in pcs:
            net = rng.choice((-1, 1)) * rng.randrange(100, 2_000, 100)
            chips = accounts.chips(table, pc)
            src, dst = (bank, chips) if net > 0 else (chips, bank)
            rows.append(
                (
                    "cash",
                    abs(net),
                    src,
                    dst,
                    "blackjack.win" if net > 0 else "blackjack.loss",
                    table,
                    None,
                    at(),
                    note(),
                )
            )
            if net < 0:
                lost.append((pc, -net))
        for pc, stake in lost[: len(lost) // 3]:
            second += 1
            rows.append(("hero", 1, f"sheet:{pc}", None, "spend.win_hand", table, pc, at(), note()))
            rows.append(
                (
                    "cash",
                    2 * stake,
                    bank,
                    accounts.chips(table, pc),
                    "spend.win_hand",
                    table,
                    pc,
                    at(),
                    note(),
                )
            )
    return rows


def load(conn: sqlite3.Connection, rows: list[Row], tables: set[int]) -> None:
    for table in tables:
        ledger.mark_unlimited(conn, accounts.bank(table), "cash")
    conn.executemany(
        "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id, actor_id,"
        " created_at, note) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )


def close_rows(conn: sqlite3.Connection, table: int, pcs: list[int], hands: int) -> None:
    """Everyone cashes out what the ledger says he holds."""
    for pc in pcs:
        held = conn.execute(
            "SELECT balance FROM balances WHERE account = ? AND kind = 'cash'",
            (accounts.chips(table, pc),),
        ).fetchone()[0]
        if held:
            conn.execute(
                "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id,"
                " actor_id, created_at, note) VALUES (1, 'cash', ?, ?, ?, 'table.cash_out', ?,"
                " ?, '2026-11-22T03:00:00', ?)",
                (held, accounts.chips(table, pc), f"sheet:{pc}", table, pc, hand_note(hands)),
            )


async def timed(repeat: int, run: Callable[[], Awaitable[Any]]) -> tuple[list[float], Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = await run()
        times.append((time.perf_counter() - start) * 1000)
    return times, result


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--pcs", type=int, default=6)
    parser.add_argument("--other-tables", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pcs = list(range(1, args.pcs + 1))
    measured = args.other_tables + 1
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bench.sqlite3")
        try:
            await db.migrate()
            for table in range(1, measured + 1):
                rows = one_evening(table, pcs, args.hands, rng)
                await db.submit(lambda conn, r=rows, t=table: load(conn, r, {t}))
                await db.submit(lambda conn, t=table: close_rows(conn, t, pcs, args.hands))
            async with db.read() as conn:
                total = (await conn.execute_fetchall("SELECT COUNT(*) FROM ledger"))[0][0]

            async def query() -> list[ledger.LedgerEntry]:
                async with db.read() as conn:
                    return await ledger.table_entries(conn, measured)

            query_ms, rows = await timed(args.repeat, query)

            async def summarise() -> Any:
                return evening(rows, measured, hands_played=args.hands)

            summary_ms, summary = await timed(args.repeat, summarise)
            names = {pc: f"Agent {pc:03d}" for pc in pcs}

            async def text() -> str:
                return evening_text(
                    summary, names, "fr", format_amount, hands_played=args.hands, npc="Le Chiffre"
                )

            text_ms, _ = await timed(args.repeat, text)

            async def chart() -> bytes:
                return evening_chart(summary.chart(names, "Le Chiffre"), title="Soirée")

            chart_ms, png = await timed(max(args.repeat // 4, 1), chart)
        finally:
            await db.close()
    print(
        f"ledger: {total} rows in all; the evening: {len(rows)} rows, {args.pcs} PCs,"
        f" {summary.hands} hands"
    )
    both = [q + s for q, s in zip(query_ms, summary_ms, strict=True)]
    for name, times in (
        ("query (table_entries)", query_ms),
        ("summary (evening)", summary_ms),
        ("query + summary", both),
        ("text (evening_text)", text_ms),
        ("chart (evening_chart)", chart_ms),
    ):
        print(f"{name:24s} median {statistics.median(times):7.2f} ms, worst {max(times):7.2f} ms")
    print(f"chart PNG: {len(png)} B")
    worst = max(both)
    verdict = "PASS" if worst < TARGET_MS else "FAIL"
    print(f"{verdict} query + summary under {TARGET_MS:.0f} ms: {worst:.2f} ms")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
