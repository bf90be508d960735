"""Load: many punto banco tables at once through the fake Discord, the bot in its own process.

    python bench/load/load.py [--tables 50] [--actions 3000] [--concurrency C] [--spend-rate 0.5]
                              [--seed N] [--timeout 900] [--in-channel] [--lock S]
                              [--database postgresql://user@host/db]
                              [--table-floor] [--profile FILE] [--trace] [--gc TUNE]
                              [--processes N] [--global-limit N] [--no-buckets]
                              [--coup-every S]
                              [--human-pace [--max-tables 1600] [--pace-precision 0.25]]
    python bench/load/load.py --rate R [--rate R2 ...] | --sweep [--rounds N] [--step-seconds S]

Everything stays on 127.0.0.1 and the run is bounded (`--actions`, and `--timeout` for the
whole run); the bot processes and the temp directory (config, SQLite database, bot logs)
are removed at the end. About 30 s on a quiet 2-core machine with the defaults.

The fake Discord (bondbot/local, with load_fake.py's waits that stay cheap with 150 users
waiting at once) runs in this process on 127.0.0.1 with one guild, one channel per table,
a GM (GM role) and three players per table; the database (a temp SQLite file, or with
--database a fresh schema of that PostgreSQL database, dropped at the end) gets one NPC
per table and one PC per player (his active character: $1,000,000, Gambling 8, 1,000 Hero
Points) and the guild's GM role, before the bot starts (load_tables.py). Two bots then
run, one after the other, each in its own process (bench/load/load_bot.py, which the bench
waits for until it synced its commands, identified and holds a gateway connection)
against a fresh fake of the same world (load_closed.py):

- floor: a bare discord.py bot whose `/ping` answers at once (ephemeral, no database).
  `concurrency` fake users click `/ping` in a closed loop until `actions` interactions.
- game: the real BondBot. Setup (not measured): at every table the GM runs `/table open
  punto_banco` (bankroll $100,000,000; in its own thread, so each coup's result is posted
  there as a picture; `--in-channel`: in the channel, no thread and no pictures) and the
  three PCs join for $100,000 (My seat, which opens the buy-in form to someone without a
  seat, then its submit) and choose Simulate (under the join's private answer). Then
  every table plays coups until `actions` game actions in all: the three PCs bet together
  (the table's Bet button, which opens the modal, then its submit with the bet chosen in
  its menu and the amount, answered by the table redrawn; or, half the time after his
  first coup, My seat, which opens his private panel, then its Same again), the GM deals
  once they have all been answered and the table is redrawn with its Deal button (at once
  when the coup's first wager came from the table's form, else by the coalesced redraw,
  up to the bot's message interval, 1 s), the Deal click is answered with the redrawn
  table, and each PC whose line there says he lost clicks the table's Spend a Hero Point
  button with probability `spend-rate` (one lost hand: it spends at once). Every fake
  user waits for his own answer before his next click; there is no think time.
- table floor (`--table-floor`, a third run after the game): the floor bot again, given
  the table message the game drew last (its embed and buttons); it posts a copy in every
  channel, and the users click one of its buttons in a closed loop, each click answered
  by drawing the same message again in place, built afresh (as the game answers a deal),
  with nothing behind it: what discord.py alone costs to answer a click on the table, a
  floor no game at that table can pass; its rate and p99 are printed against /ping's.

- `--processes N`: the game bot runs as N processes, each on one of N shards
  (`shard_count`, `shard_ids`), on one database; the fake has a guild on each shard (each
  with its GM role; table n in guild n % N), sends each guild's events to its shard's
  process, as Discord does; CPU is the bot processes' together, peak RSS their sum; the
  floor stays one process. With `--database URL` (an empty database, BondBot's
  PostgreSQL backend installed) they share that PostgreSQL database.
- `--lock S`: 1 s into the game, another connection (as another process would) takes the
  database's write lock and keeps it S seconds; the play goes on at least until it is
  released. Then the bench reads the database: each table's coups on disk must be its
  Deal clicks answered with the redrawn table, and the Hero Points spent on disk the
  spends answered as done (PASS/FAIL: what is on disk is exactly what was answered as
  done). With the lock, every write waiting is answered "busy": the misses column tells
  whether each answer still came within 3 s.

Game actions, what actions/s counts, are the interactions that do game work in the bot:
wager submits, Same again clicks, deals and spends. The Bet buttons that only open a
modal and the My seat clicks that only open the panel are interactions (in the latency
figures, each its own kind) but not actions. `concurrency` (default: 3 per table, the
most interactions the game ever has in flight) caps the interactions in flight in both
runs, and is the number of floor users.

Printed (load_report.py): one row per run: interactions, actions, time of the measured
phase, actions/s, p50/p99/max latency, misses, mean interactions in flight (Little's law:
latency × rate), the CPU of the bot process (and its CPU time per action, or per ping), of
this process (the fake and its users) and of every other process over the phase (% of one
core), and the bot's peak RSS (VmHWM). Then the game's latencies by kind of interaction,
the REST calls each bot made (interaction callbacks, table message edits, …), refused
answers and bot log errors if any, and a warning when other processes took CPU during a
run (the machine has 2 cores: the figures are then low). Latency is the fake's own record:
INTERACTION_CREATE dispatch to the accepted callback (the first response). A miss is an
interaction never acknowledged within Discord's 3 s or whose callback came too late
(10062). Targets (exit 1 if one fails, after printing everything): game actions/s >= 25%
of the floor's rate; game p99 < 100 ms; no miss. Since the table's rework (issue 21 §1)
each table plays about one coup a second, paced by the Deal button the coalesced redraw
brings, so the closed loop's actions/s is bound by 3–4 actions per table a second, not by
the bot: it measures latency under a paced, bursty load; throughput is the open loop's.

Discord's rate limits and a human pace:

- The fake applies Discord's buckets by default (bondbot/local/ratelimits.py: 50 requests a
  second in all, interaction callbacks and their token's webhooks apart; a channel's posts
  and edits 5 in 5 s; the `X-RateLimit-*` headers and Discord's 429s, which discord.py
  reads); `--no-buckets` (`--buckets off`) turns them off. The open loop runs without them
  unless `--buckets on`: it measures the CPU against the table floor, and a token's budget
  (about 30 coups a second at 1.35 requests a coup) caps the game long before the rates it
  offers. `--global-limit N` gives the fake a smaller global limit (the bot's outgoing
  queue then spends 80% of it, rounded down to a whole number of requests a second, at
  least one, through `BENCH_REQUESTS_PER_SECOND`), to reach a token's
  limit with the tables one machine can drive: at N = 10, 30 tables at a coup every 10 s
  are about what the budget sustains at that cost a coup, 90 tables three times that.
- `--coup-every S`: each table starts a coup S seconds after its last one started (its
  first within S seconds of the start): a group at a human pace (a coup every 10 s is fast
  for a group; one a minute is usual). The game's row then gives p99, misses and RSS at
  that pace (the actions/s target against the floor means nothing there). After the play
  the bench waits (at most 120 s) for every coup's picture, and prints `N requests a coup
  outside interaction answers (posts, edits, threads, others; coups), K 429s received`
  (what the coups cost of the token's budget: Discord counts every request but
  interaction answers against the 50 a second) and `P pictures posted for C coups dealt,
  the last L s after the play` (on the Deal's answer or in the thread, late rather than
  never).
- `--human-pace [--tables 50] [--max-tables 1600] [--coup-every 10] [--pace-precision 0.25]`
  (load_pace.py): the most one process sustains at that pace: a fresh bot, database (with
  `--database URL`, a fresh PostgreSQL schema) and fake for `--tables`, then twice as many
  each step (two coups a table), until p99 > 250 ms or a miss, then the midpoint between
  the last count that held and the first that did not, until they are within 25%. The
  tables are set up 8 at a time (not measured: hundreds opened at once answer a join later
  than 3 s on a busy machine, and the step would fail before its play). One row a step
  (setup time, coups/s, p50, p99, misses, the bot's, the bench's and the other processes'
  CPU, the bot's peak RSS, requests a coup, 429s, pictures), all the rows again at the end,
  and the last table count that held. A step whose setup fails or that runs over
  `--timeout` counts as not sustained. On a shared machine the p99 is the machine's as much
  as the bot's: read it with the others' CPU of that step.

Diagnosis (these slow the bot, so the figures of such a run are not the benchmark's; they
print where the time went after the figures):

- `--trace`: load_bot.py times the game bot over the measured phase only (SIGUSR1 and
  SIGUSR2 start and stop the count): the event loop thread's CPU, how long the database
  lock is held per transaction and per read and how many statements each runs, the wait
  for the lock, a statement's mean cost, the event loop's lag, and the pure-Python steps
  that block the loop (shuffles, JSON (de)serialisation of the table state, rendering the
  table message, discord.py's payload parsing).
- `--gc TUNE`: load_bot.py times every garbage collection of the game bot over the
  measured phase (by generation, wall and the loop thread's CPU time, which other
  processes do not inflate) and the event loop's stalls (a 1 ms heartbeat), under a
  setting to try on top of the bot's own (`default`: the bot's; `freeze`: gc.freeze() once
  the bot is ready; `freeze-late`: when the measured phase starts, the tables open;
  `threshold=A,B,C`; or parts joined by `+`), then counts the objects left in the
  collector's care at the end, by type (a leak shows there). It also times every callback
  the loop runs and prints the longest, with what ran: while the loop is busy, the
  heartbeat's lateness counts every callback queued ahead of it, and the longest callback
  is what held the loop by itself. The floor bot's loop is watched the same way under its
  own load (with Python's GC settings), and printed after, for comparison.
- `--profile FILE`: the game bot under cProfile over the measured phase, the stats written
  to FILE and their top printed (by own time, and cumulative for
  bondbot/discord.py/sqlite/pydantic).

Open loop (`--rate R`, `--sweep`, `--rounds N`): the game, the table floor and /ping side
by side, offered R interactions/s as the tables' users would (each clicks after an
exponential think time, whether or not the bot answered the others); per rate offered,
answered, p50, p99, misses and each bot's CPU per interaction; `--sweep` finds each bot's
capacity (the highest rate with p99 <= 250 ms and no miss). Its options and figures are in
bench/load/load_open.py's docstring.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_closed import LOCK_AFTER_S, run_floor, run_game, run_table_floor
from load_common import postgres_schema
from load_open import pg_spy_path, print_py_spy, run_open
from load_pace import run_human_pace
from load_report import print_floor_loop, print_gc, print_profile, print_trace, report


async def main_async(args: argparse.Namespace) -> int:
    if args.rates or args.sweep:
        with (
            tempfile.TemporaryDirectory(prefix="bondbot-load-open-") as tmp,
            postgres_schema(args.database) as target,  # --database: the game on both
        ):
            args.database_target = target
            code = await run_open(args, Path(tmp))
        if args.profile is not None:
            print_profile(args.profile)
        if args.py_spy is not None:
            print_py_spy(args.py_spy)
            if args.database is not None:
                print("(the game on PostgreSQL:)")
                print_py_spy(pg_spy_path(args.py_spy))
        return code
    if args.human_pace:  # a fresh schema each step
        return await run_human_pace(args)
    with postgres_schema(args.database) as target:
        args.database_target = target
        return await _main_async(args)


async def _main_async(args: argparse.Namespace) -> int:
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
        "--pace-precision",
        type=float,
        default=0.25,
        help="--human-pace: after the first step that fails, halve the bracket until its ends"
        " are within this ratio",
    )
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
        " answered the others (see bench/load/load_open.py)",
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
