"""bench/load/load.py --human-pace: tables at a coup every few seconds each, doubled step by
step until one process no longer keeps up, then halved back between the last that held and
the first that did not."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_closed import Phase, run_game
from load_common import postgres_schema, print_table

HUMAN_P99_MS = 250.0  # --human-pace: what "sustains" means, with no miss
SETUP_TABLES = 8  # tables set up at once (not measured): all at once, joins came after 3 s
HEADER = [
    "tables",
    "setup s",
    "coups/s",
    "p50 ms",
    "p99 ms",
    "misses",
    "bot CPU",
    "bench CPU",
    "others CPU",
    "RSS MiB",
    "req/coup",
    "429s",
    "pictures",
    "sustained",
]


def _row(tables: int, setup_s: float, game: Phase, held: bool) -> list[str]:
    posted, coups = game.pictures or (0, 0)
    return [
        str(tables),
        f"{setup_s:.0f}",
        f"{game.coups / game.seconds:.1f}",
        f"{game.pct(0.5):.0f}",
        f"{game.pct(0.99):.0f}",
        str(game.misses),
        f"{game.bot_cpu:.0%}",
        f"{game.bench_cpu:.0%}",
        f"{game.others_cpu:.0%}",
        f"{game.peak_rss_mib:.0f}",
        f"{sum(game.budget.values()) / max(1, game.coups):.2f}",
        str(game.limited),
        f"{posted}/{coups}",
        "yes" if held else "no",
    ]


async def _step(args: argparse.Namespace, tables: int) -> tuple[bool, list[str]]:
    """One step: a fresh bot, database and fake with `tables` tables, two coups each."""
    args.tables, args.actions, args.concurrency = tables, 10 * tables, 3 * tables
    try:
        with (
            tempfile.TemporaryDirectory(prefix="bondbot-pace-") as tmp,
            postgres_schema(args.database) as target,
        ):
            args.database_target = target
            async with asyncio.timeout(args.timeout):
                game, clicker, errors, setup_s, _ = await run_game(args, Path(tmp))
    except (RuntimeError, TimeoutError) as exc:  # the setup failed, or the step ran over
        why = str(exc).splitlines()[0][:160] if str(exc) else f"over --timeout {args.timeout:g} s"
        print(f"{tables} tables: not sustained ({why})")
        return False, [str(tables), *["—"] * (len(HEADER) - 2), "no"]
    held = game.misses == 0 and game.pct(0.99) <= HUMAN_P99_MS and not clicker.timeouts
    row = _row(tables, setup_s, game, held)
    print_table([HEADER, row])
    if game.limited_by:
        print("the 429s: " + ", ".join(f"{n} {route}" for route, n in game.limited_by.items()))
    if errors:
        print(f"bot logged {len(errors)} error line(s), first: {errors[0][:200]}")
    return held, row


async def run_human_pace(args: argparse.Namespace) -> int:
    """Tables at a coup every `--coup-every` s each (10 by default), `--tables` first, then
    twice as many each step (a fresh bot, database and fake each; the tables set up a few
    at a time, not measured), two coups a table, until p99 > 250 ms or a miss; then the
    midpoint between the last that held and the first that did not, until they are within
    `--pace-precision`: the most one process sustained, with its RSS and what a coup cost
    of the token's budget. Each step's others CPU says how busy the machine was."""
    args.coup_every = args.coup_every or 10.0
    args.setup_tables = SETUP_TABLES
    start = args.tables
    best, failed, tables, rows = 0, 0, start, []
    while tables <= args.max_tables:
        held, row = await _step(args, tables)
        rows.append(row)
        if held:
            best = tables
        else:
            failed = tables
        if failed == 0:
            tables *= 2
        elif best == 0 or failed <= best * (1 + args.pace_precision):
            break
        else:
            tables = (best + failed) // 2
    print()
    print(f"human pace: a coup every {args.coup_every:g} s at each table, two coups a table")
    print_table([HEADER, *rows])
    least = "at least " if best and failed == 0 else ""
    print(
        f"one process sustained {least}{best} tables at a coup every {args.coup_every:g} s each"
        f" (p99 <= {HUMAN_P99_MS:g} ms, no miss; the fake's global limit"
        f" {args.global_limit}/s{'' if args.buckets else ', buckets off'};"
        f" {args.database or 'SQLite'}; the machine shared: see others CPU)"
    )
    return 0
