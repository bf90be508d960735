"""What a coup costs of the bot token's budget, in every game (issue 32): the requests the
bot makes outside interaction answers, a coup, split into posts, edits, threads and
others, and the 429s it received, with Discord's buckets on in the fake.

Each game is played by the real bot against the fake Discord as the end-to-end tests play
it (`tests/e2e/budget_evening.py`): two players and the GM at a human pace (every click
waits until the bot has done all it does after it: the most a coup costs, nothing
coalesced by chance), wagers half from the table's form and half by Same again, the NPC
playing by itself, losers spending a Hero Point half the time, and the Hero Point windows
closing before the next coup. The counts do not depend on the machine's speed.

    python bench/load/requests_per_game.py [--coups 8] [--game holdem …] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests")]

from budget_evening import GAMES, KINDS, Spent, cast, measure  # noqa: E402
from e2e_env import BotEnv  # noqa: E402
from fakediscord.fixtures import DefaultWorld, build_default_world  # noqa: E402

from bondbot.local import FakeDiscord  # noqa: E402


async def one_game(game: str, coups: int, database: str | None, seed: int) -> Spent:
    """A fresh fake Discord (buckets on) and database for one game's evening."""
    fake = FakeDiscord(rate_limits=True)
    build_default_world(fake)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            target: Path | str = database or Path(folder) / "bond.sqlite3"
            # Discord's pace for a channel's edits, as the bot runs.
            env = BotEnv(fake, DefaultWorld.of(fake), target, message_interval=1.0)
            await cast(env)
            return await measure(env, game, coups, seed)
    finally:
        await fake.stop()


def print_table(rows: list[Spent]) -> None:
    head = ["game", "coups", "a coup", *KINDS, "429s", "pictures / hands shown"]
    lines = [
        [
            s.game,
            str(s.coups),
            f"{s.per_coup():.2f}",
            *(f"{s.per_coup(k):.2f}" for k in KINDS),
            str(s.limited),
            f"{s.pictures} / {s.shown}",
        ]
        for s in rows
    ]
    widths = [max(len(r[i]) for r in [head, *lines]) for i in range(len(head))]
    for row in [head, *lines]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))
    print()
    for s in rows:
        causes = ", ".join(f"{c} {n / max(1, s.coups):.2f}" for c, n in s.by_cause.most_common())
        print(f"{s.game}: a coup, after: {causes or 'nothing'}")


async def main_async(args: argparse.Namespace) -> int:
    rows = []
    for game in args.game or GAMES:
        spent = await one_game(game, args.coups, args.database, args.seed)
        print(spent.line(), file=sys.stderr)
        rows.append(spent)
    print(f"requests a coup outside interaction answers ({args.coups} coups a game):")
    print_table(rows)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=8, help="coups a game (default 8)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game")
    parser.add_argument("--database", help="a PostgreSQL URL (default: a SQLite file)")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
