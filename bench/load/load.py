"""Load: many punto banco tables at once through the fake Discord, the bot in its own process.

    python bench/load.py [--tables 50] [--actions 3000] [--concurrency C] [--spend-rate 0.5]
                         [--seed N] [--timeout 900] [--in-channel] [--lock S]
                         [--database postgresql://user@host/db]
                         [--table-floor] [--profile FILE] [--trace] [--gc TUNE]
                         [--processes N]
    python bench/load.py --rate R [--rate R2 ...] | --sweep [--rounds N] [--step-seconds S]

The fake Discord (bondbot/local) runs in this process on 127.0.0.1 with one guild,
one channel per table, a GM (GM role) and three players per table; the database (a temp
SQLite file, or with --database a fresh schema of that PostgreSQL database, dropped at
the end) gets one NPC per table and one PC per player, each player's active character
and the guild's GM role, before the bot starts. Two bots then run, one after the other,
each in its own process (bench/load_bot.py) against a fresh fake of the same world:

- floor: a bare discord.py bot whose `/ping` answers at once (ephemeral, no database).
  `concurrency` fake users click `/ping` in a closed loop until `actions` interactions.
- game: the real BondBot. Setup (not measured): at every table the GM runs `/table open
  punto_banco` and the three PCs join (My seat, its form) and choose Simulate. Then every
  table plays coups until `actions` game actions in all: the three PCs bet together
  (the table's Bet button, which opens the modal, then its submit with the bet and the
  amount; or, half the time after his first coup, My seat, which opens his private panel,
  then its Same again), the GM deals once they have all been answered and the table is
  redrawn with its Deal button (the redraw is coalesced, up to the bot's message interval,
  1 s), and each PC whose line on the redrawn table says he lost clicks the table's Spend
  a Hero Point button with probability `spend-rate` (one lost hand: it spends at once).
  Every fake user waits for his own answer before his next click; there is no think time.
- table floor (`--table-floor`, a third run after the game): the floor bot again, given
  the table message the game drew last; it posts a copy in every channel, and the users
  click one of its buttons in a closed loop, each click answered by drawing the same
  message again in place (as the game answers a deal) with nothing behind it: what
  discord.py alone costs to answer a click on the table.

- processes (`--processes N`): the game bot runs as N processes, each on one of N
  shards (`shard_count`, `shard_ids`), on one database; the fake has a guild on each
  shard, sends each guild's events to its shard's process, and the tables are shared out
  between the guilds; with `--database URL` they share that PostgreSQL database.

Game actions, what actions/s counts, are the interactions that do game work in the bot:
wager submits, Same again clicks, deals and spends. The Bet buttons that only open a
modal and the My seat clicks that only open the panel are interactions (in the latency
figures) but not actions. `concurrency` (default: 3 per table, the most interactions the
game ever has in flight) caps the interactions in flight
in both runs, and is the number of floor users.

Open loop (`--rate R`, `--sweep`, `--rounds N`; bench/load_open.py): the game, the table
floor and /ping side by side, offered R interactions/s as the tables' users would (each
clicks after an exponential think time, whether or not the bot answered the others); per
rate offered, answered, p50, p99, misses and each bot's CPU per interaction; `--sweep`
finds each bot's capacity (the highest rate with p99 <= 250 ms and no miss). See
bench/README.md.

Latency is the fake's own record: INTERACTION_CREATE dispatch to the accepted callback
(the first response). A miss is an interaction never acknowledged within Discord's 3 s
or whose callback came too late (10062). Peak memory is the bot process's VmHWM. CPU is
the bot process's, this process's (the fake and its users) and every other process's
CPU time over the measured phase, in % of one core (CPU/action: the bot processes' CPU
time per game action, or per ping): the machine has 2 cores, so other
busy processes lower the figures (a warning says so). Targets (exit 1 if one fails, after printing
everything): game actions/s >= 25% of the floor's rate; game p99 < 100 ms; no miss.
The REST calls the bot made during each phase are counted too (interaction callbacks,
table message edits, others). With --profile FILE the game bot runs under cProfile over
the measured phase, and with --trace its database lock, statements and hot spots are timed
over it (see bench/load_bot.py); both slow the bot, so the figures of such a run are not the
benchmark's, and they print where the time went after the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import pstats
import random
import re
import signal
import sqlite3
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_fake import (
    BenchFake,
    FakeChannel,
    FakeMessage,
    FakeUser,
    InteractionResult,
    RateLimits,
    World,
)

from bondbot.i18n import t
from bondbot.sheets import validate_sheet
from bondbot.storage import characters
from bondbot.storage.db import Database
from bondbot.storage.settings import update_settings

HERE = Path(__file__).resolve().parent
TOKEN = "bench-token"
DEADLINE_S = 3.0
LOCK_AFTER_S = 1.0  # --lock: play this long before another process takes the write lock
NOW = "2026-11-21T20:00:00.000+00:00"
TARGET_RATIO = 0.25
TARGET_P99_MS = 100.0
OTHERS_WARN = 0.10  # of one core
SHARE = 0.8  # the bot's share of --global-limit (its outgoing queue's, bondbot/bot/outgoing.py)
PICTURE = "hand.png"
PICTURES_S = 120.0  # after the play, the longest wait for the last pictures
SETUP_WAIT_S = 120.0  # a table's message drawn at setup (a small --global-limit is slow)
BETS = ("player", "banker", "tie")
BET_WEIGHTS = (45, 45, 10)

Starter = Callable[[], Awaitable[InteractionResult]]


# -- the bot's process ------------------------------------------------------------------------


class BotProcess:
    """bench/load_bot.py in a child process, with its config, log and /proc figures."""

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


# -- the fake users ---------------------------------------------------------------------------


class Budget:
    """A fixed number of actions, taken one at a time by whoever acts next; never spent
    before `until` is set (a lock held elsewhere: the play goes on until it is released)."""

    def __init__(self, total: int, until: asyncio.Event | None = None) -> None:
        self.left = total
        self.until = until

    def take(self) -> bool:
        if self.left <= 0 and (self.until is None or self.until.is_set()):
            return False
        self.left -= 1
        return True


@dataclass
class Clicker:
    """Sends interactions as fake users: at most `limit` in flight, each waited for."""

    fake: BenchFake
    limit: asyncio.Semaphore
    sent: Counter[str] = field(default_factory=Counter)
    timeouts: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)

    async def run(
        self, kind: str, start: Starter, expect: str | None = None, *, redraws: bool = False
    ) -> InteractionResult | None:
        """Dispatch with `start()` (a `_wait=False` scripting call) and wait for the answer.

        None when the bot did not answer in time; an answer not starting with `expect`, or
        (`redraws`) one that does not redraw the clicked message, counts as refused (with
        its text, to report).
        """
        async with self.limit:
            result = await start()
            self.sent[kind] += 1
            try:
                await self.fake.wait_ack(result.interaction, DEADLINE_S + 0.25)
            except TimeoutError:
                self.timeouts[kind] += 1
                return None
        content = result.content or ""
        if (expect is not None and not content.startswith(expect)) or (
            redraws and result.response_type != UPDATE_MESSAGE
        ):
            self.refused[kind] += 1
            self.refusals[content[:90]] += 1
        return result


@dataclass
class Player:
    user_id: int
    name: str
    has_wagered: bool = False  # after his first coup he repeats it with "Same again"


@dataclass
class Table:
    world: World
    index: int
    npc: str
    players: list[Player]
    id: int = 0
    dealt: int = 0  # Deal clicks answered with the redrawn table (the coup is on disk)
    spent: int = 0  # spends answered as done

    @property
    def channel(self) -> FakeChannel:
        return self.world.channels[self.index]

    def message(self) -> FakeMessage:
        msg = self.world.fake.public_message(self.channel)
        if msg is None:
            raise RuntimeError(f"table {self.index}: no table message")
        return msg

    def cid(self, action: str, *args: object) -> str:
        return ":".join(["bb", "tbl", str(self.id), action, *map(str, args)])


def has_button(msg: FakeMessage | None, custom_id: str) -> bool:
    return any(b.get("custom_id") == custom_id and not b.get("disabled") for b in _buttons(msg))


def _buttons(msg: FakeMessage | None) -> Iterator[dict]:
    yield from _buttons_of({"components": msg.components if msg is not None else []})


def _buttons_of(drawn: dict) -> Iterator[dict]:
    for row in drawn["components"]:
        yield from row.get("components", [])


UPDATE_MESSAGE = 7  # interaction callback type: the clicked message, redrawn
REBET_RATE = 0.5  # how often a player repeats his last wager rather than choosing anew

# Sends one interaction and waits for its answer: `Clicker.run`'s signature
Send = Callable[..., Awaitable[InteractionResult | None]]


async def wager(
    send: Send, fake: BenchFake, table: Table, player: Player, rng: random.Random
) -> bool:
    """A PC's wager on the next coup, as the closed and the open loop both click it: once he
    has wagered, half the time Same again (My seat, then the button in his seat panel);
    otherwise the table's Bet button, then its form with a bet and an amount (answered by
    the table redrawn). Whether a wager was placed."""
    if player.has_wagered and rng.random() < REBET_RATE:
        panel = await send(
            "seat panel",
            lambda: fake.click(player.user_id, table.message(), table.cid("seat"), _wait=False),
        )
        if panel is not None and has_button(panel.message, table.cid("again")):
            again = await send(
                "wager",
                lambda: fake.click(player.user_id, panel, table.cid("again"), _wait=False),
                expect="Wager placed",
            )
            return again is not None
    on = rng.choices(BETS, BET_WEIGHTS)[0]
    amount = str(rng.randint(10, 100))
    modal = await send(
        "bet button",
        lambda: fake.click(player.user_id, table.message(), table.cid("bets"), _wait=False),
    )
    if modal is None or modal.modal is None:
        return False
    placed = await send(
        "wager",
        lambda: fake.submit_modal(
            player.user_id, modal, {"on": [on], "amount": amount}, _wait=False
        ),
        redraws=True,  # the table's form: answered by the table redrawn
    )
    player.has_wagered = placed is not None
    return placed is not None


async def deal(
    send: Send, fake: BenchFake, table: Table, gm_id: int, timeouts: Counter[str]
) -> list[Player] | None:
    """The GM deals where he finds Deal: on the table once it is redrawn with a wager in
    (at once after a wager from the table's form, else coalesced, up to the bot's message
    interval after the last edit). The players who may spend a Hero Point: those whose
    line on the redrawn table says they lost ("X loses $n (bet)"), while it shows Spend;
    None when no coup was dealt."""
    try:
        await fake.wait_channel(
            table.channel.id,
            lambda: has_button(table.message(), table.cid("deal")),
            timeout=DEADLINE_S + 2,
        )
    except TimeoutError:
        timeouts["deal button drawn"] += 1
        return None
    dealt = await send(
        "deal",
        lambda: fake.click(gm_id, table.message(), table.cid("deal"), _wait=False),
        redraws=True,  # the Deal click is answered with the redrawn table message
    )
    if dealt is None or dealt.response_type != UPDATE_MESSAGE:
        return None
    table.dealt += 1
    drawn = table.message()
    if not has_button(drawn, table.cid("hp")):
        return []
    shown = str(drawn.embeds)
    return [p for p in table.players if f"{p.name} loses " in shown]


# -- the database -----------------------------------------------------------------------------


async def seed_database(path: str | Path, world: World, tables: int) -> list[Table]:
    """One NPC per table, one PC per player (his active character), the GM role."""
    db = await Database.open(path)  # type: ignore[arg-type]  # a URL on PostgreSQL
    try:
        await db.migrate()
        # one transaction for the whole world: a slow one on a busy machine is no refusal
        async with db.transaction(deadline=time.monotonic() + 300) as conn:
            for guild, role in zip(world.guilds, world.gm_roles, strict=True):
                await update_settings(
                    conn, guild.id, default_locale="en", gm_role_id=role.id, locale="en"
                )
            cast = []
            for index in range(tables):
                guild_id = world.guild_of(index).id
                npc = f"Le Chiffre {index + 1:02d}"
                sheet = {"name": npc, "kind": "NPC", "skills": {"gambling": 12}}
                await characters.create_character(
                    conn,
                    guild_id,
                    validate_sheet({"characteristics": {"PER": 10}, **sheet}),
                    now=NOW,
                )
                players = []
                for user in world.players[3 * index : 3 * index + 3]:
                    name = user.global_name or user.name
                    pc = {
                        "name": name,
                        "kind": "PC",
                        "owner_id": user.id,
                        "skills": {"gambling": 8},
                        "cash": 100_000_000,
                        "hero_points": 1_000,
                    }
                    created = await characters.create_character(
                        conn,
                        guild_id,
                        validate_sheet({"characteristics": {"PER": 10}, **pc}),
                        now=NOW,
                    )
                    await characters.set_active_character(conn, guild_id, user.id, created.id)
                    players.append(Player(user.id, name))
                cast.append(Table(world, index, npc, players))
    finally:
        await db.close()
    return cast


# -- measuring --------------------------------------------------------------------------------


@dataclass
class Phase:
    name: str
    interactions: int
    actions: int
    seconds: float
    latencies: list[float]
    misses: int
    bot_cpu: float
    bench_cpu: float
    others_cpu: float
    peak_rss_mib: float
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    rest: Counter[str] = field(default_factory=Counter)
    budget: Counter[str] = field(default_factory=Counter)  # outside interaction answers
    limited: int = 0  # 429s the bot received
    pictures: tuple[int, int] | None = None  # (posted, coups dealt)
    pictures_late: float = 0.0  # the last picture, this long after the play

    @property
    def coups(self) -> int:
        return len(self.by_kind.get("deal", []))

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        return percentile(self.latencies, q)


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


class Measure:
    """Snapshot the fake's records, the bot's CPU and ours at the start of a phase.

    The bench process's garbage collector is off during the phase, so that its pauses
    (the fake keeps every payload) do not show up as the bot's latency.
    """

    def __init__(self, fake: BenchFake, bot: BotProcess | list[BotProcess]) -> None:
        gc.collect()
        gc.disable()
        self.fake, self.bots = fake, bot if isinstance(bot, list) else [bot]
        self.machine_cpu = machine_busy_seconds()
        self.first_latency = len(fake.latencies)
        self.first_interaction = len(fake.interactions)
        self.first_request = len(fake.requests)
        self.bot_cpu = self._bots_cpu()
        self.bench_cpu = time.process_time()
        self.started = time.monotonic()

    def _bots_cpu(self) -> float:
        """The bot processes' CPU time so far, all of them together."""
        return sum(bot.cpu_seconds() for bot in self.bots)

    def finish(self, name: str, actions: int, classify: Callable[[str, str], str]) -> Phase:
        seconds = time.monotonic() - self.started
        gc.enable()
        bot_cpu = self._bots_cpu() - self.bot_cpu
        bench_cpu = time.process_time() - self.bench_cpu
        others = machine_busy_seconds() - self.machine_cpu - bot_cpu - bench_cpu
        records = self.fake.latencies[self.first_latency :]
        interactions = list(self.fake.interactions.values())[self.first_interaction :]
        misses = sum(
            1
            for inter in interactions
            if not inter.acknowledged or any(a.code == 10062 for a in inter.attempts)
        )
        rest: Counter[str] = Counter(
            rest_kind(r.method, r.path) for r in self.fake.requests[self.first_request :]
        )
        by_kind: dict[str, list[float]] = {}
        for record in records:
            by_kind.setdefault(classify(record.kind, record.name), []).append(record.seconds)
        phase = Phase(
            name=name,
            interactions=len(interactions),
            actions=actions,
            seconds=seconds,
            latencies=[r.seconds for r in records],
            misses=misses,
            bot_cpu=bot_cpu / seconds,
            bench_cpu=bench_cpu / seconds,
            others_cpu=max(0.0, others / seconds),
            peak_rss_mib=sum(bot.peak_rss_mib() for bot in self.bots),
            by_kind=by_kind,
            rest=rest,
        )
        self.count_budget(phase)
        return phase

    def count_budget(self, phase: Phase) -> None:
        """The requests outside interaction answers, by kind, and the 429s, so far."""
        requests = self.fake.requests[self.first_request :]
        phase.budget = Counter(
            kind
            for r in requests
            if (kind := budget_kind(r.method, r.path)) is not None and r.status != 429
        )
        phase.limited = sum(1 for r in requests if r.status == 429)


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


def pictures(fake: BenchFake, first: int) -> int:
    """The hands' pictures posted since request `first`."""
    return sum(1 for r in fake.requests[first:] if r.status < 300 and PICTURE in r.files)


def budget_kind(method: str, path: str) -> str | None:
    """What a request spends of the bot token's budget (issue 32): a post, an edit, a
    thread (started, or edited: archived) or another request; None for an interaction's
    answer (its callback, or its token's webhook), which Discord does not count."""
    if path.startswith(("/interactions/", "/webhooks/")):
        return None
    if "/threads" in path or (method == "PATCH" and re.fullmatch(r"/channels/\d+", path)):
        return "threads"
    if method == "POST" and re.fullmatch(r"/channels/\d+/messages", path):
        return "posts"
    if method == "PATCH" and re.fullmatch(r"/channels/\d+/messages/\d+", path):
        return "edits"
    return "others"


def budget_line(budget: Counter[str], coups: int, limited: int) -> str:
    """Requests a coup outside interaction answers, by kind, and the 429s received."""
    each = max(1, coups)
    kinds = ("posts", "edits", "threads", "others")
    parts = ", ".join(f"{budget[k] / each:.2f} {k}" for k in kinds)
    return (
        f"{sum(budget.values()) / each:.2f} requests a coup outside interaction answers"
        f" ({parts}; {coups} coups), {limited} 429s received"
    )


def game_kind(kind: str, name: str) -> str:
    parts = name.split(":")
    action = parts[3] if len(parts) > 3 else name
    if action in ("bet", "bets"):
        return "wager (modal submit)" if kind == "modal" else "bet button (opens modal)"
    names = {
        "deal": "deal",
        "hp": "spend (Spend a Hero Point button)",
        "spend": "spend (pick of lost hands)",
        "again": "wager (Same again, seat panel)",
        "seat": "seat panel (My seat)",
    }
    return names.get(action, f"other {kind} {action}")


# -- the runs ---------------------------------------------------------------------------------


async def closed_loop(
    args: argparse.Namespace,
    world: World,
    clicker: Clicker,
    kind: str,
    start: Callable[[FakeUser, FakeChannel], Awaitable[InteractionResult]],
    *,
    expect: str | None = None,
    redraws: bool = False,
) -> None:
    """A floor's users: `concurrency` of them, each in his channel, sending `kind` and
    waiting for its answer, over and over until `actions` are sent."""
    budget = Budget(args.actions)

    async def user_loop(n: int) -> None:
        user = world.players[n % len(world.players)]
        channel = world.channels[n % len(world.channels)]
        while budget.take():
            await clicker.run(kind, lambda: start(user, channel), expect, redraws=redraws)

    await asyncio.gather(*(user_loop(n) for n in range(args.concurrency)))


async def run_floor(args: argparse.Namespace, workdir: Path) -> tuple[Phase, Clicker, list[str]]:
    fake = BenchFake(token=TOKEN, interaction_deadline=DEADLINE_S, rate_limits=args.buckets)
    world = World(fake, args.tables)
    await fake.start()
    bot = BotProcess("floor", fake, world.guild.id, workdir)
    try:
        await bot.start(gc_out=args.floor_gc_out)  # its loop watched as the game's (--gc)
        await bot.wait_connected()
        clicker = Clicker(fake, asyncio.Semaphore(args.concurrency))
        for n in range(20):  # warm-up, not measured
            user, channel = world.players[n % len(world.players)], world.channels[0]
            await clicker.run(
                "warm-up", lambda u=user, c=channel: fake.slash(u, "ping", _channel=c, _wait=False)
            )
        clicker = Clicker(fake, asyncio.Semaphore(args.concurrency))
        if args.floor_gc_out is not None:
            bot.signal(signal.SIGUSR1)
        measure = Measure(fake, bot)
        await closed_loop(
            args,
            world,
            clicker,
            "ping",
            lambda user, channel: fake.slash(user, "ping", _channel=channel, _wait=False),
            expect="pong",
        )
        phase = measure.finish("floor", clicker.sent["ping"], lambda kind, name: "/ping")
        if args.floor_gc_out is not None:
            await bot.written([args.floor_gc_out])
        return phase, clicker, bot.log_errors()
    finally:
        await bot.stop()
        await fake.stop()


async def run_table_floor(
    args: argparse.Namespace, workdir: Path, table: dict
) -> tuple[Phase, Clicker, list[str]]:
    """The floor bot answering clicks on a copy of a table message the game drew, each by
    drawing it again in place (load_bot.FloorBot): discord.py's own cost of a table click."""
    fake = BenchFake(token=TOKEN, interaction_deadline=DEADLINE_S, rate_limits=args.buckets)
    world = World(fake, args.tables)
    await fake.start()
    drawn = workdir / "table.json"
    drawn.write_text(json.dumps(table), encoding="utf-8")
    bot = BotProcess("floor", fake, world.guild.id, workdir)
    try:
        await bot.start(extra_env={"BENCH_TABLE": str(drawn)})
        await bot.wait_connected()
        clicker = Clicker(fake, asyncio.Semaphore(args.concurrency))
        for channel in world.channels:  # not measured
            await clicker.run(
                "post", lambda c=channel: fake.slash(world.gm, "post", _channel=c, _wait=False)
            )
        enabled = [b["custom_id"] for b in _buttons_of(table) if not b.get("disabled")]
        # the table's commonest click in the game: Bet (else whatever it shows first)
        custom = next((c for c in enabled if c.endswith(":bets")), enabled[0])
        clicker = Clicker(fake, asyncio.Semaphore(args.concurrency))
        measure = Measure(fake, bot)
        await closed_loop(
            args,
            world,
            clicker,
            "click",
            lambda user, channel: fake.click(
                user, fake.public_message(channel), custom, _wait=False
            ),
            redraws=True,
        )
        phase = measure.finish("table floor", clicker.sent["click"], lambda kind, name: "click")
        return phase, clicker, bot.log_errors()
    finally:
        await bot.stop()
        await fake.stop()


SETUP_TRIES = 5
BUSY = t("errors.busy", "en")[:40]


async def setup_table(
    table: Table, clicker: Clicker, fake: BenchFake, gm_id: int, *, thread: bool = True
) -> None:
    """The GM opens the table; its three PCs join with $100,000 and choose Simulate."""
    opened = await clicker.run(
        "open",
        lambda: fake.slash(
            gm_id,
            "table open punto_banco",
            _channel=table.channel,
            npc=table.npc,
            minimum="10",
            maximum="500",
            bankroll="100000000",
            thread=thread,
            _wait=False,
        ),
        expect="Table opened",
    )
    if opened is None:
        raise RuntimeError(f"table {table.index}: /table open got no answer")

    def has_message() -> bool:
        msg = fake.public_message(table.channel)
        return msg is not None and any(
            b.get("custom_id", "").endswith(":seat") for b in _buttons(msg)
        )

    await fake.wait_channel(table.channel.id, has_message, timeout=SETUP_WAIT_S)
    seat_id = next(
        b["custom_id"] for b in _buttons(table.message()) if b["custom_id"].endswith(":seat")
    )
    table.id = int(seat_id.split(":")[2])

    async def seat(player: Player) -> None:
        for _ in range(SETUP_TRIES):  # "busy, try again" (hundreds of tables opening): again
            modal = await clicker.run(  # My seat, to someone without a seat: the buy-in form
                "seat button (opens join modal)",
                lambda: fake.click(player.user_id, table.message(), table.cid("seat"), _wait=False),
            )
            if modal is None or modal.modal is None:
                raise RuntimeError(f"table {table.index}: no join modal for {player.name}")
            joined = await clicker.run(
                "join",
                lambda m=modal: fake.submit_modal(
                    player.user_id, m, {"amount": "100000"}, _wait=False
                ),
            )
            if joined is None or not (joined.content or "").startswith(BUSY):
                break
            await asyncio.sleep(0.5)
        if joined is None or not (joined.content or "").startswith("You sit down"):
            raise RuntimeError(f"table {table.index}: {player.name} not seated: {joined!r}")
        await clicker.run(  # the choice is under the join's private answer
            "simulate",
            lambda: fake.click(
                player.user_id, joined, table.cid("choose", "simulate"), _wait=False
            ),
            expect="You simulate",
        )

    await asyncio.gather(*(seat(p) for p in table.players))
    # the Bet button is drawn once someone plays (the table's redraw is coalesced)
    await fake.wait_channel(
        table.channel.id,
        lambda: has_button(table.message(), table.cid("bets")),
        timeout=SETUP_WAIT_S,
    )


async def play_table(
    table: Table,
    clicker: Clicker,
    fake: BenchFake,
    gm_id: int,
    budget: Budget,
    rng: random.Random,
    spend_rate: float,
    coup_every: float = 0.0,
) -> None:
    """Coups until the budget runs out: PCs bet together, the GM deals, losers may spend;
    with `coup_every` (a human pace), a coup starts that many seconds after the last one
    did (the tables' first coups spread over that time)."""
    if coup_every:
        await asyncio.sleep(rng.uniform(0, coup_every))

    async def bet(player: Player) -> bool:
        if not budget.take():
            return False
        return await wager(clicker.run, fake, table, player, rng)

    async def spend(player: Player) -> None:
        # the table's one Spend a Hero Point button: with one lost hand it spends at once
        spent = await clicker.run(
            "spend",
            lambda: fake.click(player.user_id, table.message(), table.cid("hp"), _wait=False),
            expect="You spend a Hero Point",
        )
        if spent is not None and (spent.content or "").startswith("You spend a Hero Point"):
            table.spent += 1

    while True:
        started = time.monotonic()
        placed = await asyncio.gather(*(bet(p) for p in table.players))
        if not any(placed) or not budget.take():
            return
        lost = await deal(clicker.run, fake, table, gm_id, clicker.timeouts)
        if lost is None:
            continue
        spends = [spend(p) for p in lost if rng.random() < spend_rate and budget.take()]
        await asyncio.gather(*spends)
        if coup_every:
            await asyncio.sleep(max(0.0, started + coup_every - time.monotonic()))


class LockElsewhere:
    """Another process's hold on the database's write lock during the game (`--lock S`):
    after LOCK_AFTER_S of play a second connection (on its own thread, as another process
    would) takes `BEGIN IMMEDIATE` and keeps it S seconds. Then the check that nothing
    answered as refused was applied, nor anything answered as done lost: each table's
    coups on disk are the Deal clicks answered with the redrawn table, and the Hero Points
    spent on disk are the spends answered as done."""

    def __init__(self, database: Path, seconds: float) -> None:
        self.database = database
        self.seconds = seconds
        self.held: tuple[float, float] | None = None  # when it was taken and released
        self.released = asyncio.Event()
        self.report: list[str] = []
        self.consistent = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._hold())

    async def _hold(self) -> None:
        await asyncio.sleep(LOCK_AFTER_S)
        conn = sqlite3.connect(self.database, isolation_level=None, check_same_thread=False)
        try:
            await asyncio.to_thread(conn.execute, "PRAGMA busy_timeout = 10000")
            await asyncio.to_thread(conn.execute, "BEGIN IMMEDIATE")
            taken = time.monotonic()
            await asyncio.sleep(self.seconds)
            await asyncio.to_thread(conn.execute, "ROLLBACK")
            self.held = (taken, time.monotonic())
        finally:
            conn.close()
            self.released.set()

    async def finish(self, tables: list[Table], phase_s: float) -> None:
        assert self._task is not None
        await self._task
        assert self.held is not None
        self.report.append(
            f"the write lock held by another process for {self.held[1] - self.held[0]:.1f} s,"
            f" {LOCK_AFTER_S:g} s into the {phase_s:.1f} s game phase"
        )
        conn = sqlite3.connect(self.database)
        try:
            hands = {
                table_id: json.loads(state)["engine"]["hand"]
                for table_id, state in conn.execute("SELECT id, state FROM card_tables")
            }
            (spent,) = conn.execute(
                "SELECT COUNT(*) FROM ledger WHERE reason = 'spend.win_hand' AND kind = 'hero'"
            ).fetchone()
        finally:
            conn.close()
        wrong = [t.index for t in tables if hands.get(t.id) != t.dealt]
        answered = sum(t.spent for t in tables)
        self.consistent = not wrong and spent == answered
        self.report.append(
            f"on disk: {sum(hands.values())} coups ({sum(t.dealt for t in tables)} answered"
            f" dealt; tables that differ: {wrong or 'none'}), {spent} Hero Points spent"
            f" ({answered} answered spent)"
        )


async def run_game(
    args: argparse.Namespace, workdir: Path
) -> tuple[Phase, Clicker, list[str], float, LockElsewhere | None]:
    n = args.processes
    fake = BenchFake(
        token=TOKEN, interaction_deadline=DEADLINE_S, shard_count=n, rate_limits=args.buckets
    )
    if args.buckets:
        fake.rate_limits = RateLimits(global_per_second=args.global_limit)
    world = World(fake, args.tables, shards=n)
    database = args.database_target or workdir / "bondbot.sqlite3"
    tables = await seed_database(database, world, args.tables)
    await fake.start()
    if n == 1:
        bots = [BotProcess("bondbot", fake, world.guild.id, workdir, database=database)]
    else:  # one process per shard, each syncing its commands to its own guild
        bots = [
            BotProcess(
                "bondbot", fake, world.guilds[k].id, workdir, shard=(k, n), database=database
            )
            for k in range(n)
        ]
    bot = bots[0]
    try:
        share = {"BENCH_REQUESTS_PER_SECOND": str(args.global_limit * SHARE / n)}
        for each in bots:
            await each.start(args.profile, args.trace, args.gc_out, args.gc_tune, share)
            await each.wait_connected()
        setup = Clicker(fake, asyncio.Semaphore(args.concurrency))
        started = time.monotonic()
        await asyncio.gather(
            *(setup_table(t, setup, fake, world.gm.id, thread=not args.in_channel) for t in tables)
        )
        setup_seconds = time.monotonic() - started
        args.threads = sum(1 for c in fake.channels.values() if c.is_thread)
        if sum(setup.refused.values()) or sum(setup.timeouts.values()):
            raise RuntimeError(
                f"setup failed: refused {dict(setup.refused)} {dict(setup.refusals)}, "
                f"timeouts {dict(setup.timeouts)}\n{bot.log_tail()}"
            )
        clicker = Clicker(fake, asyncio.Semaphore(args.concurrency))
        lock = LockElsewhere(workdir / "bondbot.sqlite3", args.lock) if args.lock else None
        budget = Budget(args.actions, None if lock is None else lock.released)
        written = [p for p in (args.trace, args.gc_out, args.profile) if p is not None]
        if written:
            bot.signal(signal.SIGUSR1)
        measure = Measure(fake, bots)
        if lock is not None:
            lock.start()
        await asyncio.gather(
            *(
                play_table(
                    t,
                    clicker,
                    fake,
                    world.gm.id,
                    budget,
                    random.Random(args.seed * 1000 + t.index),
                    args.spend_rate,
                    args.coup_every,
                )
                for t in tables
            )
        )
        actions = clicker.sent["wager"] + clicker.sent["deal"] + clicker.sent["spend"]
        phase = measure.finish("game", actions, game_kind)
        if not args.in_channel:  # every coup's picture, late rather than never
            played, coups = time.monotonic(), sum(t.dealt for t in tables)
            with contextlib.suppress(TimeoutError):
                await fake.wait_until(
                    lambda: pictures(fake, measure.first_request) >= coups, timeout=PICTURES_S
                )
            phase.pictures = (pictures(fake, measure.first_request), coups)
            phase.pictures_late = time.monotonic() - played
            measure.count_budget(phase)  # with the pictures posted after the play
        last = tables[0].message()
        args.drawn_table = {"embeds": last.embeds, "components": last.components}
        if lock is not None:
            await lock.finish(tables, time.monotonic() - measure.started)
        if written:
            await bot.written(written)
        errors = [line for each in bots for line in each.log_errors()]
        return phase, clicker, errors, setup_seconds, lock
    finally:
        for each in bots:
            await each.stop()
        await fake.stop()


# -- report -----------------------------------------------------------------------------------


def print_table(rows: list[list[str]]) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )


def report(
    floor: Phase,
    game: Phase,
    clickers: dict[str, Clicker],
    errors: dict[str, list[str]],
    table_floor: Phase | None = None,
) -> bool:
    header = [
        "run",
        "interactions",
        "actions",
        "time s",
        "actions/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "misses",
        "in flight",
        "bot CPU",
        "CPU/action",
        "bench CPU",
        "others CPU",
        "bot peak RSS",
    ]
    rows = [header]
    phases = [floor, *([table_floor] if table_floor else []), game]
    for phase in phases:
        rows.append(
            [
                phase.name,
                str(phase.interactions),
                str(phase.actions),
                f"{phase.seconds:.1f}",
                f"{phase.rate:.1f}",
                f"{phase.pct(0.50):.1f}",
                f"{phase.pct(0.99):.1f}",
                f"{phase.pct(1.0):.1f}",
                str(phase.misses),
                f"{sum(phase.latencies) / phase.seconds:.1f}",
                f"{100 * phase.bot_cpu:.0f}%",
                f"{1000 * phase.bot_cpu * phase.seconds / max(1, phase.actions):.2f} ms",
                f"{100 * phase.bench_cpu:.0f}%",
                f"{100 * phase.others_cpu:.0f}%",
                f"{phase.peak_rss_mib:.1f} MiB",
            ]
        )
    print_table(rows)
    print()
    print("game interactions by kind:")
    rows = [["kind", "count", "p50 ms", "p99 ms", "max ms"]]
    for kind, values in sorted(game.by_kind.items()):
        rows.append(
            [
                kind,
                str(len(values)),
                f"{percentile(values, 0.5):.1f}",
                f"{percentile(values, 0.99):.1f}",
                f"{percentile(values, 1.0):.1f}",
            ]
        )
    print_table(rows)
    if table_floor is not None:
        print(
            f"table floor (a click on a copy of the table message, answered by drawing it"
            f" again, nothing behind it): {table_floor.rate / floor.rate:.1%} of the floor's"
            f" rate, p99 {table_floor.pct(0.99) / floor.pct(0.99):.2f}x the floor's"
        )
    busy = [p.name for p in phases if p.others_cpu > OTHERS_WARN]
    if busy:
        print(
            f"WARNING: other processes used the CPU during the {' and '.join(busy)} run "
            "(others CPU): this machine has 2 cores, so the figures are low; run it again "
            "on a quiet machine"
        )
    for phase in phases:
        calls = ", ".join(f"{n} {kind}" for kind, n in phase.rest.most_common())
        print(f"{phase.name} bot REST calls: {calls}")
        if phase.coups:
            print(f"{phase.name}: {budget_line(phase.budget, phase.coups, phase.limited)}")
            if phase.pictures is not None:
                posted, coups = phase.pictures
                print(
                    f"{phase.name}: {posted} pictures posted for {coups} coups dealt, the last"
                    f" {phase.pictures_late:.1f} s after the play (at most {PICTURES_S:g} s"
                    " waited)"
                )
        elif phase.limited:
            print(f"{phase.name}: {phase.limited} 429s received")
    for name, clicker in clickers.items():
        if clicker.refused or clicker.timeouts:
            print(
                f"{name}: refused {dict(clicker.refused)}, no answer in time "
                f"{dict(clicker.timeouts)}; answers: {dict(clicker.refusals.most_common(3))}"
            )
    for name, lines in errors.items():
        if lines:
            print(f"{name} bot logged {len(lines)} error line(s), first: {lines[0][:200]}")

    floor_share = TARGET_RATIO * floor.rate
    checks = [
        (
            f"game actions/s >= {TARGET_RATIO:.0%} of the floor's: {game.rate:.1f} vs "
            f"{floor_share:.1f} (the game's rate is {game.rate / floor.rate:.1%} of the floor's)",
            game.rate >= floor_share,
        ),
        (
            f"game p99 < {TARGET_P99_MS:g} ms: {game.pct(0.99):.1f} ms",
            game.pct(0.99) < TARGET_P99_MS,
        ),
        (
            f"no interaction misses the {DEADLINE_S:g} s deadline: {game.misses} missed",
            game.misses == 0,
        ),
    ]
    print()
    for text, ok in checks:
        print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return all(ok for _, ok in checks)


def print_trace(data: dict) -> None:
    """Where the game bot's time went during the measured phase (from load_bot.py's Trace)."""
    wall, seconds, calls = data["wall"], data["seconds"], data["calls"]

    def share(s: float) -> str:
        return f"{s:.2f} s ({s / wall:.0%})"

    print(f"\nwhere the game bot's time went (--trace, over {wall:.1f} s; tracing slows it):")
    print(f"  event loop thread CPU {share(data['loop_cpu'])}")
    held = sum(sum(v) for v in data["holds"].values())
    print(f"  database lock held {share(held)}, one holder at a time:")
    for kind, holds in sorted(data["holds"].items()):
        statements = calls.get(f"{kind} statements", 0)
        print(
            f"    {kind:<12} {len(holds):6d} holds, {sum(holds):6.2f} s, mean "
            f"{1000 * sum(holds) / len(holds):.2f} ms, p99 {percentile(holds, 0.99):.1f} ms, "
            f"{statements / len(holds):.1f} statements each"
        )
    waits = data["waits"]
    if waits:
        print(
            f"  waiting for the lock: mean {1000 * sum(waits) / len(waits):.1f} ms, "
            f"p99 {percentile(waits, 0.99):.1f} ms"
        )
    count, spent = calls.get("statement", 0), seconds.get("statement", 0.0)
    if count:
        print(f"  SQLite statements (inline): {count}, mean {1000 * spent / count:.3f} ms each")
    lags = data["lags"]
    if lags:
        print(
            f"  event loop lag (a 5 ms sleep wakes late by): mean "
            f"{1000 * sum(lags) / len(lags):.1f} ms, p99 {percentile(lags, 0.99):.1f} ms"
        )
    print("  pure-Python steps on the event loop (they block it):")
    for key, total in sorted(seconds.items(), key=lambda kv: -kv[1]):
        if key == "statement":
            continue
        n = calls[key]
        print(f"    {key:<38} {n:6d} calls, {share(total)}, {1000 * total / n:.3f} ms each")


def print_gc(data: dict) -> None:
    wall = data["wall"]
    print(
        f"\ngarbage collector and loop stalls (--gc {data['tune']}; thresholds"
        f" {tuple(data['threshold'])}, {data['frozen']:,} objects frozen; over {wall:.1f} s):"
    )
    total = 0.0
    for generation, pauses in data["pauses"].items():
        total += sum(pauses)
        cpu = data["cpu"][generation]
        if pauses:
            print(
                f"  gen {generation}: {len(pauses):>6} collections, {1000 * sum(pauses):8.1f} ms"
                f" in all, longest {1000 * max(pauses):6.1f} ms; CPU: mean"
                f" {1000 * sum(cpu) / len(cpu):6.2f} ms, longest {1000 * max(cpu):6.1f} ms"
            )
    print(f"  time in GC: {100 * total / wall:.1f}% of the phase")
    print_loop(data)
    tracked = dict(data["tracked"])
    everything = tracked.pop("all")
    commonest = ", ".join(f"{name} {count:,}" for name, count in tracked.items())
    print(f"  objects in the collector's care at the end: {everything:,} ({commonest})")


def print_loop(data: dict) -> None:
    """How long the loop was held: a heartbeat's lateness (the queue ahead of it included),
    and the longest single callbacks (what held it by itself)."""
    stalls = data["stalls"]
    if stalls:
        print(
            f"  loop stalls (a 1 ms heartbeat wakes late by): longest {1000 * stalls[0]:.1f} ms,"
            f" 10th longest {1000 * stalls[min(9, len(stalls) - 1)]:.1f} ms,"
            f" {sum(s > 0.05 for s in stalls)} over 50 ms"
        )
    callbacks = data["callbacks"]
    if callbacks:
        longest = ", ".join(f"{1000 * spent:.1f} ms {name}" for spent, name in callbacks[:3])
        print(
            f"  callbacks: {data['callback_count']:,} run; {sum(c[0] > 0.05 for c in callbacks)}"
            f" over 50 ms; 10th longest {1000 * callbacks[min(9, len(callbacks) - 1)][0]:.1f}"
            f" ms; longest {longest}"
        )


def print_floor_loop(data: dict) -> None:
    print(f"\nthe floor bot's loop, under its own load (over {data['wall']:.1f} s):")
    print_loop(data)


def print_profile(path: Path) -> None:
    print(f"\ncProfile of the game bot ({path}); the figures above are slowed by it:")
    stats = pstats.Stats(str(path))
    stats.sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(r"bondbot|sqlite|pydantic|discord", 40)


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


async def main_async(args: argparse.Namespace) -> int:
    if args.rates or args.sweep:
        from load_open import run_open

        with (
            tempfile.TemporaryDirectory(prefix="bondbot-load-open-") as tmp,
            postgres_schema(args.database) as target,  # --database: the game on both
        ):
            args.database_target = target
            code = await run_open(args, Path(tmp))
        if args.profile is not None:
            print_profile(args.profile)
        if args.py_spy is not None:
            from load_open import pg_spy_path, print_py_spy

            print_py_spy(args.py_spy)
            if args.database is not None:
                print("(the game on PostgreSQL:)")
                print_py_spy(pg_spy_path(args.py_spy))
        return code
    with postgres_schema(args.database) as target:
        args.database_target = target
        return await _main_async(args)


HUMAN_P99_MS = 250.0  # --human-pace: what "sustains" means, with no miss


async def run_human_pace(args: argparse.Namespace) -> int:
    """Tables at a coup every `--coup-every` s each (10 by default), `--tables` first, then
    twice as many each step (a fresh bot, database and fake each), two coups a table, until
    p99 > 250 ms or a miss: the most one process sustained, with its RSS and what a coup
    cost of the token's budget."""
    args.coup_every = args.coup_every or 10.0
    best, tables, rows = 0, args.tables, []
    while tables <= args.max_tables:
        args.tables, args.actions, args.concurrency = tables, 10 * tables, 3 * tables
        with tempfile.TemporaryDirectory(prefix="bondbot-pace-") as tmp:
            async with asyncio.timeout(args.timeout):
                game, clicker, errors, _, _ = await run_game(args, Path(tmp))
        held = game.misses == 0 and game.pct(0.99) <= HUMAN_P99_MS and not clicker.timeouts
        posted, coups = game.pictures or (0, 0)
        rows.append(
            [
                str(tables),
                f"{game.coups / game.seconds:.1f}",
                f"{game.pct(0.99):.0f}",
                str(game.misses),
                f"{game.bot_cpu:.0%}",
                f"{game.peak_rss_mib:.0f}",
                f"{sum(game.budget.values()) / max(1, game.coups):.2f}",
                str(game.limited),
                f"{posted}/{coups}",
                "yes" if held else "no",
            ]
        )
        print_table(
            [
                [
                    "tables",
                    "coups/s",
                    "p99 ms",
                    "misses",
                    "bot CPU",
                    "RSS MiB",
                    "req/coup",
                    "429s",
                    "pictures",
                    "sustained",
                ],
                rows[-1],
            ]
        )
        if errors:
            print(f"bot logged {len(errors)} error line(s), first: {errors[0][:200]}")
        if not held:
            break
        best, tables = tables, 2 * tables
    least = "at least " if best and best == args.tables else ""
    print(
        f"one process sustained {least}{best} tables at a coup every {args.coup_every:g} s each"
        f" (p99 <= {HUMAN_P99_MS:g} ms, no miss; the fake's global limit"
        f" {args.global_limit}/s{'' if args.buckets else ', buckets off'};"
        f" {args.database or 'SQLite'}; machine shared: see others CPU)"
    )
    return 0


async def _main_async(args: argparse.Namespace) -> int:
    if args.human_pace:
        return await run_human_pace(args)
    with tempfile.TemporaryDirectory(prefix="bondbot-load-") as tmp:
        workdir = Path(tmp)
        (workdir / "floor").mkdir()
        (workdir / "game").mkdir()
        if args.trace_flag:
            args.trace = workdir / "trace.json"
        if args.gc_tune is not None:
            args.gc_out = workdir / "gc.json"
            args.floor_gc_out = workdir / "floor" / "gc.json"
        async with asyncio.timeout(args.timeout):
            floor, floor_clicker, floor_errors = await run_floor(args, workdir / "floor")
            game, game_clicker, game_errors, setup_seconds, lock = await run_game(
                args, workdir / "game"
            )
            table_floor = None
            clickers = {"floor": floor_clicker, "game": game_clicker}
            errors = {"floor": floor_errors, "game": game_errors}
            if args.table_floor:
                (workdir / "table-floor").mkdir()
                table_floor, clickers["table floor"], errors["table floor"] = await run_table_floor(
                    args, workdir / "table-floor", args.drawn_table
                )
        where = "in their channels" if args.in_channel else "each in its thread"
        if args.processes > 1:
            where += (
                f", the game bot as {args.processes} processes (one shard each, a guild on"
                f" each shard, one database: {args.database or 'SQLite'}); CPU is theirs"
                " together, RSS their sum; the floor is one process"
            )
        print(
            f"BondBot load: {args.tables} punto banco tables (GM, 3 PCs, an NPC each) {where},"
            f" {args.actions} actions per run, at most {args.concurrency} interactions in "
            f"flight, spend rate {args.spend_rate:g}, seed {args.seed}"
        )
        print(
            f"game setup (not measured): {args.tables} tables opened, "
            f"{3 * args.tables} PCs joined and chose Simulate in {setup_seconds:.1f} s"
            f" ({args.threads} threads)"
        )
        print()
        ok = report(floor, game, clickers, errors, table_floor)
        if lock is not None:
            print("\n".join(["", *lock.report]))
            verdict = "PASS" if lock.consistent else "FAIL"
            print(f"{verdict}  what is on disk is exactly what was answered as done")
            ok = ok and lock.consistent
        if args.trace is not None:
            print_trace(json.loads(args.trace.read_text(encoding="utf-8")))
        if args.gc_out is not None:
            print_gc(json.loads(args.gc_out.read_text(encoding="utf-8")))
            print_floor_loop(json.loads(args.floor_gc_out.read_text(encoding="utf-8")))
    if args.profile is not None:
        print_profile(args.profile)
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=3000, help="game actions (and floor pings)")
    parser.add_argument(
        "--concurrency", type=int, help="interactions in flight at most (default: 3 per table)"
    )
    parser.add_argument("--spend-rate", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=7, help="the fake users' choices")
    parser.add_argument("--timeout", type=float, default=900.0, help="for the whole run, in s")
    parser.add_argument("--profile", type=Path, help="cProfile the game bot into this file")
    parser.add_argument(
        "--in-channel",
        action="store_true",
        help="tables play in their channels: no thread, so no picture of each hand's result",
    )
    parser.add_argument(
        "--lock",
        type=float,
        metavar="S",
        help=f"another process holds the database's write lock S seconds, {LOCK_AFTER_S:g} s"
        " into the game (the play goes on until it is released)",
    )
    parser.add_argument(
        "--trace", dest="trace_flag", action="store_true", help="time the game bot's hot spots"
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="run the game bot on this PostgreSQL database (in a schema of its own, dropped"
        " after) instead of a temporary SQLite file; with --rate/--sweep, a second game bot"
        " on it beside the one on SQLite (no floors), the two alternated in rounds",
    )
    parser.add_argument(
        "--table-floor",
        action="store_true",
        help="a third run: the floor bot answering clicks on a copy of the table message the"
        " game drew last, each by drawing it again (discord.py's own cost of a table click)",
    )
    parser.add_argument(
        "--gc",
        dest="gc_tune",
        metavar="TUNE",
        help="time the game bot's GC pauses, loop stalls and longest callbacks under TUNE:"
        " default, freeze, freeze-late, threshold=A,B,C, or joined by +:"
        " freeze+threshold=A,B,C (the floor bot's loop is watched too, with Python's GC)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="the game bot as N processes, one shard each, on one database (a guild per"
        " shard, the tables shared out between them)",
    )
    parser.add_argument(
        "--coup-every",
        type=float,
        default=0.0,
        metavar="S",
        help="a human pace: each table starts a coup S seconds after its last (e.g. 10)",
    )
    parser.add_argument(
        "--human-pace",
        action="store_true",
        help="tables at a coup every --coup-every s (10) each, from --tables, doubled each"
        " step until p99 > 250 ms or a miss: the most one process sustains, with its RSS",
    )
    parser.add_argument("--max-tables", type=int, default=1600, help="--human-pace: at most")
    parser.add_argument(
        "--global-limit",
        type=int,
        default=50,
        metavar="N",
        help="the fake's global limit, requests a second (Discord: 50); the bot spends 80%%",
    )
    parser.add_argument(
        "--buckets",
        choices=("on", "off"),
        help="the fake with Discord's rate limits (issue 32): on by default, off in the open"
        " loop (it measures the CPU against the table floor; the budget caps it long before)",
    )
    parser.add_argument("--no-buckets", dest="buckets", action="store_const", const="off")
    open_loop = parser.add_argument_group(
        "open loop",
        "the game, the table floor and /ping side by side, each in its process, offered the"
        " same rates: users click after an exponential think time whether or not the bot"
        " answered the others (see bench/load_open.py)",
    )
    open_loop.add_argument(
        "--rate",
        dest="rates",
        type=float,
        action="append",
        metavar="R",
        help="offer R interactions/s in all to each bot (repeat for several rates)",
    )
    open_loop.add_argument(
        "--sweep",
        action="store_true",
        help="find each bot's capacity: the highest offered rate with p99 <= 250 ms and no miss",
    )
    open_loop.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="N rounds, the bots in alternating order (game first, then the other way round)",
    )
    open_loop.add_argument(
        "--step-seconds", type=float, default=5.0, help="length of a rate step's arrivals"
    )
    open_loop.add_argument(
        "--start-rate", type=float, default=200.0, help="--sweep: the first rate tried"
    )
    open_loop.add_argument(
        "--max-rate", type=float, default=6400.0, help="--sweep: the highest rate tried"
    )
    open_loop.add_argument(
        "--precision",
        type=float,
        default=0.1,
        help="--sweep: stop bisecting when the bracket's ends are within this ratio",
    )
    open_loop.add_argument(
        "--max-steps", type=int, default=9, help="--sweep: rate steps per bot and round, at most"
    )
    open_loop.add_argument(
        "--py-spy",
        type=Path,
        metavar="FILE",
        help="sample the game bot with py-spy (pip install py-spy) over the measured steps,"
        " raw samples into FILE, and print where its time went",
    )
    args = parser.parse_args(argv)
    if args.py_spy is not None:
        args.py_spy = args.py_spy.resolve()
    if args.rates or args.sweep:
        if args.rates and args.sweep:
            parser.error("--rate and --sweep: one or the other")
        if args.lock or args.trace_flag or args.gc_tune or args.processes > 1:
            parser.error("the open loop goes without --lock, --trace, --gc, --processes")
        if args.table_floor:
            parser.error("the open loop always runs the table floor: no --table-floor")
        if args.rounds < 1 or args.step_seconds <= 0 or any(r <= 0 for r in args.rates or []):
            parser.error("--rounds, --step-seconds and --rate must be positive")
    if args.tables < 1 or args.actions < 1:
        parser.error("--tables and --actions must be at least 1")
    if args.processes < 1 or args.processes > args.tables:
        parser.error("--processes must be between 1 and --tables")
    watching = args.profile or args.trace_flag or args.gc_tune is not None or args.lock
    if args.processes > 1 and watching:
        parser.error("--profile, --trace, --gc and --lock watch one process: not with --processes")
    if args.database is not None and (args.lock or not args.database.startswith("postgres")):
        parser.error("--database takes a postgresql:// URL, and does not go with --lock")
    args.concurrency = args.concurrency or 3 * args.tables
    open_loop_run = bool(args.rates or args.sweep)
    args.buckets = (args.buckets or ("off" if open_loop_run else "on")) == "on"
    args.trace = None
    args.gc_out = args.floor_gc_out = None
    if args.gc_tune == "default":
        args.gc_tune = ""
    if args.profile is not None:
        args.profile = args.profile.resolve()
    try:
        return asyncio.run(main_async(args))
    except TimeoutError:
        print(f"FAIL  the run did not finish within --timeout {args.timeout:g} s")
        return 1


if __name__ == "__main__":
    sys.exit(main())
