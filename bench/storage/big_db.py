"""The queries a user can trigger, on a big database: /gm ledger, autocomplete, /sheet list.

Builds (or reuses, with --db) a database of `--characters` characters in one guild and
`--rows` ledger rows spread over them with a skewed activity (a few characters own most
rows, as the regulars of a long campaign do), then times the services the commands call:
`/gm ledger character:X` for the busiest character, a median one and one with a single
row (the worst case for a filter that walks the guild's ledger), and five Older pages of
each; the guild's ledger; character-name autocomplete as the GM and as a player; skill
autocomplete (house skills); `/sheet list`. Each figure is the median and the worst of
`--repeat` runs, in milliseconds, on the event loop like the bot runs them. The
characters are PCs of 500 players, NPCs and some house skills; character n gets a share of
the rows ∝ 1/n (the last one a single row). Building takes about 40 s; `--db PATH` keeps
the file and reuses it, applying newer migrations first. Targets: a ledger page < 20 ms,
autocomplete < 10 ms, `/sheet list` < 20 ms.

    .venv/bin/python bench/storage/big_db.py [--rows 1000000] [--characters 2000] [--db PATH]
                                             [--repeat 20] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bondbot.config import Settings
from bondbot.services.gm import GmService
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.sheets import Actor, SheetService
from bondbot.sheets import validate_sheet
from bondbot.storage import characters
from bondbot.storage.db import Database

GUILD, GM = 1, 1
PLAYERS = 500
TABLES = 100
NOW = "2026-01-02T03:04:05.000+00:00"
TARGETS_MS = {"ledger": 20.0, "autocomplete": 10.0, "list": 20.0}
NAMES = "Bond Leiter Mathis Vesper Chiffre Jaws Oddjob Scaramanga Drax Blofeld Zorin Moneypenny"


def clock() -> datetime:
    return datetime(2026, 1, 2, tzinfo=UTC)


async def build(path: Path, n_characters: int, n_rows: int, rng: random.Random) -> None:
    """Characters through the storage API; ledger rows in bulk (every account unlimited, so
    the skewed random flows never overdraw; the triggers still keep the balances)."""
    db = await Database.open(path)
    try:
        await db.migrate()
        words = NAMES.split()
        async with db.transaction() as conn:
            for index in range(n_characters):
                npc = index % 4 == 3
                name = f"{words[index % len(words)]} {index:04d}"
                sheet: dict[str, Any] = {
                    "name": name,
                    "kind": "NPC" if npc else "PC",
                    "owner_id": None if npc else 1000 + index % PLAYERS,
                    "revealed": npc and index % 8 == 7,
                    "rank": ("Rookie", "Agent", "00")[index % 3],
                    "skills": {"gambling": 8, "charisma": 5},
                }
                if index % 20 == 0:
                    sheet["skills"][f"Baccarat lore {index % 7}"] = 3
                await characters.create_character(conn, GUILD, validate_sheet(sheet), now=NOW)
        raw = sqlite3.connect(path, isolation_level=None)
        try:
            ids = [row[0] for row in raw.execute("SELECT id FROM characters ORDER BY id")]
            busy = ids[:-1]  # the last character gets a single row (below)
            weights = [1 / (rank + 1) for rank in range(len(busy))]
            raw.execute("BEGIN")
            accounts = [f"sheet:{c}" for c in ids] + [f"bank:{t}" for t in range(1, TABLES + 1)]
            accounts += [f"chips:{_table(c, j)}:{c}" for c in busy for j in range(3)]
            raw.executemany(
                "INSERT INTO balances (account, kind, unlimited) VALUES (?, ?, 1)"
                " ON CONFLICT DO UPDATE SET unlimited = 1",
                [(a, k) for a in accounts for k in ("cash", "hero")],
            )
            batch: list[tuple[Any, ...]] = []
            for chosen in rng.choices(busy, weights, k=n_rows - 1):
                table = _table(chosen, rng.randrange(3))
                sheet_, chips, bank = f"sheet:{chosen}", f"chips:{table}:{chosen}", f"bank:{table}"
                src, dst, reason = rng.choice(
                    (
                        (sheet_, chips, "table.buy_in"),
                        (chips, bank, "table.lost"),
                        (bank, chips, "table.won"),
                        (bank, chips, "table.won"),
                        (chips, sheet_, "table.cash_out"),
                        (None, sheet_, "gm.grant"),
                    )
                )
                batch.append((GUILD, "cash", rng.randint(1, 10_000), src, dst, reason, table, NOW))
                if len(batch) == 50_000:
                    _insert(raw, batch)
            batch.append((GUILD, "hero", 1, None, f"sheet:{ids[-1]}", "gm.grant", None, NOW))
            _insert(raw, batch)
            raw.execute("COMMIT")
        finally:
            raw.close()
    finally:
        await db.close()


def _table(character: int, nth: int) -> int:
    """Each character plays at three of the tables."""
    return (character * 7 + nth) % TABLES + 1


def _insert(raw: sqlite3.Connection, batch: list[tuple[Any, ...]]) -> None:
    raw.executemany(
        "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        batch,
    )
    batch.clear()


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """Median and worst wall time of `call`, in ms."""
    times: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def measure(path: Path, repeat: int) -> bool:
    db = await Database.open(path)
    ok = True
    try:
        guilds = GuildSettingsService(db, Settings(token="t", default_locale="en"))
        gm_service, sheets = GmService(db, guilds, clock), SheetService(db, clock)
        gm = Actor(GUILD, GM, is_gm=True)
        player = Actor(GUILD, 1000)
        async with db.read() as conn:
            total = (await conn.execute_fetchall("SELECT COUNT(*) FROM ledger"))[0][0]
            ids = [row[0] for row in await conn.execute_fetchall("SELECT id FROM characters")]
        print(f"database: {path} — {total:,} ledger rows, {len(ids):,} characters")
        # build() weighs the characters by id: the first is the busiest; the last has one row
        picks = {"busiest": ids[0], "median": ids[len(ids) // 2], "one row": ids[-1]}
        rows: list[tuple[str, str, float, float]] = []

        for label, character in picks.items():
            first = await gm_service.ledger(gm, character_id=character)

            async def page(character: int = character) -> Any:
                return await gm_service.ledger(gm, character_id=character)

            rows.append(("ledger", f"/gm ledger character:{label}", *await timed(repeat, page)))
            cursor, older = first.next_before, []
            for _ in range(5):
                if cursor is None:
                    break
                view = await gm_service.ledger(gm, character_id=character, before_id=cursor)
                older.append(cursor)
                cursor = view.next_before
            if older:

                async def pages(character: int = character, cursors: list[int] = older) -> None:
                    for before in cursors:
                        await gm_service.ledger(gm, character_id=character, before_id=before)

                median, worst = await timed(max(1, repeat // 4), pages)
                label_older = f"  … an Older page of {label} (mean of {len(older)})"
                rows.append(("ledger", label_older, median / len(older), worst / len(older)))

        rows.append(
            (
                "ledger",
                "/gm ledger (the guild)",
                *await timed(repeat, lambda: gm_service.ledger(gm)),
            )
        )
        for typed in ("", "bo", "0042", "zzz"):
            rows.append(
                (
                    "autocomplete",
                    f"character names, GM, {typed!r}",
                    *await timed(repeat, lambda t=typed: sheets.names(gm, t)),
                )
            )
        rows.append(
            (
                "autocomplete",
                "character names, player, editable",
                *await timed(repeat, lambda: sheets.names(player, "b", editable=True)),
            )
        )
        rows.append(
            (
                "autocomplete",
                "NPC names (/table open)",
                *await timed(repeat, lambda: sheets.names(gm, "", kind="NPC")),
            )
        )
        rows.append(
            (
                "autocomplete",
                "skill names (house skills)",
                *await timed(repeat, lambda: sheets.house_skills(gm)),
            )
        )
        rows.append(("list", "/sheet list (GM)", *await timed(repeat, lambda: sheets.visible(gm))))
        rows.append(
            ("list", "/sheet list (player)", *await timed(repeat, lambda: sheets.visible(player)))
        )
        rows.append(
            (
                "list",
                "/sheet list mine",
                *await timed(repeat, lambda: sheets.visible(player, mine=True)),
            )
        )

        print(f"{'query':<48} {'median ms':>10} {'worst ms':>10}  target")
        for kind, label, median, worst in rows:
            target = TARGETS_MS[kind]
            passed = median < target
            ok &= passed
            verdict = "PASS" if passed else "FAIL"
            print(f"{label:<48} {median:>10.2f} {worst:>10.2f}  < {target:g} ms {verdict}")
    finally:
        await db.close()
    return ok


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--characters", type=int, default=2000)
    parser.add_argument("--db", type=Path, help="reuse (or build once into) this file")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = args.db or Path(scratch) / "big.sqlite3"
        if not path.exists():
            start = time.perf_counter()
            partial = path.with_name(path.name + ".partial")
            partial.unlink(missing_ok=True)
            await build(partial, args.characters, args.rows, random.Random(args.seed))
            partial.rename(path)
            print(f"built in {time.perf_counter() - start:.1f} s")
        else:  # an older file gets this version's migrations (the new indexes)
            async with await Database.open(path) as db:
                start = time.perf_counter()
                if await db.migrate():
                    print(f"migrated in {time.perf_counter() - start:.1f} s")
        ok = await measure(path, args.repeat)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
