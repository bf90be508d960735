"""The bots of bench/load/load.py's open loop (load_open.py), each with its fake Discord and
its users, offered a rate step after another: the game (BondBot), the table floor and /ping;
and what a step measured (`Step`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_common import (
    DEADLINE_S,
    TOKEN,
    BotProcess,
    machine_busy_seconds,
    percentile,
    postgres_server_cpu_seconds,
    rest_kind,
)
from load_fake import BenchFake, FakeChannel, FakeUser, InteractionResult, World
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

from bondbot.i18n import t

P99_LIMIT_MS = 250.0
REST_S = 0.5  # between steps: the bot finishes what it queued (the writer, pictures)
DRAIN_S = 8.0  # after a step's last arrival: every arrival sent and answered, at most
# Answers that are a miss though they came in time: the bot's own fault, or "busy"
ERRORS = (t("errors.internal", "en")[:60], t("errors.busy", "en")[:60])
BUSY_RETRY = 0.25  # --sweep: a step failed while others took this much of a core: again
PG = "game pg"  # --database: the game on PostgreSQL, beside the game on SQLite
KEEP_S = 60.0  # the fake forgets acknowledged interactions older than this, between steps


# -- one bot under an open loop ---------------------------------------------------------------


@dataclass
class Step:
    bot: str
    rate: float  # offered, interactions/s
    seconds: float  # the arrivals' span
    offered: int
    sent: int
    answered: int
    latencies: list[float]
    misses: int
    why: str  # the misses by cause: unanswered, refused, late arrivals, never sent
    cpu_s: float  # the bot process's CPU over the step and its drain
    others_cpu: float  # other processes' CPU over the step, in cores
    bench_cpu: float  # this process's (the fakes and their users), in cores
    rest: Counter[str] = field(default_factory=Counter)  # the bot's REST calls, by kind
    server_cpu_s: float = math.nan  # --database: PostgreSQL's server, over the same time

    @property
    def ok(self) -> bool:
        return self.misses == 0 and self.answered > 0 and self.pct(0.99) <= P99_LIMIT_MS

    def pct(self, q: float) -> float:
        return percentile(self.latencies, q)

    @property
    def cpu_ms(self) -> float:
        """The bot's CPU per answered interaction, in ms."""
        return 1000 * self.cpu_s / self.answered if self.answered else math.nan

    @property
    def server_ms(self) -> float:
        """PostgreSQL's server's CPU per answered interaction, in ms (nan on SQLite)."""
        return 1000 * self.server_cpu_s / self.answered if self.answered else math.nan


class Arrivals:
    """Each table's arrivals not yet clicked, oldest first (their times, time.monotonic)."""

    def __init__(self, tables: int) -> None:
        self.queues: list[asyncio.Queue[float]] = [asyncio.Queue() for _ in range(tables)]
        self.late = 0  # arrivals clicked more than DEADLINE_S after they came

    async def take(self, table: int) -> float:
        """Wait for the table's next arrival (at once if one is waiting)."""
        at = await self.queues[table].get()
        if time.monotonic() - at > DEADLINE_S:
            self.late += 1
        return at

    def waiting(self) -> int:
        return sum(q.qsize() for q in self.queues)


class OpenBot:
    """A bot, its fake Discord and its users, for rate steps one after another."""

    name = ""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.fake = BenchFake(
            token=TOKEN, interaction_deadline=DEADLINE_S, rate_limits=args.buckets
        )
        self.world = World(self.fake, args.tables)
        self.bot: BotProcess | None = None
        self.arrivals = Arrivals(args.tables)
        self.clicker = Clicker(self.fake, asyncio.Semaphore(1_000_000))
        self.in_flight = 0
        self.sent = 0
        self.scripts: list[asyncio.Task[None]] = []
        self.tasks: set[asyncio.Task[object]] = set()

    async def start(self) -> None:
        raise NotImplementedError

    def server_cpu(self) -> float:
        """The database server's CPU so far (PostgreSQL on this machine), else nan."""
        return math.nan

    def script(self, index: int) -> Awaitable[None]:
        """Table `index`'s users, clicking as arrivals come, forever."""
        raise NotImplementedError

    async def send(
        self, kind: str, start: Callable[[], Awaitable[InteractionResult]], **kwargs: object
    ) -> InteractionResult | None:
        self.in_flight += 1
        self.sent += 1
        try:
            return await self.clicker.run(kind, start, **kwargs)  # type: ignore[arg-type]
        finally:
            self.in_flight -= 1

    async def each_arrival(
        self,
        index: int,
        kind: str,
        click: Callable[[FakeUser, FakeChannel], Awaitable[InteractionResult]],
        **kwargs: object,
    ) -> None:
        """A floor's table: at each arrival the next of its three users clicks, whether or
        not the bot answered the others."""
        channel = self.world.channels[index]
        players = self.world.players[3 * index : 3 * index + 3]
        for n in itertools.count():
            await self.arrivals.take(index)
            user = players[n % 3]
            self.spawn(self.send(kind, lambda u=user: click(u, channel), **kwargs))

    def spawn(self, coro: Awaitable[object]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def launch(self) -> None:
        self.scripts = [
            asyncio.create_task(self.script(n), name=f"{self.name} table {n}")
            for n in range(self.args.tables)
        ]

    async def step(self, rate: float, seconds: float, rng: random.Random) -> Step:
        self.forget()
        gc.collect()
        gc.disable()  # no pause of the fake's (big) heap in the middle of a step
        try:
            return await self._step(rate, seconds, rng)
        finally:
            gc.enable()

    async def _step(self, rate: float, seconds: float, rng: random.Random) -> Step:
        assert self.bot is not None
        fake = self.fake
        for script in self.scripts:
            if script.done():  # a script that failed: say why
                script.result()
        first_latency = len(fake.latencies)
        first_interaction = len(fake.interactions)
        refusals = Counter(self.clicker.refusals)
        self.arrivals.late = 0
        sent = self.sent
        cpu, machine = self.bot.cpu_seconds(), machine_busy_seconds()
        server = self.server_cpu()
        bench = time.process_time()
        offered = 0
        start = time.monotonic()
        at = start
        while True:  # the arrivals: a Poisson stream of `rate`, each at a random table
            at += rng.expovariate(rate)
            if at - start > seconds:
                break
            wait = at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.arrivals.queues[rng.randrange(self.args.tables)].put_nowait(at)
            offered += 1
        drained = time.monotonic() + DRAIN_S
        while (self.arrivals.waiting() or self.in_flight) and time.monotonic() < drained:
            await asyncio.sleep(0.02)
        left = self.arrivals.waiting()
        for queue in self.arrivals.queues:  # not sent in time: misses, and forgotten
            while not queue.empty():
                queue.get_nowait()
        bot_cpu = self.bot.cpu_seconds() - cpu
        server = self.server_cpu() - server
        bench_cpu = time.process_time() - bench
        elapsed = time.monotonic() - start
        others = machine_busy_seconds() - machine - bot_cpu - bench_cpu
        late = self.arrivals.late
        answers = self.clicker.refusals - refusals  # the answers that were not the expected one
        errors = sum(n for text, n in answers.items() if text.startswith(ERRORS))
        refused = sum(answers.values()) - errors
        interactions = list(fake.interactions.values())[first_interaction:]
        unanswered = sum(
            1
            for inter in interactions
            if not inter.acknowledged or any(a.code == 10062 for a in inter.attempts)
        )
        step = Step(
            bot=self.name,
            rate=rate,
            seconds=seconds,
            offered=offered,
            sent=self.sent - sent,
            answered=sum(1 for inter in interactions if inter.acknowledged),
            latencies=[r.seconds for r in fake.latencies[first_latency:]],
            misses=unanswered + errors + late + left,
            why=", ".join(
                f"{n} {what}"
                for n, what in (
                    (unanswered, "unanswered"),
                    (errors, "errors"),
                    (refused, "refused (a clear answer: not a miss)"),
                    (late, "late"),
                    (left, "never sent"),
                )
                if n
            ),
            cpu_s=bot_cpu,
            server_cpu_s=server,
            others_cpu=max(0.0, others / elapsed),
            bench_cpu=bench_cpu / elapsed,
            rest=Counter(
                "429s received" if r.status == 429 else rest_kind(r.method, r.path)
                for r in fake.requests
            ),
        )
        await self.settle()
        return step

    async def settle(self, timeout: float = 30.0) -> float:
        """Rest until the bot and the fake are idle, and at least REST_S: every click of
        the step given up or answered, the bot under 5% of a core over 0.25 s (an
        overloaded bot still works through the events it received) and this process under
        10% (after a collapse the fake still has the bot's late requests to refuse, and a
        step begun then would meet them). The bot's CPU over its last quarter second, in
        cores."""
        assert self.bot is not None
        await asyncio.sleep(REST_S)
        until = time.monotonic() + timeout
        while True:
            cpu, own = self.bot.cpu_seconds(), time.process_time()
            await asyncio.sleep(0.25)
            busy = (self.bot.cpu_seconds() - cpu) / 0.25
            fake_busy = (time.process_time() - own) / 0.25
            quiet = busy < 0.05 and fake_busy < 0.10 and not self.tasks
            if quiet or time.monotonic() > until:
                return busy

    async def idle_cpu(self, seconds: float = 3.0) -> float:
        """The bot's CPU with nothing to do, in cores (timers, heartbeats)."""
        assert self.bot is not None
        await self.settle()
        cpu = self.bot.cpu_seconds()
        await asyncio.sleep(seconds)
        return (self.bot.cpu_seconds() - cpu) / seconds

    def forget(self) -> None:
        """Drop what the fake keeps of old answered interactions and REST calls (memory)."""
        fake = self.fake
        old = time.monotonic() - KEEP_S
        for key in [
            k for k, i in fake.interactions.items() if i.acknowledged and i.dispatched_at < old
        ]:
            del fake.interactions[key]
        fake.requests.clear()
        fake.latencies.clear()

    async def stop(self) -> None:
        for task in [*self.scripts, *self.tasks]:
            task.cancel()
        for task in [*self.scripts, *self.tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.bot is not None:
            await self.bot.stop()
        await self.fake.stop()

    def errors(self) -> list[str]:
        return [] if self.bot is None else self.bot.log_errors()


class PingBot(OpenBot):
    name = "/ping"

    async def start(self) -> None:
        await self.fake.start()
        self.bot = BotProcess("floor", self.fake, self.world.guild.id, self.workdir)
        await self.bot.start()
        await self.bot.wait_connected()
        self.launch()

    async def script(self, index: int) -> None:
        def ping(user: FakeUser, channel: FakeChannel) -> Awaitable[InteractionResult]:
            return self.fake.slash(user, "ping", _channel=channel, _wait=False)

        await self.each_arrival(index, "ping", ping, expect="pong")


class TableFloorBot(OpenBot):
    name = "table floor"

    def __init__(self, args: argparse.Namespace, workdir: Path, drawn: dict) -> None:
        super().__init__(args, workdir)
        self.drawn = drawn
        enabled = [b["custom_id"] for b in _buttons_of(drawn) if not b.get("disabled")]
        # the table's commonest click in the game: Bet (else whatever it shows first)
        self.custom = next((c for c in enabled if c.endswith(":bets")), enabled[0])

    async def start(self) -> None:
        fake = self.fake
        await fake.start()
        path = self.workdir / "table.json"
        path.write_text(json.dumps(self.drawn), encoding="utf-8")
        self.bot = BotProcess("floor", fake, self.world.guild.id, self.workdir)
        await self.bot.start(extra_env={"BENCH_TABLE": str(path)})
        await self.bot.wait_connected()
        setup = Clicker(fake, asyncio.Semaphore(1_000))
        for channel in self.world.channels:  # not measured
            await setup.run(
                "post", lambda c=channel: fake.slash(self.world.gm, "post", _channel=c, _wait=False)
            )
        self.launch()

    async def script(self, index: int) -> None:
        def click(user: FakeUser, channel: FakeChannel) -> Awaitable[InteractionResult]:
            message = self.fake.public_message(channel)
            return self.fake.click(user, message, self.custom, _wait=False)

        await self.each_arrival(index, "click", click, redraws=True)


class GameBot(OpenBot):
    name = "game"

    def __init__(
        self, args: argparse.Namespace, workdir: Path, database: str | Path | None = None
    ) -> None:
        super().__init__(args, workdir)
        self.tables: list[Table] = []
        self.database = database or workdir / "bondbot.sqlite3"  # a URL: PostgreSQL
        if database is not None:
            self.name = PG

    def server_cpu(self) -> float:
        if isinstance(self.database, str) and self.database.startswith("postgres"):
            return postgres_server_cpu_seconds(self.database)
        return math.nan

    async def start(self) -> None:
        args, fake = self.args, self.fake
        self.tables = await seed_database(self.database, self.world, args.tables)
        await fake.start()
        self.bot = BotProcess(
            "bondbot", fake, self.world.guild.id, self.workdir, database=self.database
        )
        await self.bot.start(args.profile)
        await self.bot.wait_connected()
        setup = Clicker(fake, asyncio.Semaphore(min(3 * args.tables, 150)))
        await asyncio.gather(
            *(
                setup_table(t, setup, fake, self.world.gm.id, thread=not args.in_channel)
                for t in self.tables
            )
        )
        if sum(setup.refused.values()) or sum(setup.timeouts.values()):
            raise RuntimeError(
                f"setup failed: refused {dict(setup.refused)} {dict(setup.refusals)}, "
                f"timeouts {dict(setup.timeouts)}\n{self.bot.log_tail()}"
            )
        self.launch()

    def drawn(self) -> dict:
        """The table message as the game drew it last at the first table that dealt."""
        last = next((t for t in self.tables if t.dealt), self.tables[0]).message()
        return {"embeds": last.embeds, "components": last.components}

    async def script(self, index: int) -> None:
        table, fake, args = self.tables[index], self.fake, self.args
        gm_id = self.world.gm.id
        rng = random.Random(args.seed * 1000 + index)
        take = self.arrivals.take

        async def click(kind: str, start: Callable[[], Awaitable[InteractionResult]], **kw: object):
            await take(index)
            return await self.send(kind, start, **kw)

        async def bet(player: Player) -> bool:
            return await wager(click, fake, table, player, rng)

        async def spend(player: Player) -> None:
            await spend_hero_point(click, fake, table, player, self.clicker)

        while True:
            placed = await asyncio.gather(*(bet(p) for p in table.players))
            if not any(placed):
                continue
            lost = await deal(click, fake, table, gm_id, self.clicker.timeouts)
            if lost is None:
                continue
            await asyncio.gather(*(spend(p) for p in lost if rng.random() < args.spend_rate))


# -- the run ----------------------------------------------------------------------------------
