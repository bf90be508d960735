"""Start-up with many open tables: how long until the bot answers, the event loop's
longest stall meanwhile, the REST calls it makes, and its memory.

    .venv/bin/python bench/load/startup.py [--tables 1000]

Builds a database with `--tables` open punto banco tables (one per channel, each with a
posted table message, a seated PC and a wager), then starts the real BondBot on it against
the fake Discord in this process (127.0.0.1), with a 1 ms heartbeat on the loop. Prints: the
time from start to ready and to the first answered command; the longest stall of the loop
(and the stalls over 50 and 100 ms), apart while the bot starts (building it, its cogs and
commands: nobody can be answered yet) and from ready until every table message was redrawn
(ten a second, so that a thousand tables never meet Discord's rate limits); the REST calls
by kind over the first seconds and until all are redrawn; the RSS the bot added. Figures,
never asserted; bounded in time (`--timeout`).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from fakediscord.fixtures import build_default_world, run_bot

from bondbot.bot.client import BondBot
from bondbot.config import Settings
from bondbot.local import FakeDiscord
from bondbot.sheets import validate_sheet
from bondbot.storage import characters
from bondbot.storage.db import Database
from bondbot.storage.settings import get_settings
from bondbot.tables.service import TableService

NOW = "2026-11-23T00:00:00.000+00:00"
TOKEN = re.compile(r"/[A-Za-z0-9_-]{40,}")  # an interaction's token in a route


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def build(path: Path, fake: FakeDiscord, tables: int) -> None:
    """`tables` open tables, as a bot that ran a while would leave them."""
    world_guild = fake.guild
    db = await Database.open(path)
    await db.migrate()
    try:

        async def make(name: str, owner: int | None = None, cash: int = 0) -> int:
            kind = "NPC" if owner is None else "PC"
            sheet = validate_sheet({"name": name, "kind": kind, "owner_id": owner, "cash": cash})
            async with db.transaction() as conn:
                made = await characters.create_character(conn, world_guild.id, sheet, now=NOW)
            return made.id

        npc = await make("Le Chiffre")

        async def settings(guild: int) -> object:
            async with db.read() as conn:
                return await get_settings(conn, guild)

        service = TableService(db, clock=_now, guild_settings=settings)
        for index in range(tables):
            channel = fake.add_channel(f"casino-{index}", guild=world_guild)
            owner = 10_000 + index
            pc = await make(f"Agent {index:04d}", owner, 100_000)
            snapshot = await service.open_table(
                guild_id=world_guild.id,
                channel_id=channel.id,
                actor_id=1,
                game="punto_banco",
                npc_id=npc,
                min_bet=100,
                max_bet=10_000,
            )
            await service.join(snapshot.id, owner, pc, 10_000)
            await service.choose(snapshot.id, owner, "simulate")
            await service.act(snapshot.id, owner, "wager", target="banker", amount=500)
            message = fake.add_bot_message(channel, "a table message drawn before the restart")
            await service.set_message(snapshot.id, message.id)
    finally:
        await db.close()


def routes(fake: FakeDiscord, since: int) -> Counter[str]:
    """The bot's REST calls since the `since`-th, by method and route."""
    return Counter(
        f"{r.method} {re.sub(r'/[0-9]+(?=/|$)', '/{id}', re.sub(TOKEN, '/{token}', r.path))}"
        for r in fake.requests[since:]
    )


def _now():  # type: ignore[no-untyped-def]
    from datetime import UTC, datetime

    return datetime.now(UTC)


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bondbot.sqlite3"
        fake = FakeDiscord()
        world = build_default_world(fake)
        await fake.start()
        try:
            started = time.perf_counter()
            await build(database, fake, args.tables)
            print(f"built {args.tables} open tables in {time.perf_counter() - started:.1f} s")
            settings = Settings(
                token="bench",
                database=database,
                default_locale="en",
                dev_guild_id=world.guild.id,
                discord_api_base=fake.api_base,
            )
            before = rss_mib()
            calls_before = len(fake.requests)
            stalls: list[tuple[float, float]] = []  # (when it began, how long), s
            stop = asyncio.Event()

            async def heartbeat() -> None:
                while not stop.is_set():
                    asked = time.perf_counter()
                    await asyncio.sleep(0.001)
                    stalls.append((asked, time.perf_counter() - asked - 0.001))

            beat = asyncio.create_task(heartbeat())
            started = time.perf_counter()
            bot = BondBot(settings)
            async with run_bot(bot, fake, ready_timeout=args.timeout):
                ready_at = time.perf_counter()
                ready = ready_at - started
                answered = await fake.slash(world.gm, "sheet list", _timeout=args.timeout)
                first = time.perf_counter() - started
                assert answered.ephemeral
                deadline = time.monotonic() + args.timeout
                while time.monotonic() < deadline:
                    if (
                        routes(fake, calls_before)["PATCH /channels/{id}/messages/{id}"]
                        >= args.tables
                    ):
                        break
                    await asyncio.sleep(0.5)
                redrawn = time.perf_counter() - started
                stop.set()
                await beat
                after = rss_mib()
            calls = routes(fake, calls_before)
        finally:
            await fake.stop()
    print(f"ready after {ready:.2f} s; first command answered after {first:.2f} s")
    print(f"every table message redrawn after {redrawn:.1f} s")
    for name, part in (
        ("starting (nothing to answer yet)", [d for at, d in stalls if at < ready_at]),
        ("ready, redrawing the tables", [d for at, d in stalls if at >= ready_at]),
    ):
        long = sorted(part, reverse=True) or [0.0]
        print(
            f"event loop, {name}: longest stall {1000 * long[0]:.1f} ms;"
            f" {sum(s > 0.05 for s in long)} stalls over 50 ms,"
            f" {sum(s > 0.1 for s in long)} over 100 ms"
        )
    print("REST calls:", ", ".join(f"{route} ×{count}" for route, count in calls.most_common(6)))
    print(f"RSS: {before:.0f} MiB before the bot, {after:.0f} MiB with it")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=300.0)
    asyncio.run(main(parser.parse_args()))
