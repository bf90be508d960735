"""One process per shard: a lease per shard in the database, and the shard count they share.

Two processes on one shard each apply every command of its guilds (one `/gm cash give`
wrote two ledger rows). So a process holds a row per shard it serves in `shard_leases`
(its pid, host and a heartbeat renewed every BEAT_S), and one serving every shard holds
shard -1, which overlaps them all. At start, a live lease of another process on one of its
shards stops it with one line naming the holder. A lease whose heartbeat stopped (a process
killed with SIGKILL, a host gone) is taken over:

- at once when its process ran on this machine, in this pid namespace, and is gone (a shell,
  systemd: a restart after kill -9 starts at once);
- otherwise (another host, a new container) once its heartbeat is TIMEOUT_S old: the new
  process says it is waiting, watches the heartbeat, and refuses as soon as it moves (the
  holder is alive). A holder running on this machine is refused at once.

The database also records the shard count (`shard_plan`); a process with another count is
refused while a process holds a live lease, and records its own once none does (so an
operator changes the count by stopping every process and starting them with the new one).
A process whose lease was taken over while it could not renew it (its database
unreachable for longer than TIMEOUT_S) learns it at its next heartbeat and stops.

Times are the database's clock (seconds since 1970), so hosts' clocks never matter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bondbot import background
from bondbot.shards import Shards
from bondbot.storage.conn import Connection, JobConnection, dialect_of
from bondbot.storage.db import Database
from bondbot.storage.link import Unreachable
from bondbot.storage.preflight import DatabaseProblem
from bondbot.storage.writer import WriteFailed, deadline_after

log = logging.getLogger(__name__)

BEAT_S = 5.0  # how often a process renews its leases
TIMEOUT_S = 20.0  # a lease not renewed for this long belongs to a dead process
POLL_S = 1.0  # how often a process waiting for a lease looks again
EVERY = -1  # the shard of a process serving every shard
LEASE_LOCK = 0x00B0_0D08  # pg_advisory_xact_lock key: one process claims at a time


class LeaseRefused(DatabaseProblem):
    """This process may not serve its shards: one line saying who does, or why not."""


def _machine() -> str:
    """Where a pid means one process: this boot of this host, this pid namespace."""
    parts = []
    for source in ("/proc/sys/kernel/random/boot_id", "/proc/self/ns/pid"):
        try:
            parts.append(
                os.readlink(source) if source.endswith("/pid") else Path(source).read_text()
            )
        except OSError:
            parts.append("?")
    return socket.gethostname() + "/" + "/".join(part.strip() for part in parts)


@dataclass(frozen=True, slots=True)
class Holder:
    """A running process, as its leases name it."""

    token: str
    process: int
    host: str
    machine: str

    @classmethod
    def me(cls) -> Holder:
        return cls(secrets.token_hex(8), os.getpid(), socket.gethostname(), _machine())


@dataclass(frozen=True, slots=True)
class Lease:
    shard: int
    holder: str
    process: int
    host: str
    machine: str
    shard_count: int | None
    started_at: float
    heartbeat_at: float

    def names(self) -> str:
        """The holder, as the operator's line names it."""
        return f"process {self.process} on host {self.host}"

    def running_here(self, me: Holder) -> bool:
        """Known alive: its process runs where pids mean the same as here."""
        if self.machine != me.machine or "?" in self.machine or self.process == me.process:
            return False
        return _running(self.process)

    def gone(self, me: Holder) -> bool:
        """Known dead: its process ran where pids mean the same as here, and is not running
        (or is this very pid: a previous life of this process, e.g. pid 1 in a container)."""
        if self.machine != me.machine or "?" in self.machine:
            return False
        return self.process == me.process or not _running(self.process)


def _running(pid: int) -> bool:
    """Whether process `pid` of this pid namespace runs (a zombie, killed and not yet
    reaped by its parent, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (another user's)
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def wanted(shards: Shards) -> list[int]:
    """The lease rows a process with these shards holds."""
    if shards.ids is None or (shards.count is not None and shards.everything):
        return [EVERY]
    return sorted(set(shards.ids))


def _overlaps(mine: list[int], shard: int) -> bool:
    return shard == EVERY or EVERY in mine or shard in mine


def _clock_sql(conn: Any) -> str:
    if dialect_of(conn) == "postgresql":
        return "extract(epoch from clock_timestamp())::double precision"
    return "((julianday('now') - 2440587.5) * 86400.0)"


async def database_now(conn: Connection) -> float:
    """The database's clock, in seconds since 1970."""
    rows = await conn.execute_fetchall(f"SELECT {_clock_sql(conn)}")
    return float(rows[0][0])


@dataclass(frozen=True, slots=True)
class Claim:
    """What `claim` found: nothing in the way (`conflicts` empty: the leases are now this
    process's), or the live leases of others on its shards."""

    conflicts: tuple[Lease, ...]
    now: float


async def claim(conn: Connection, me: Holder, shards: Shards, now: float) -> Claim:
    """In a transaction: take this process's leases unless another process holds a live
    one on its shards; raise `LeaseRefused` for a shard count that disagrees with the
    running processes'. `now` is the database's clock (tests pass their own)."""
    mine = wanted(shards)
    if dialect_of(conn) == "postgresql":  # SQLite's BEGIN IMMEDIATE already is one at a time
        await conn.execute(f"SELECT pg_advisory_xact_lock({LEASE_LOCK})")
    rows = await conn.execute_fetchall(
        "SELECT shard, holder, process, host, machine, shard_count, started_at, heartbeat_at"
        " FROM shard_leases ORDER BY shard"
    )
    leases = [Lease(*row) for row in rows]
    live = [
        lease
        for lease in leases
        if lease.holder != me.token and now - lease.heartbeat_at < TIMEOUT_S and not lease.gone(me)
    ]
    if shards.count is not None:
        plan = await conn.execute_fetchall("SELECT shard_count FROM shard_plan WHERE id = 1")
        recorded = int(plan[0][0]) if plan else None
        if recorded != shards.count:
            if recorded is not None and live:
                raise LeaseRefused(
                    f"shards: this database is served with shard_count = {recorded}"
                    f" ({live[0].names()} is running); this process has shard_count ="
                    f" {shards.count}: give every process the same count (to change it,"
                    " stop them all, then start them with the new one)"
                )
            await conn.execute("DELETE FROM shard_plan")
            await conn.execute(
                "INSERT INTO shard_plan (id, shard_count, recorded_at) VALUES (1, ?, ?)",
                (shards.count, now),
            )
    conflicts = tuple(lease for lease in live if _overlaps(mine, lease.shard))
    if conflicts:
        return Claim(conflicts, now)
    for lease in leases:  # what overlaps is dead or this process's own: replaced
        if _overlaps(mine, lease.shard):
            await conn.execute("DELETE FROM shard_leases WHERE shard = ?", (lease.shard,))
    for shard in mine:
        await conn.execute(
            "INSERT INTO shard_leases (shard, holder, process, host, machine, shard_count,"
            " started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (shard, me.token, me.process, me.host, me.machine, shards.count, now, now),
        )
    return Claim((), now)


def held_by(lease: Lease, now: float) -> str:
    """Which shard, whose, and how fresh."""
    what = "every shard" if lease.shard == EVERY else f"shard {lease.shard}"
    age = max(0.0, now - lease.heartbeat_at)
    return f"{what} is already served by {lease.names()} (its heartbeat {age:.0f} s ago)"


def refusal(lease: Lease, now: float) -> str:
    """The operator's one line for a shard another live process serves."""
    return (
        f"shards: {held_by(lease, now)}: two processes on one shard apply every command"
        " twice; stop that one first, or give this one other shards (a killed process's"
        f" lease is taken over {TIMEOUT_S:.0f} s after its last heartbeat)"
    )


def renew(conn: JobConnection, token: str) -> int:
    """A writer job: the heartbeat of this process's leases; how many it still holds."""
    cursor = conn.execute(
        f"UPDATE shard_leases SET heartbeat_at = {_clock_sql(conn)} WHERE holder = ?", (token,)
    )
    return int(cursor.rowcount)


class Leases:
    """This process's leases: taken at start (`take`), renewed every BEAT_S, given back
    when it stops (`release`). `on_lost` is called (once) if another process took them."""

    def __init__(self, db: Database, shards: Shards, on_lost: Callable[[str], object]) -> None:
        self.db = db
        self.shards = shards
        self.me = Holder.me()
        self.on_lost = on_lost
        self._count = len(wanted(shards))
        self._beating: asyncio.Task[None] | None = None
        self._renew_now = asyncio.Event()

    async def take(self, *, poll: float = POLL_S) -> None:
        """Hold this process's shards, waiting for a dead process's leases to expire;
        `LeaseRefused` (one line) if a live process holds one or the count disagrees."""
        seen: dict[tuple[int, str], float] = {}  # each conflicting lease's first heartbeat
        said = False
        while True:
            async with self.db.transaction(deadline=deadline_after(10.0)) as conn:
                found = await claim(conn, self.me, self.shards, await database_now(conn))
            if not found.conflicts:
                break
            for lease in found.conflicts:
                first = seen.setdefault((lease.shard, lease.holder), lease.heartbeat_at)
                if lease.heartbeat_at != first or lease.running_here(self.me):  # alive
                    raise LeaseRefused(refusal(lease, found.now))
            lease = found.conflicts[0]
            if not said:
                left = TIMEOUT_S - (found.now - lease.heartbeat_at)
                log.warning(
                    "%s; waiting up to %.0f s: taken over if its heartbeat has stopped (a"
                    " killed process), refused as soon as it goes on",
                    held_by(lease, found.now),
                    left,
                )
                said = True
            await asyncio.sleep(poll)
        log.info(
            "holding the lease of %s (process %d, heartbeat every %.0f s)",
            self.shards.describe(),
            self.me.process,
            BEAT_S,
        )
        self.db.link.listeners.append(self._on_link)
        self._beating = background.spawn(self._beat(), name="bondbot-leases")

    def _on_link(self) -> None:
        if not self.db.link.down:  # back: renew at once, before another process may take over
            self._renew_now.set()

    async def _beat(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(BEAT_S):
                    await self._renew_now.wait()
            self._renew_now.clear()
            try:
                held = await self.db.submit(
                    lambda conn: renew(conn, self.me.token), deadline=deadline_after(BEAT_S)
                )
            except (WriteFailed, Unreachable) as exc:  # busy or down: the next beat
                log.debug("lease heartbeat not written: %s", exc)
                continue
            if held < self._count:
                line = (
                    f"shards: another process took over the lease of {self.shards.describe()}"
                    f" while this one could not renew it (its database unreachable for over"
                    f" {TIMEOUT_S:.0f} s): stopping, so that the shards are served once"
                )
                log.error("%s", line)
                self.on_lost(line)
                return

    async def release(self) -> None:
        """Stop renewing and give the leases back (a restart then starts at once)."""
        if self._beating is None:
            return
        self._beating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._beating
        self._beating = None
        with contextlib.suppress(ValueError):
            self.db.link.listeners.remove(self._on_link)
        token = self.me.token
        try:
            await self.db.submit(
                lambda conn: conn.execute("DELETE FROM shard_leases WHERE holder = ?", (token,)),
                deadline=deadline_after(2.0),
            )
        except Exception as exc:  # down or busy: the lease expires by itself
            log.warning("could not give back the shard lease (it expires by itself): %s", exc)
