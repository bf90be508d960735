"""Shard leases (storage.leases), on both backends: who may serve which shard, when a lease
left by a dead process is taken over, and the shard count the processes share."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bondbot.shards import Shards
from bondbot.storage import leases
from bondbot.storage.db import Database
from bondbot.storage.leases import EVERY, Holder, LeaseRefused, Leases, claim, database_now

ELSEWHERE = Holder("them", 4242, "elsewhere", "elsewhere/another-boot/pid:[1]")
T0 = 1_000_000.0


async def claimed(db: Database, who: Holder, shards: Shards, now: float) -> list[str]:
    """The holders in the way (empty: `who` now holds the leases)."""
    async with db.transaction() as conn:
        found = await claim(conn, who, shards, now)
    return [lease.holder for lease in found.conflicts]


async def holders(db: Database) -> dict[int, str]:
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT shard, holder FROM shard_leases")
    return {int(row[0]): str(row[1]) for row in rows}


async def test_another_machine_s_lease_is_taken_over_once_its_heartbeat_is_old(
    db: Database,
) -> None:
    me = Holder.me()
    shard0 = Shards(2, (0,))
    assert await claimed(db, ELSEWHERE, shard0, T0) == []
    assert await claimed(db, me, shard0, T0 + leases.TIMEOUT_S - 1) == ["them"]
    assert await holders(db) == {0: "them"}
    assert await claimed(db, me, shard0, T0 + leases.TIMEOUT_S + 1) == []
    assert await holders(db) == {0: me.token}


async def test_every_shard_overlaps_each_and_shards_apart_do_not(db: Database) -> None:
    there = Holder("there", 4343, "there", "there/a-third-boot/pid:[1]")
    assert await claimed(db, ELSEWHERE, Shards(2, (1,)), T0) == []
    assert await claimed(db, there, Shards(2, (0,)), T0) == []  # another shard: no conflict
    assert await claimed(db, Holder.me(), Shards(None, None), T0) == ["there", "them"]
    assert await claimed(db, Holder.me(), Shards(2, None), T0) == ["there", "them"]
    assert await holders(db) == {0: "there", 1: "them"}


async def test_a_process_that_died_on_this_machine_is_taken_over_at_once(db: Database) -> None:
    me = Holder.me()
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = Holder("dead", int(gone.stdout), me.host, me.machine)
    assert await claimed(db, dead, Shards(None, None), T0) == []
    assert await claimed(db, me, Shards(None, None), T0 + 1) == []  # not 20 s later: now
    assert await holders(db) == {EVERY: me.token}


async def test_another_shard_count_is_refused_while_a_process_runs(db: Database) -> None:
    assert await claimed(db, ELSEWHERE, Shards(2, (0,)), T0) == []
    with pytest.raises(LeaseRefused) as refused:
        await claimed(db, Holder.me(), Shards(3, (1,)), T0 + 1)
    (line,) = str(refused.value).splitlines()
    assert line.startswith("shards: this database is served with shard_count = 2")
    assert "process 4242 on host elsewhere is running" in line
    # Once no process runs (its lease expired), a new count is recorded.
    later = T0 + leases.TIMEOUT_S + 1
    assert await claimed(db, Holder.me(), Shards(3, (1,)), later) == []
    async with db.read() as conn:
        rows = await conn.execute_fetchall("SELECT shard_count FROM shard_plan")
    assert [row[0] for row in rows] == [3]


async def _theirs(db: Database, shard: int) -> float:
    """A lease of another machine's process on `shard`, its heartbeat now."""
    async with db.transaction() as conn:
        now = await database_now(conn)
        assert (await claim(conn, ELSEWHERE, Shards(2, (shard,)), now)).conflicts == ()
    return now


async def test_a_waiting_process_is_refused_as_soon_as_the_holder_renews(db: Database) -> None:
    await _theirs(db, 0)
    mine = Leases(db, Shards(2, (0,)), on_lost=lambda line: None)
    taking = asyncio.ensure_future(mine.take(poll=0.05))
    await asyncio.sleep(0.3)
    assert not taking.done()  # it waits: a killed process's heartbeat would stay still
    await db.submit(lambda conn: leases.renew(conn, "them"))
    with pytest.raises(LeaseRefused) as refused:
        await asyncio.wait_for(taking, 5)
    assert str(refused.value).startswith(
        "shards: shard 0 is already served by process 4242 on host elsewhere"
    )


async def test_a_waiting_process_takes_over_once_the_heartbeat_is_old(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leases, "TIMEOUT_S", 1.0)
    await _theirs(db, 0)
    mine = Leases(db, Shards(2, (0,)), on_lost=lambda line: None)
    await asyncio.wait_for(mine.take(poll=0.05), 10)
    try:
        assert await holders(db) == {0: mine.me.token}
    finally:
        await mine.release()
    assert await holders(db) == {}  # given back when it stops


async def test_a_process_whose_lease_was_taken_over_stops(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(leases, "BEAT_S", 0.05)
    told: list[str] = []
    mine = Leases(db, Shards(2, (0,)), on_lost=told.append)
    await mine.take()
    try:
        # Its database was unreachable for long: another process took the shard meanwhile.
        async with db.transaction() as conn:
            now = await database_now(conn)
            found = await claim(conn, ELSEWHERE, Shards(2, (0,)), now + leases.TIMEOUT_S + 1)
            assert found.conflicts == ()
        for _ in range(100):
            if told:
                break
            await asyncio.sleep(0.05)
        (line,) = told
        assert line.startswith("shards: another process took over the lease of shards 0 of 2")
    finally:
        await mine.release()
    assert await holders(db) == {0: "them"}  # its release does not touch the new holder's


def test_a_killed_process_not_yet_reaped_counts_as_gone() -> None:
    """Killed, its parent has not waited for it yet (a zombie): its lease is free all the
    same."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        for _ in range(200):  # exited, not reaped
            stat = Path(f"/proc/{child.pid}/stat").read_text()
            if stat.rsplit(")", 1)[1].split()[0] == "Z":
                break
            time.sleep(0.01)
        me = Holder.me()
        lease = leases.Lease(0, "z", child.pid, me.host, me.machine, 2, T0, T0)
        assert lease.gone(me) and not lease.running_here(me)
    finally:
        child.wait()
