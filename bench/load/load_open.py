"""bench/load.py's open loop (`--rate`, `--sweep`, `--rounds`): tables' users who click
after a think time, whether or not the bot has answered the others.

Three bots run side by side, each in its own process against its own fake Discord of the
same world (tables, a GM and three players each), started once for the whole run:

- game: BondBot, its tables opened, joined and set to Simulate (setup, not measured), then
  played as in the closed loop (wagers, a deal, spends) but paced by arrivals;
- table floor: the floor bot answering clicks on a copy of the table message the game drew
  (each click answered by drawing it again in place);
- /ping: the floor bot's `/ping`.

One rate step offers R interactions/s in all for `step_seconds`: a Poisson stream of
arrivals (exponential gaps, mean 1/R), each at a table drawn uniformly, so each table's
users together click as a Poisson stream of R/tables a second, and each user after an
exponential think time. An arrival is the table's next click: on the floors any click, sent
at once; in the game the click the table's script is at (the table's Bet button, its form's submit;
My seat and Same again in the panel it opens; the GM's Deal; a loser's Spend a Hero Point),
sent at once when what it clicks on is there, or as soon as the answer it needs comes (a
modal submit needs its modal; Same again the seat panel; a deal the coup's wagers answered
and the table redrawn with its Deal button, coalesced, up to a second; a spend the deal's
answer). Arrivals never wait for the bot: when
it is slow they pile up and go out together, as players' clicks would. After the step's
last arrival the bench waits until every arrival was sent and answered (the drain), and
the bot rests a moment before the next step.

Per step: offered (arrivals), answered (acknowledged), p50/p99 of the fake's latency
(dispatch to the accepted callback), misses (an interaction not acknowledged within 3 s,
or acknowledged too late, or answered with an error, the generic one or "busy"; or an
arrival that could not be sent within 3 s because the answer it needed had not come; a
clear refusal is an answer, counted apart), and the bot process's
CPU (user+system, /proc) per answered interaction. A step passes when p99 <= 250 ms and
there is no miss.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from load import (
    DEADLINE_S,
    TOKEN,
    BotProcess,
    Clicker,
    Player,
    Table,
    _buttons_of,
    deal,
    machine_busy_seconds,
    percentile,
    print_table,
    rest_kind,
    seed_database,
    setup_table,
    wager,
)
from load_fake import BenchFake, FakeChannel, FakeUser, InteractionResult, World

from bondbot.i18n import t

P99_LIMIT_MS = 250.0
REST_S = 0.5  # between steps: the bot finishes what it queued (the writer, pictures)
DRAIN_S = 8.0  # after a step's last arrival: every arrival sent and answered, at most
# Answers that are a miss though they came in time: the bot's own fault, or "busy"
ERRORS = (t("errors.internal", "en")[:60], t("errors.busy", "en")[:60])
BUSY_RETRY = 0.25  # --sweep: a step failed while others took this much of a core: again
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

    @property
    def ok(self) -> bool:
        return self.misses == 0 and self.answered > 0 and self.pct(0.99) <= P99_LIMIT_MS

    def pct(self, q: float) -> float:
        return percentile(self.latencies, q)

    @property
    def cpu_ms(self) -> float:
        """The bot's CPU per answered interaction, in ms."""
        return 1000 * self.cpu_s / self.answered if self.answered else math.nan


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
            # the table's one Spend a Hero Point button: with one lost hand it spends at once
            await click(
                "spend",
                lambda: fake.click(player.user_id, table.message(), table.cid("hp"), _wait=False),
                expect="You spend a Hero Point",
            )

        while True:
            placed = await asyncio.gather(*(bet(p) for p in table.players))
            if not any(placed):
                continue
            lost = await deal(click, fake, table, gm_id, self.clicker.timeouts)
            if lost is None:
                continue
            await asyncio.gather(*(spend(p) for p in lost if rng.random() < args.spend_rate))


# -- the run ----------------------------------------------------------------------------------


@dataclass
class Round:
    number: int
    order: list[str]
    steps: list[Step] = field(default_factory=list)
    capacity: dict[str, float] = field(default_factory=dict)
    half: dict[str, Step] = field(default_factory=dict)  # at 50% of the table floor's capacity


async def warm(bot: OpenBot, rng: random.Random, game: GameBot | None = None) -> None:
    """A little play first, not measured (and in the game, a deal at some table)."""
    for _ in range(10):
        await bot.step(min(200.0, 4.0 * bot.args.tables), 1.0, rng)
        if game is None or any(t.dealt for t in game.tables):
            return
    raise RuntimeError("the game dealt no coup while warming up")


async def sweep(
    bot: OpenBot, args: argparse.Namespace, rng: random.Random, rnd: Round, hint: float | None
) -> float:
    """The highest offered rate whose step passes: up by a factor from `hint` (the last
    round's capacity) or `--start-rate` until a step fails (down by it if the first fails),
    then bisect the bracket (geometric means) until it is within `--precision`; at most
    `--max-steps` steps."""
    lo, hi = 0.0, math.inf
    factor = 1.5 if hint else 2.0
    first = hint or args.start_rate
    for _ in range(args.max_steps):
        if hi == math.inf:
            rate = lo * factor if lo else first
            if rate > args.max_rate:
                break
        elif lo == 0.0:
            rate = hi / factor
            if rate < 1.0:
                break
        elif hi / lo > 1 + args.precision:
            rate = math.sqrt(lo * hi)
        else:
            break
        step = await bot.step(rate, args.step_seconds, rng)
        rnd.steps.append(step)
        print_step(step, rnd.number)
        if not step.ok and step.others_cpu > BUSY_RETRY:  # the machine's, maybe: once more
            step = await bot.step(rate, args.step_seconds, rng)
            rnd.steps.append(step)
            print_step(step, rnd.number)
        if step.ok:
            lo = rate
        else:
            hi = rate
    return lo


STEP_HEADER = [
    "round",
    "bot",
    "offered/s",
    "offered",
    "answered",
    "answered/s",
    "p50 ms",
    "p99 ms",
    "misses",
    "CPU/interaction",
    "bench CPU",
    "others CPU",
    "",
    "",
]


def step_row(step: Step, number: int) -> list[str]:
    return [
        str(number),
        step.bot,
        f"{step.rate:.0f}",
        str(step.offered),
        str(step.answered),
        f"{step.answered / step.seconds:.0f}",
        f"{step.pct(0.5):.1f}",
        f"{step.pct(0.99):.1f}",
        str(step.misses),
        f"{step.cpu_ms:.3f} ms",
        f"{100 * step.bench_cpu:.0f}%",
        f"{100 * step.others_cpu:.0f}%",
        "ok" if step.ok else "FAIL",
        step.why,
    ]


WIDTHS = [5, 11, 9, 7, 8, 10, 7, 7, 6, 15, 9, 10, 4, 0]


def print_step(step: Step, number: int) -> None:
    print(row_text(step_row(step, number)), flush=True)


def row_text(row: list[str]) -> str:
    return "  ".join(
        c.ljust(w) if i in (0, 1, 13) else c.rjust(w)
        for i, (c, w) in enumerate(zip(row, WIDTHS, strict=True))
    )


def order_of(number: int, names: list[str] | None = None) -> list[str]:
    """Round 1: game, table floor, /ping; round 2 the other way round; and so on."""
    names = names or ["game", "table floor", "/ping"]
    return names if number % 2 == 1 else names[::-1]


PG = "game pg"  # --database: the game on PostgreSQL, beside the game on SQLite


async def spy_on(bot: OpenBot, path: Path) -> asyncio.subprocess.Process:
    """py-spy sampling `bot`'s process into `path` (raw), all threads, 200 a second."""
    assert bot.bot is not None
    return await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")),
        "record",
        "--pid",
        str(bot.bot.pid),
        "--format",
        "raw",
        "--threads",
        "--rate",
        "200",
        "--output",
        str(path),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


def pg_spy_path(path: Path) -> Path:
    """Where --py-spy puts the PostgreSQL game's samples (beside SQLite's)."""
    return path.with_name(path.name + ".pg")


async def run_open(args: argparse.Namespace, workdir: Path) -> int:
    rng = random.Random(args.seed)
    game = GameBot(args, workdir / "game")
    bots: dict[str, OpenBot] = {"game": game}
    on_pg = getattr(args, "database_target", None)
    names = ["game", PG] if on_pg else None
    try:
        started = time.monotonic()
        await game.start()
        await warm(game, rng, game)
        if on_pg:
            pg = bots[PG] = GameBot(args, workdir / "game-pg", on_pg)
            await pg.start()
            await warm(pg, rng, pg)
        else:
            bots["table floor"] = TableFloorBot(args, workdir / "table-floor", game.drawn())
            bots["/ping"] = PingBot(args, workdir / "ping")
        for name in ("table floor", "/ping"):
            if name in bots:
                await bots[name].start()
                await warm(bots[name], rng)
        idle = {name: await bot.idle_cpu() for name, bot in bots.items()}
        print(
            f"open loop: {args.tables} punto banco tables (GM, 3 PCs, an NPC each)"
            f" {'in their channels' if args.in_channel else 'each in its thread'};"
            f" steps of {args.step_seconds:g} s; {len(bots)} bots started and warmed in"
            f" {time.monotonic() - started:.1f} s; seed {args.seed}"
        )
        print(
            "idle, each bot's CPU: "
            + ", ".join(f"{name} {100 * cpu:.1f}% of a core" for name, cpu in idle.items())
        )
        print(f"a step passes with p99 <= {P99_LIMIT_MS:g} ms and no miss\n")
        if args.profile is not None and game.bot is not None:
            game.bot.signal(signal.SIGUSR1)  # cProfile from here on
        spies = []
        if args.py_spy is not None and game.bot is not None:
            spies.append(await spy_on(game, args.py_spy))
            if PG in bots:
                spies.append(await spy_on(bots[PG], pg_spy_path(args.py_spy)))
        print(row_text(STEP_HEADER))
        rounds: list[Round] = []
        hints: dict[str, float] = {}
        for number in range(1, args.rounds + 1):
            rnd = Round(number, order_of(number, names))
            rounds.append(rnd)
            for name in rnd.order:
                bot = bots[name]
                if args.sweep:
                    rnd.capacity[name] = await sweep(bot, args, rng, rnd, hints.get(name))
                    hints[name] = rnd.capacity[name]
                else:
                    for rate in args.rates:
                        step = await bot.step(rate, args.step_seconds, rng)
                        rnd.steps.append(step)
                        print_step(step, number)
            base = "game" if on_pg else "table floor"  # --database: CPU at SQLite's half
            if args.sweep and rnd.capacity.get(base):
                half = 0.5 * rnd.capacity[base]
                for name in [n for n in rnd.order if n != "/ping"]:
                    step = await bots[name].step(half, args.step_seconds, rng)
                    rnd.half[name] = step
                    print_step(step, number)
        if args.profile is not None and game.bot is not None:
            await game.bot.written([args.profile])
        for spy in spies:
            spy.send_signal(signal.SIGINT)
            await spy.wait()
        print()
        report_open(args, rounds)
        last = {s.bot: s for r in rounds for s in [*r.steps, *r.half.values()]}
        for name, step in last.items():
            calls = ", ".join(
                f"{n / max(1, step.answered):.2f} {kind}" for kind, n in step.rest.most_common()
            )
            print(f"{name}: REST calls per interaction answered (its last step): {calls}")
        for name, bot in bots.items():
            if bot.clicker.refusals:
                print(f"{name}: answers refused: {dict(bot.clicker.refusals.most_common(3))}")
            lines = bot.errors()
            if lines:
                print(f"{name} bot logged {len(lines)} error line(s), first: {lines[0][:200]}")
        return 0
    finally:
        for bot in bots.values():
            await bot.stop()


def report_open(args: argparse.Namespace, rounds: list[Round]) -> None:
    busy = max((s.others_cpu for r in rounds for s in r.steps), default=0.0)
    if getattr(args, "database_target", None):
        report_backends(args, rounds)
    elif not args.sweep:
        print("by offered rate (game against the table floor, in the same round):")
        rows = [
            [
                "round",
                "offered/s",
                "p99 game/table floor",
                "p99 table floor//ping",
                "CPU/interaction game",
                "table floor",
                "BondBot's own",
            ]
        ]
        for rnd in rounds:
            for rate in args.rates:
                by = {s.bot: s for s in rnd.steps if s.rate == rate}
                g, t, p = by["game"], by["table floor"], by["/ping"]
                rows.append(
                    [
                        str(rnd.number),
                        f"{rate:g}",
                        f"{g.pct(0.99) / t.pct(0.99):.2f}x",
                        f"{t.pct(0.99) / p.pct(0.99):.2f}x",
                        f"{g.cpu_ms:.3f} ms",
                        f"{t.cpu_ms:.3f} ms",
                        f"{g.cpu_ms - t.cpu_ms:.3f} ms",
                    ]
                )
        print_table(rows)
    else:
        print("capacity (the highest offered rate with p99 <= 250 ms and no miss), by round:")
        rows = [
            [
                "round",
                "order",
                "game/s",
                "table floor/s",
                "/ping/s",
                "game/table floor",
                "table floor//ping",
                "at 50% of table floor: p99 game",
                "table floor",
                "ratio",
                "CPU/interaction game",
                "table floor",
                "BondBot's own",
            ]
        ]
        for rnd in rounds:
            c = rnd.capacity
            g, t = rnd.half.get("game"), rnd.half.get("table floor")
            rows.append(
                [
                    str(rnd.number),
                    " > ".join(rnd.order),
                    f"{c['game']:.0f}",
                    f"{c['table floor']:.0f}",
                    f"{c['/ping']:.0f}",
                    ratio(c["game"], c["table floor"]),
                    ratio(c["table floor"], c["/ping"]),
                    f"{g.pct(0.99):.1f} ms" if g else "-",
                    f"{t.pct(0.99):.1f} ms" if t else "-",
                    f"{g.pct(0.99) / t.pct(0.99):.2f}x" if g and t else "-",
                    f"{g.cpu_ms:.3f} ms" if g else "-",
                    f"{t.cpu_ms:.3f} ms" if t else "-",
                    f"{g.cpu_ms - t.cpu_ms:.3f} ms" if g and t else "-",
                ]
            )
        print_table(rows)
    if busy > 0.10:
        print(
            f"WARNING: other processes took up to {100 * busy:.0f}% of a core during a step"
            " (others CPU): the machine is shared, so rates are low; compare ratios within"
            " a round"
        )


def report_backends(args: argparse.Namespace, rounds: list[Round]) -> None:
    """--database: the game on PostgreSQL against the game on SQLite, round by round."""
    rows = [["round", "order", "offered/s", "p99 SQLite", "PostgreSQL", "CPU/interaction SQLite"]]
    rows[0] += ["PostgreSQL", "PG/SQLite CPU"]
    if args.sweep:
        rows[0][2:2] = ["capacity SQLite/s", "PostgreSQL/s", "PG/SQLite"]
    for rnd in rounds:
        pairs = [(r, {s.bot: s for s in rnd.steps if s.rate == r}) for r in args.rates or []]
        if args.sweep:
            pairs = [(0.5 * rnd.capacity["game"], rnd.half)]
        for rate, by in pairs:
            s, p = by.get("game"), by.get(PG)
            row = [str(rnd.number), " > ".join(rnd.order), f"{rate:.0f}"]
            if args.sweep:
                c = rnd.capacity
                row[2:2] = [f"{c['game']:.0f}", f"{c[PG]:.0f}", ratio(c[PG], c["game"])]
            row += [f"{x.pct(0.99):.1f} ms" if x else "-" for x in (s, p)]
            row += [f"{x.cpu_ms:.3f} ms" if x else "-" for x in (s, p)]
            row.append(f"{p.cpu_ms / s.cpu_ms:.2f}x" if s and p and s.cpu_ms else "-")
            rows.append(row)
    where = "at 50% of SQLite's capacity" if args.sweep else "by offered rate"
    print(f"PostgreSQL against SQLite, the same game and load ({where}), by round:")
    print_table(rows)


IDLE_FRAMES = ("EpollSelector.select (", "Condition.wait (", "_worker (", "_connection_worker")


def print_py_spy(path: Path, top: int = 30) -> None:
    """py-spy's raw samples of the game bot: by thread, then the event loop's (MainThread)
    active samples, functions by own samples and BondBot's by inclusive samples."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    threads: Counter[str] = Counter()
    loop = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        frames = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
        thread = frames.pop(0) if frames[0].startswith("thread (") else "MainThread"
        idle = frames[-1].startswith(IDLE_FRAMES)
        threads[f"{thread.rpartition(': ')[2]}{' waiting' if idle else ''}"] += n
        if idle or "MainThread" not in thread:
            continue
        loop += n
        own[frames[-1]] += n
        for frame in set(frames):
            inclusive[frame] += n
    total = sum(threads.values())
    if not loop:
        print(f"py-spy: no samples of the event loop in {path}")
        return
    print(f"\npy-spy of the game bot over the measured steps ({total} samples, {path}):")
    print(
        "  by thread: "
        + ", ".join(f"{thread} {100 * n / total:.0f}%" for thread, n in threads.most_common())
    )
    print(f"  the event loop's {loop} active samples, by own samples:")
    for frame, n in own.most_common(top):
        print(f"    {100 * n / loop:5.1f}%  {frame}")
    print("  the event loop's, bondbot's functions by inclusive samples:")
    ours = [(f, n) for f, n in inclusive.most_common() if "bondbot/" in f]
    for frame, n in ours[:top]:
        print(f"    {100 * n / loop:5.1f}%  {frame}")


def ratio(a: float, b: float) -> str:
    return f"{a / b:.0%}" if b else "-"
