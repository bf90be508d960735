"""The writer's cost per job when each job is alone in its batch, as at real tables' rates.

    python bench/storage/writer_alone.py [--jobs 400] [--gap-ms 10] [--rounds 3]
                                         [--synchronous NORMAL|FULL]

Under the open loop (bench/load/load.py --rate) a table's clicks rarely meet another's in the
writer's queue: each wager, deal and spend is a batch of one, and pays the whole hand-off
(the drain task, the hop to aiosqlite's thread, BEGIN IMMEDIATE … COMMIT, the answer back
on the loop) by itself. This submits `--jobs` jobs one at a time, `--gap-ms` apart, each
inserting a 2 KB row (a table's state is about that), through `storage.writer.Writer`,
with the loop's blocked hand-off (HANDOFF_S as shipped) and without it (0), in alternating
rounds; then the same transaction run inline with sqlite3 (no thread, no loop), the floor
of what the database itself costs. Prints per job: the process's CPU (every thread), the
loop thread's CPU, and the latency p50/p99 of `submit`. `--synchronous` is NORMAL by
default, as the bot opens its database (`storage.db.Database.open`: in WAL, no fsync per
commit); FULL adds one. A few seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.storage import writer

ROW = "x" * 2000


def create(path: Path, synchronous: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    return conn


def job(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO t (v) VALUES (?)", (ROW,))


async def through_writer(
    handoff: float, jobs: int, gap: float, synchronous: str
) -> tuple[float, float, float, float]:
    writer.HANDOFF_S = handoff  # read by writer._on_thread at each batch
    with tempfile.TemporaryDirectory(prefix="bondbot-writer-alone-") as tmp:
        path = Path(tmp) / "db.sqlite3"
        create(path, synchronous).close()
        w = await writer.Writer.open(path, synchronous=synchronous)
        try:
            for _ in range(20):  # warm
                await w.submit(job, deadline=writer.deadline_after(2.5))
            cpu = loop_cpu = 0.0
            latencies = []
            for _ in range(jobs):
                await asyncio.sleep(gap)
                process, thread = time.process_time(), time.thread_time()
                start = time.perf_counter()
                await w.submit(job, deadline=writer.deadline_after(2.5))
                latencies.append(time.perf_counter() - start)
                cpu += time.process_time() - process
                loop_cpu += time.thread_time() - thread
        finally:
            await w.close()
    latencies.sort()
    return (
        1000 * cpu / jobs,
        1000 * loop_cpu / jobs,
        1000 * latencies[jobs // 2],
        1000 * latencies[int(0.99 * jobs)],
    )


def inline(jobs: int, gap: float, synchronous: str) -> tuple[float, float]:
    """The same transaction (BEGIN IMMEDIATE, a savepoint, the insert, COMMIT) with sqlite3
    on this thread: CPU per job, and its system part (the fsync)."""
    with tempfile.TemporaryDirectory(prefix="bondbot-writer-alone-") as tmp:
        conn = create(Path(tmp) / "db.sqlite3", synchronous)
        cpu = system = 0.0
        for _ in range(jobs):
            time.sleep(gap)
            process, before = time.process_time(), os.times()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("SAVEPOINT job")
            job(conn)
            conn.execute("RELEASE job")
            conn.execute("COMMIT")
            cpu += time.process_time() - process
            system += os.times().system - before.system
        conn.close()
    return 1000 * cpu / jobs, 1000 * system / jobs


async def main_async(args: argparse.Namespace) -> None:
    shipped = writer.HANDOFF_S
    gap = args.gap_ms / 1000
    print(
        f"{args.jobs} jobs, one at a time, {args.gap_ms:g} ms apart, a 2 KB insert each,"
        f" synchronous={args.synchronous}"
    )
    for number in range(1, args.rounds + 1):
        for handoff in (shipped, 0.0):
            cpu, loop_cpu, p50, p99 = await through_writer(
                handoff, args.jobs, gap, args.synchronous
            )
            print(
                f"round {number} writer, HANDOFF_S={handoff:g}: CPU {cpu:.3f} ms/job (the loop"
                f" thread's {loop_cpu:.3f}), submit p50 {p50:.2f} ms, p99 {p99:.2f} ms"
            )
        cpu, system = inline(args.jobs, gap, args.synchronous)
        print(f"round {number} inline sqlite3: CPU {cpu:.3f} ms/job, of which system {system:.3f}")
    writer.HANDOFF_S = shipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=400)
    parser.add_argument("--gap-ms", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="NORMAL")
    args = parser.parse_args(argv)
    if args.jobs < 2 or args.rounds < 1 or args.gap_ms < 0:
        parser.error("--jobs >= 2, --rounds >= 1, --gap-ms >= 0")
    asyncio.run(main_async(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
