"""bench/load/load.py's open loop (`--rate`, `--sweep`, `--rounds`): tables' users who click
after a think time, whether or not the bot has answered the others.

    .venv/bin/python bench/load/load.py --rate R [--rate R2 …] | --sweep
                                        [--rounds N] [--step-seconds 5] [--tables 50]
                                        [--start-rate 200] [--max-rate 6400] [--precision 0.1]
                                        [--max-steps 9] [--in-channel] [--profile FILE]
                                        [--py-spy FILE] [--seed 7] [--database URL]

The closed loop measures the queue: with no think time, every user clicks again the moment
he is answered, so the rate is whatever the bot gives. The open loop offers load as real
tables do. Three bots run side by side, each in its own process (load_open_bots.py)
against its own fake Discord of the same world (tables, a GM and three players each),
started once for the whole run and warmed by a little play, not measured:

- game: BondBot, its tables opened, joined and set to Simulate (setup, not measured), then
  played as in the closed loop (wagers by Same again in the seat panel My seat opens, or
  the table's Bet button and its form; the GM's Deal once the table is redrawn with it; a
  loser's Spend a Hero Point with probability `--spend-rate`) but paced by arrivals. Each
  table's redraws being at most one edit a second (Discord's pace for a channel), the
  tables bound how fast their users can play: `--tables 300` keeps each table's users near
  a human pace at the rates the sweep reaches (50 tables at 1,000/s is 20 clicks a second
  at each);
- table floor: the floor bot answering clicks on a copy of the table message the game drew
  (each click answered by drawing it again in place, nothing behind it);
- /ping: the floor bot's `/ping`.

One rate step offers R interactions/s in all for `step_seconds`: a Poisson stream of
arrivals (exponential gaps, mean 1/R), each at a table drawn uniformly, so each table's
users together click as a Poisson stream of R/tables a second, and each user after an
exponential think time. An arrival is the table's next click: on the floors any click, sent
at once; in the game the click the table's script is at (the table's Bet button, its form's
submit; My seat and Same again in the panel it opens; the GM's Deal; a loser's Spend a Hero
Point), sent at once when what it clicks on is there, or as soon as the answer it needs
comes (a modal submit needs its modal; Same again the seat panel; a deal the coup's wagers
answered and the table redrawn with its Deal button, coalesced, up to a second; a spend the
deal's answer). Arrivals never wait for the bot: when it is slow they pile up and go out
together, as players' clicks would. After the step's last arrival the bench waits until
every arrival was sent and answered (the drain, at most 8 s), and the bot rests until it is
idle (under 5% of a core, 0.5 s at least: an overloaded bot still works through what it
received), as does the fake (the bench process under 10%, every click given up or
answered: after a collapse it still has the bot's late requests to refuse) before the next
step. Each bot gets the same offered rates, and the same seeded arrivals, in one run. The
bench process's garbage collector is off during a step (collected between steps).

Per step (one line each, as it ends): offered (arrivals), answered (acknowledged), p50/p99
of the fake's latency (dispatch to the accepted callback), misses (an interaction not
acknowledged within 3 s, or acknowledged too late, or answered with an error, the generic
one or "busy"; or an arrival that could not be sent within 3 s because the answer it needed
had not come; a clear refusal, such as a spend clicked on a table message not yet redrawn,
is an answer, counted apart), the bot process's CPU (user+system, /proc) per answered
interaction over the step and its drain, the bench process's and other processes' CPU (the
machine is shared: compare ratios within a round). A step passes when p99 <= 250 ms and
there is no miss. At the end: each bot's REST calls per interaction answered (callbacks,
message edits, messages sent) in its last step.

- `--rate R` (repeatable): every bot at each rate; then, per round and rate, the p99 ratios
  game/table floor and table floor//ping, and the CPU per interaction of the game, of the
  table floor and their difference (BondBot's own work per interaction).
- `--sweep`: each bot's capacity, the highest offered rate whose step passes. Up from
  `--start-rate` by ×2 (from the previous round's capacity by ×1.5 in later rounds) until a
  step fails (down by the factor if the first one fails), then bisection on geometric
  means until the bracket is within `--precision`, `--max-steps` steps per bot at most. A
  step that fails while other processes took more than a quarter of a core is run once
  more, and the second result counts (a pass always counts). Then the game and the table
  floor again at 50% of the table floor's capacity (the p99 target's point, and the CPU per
  interaction of both at one rate). Prints per round the three capacities, the ratios
  game/table floor and table floor//ping, the p99 of both at the 50% point and their
  ratio, and the CPU per interaction of both and its difference. One round of the three
  bots took 2 minutes on the 2-core machine shared with a little other work, 6 on a busy
  one (second tries); `--rounds 3` 6–18 minutes.
- `--database URL` (a `postgresql://` URL): the game on both backends instead of the floors,
  game on SQLite and game pg on that database (a schema of its own), in alternating order
  by round; the report gives per round both capacities and their ratio, and the p99 and
  CPU per interaction of both at 50% of SQLite's capacity, with their ratio, and the CPU
  of PostgreSQL's server per interaction of game pg (its postmaster and the children it
  forked, found by the URL's port when it runs on this machine; also at the end of each
  game pg step's line, "server … ms"; it is counted in others CPU too) (`--py-spy FILE`
  samples both bots, PostgreSQL's into FILE.pg).
- `--rounds N`: N rounds, the bots in alternating order (round 1 game, table floor, /ping;
  round 2 the other way round; …); each round's figures and ratios are printed.
- `--py-spy FILE`: py-spy (`pip install py-spy`) samples the game bot, attached to its
  process from the end of the warm-up, 200 times a second, all threads; the raw samples go
  to FILE and the bench prints the samples by thread, then the event loop's (MainThread,
  its waits in `select` left out): functions by own samples, BondBot's by inclusive
  samples. The other threads' samples are almost all waits (the executor's, aiosqlite's).
  It pauses the bot for each sample: not for the benchmark's figures.
- `--profile FILE`: cProfile over every measured step of the game bot (from the end of the
  warm-up), printed at the end; it slows the game, so its figures are not the benchmark's.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from load_common import print_table
from load_open_bots import (
    BUSY_RETRY,
    P99_LIMIT_MS,
    PG,
    GameBot,
    OpenBot,
    PingBot,
    Step,
    TableFloorBot,
)


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
        "; ".join(
            part
            for part in (
                step.why,
                "" if math.isnan(step.server_ms) else f"server {step.server_ms:.3f} ms",
            )
            if part
        ),
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
    rows[0] += ["PostgreSQL", "PG/SQLite CPU", "PG server CPU/interaction"]
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
            row.append(f"{p.server_ms:.3f} ms" if p and not math.isnan(p.server_ms) else "-")
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
