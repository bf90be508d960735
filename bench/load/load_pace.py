"""bench/load/load.py --human-pace: tables at a coup every few seconds each, doubled step by
step until one process no longer keeps up."""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load_closed import run_game
from load_common import print_table

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
