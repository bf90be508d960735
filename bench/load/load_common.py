"""What the load bench's scripts share (load.py, load_open.py, and crash.py and clicks.py
in bench/faults): the bot in its own process (load_bot.py), its token, Discord's
deadline, percentiles, /proc figures and plain text tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import signal
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_fake import BenchFake

HERE = Path(__file__).resolve().parent
TOKEN = "bench-token"
DEADLINE_S = 3.0


# -- the database ----------------------------------------------------------------------------


@contextlib.contextmanager
def postgres_schema(url: str | None) -> Iterator[str | None]:
    """A fresh schema of the PostgreSQL database `url` for this run (dropped after)."""
    if url is None:
        yield None
        return
    import psycopg

    schema = f"bench_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.execute(f"CREATE SCHEMA {schema}")
    try:
        options = urllib.parse.quote(f"-csearch_path={schema}")
        yield f"{url}{'&' if '?' in url else '?'}options={options}"
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


# -- the bot's process ------------------------------------------------------------------------


class BotProcess:
    """bench/load/load_bot.py in a child process, with its config, log and /proc figures."""

    def __init__(
        self,
        kind: str,
        fake: BenchFake,
        guild_id: int,
        workdir: Path,
        *,
        shard: tuple[int, int] | None = None,
        database: str | Path | None = None,
    ) -> None:
        self.kind = kind
        self.fake = fake
        self.workdir = workdir
        self.shard = shard  # (shard id, shard count): one of several processes
        name = kind if shard is None else f"{kind}-shard{shard[0]}"
        self.config = workdir / f"{name}.toml"
        self.log = workdir / f"{name}.log"
        self.database = database or workdir / "bondbot.sqlite3"
        self.guild_id = guild_id
        self.proc: asyncio.subprocess.Process | None = None
        self._identified = self._synced = 0

    async def start(
        self,
        profile: Path | None = None,
        trace: Path | None = None,
        gc_out: Path | None = None,
        gc_tune: str = "",
        extra_env: dict[str, str] | None = None,
    ) -> None:
        """Start the bot (again, after a stop or a kill: on the same database and log)."""
        self.config.write_text(
            f"database = {json.dumps(str(self.database))}\n"
            'default_locale = "en"\n'
            f"dev_guild_id = {self.guild_id}\n"
            'log_level = "WARNING"\n'
            f"discord_api_base = {json.dumps(self.fake.api_base)}\n"
            + (
                ""
                if self.shard is None
                else f"shard_count = {self.shard[1]}\nshard_ids = [{self.shard[0]}]\n"
            ),
            encoding="utf-8",
        )
        env = {**os.environ, "BONDBOT_TOKEN": TOKEN, "BENCH_GATEWAY_URL": self.fake.gateway_url}
        env.pop("BENCH_PROFILE", None)
        env.pop("BENCH_TRACE", None)
        env.pop("BENCH_GC", None)
        if gc_out is not None:
            env["BENCH_GC"] = str(gc_out)
            env["BENCH_GC_TUNE"] = gc_tune
        if profile is not None:
            env["BENCH_PROFILE"] = str(profile)
        if trace is not None:
            env["BENCH_TRACE"] = str(trace)
        env.update(extra_env or {})
        self._identified = self.fake.identify_count  # wait_connected waits for a new one
        self._synced = len(self.fake.command_syncs)
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                str(HERE / "load_bot.py"),
                self.kind,
                "--config",
                str(self.config),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def wait_connected(self, timeout: float = 60.0) -> None:
        """Until the bot synced its commands, identified and holds a gateway connection."""
        fake = self.fake

        shard = None if self.shard is None else list(self.shard)

        def connected() -> bool:
            return (
                len(fake.command_syncs) > self._synced
                and fake.identify_count > self._identified
                and any(
                    s.connection is not None and (shard is None or s.shard == shard)
                    for s in fake.sessions.values()
                )
            )

        async with asyncio.timeout(timeout):
            while not connected():
                if self.proc is None or self.proc.returncode is not None:
                    raise RuntimeError(f"the {self.kind} bot exited:\n{self.log_tail()}")
                await asyncio.sleep(0.05)

    def peak_rss_mib(self) -> float:
        """VmHWM, the peak resident set size (Linux)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024  # kB
        return math.nan

    def cpu_seconds(self) -> float:
        """User + system CPU time so far."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def signal(self, sig: int) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)

    async def written(self, paths: list[Path]) -> None:
        """Ask the bot to write what it watched (SIGUSR2) and wait until it has."""
        self.signal(signal.SIGUSR2)
        async with asyncio.timeout(30):
            while not all(path.exists() for path in paths):
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # let the write finish

    async def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would: no clean-up of any kind."""
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            self.proc.kill()
        await self.proc.wait()

    def log_tail(self, lines: int = 30) -> str:
        if not self.log.exists():
            return ""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def log_errors(self) -> list[str]:
        if not self.log.exists():
            return []
        return [
            line
            for line in self.log.read_text(errors="replace").splitlines()
            if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")
        ]

    async def stop(self) -> None:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), timeout=15)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()


# -- figures --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile, in milliseconds."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return 1000 * ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def machine_busy_seconds() -> float:
    """CPU time every process of the machine has used so far (all cores, from /proc/stat)."""
    ticks = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def postgres_server_cpu_seconds(url: str) -> float:
    """The CPU time of the PostgreSQL server that listens on `url`'s port on this machine:
    its postmaster's and its live children's (the bot's connections), with the children it
    reaped; nan when it is not found here (another machine, the default port)."""
    port = urllib.parse.urlsplit(url).port
    if port is None:
        return math.nan
    stats: dict[int, list[str]] = {}
    master = None
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rpartition(")")[2].split()
            stats[int(entry.name)] = stat
            if master is None:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
                if argv[0].endswith(b"postgres") and str(port).encode() in argv:
                    master = int(entry.name)
        except OSError:  # a process gone meanwhile
            continue
    if master is None:
        return math.nan
    tick = os.sysconf("SC_CLK_TCK")
    # after the name: state, ppid, …; utime, stime, cutime, cstime are fields 14–17
    total = sum(int(v) for v in stats[master][11:15])
    total += sum(int(s[11]) + int(s[12]) for s in stats.values() if int(s[1]) == master)
    return total / tick


def rest_kind(method: str, path: str) -> str:
    if path.startswith("/interactions/"):
        return "interaction callbacks"
    if method == "PATCH" and path.startswith("/channels/"):
        return "message edits"
    if method == "POST" and path.startswith("/channels/"):
        return "messages sent"
    if path.startswith("/webhooks/"):
        return "follow-ups"
    return f"{method} {path.split('/')[1]}"


def print_table(rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
