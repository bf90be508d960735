"""bench/load/load.py's closed loop: the floor (`/ping`), the game and the table floor, each
run with its bot in its own process, its users clicking again as soon as they are
answered (or at a human pace, `--coup-every`), and what each run measured (`Phase`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_common import DEADLINE_S, TOKEN, BotProcess, machine_busy_seconds, percentile, rest_kind
from load_fake import BenchFake, FakeChannel, FakeUser, InteractionResult, RateLimits, World
from load_tables import (
    Clicker,
    Player,
    Table,
    _buttons_of,
    deal,
    seed_database,
    setup_table,
    spend_hero_point,
    wager,
)

LOCK_AFTER_S = 1.0  # --lock: play this long before another process takes the write lock
SHARE = 0.8  # the bot's share of --global-limit (its outgoing queue's, bondbot/bot/outgoing.py)
PICTURE = "hand.png"
PICTURES_S = 120.0  # after the play, the longest wait for the last pictures


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
    limited_by: Counter[str] = field(default_factory=Counter)  # their routes, and scope
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
        self.limited_global = 0 if fake.rate_limits is None else fake.rate_limits.limited_global
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
        phase.limited_by = Counter(
            f"{r.method} {re.sub(r'[0-9]+', '{id}', r.path)}" for r in requests if r.status == 429
        )
        limits = self.fake.rate_limits
        if limits is not None and phase.limited:
            phase.limited_by["(of them, the global limit's)"] = (
                limits.limited_global - self.limited_global
            )


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
        if await spend_hero_point(clicker.run, fake, table, player, clicker):
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
        # a whole number: the queue lets a fractional share through rounded up (2.4 a second
        # is 3, all of --global-limit 3, and its 429s), where Discord's 50 give 40 exactly
        share = {"BENCH_REQUESTS_PER_SECOND": str(max(1, int(args.global_limit * SHARE / n)))}
        for each in bots:
            await each.start(args.profile, args.trace, args.gc_out, args.gc_tune, share)
            await each.wait_connected()
        setup = Clicker(fake, asyncio.Semaphore(args.concurrency))
        # --human-pace sets up a few tables at a time: hundreds opened at once answer a join
        # later than 3 s on a busy machine, and the setup is not what is measured
        opening = asyncio.Semaphore(getattr(args, "setup_tables", None) or len(tables))

        async def set_up(table: Table) -> None:
            async with opening:
                await setup_table(table, setup, fake, world.gm.id, thread=not args.in_channel)

        started = time.monotonic()
        await asyncio.gather(*(set_up(t) for t in tables))
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
