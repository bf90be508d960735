"""The group-commit writer on real SQLite files: batches, savepoints, failed batches,
another process holding the lock, and the ledger's own rules."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bondbot.errors import Refusal
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.storage.writer import COMMIT_MARGIN_S, Busy, WriteFailed, Writer, deadline_after

NOW = "2026-01-02T03:04:05.000+00:00"
SOON = 2.5  # seconds: the deadline of an interaction's write


@pytest.fixture
async def path(database_target: Path | str) -> Path:
    """The SQLite file of `writer`, migrated (for tests of SQLite's own lock and file)."""
    if not isinstance(database_target, Path):
        pytest.skip("tests SQLite's file")
    async with await Database.open(database_target) as db:
        await db.migrate()
    return database_target


@pytest.fixture
async def writer(database_target: Path | str) -> AsyncIterator[Writer]:
    """The writer on SQLite, and on PostgreSQL when BONDBOT_TEST_POSTGRES is set (tests of
    SQLite's own lock and file take `path` and are `sqlite_only`)."""
    async with await Database.open(database_target) as db:
        await db.migrate()
    if isinstance(database_target, Path):
        async with await Writer.open(database_target) as opened:
            yield opened
        return
    from bondbot.storage.postgres import PgWriter

    async with await PgWriter.open(database_target) as opened:
        yield opened


def grant(account: str, amount: int = 100, kind: ledger.LedgerKind = "cash") -> Any:
    def job(conn: sqlite3.Connection) -> int:
        return ledger.append_transfer(
            conn, guild_id=1, kind=kind, amount=amount, src=None, dst=account, reason="t", now=NOW
        )

    return job


def move(src: str, dst: str, amount: int) -> Any:
    def job(conn: sqlite3.Connection) -> int:
        return ledger.append_transfer(
            conn, guild_id=1, kind="cash", amount=amount, src=src, dst=dst, reason="t", now=NOW
        )

    return job


async def rows(writer: Writer) -> list[tuple[Any, ...]]:
    found = await writer.reader.fetchall("SELECT src, dst, amount FROM ledger ORDER BY id")
    return [tuple(row) for row in found]


async def balances(writer: Writer) -> dict[str, int]:
    found = await writer.reader.fetchall(
        "SELECT account, balance FROM balances WHERE kind = 'cash' AND balance != 0"
    )
    return dict(found)


async def test_concurrent_jobs_commit_in_few_transactions(writer: Writer) -> None:
    ids = await asyncio.gather(
        *(
            writer.submit(grant(f"sheet:{i}", i), deadline=deadline_after(SOON))
            for i in range(1, 201)
        )
    )
    assert sorted(ids) == list(range(1, 201))
    assert writer.stats.committed == 200 and writer.stats.commits <= 3
    assert sum(writer.stats.sizes) == 200
    assert await balances(writer) == {f"sheet:{i}": i for i in range(1, 201)}


async def test_a_failing_job_fails_alone_and_its_batch_commits(writer: Writer) -> None:
    await writer.submit(grant("sheet:1", 100), deadline=deadline_after(SOON))

    def wrote_then_refused(conn: sqlite3.Connection) -> None:
        grant("sheet:2", 7)(conn)
        raise Refusal("table.closed")

    def bad_amount(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, created_at)"
            " VALUES (1, 'cash', -5, NULL, 'sheet:3', 't', ?)",
            (NOW,),
        )

    commits = writer.stats.commits
    results = await asyncio.gather(
        writer.submit(move("sheet:1", "sheet:4", 30), deadline=deadline_after(SOON)),
        writer.submit(move("sheet:1", "sheet:5", 500), deadline=deadline_after(SOON)),
        writer.submit(wrote_then_refused, deadline=deadline_after(SOON)),
        writer.submit(bad_amount, deadline=deadline_after(SOON)),
        writer.submit(move("sheet:1", "sheet:6", 20), deadline=deadline_after(SOON)),
        return_exceptions=True,
    )
    assert writer.stats.commits == commits + 1  # one transaction for the five
    first, overdraw, refused, check, last = results
    assert isinstance(first, int) and isinstance(last, int)
    assert isinstance(overdraw, ledger.InsufficientFunds) and overdraw.available == 70
    assert isinstance(refused, Refusal) and refused.key == "table.closed"
    assert isinstance(check, sqlite3.IntegrityError)
    assert await balances(writer) == {"sheet:1": 50, "sheet:4": 30, "sheet:6": 20}
    assert writer.stats.failed == 3


async def test_a_failed_commit_refuses_the_whole_batch(writer: Writer) -> None:
    """A deferred foreign key is checked at COMMIT: the COMMIT fails, so every job of the
    batch is refused, including those that did nothing wrong."""
    await writer.execute(
        [
            ("CREATE TABLE parent (id INTEGER PRIMARY KEY)", ()),
            (
                "CREATE TABLE child (parent_id INTEGER"
                " REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)",
                (),
            ),
        ],
        deadline=deadline_after(SOON),
    )
    orphan = writer.execute([("INSERT INTO child VALUES (42)", ())], deadline=deadline_after(SOON))
    results = await asyncio.gather(
        writer.submit(grant("sheet:1"), deadline=deadline_after(SOON)),
        orphan,
        writer.submit(grant("sheet:2"), deadline=deadline_after(SOON)),
        return_exceptions=True,
    )
    assert all(type(result) is WriteFailed for result in results), results
    assert await rows(writer) == []
    assert await writer.reader.fetchall("SELECT * FROM child") == []
    await writer.submit(grant("sheet:3"), deadline=deadline_after(SOON))  # still writing
    assert await rows(writer) == [(None, "sheet:3", 100)]


@pytest.mark.sqlite_only
async def test_a_full_disk_refuses_the_whole_batch(writer: Writer) -> None:
    def cap(conn: sqlite3.Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + 2}")

    def huge(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, note, created_at)"
            " VALUES (1, 'cash', 1, NULL, 'sheet:9', 't', ?, ?)",
            ("x" * 1_000_000, NOW),
        )

    await writer.submit(cap, deadline=deadline_after(SOON))
    results = await asyncio.gather(
        writer.submit(grant("sheet:1"), deadline=deadline_after(SOON)),
        writer.submit(huge, deadline=deadline_after(SOON)),
        writer.submit(grant("sheet:2"), deadline=deadline_after(SOON)),
        return_exceptions=True,
    )
    assert all(type(result) is WriteFailed for result in results), results
    assert "full" in str(results[1])
    assert await rows(writer) == []


HOLDER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("INSERT INTO guild_settings (guild_id) VALUES (77)")
print("holding", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
"""


async def hold_the_lock(path: Path, seconds: float) -> asyncio.subprocess.Process:
    """Another process, holding the database's write lock for `seconds` from now."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(path), str(seconds), stdout=asyncio.subprocess.PIPE
    )
    assert holder.stdout is not None
    assert await holder.stdout.readline() == b"holding\n"
    return holder


class Heartbeat:
    """Ticks every 10 ms on the loop: a loop blocked meanwhile ticks once or not at all."""

    def __init__(self) -> None:
        self.ticks = 0
        self._task = asyncio.create_task(self._beat())

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.ticks += 1

    def stop(self) -> None:
        self._task.cancel()


@pytest.mark.sqlite_only  # PostgreSQL's: tests/storage/test_postgres.py
async def test_a_lock_held_elsewhere_refuses_by_the_deadline_and_never_applies_later(
    path: Path, writer: Writer
) -> None:
    holder = await hold_the_lock(path, 1.5)
    beating = Heartbeat()
    late = asyncio.create_task(writer.submit(grant("sheet:9"), deadline=deadline_after(5.0)))
    refused = await asyncio.gather(
        *(writer.submit(grant(f"sheet:{i}"), deadline=deadline_after(0.3)) for i in range(1, 6)),
        return_exceptions=True,
    )
    still_held = holder.returncode is None
    ticks_while_held = beating.ticks
    assert all(type(result) is Busy for result in refused), refused
    assert still_held  # refused at their deadline, not when the lock came free
    assert ticks_while_held >= 10  # the loop kept running (a blocked loop ticks ~0 times)
    assert await holder.wait() == 0
    await late  # a job with time left commits once the lock is free
    beating.stop()
    assert await rows(writer) == [(None, "sheet:9", 100)]  # none of the refused five
    assert await writer.reader.fetchall("SELECT guild_id FROM guild_settings") == [(77,)]


@pytest.mark.sqlite_only
async def test_each_waiting_job_is_refused_at_its_own_deadline(path: Path, writer: Writer) -> None:
    """One timer watches every waiting job's deadline: a later job is refused at its own
    deadline, not at the earlier one's, and an earlier one submitted later is not missed."""
    holder = await hold_the_lock(path, 1.5)
    start = time.monotonic()
    refused_after: dict[str, float] = {}

    async def submit(name: str, seconds: float) -> None:
        with pytest.raises(Busy):
            await writer.submit(grant(f"sheet:{name}"), deadline=deadline_after(seconds))
        refused_after[name] = time.monotonic() - start

    await asyncio.gather(submit("later", 0.6), submit("earlier", 0.2))
    still_held = holder.returncode is None
    assert list(refused_after) == ["earlier", "later"]
    # (a job in a batch is refused COMMIT_MARGIN_S early: too close to commit in time)
    assert refused_after["earlier"] >= 0.2 - COMMIT_MARGIN_S
    assert refused_after["later"] >= 0.6 - COMMIT_MARGIN_S
    assert still_held  # both at their deadlines, not when the lock came free
    assert await holder.wait() == 0
    assert await rows(writer) == []


async def test_the_loop_waits_for_a_batch_only_a_moment(writer: Writer) -> None:
    """The loop waits for a batch blocked only up to HANDOFF_S, then awaits the rest: a
    slow batch (a slow disk) leaves the loop running."""

    def slow(conn: sqlite3.Connection) -> str:
        grant("sheet:1")(conn)
        time.sleep(0.3)
        return "slow"

    beating = Heartbeat()
    await asyncio.sleep(0)
    assert await writer.submit(slow, deadline=deadline_after(SOON)) == "slow"
    assert await writer.submit(grant("sheet:2"), deadline=deadline_after(SOON))  # a fast one
    beating.stop()
    assert beating.ticks >= 10  # a loop blocked for the batch ticks once or not at all
    assert await rows(writer) == [(None, "sheet:1", 100), (None, "sheet:2", 100)]


async def test_a_deadline_passing_mid_batch_is_never_committed(writer: Writer) -> None:
    """A job whose deadline passes while its batch runs is refused, and the batch commits
    again without it (the slow job runs twice, its row lands once)."""
    runs = 0

    def slow(conn: sqlite3.Connection) -> str:
        nonlocal runs
        runs += 1
        grant("sheet:1")(conn)
        time.sleep(0.3)
        return "slow"

    results = await asyncio.gather(
        writer.submit(slow, deadline=deadline_after(SOON)),
        writer.submit(grant("sheet:2"), deadline=deadline_after(0.15)),
        return_exceptions=True,
    )
    assert results[0] == "slow" and type(results[1]) is Busy
    assert runs == 2
    assert await rows(writer) == [(None, "sheet:1", 100)]


@pytest.mark.sqlite_only
async def test_a_cancelled_job_is_not_applied(path: Path, writer: Writer) -> None:
    holder = await hold_the_lock(path, 0.5)
    gone = asyncio.create_task(writer.submit(grant("sheet:1"), deadline=deadline_after(SOON)))
    await asyncio.sleep(0.1)
    gone.cancel()
    await holder.wait()
    await writer.submit(grant("sheet:2"), deadline=deadline_after(SOON))
    assert gone.cancelled()
    assert await rows(writer) == [(None, "sheet:2", 100)]


async def test_the_ledger_rules_still_hold(writer: Writer) -> None:
    await writer.submit(grant("sheet:1", 500), deadline=deadline_after(SOON))
    await writer.submit(move("sheet:1", "chips:3:1", 200), deadline=deadline_after(SOON))
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        await writer.execute([("UPDATE ledger SET amount = 1", ())], deadline=deadline_after(SOON))
    with pytest.raises(ledger.InsufficientFunds):
        await writer.submit(move("chips:3:1", "sheet:1", 201), deadline=deadline_after(SOON))

    def check(conn: sqlite3.Connection) -> tuple[dict[Any, int], dict[Any, int]]:
        stored = conn.execute("SELECT account, kind, balance FROM balances WHERE balance != 0")
        computed = conn.execute(
            "SELECT account, kind, SUM(delta) FROM ("
            " SELECT src AS account, kind, -amount AS delta FROM ledger WHERE src IS NOT NULL"
            " UNION ALL SELECT dst, kind, amount FROM ledger WHERE dst IS NOT NULL) AS moves"
            " GROUP BY account, kind"
        )
        return (
            {(a, k): b for a, k, b in stored.fetchall()},
            {(a, k): b for a, k, b in computed.fetchall()},
        )

    stored, computed = await writer.reader.run(check)
    assert stored == computed == {("sheet:1", "cash"): 300, ("chips:3:1", "cash"): 200}


async def test_the_reader_reads_commits_and_cannot_write(writer: Writer) -> None:
    await writer.submit(grant("sheet:1"), deadline=deadline_after(SOON))
    assert await balances(writer) == {"sheet:1": 100}
    with pytest.raises(sqlite3.Error, match=r"readonly|read-only"):
        await writer.reader.fetchall("DELETE FROM guild_settings")


async def test_close_answers_every_job_submitted_before(path: Path) -> None:
    writer = await Writer.open(path)
    pending = [
        asyncio.create_task(writer.submit(grant(f"sheet:{i}"), deadline=deadline_after(SOON)))
        for i in range(1, 4)
    ]
    await asyncio.sleep(0)
    await writer.close()
    assert [task.result() for task in pending] == [1, 2, 3]
    with pytest.raises(WriteFailed):
        await writer.submit(grant("sheet:9"), deadline=deadline_after(SOON))


async def test_rows_written_together_refuse_as_one_by_one(writer: Writer) -> None:
    """`append_transfers` (one INSERT on PostgreSQL): the row that overdraws is refused
    with its account and what it held, nothing of the job is written, and the jobs
    around it commit in the same batch."""
    await writer.submit(grant("sheet:1", 100), deadline=deadline_after(SOON))

    def rows_of(*transfers: tuple[str, str, int]) -> Any:
        def job(conn: sqlite3.Connection) -> None:
            ledger.append_transfers(
                conn,
                [ledger.Transfer("cash", amount, src, dst, "t") for src, dst, amount in transfers],
                guild_id=1,
                table_id=None,
                now=NOW,
            )

        return job

    results = await asyncio.gather(
        writer.submit(
            rows_of(("sheet:1", "sheet:2", 40), ("sheet:2", "sheet:3", 10)),
            deadline=deadline_after(SOON),
        ),
        writer.submit(
            rows_of(("sheet:1", "sheet:4", 50), ("sheet:4", "sheet:5", 60)),
            deadline=deadline_after(SOON),
        ),
        writer.submit(
            rows_of(("sheet:1", "sheet:6", 5), ("sheet:6", "sheet:7", 5)),
            deadline=deadline_after(SOON),
        ),
        return_exceptions=True,
    )
    first, overdraw, last = results
    assert first is None and last is None
    assert isinstance(overdraw, ledger.InsufficientFunds)
    assert (overdraw.account, overdraw.available, overdraw.requested) == ("sheet:4", 50, 60)
    assert await balances(writer) == {"sheet:1": 55, "sheet:2": 30, "sheet:3": 10, "sheet:7": 5}


async def test_a_job_that_goes_on_after_a_failed_write_keeps_its_other_writes(
    writer: Writer,
) -> None:
    """As on SQLite, a write that fails fails alone: a job that catches it and writes on
    commits its other writes (on PostgreSQL the job runs again, each write in its own
    savepoint, since the failure aborted the transaction)."""
    await writer.submit(grant("sheet:1", 100), deadline=deadline_after(SOON))

    def goes_on(conn: sqlite3.Connection) -> str:
        move("sheet:1", "sheet:2", 30)(conn)
        try:
            move("sheet:1", "sheet:3", 500)(conn)
        except ledger.InsufficientFunds as exc:
            move("sheet:1", "sheet:3", exc.available)(conn)
            return "all of it"
        return "never"

    assert await writer.submit(goes_on, deadline=deadline_after(SOON)) == "all of it"
    assert await balances(writer) == {"sheet:2": 30, "sheet:3": 70}
    assert await rows(writer) == [
        (None, "sheet:1", 100),
        ("sheet:1", "sheet:2", 30),
        ("sheet:1", "sheet:3", 70),
    ]
