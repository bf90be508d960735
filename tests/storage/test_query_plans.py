"""Every query a user can trigger reads an index: none walks the ledger or the characters.

The services run every command's path (sheets, autocomplete, lists, GM grants and ledger
pages both ways, rolls, settings) on a real database while SQLite's trace records each
statement with its values; each is then explained, and a full scan of a table fails, as
does a walk of a guild's whole ledger or of every character's row.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bondbot.config import Settings
from bondbot.services.gm import GmService
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.rolls import RollService
from bondbot.services.sheets import Actor, SheetService
from bondbot.storage import characters, ledger
from bondbot.storage.db import Database

GUILD, PLAYER, GM = 10, 111, 999
gm, player = Actor(GUILD, GM, is_gm=True), Actor(GUILD, PLAYER)
# A scan of a table (`SCAN ledger`, `SCAN c`…); scans of subqueries and co-routines are
# the bounded index ranges they hold (`SCAN (subquery-1)`), `CONSTANT ROW` is none, and a
# json_each `VIRTUAL TABLE` walks one row's small array (a table's seats).
# (A subquery named `…_rows` is one such range: PostgreSQL wants each subquery named.)
FULL_SCAN = re.compile(r"\bSCAN (?!\(subquery|CONSTANT ROW|\w+_rows\b)(\w+)(?! VIRTUAL TABLE)")
# A walk of everything a guild holds: the ledger's rows (it grows without end), or every
# character's row (a sheet each). Only a covering index may list a guild's characters.
GUILD_WALK = re.compile(
    r"\bSEARCH (\w+) USING (COVERING )?INDEX \w+ \(guild_id=\?(?: AND alive=\?)?\)"
)


def walks(line: str) -> bool:
    if FULL_SCAN.search(line):
        return True
    walk = GUILD_WALK.search(line)
    return walk is not None and not (walk.group(2) and walk.group(1) in ("characters", "c"))


STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)


def clock() -> datetime:
    return datetime(2026, 1, 2, tzinfo=UTC)


async def _user_paths(db: Database) -> None:
    """What the commands do, each path once (with enough rows for Older/Newer pages)."""
    guilds = GuildSettingsService(db, Settings(token="t", default_locale="en"))
    sheets, gms = SheetService(db, clock), GmService(db, guilds, clock)
    rolls = RollService(db, guilds, clock, random.Random(7))
    bond = await sheets.create(player, name="James Bond", fields={"rank": "00"})
    npc = await sheets.create(gm, name="Le Chiffre", kind="NPC")
    await sheets.set_skill(gm, npc.id, "Baccarat lore", 6)
    await sheets.update(player, bond.id, {"notes": "Shaken"})
    await sheets.reveal(gm, npc.id, True)
    await sheets.use(gm, npc.id)
    for _ in range(12):
        await gms.move(gm, bond.id, "cash", 1_000, give=True, reason="expenses")
        await gms.move(gm, npc.id, "hero", 1, give=True, reason="villainy")
    await gms.move(gm, bond.id, "hero", 3, give=True, reason="bravery")
    await gms.update_settings(gm, spend_window_s=120)
    for who in (gm, player):
        await sheets.names(who, "bo")
        await sheets.names(who, "", editable=True)
        await sheets.names(who, "chi", kind="NPC")
        await sheets.house_skills(who)
        await sheets.visible(who)
        await sheets.visible(who, mine=True)
        await sheets.target(who, "james bond")
        await sheets.target(who, None)
        await sheets.get(who, bond.id)
        await sheets.active(GUILD, who.user_id)
    await sheets.find_id(GUILD, "Le Chiffre")
    await sheets.export(player, bond.id)
    for character_id in (None, bond.id):
        first = await gms.ledger(gm, character_id=character_id)
        assert first.next_before is not None
        older = await gms.ledger(gm, character_id=character_id, before_id=first.next_before)
        assert older.has_previous and older.entries
    roll = await rolls.roll(player, bond.id, "gambling")
    await rolls.get(GUILD, roll.id)
    await rolls.step(GUILD, PLAYER, roll.id, 0)
    await sheets.delete(player, bond.id)


async def _more_paths(db: Database) -> None:
    """The storage functions no service calls yet, on the same data."""
    async with db.read() as conn:
        await ledger.account_states(conn, ["sheet:1", "chips:1:1"], ["pot:1:", "layout:1:"])
        await ledger.newer_cursor(conn, GUILD, 1, character_id=1, limit=3)
        await ledger.newer_cursor(conn, GUILD, 1, limit=3)
        await ledger.table_entries(conn, 1)
        await characters.list_summaries(conn, GUILD, kind="NPC", public_only=True)


# PostgreSQL, with sequential scans disabled (the tables are small, so the planner would
# rather read them whole): a `Seq Scan` left in a plan is a query no index serves. A walk
# of a guild's ledger is an index range on guild_id alone (a list of a guild's living
# characters reads their index: that is what it shows).
PG_SCAN = re.compile(r"Seq Scan on (\w+)")
PG_GUILD_WALK = re.compile(r"Index Cond: \(guild_id = [^)]*\)$")


async def test_no_user_query_scans_a_table_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bondbot.storage.pgconn import SyncConnection  # psycopg: the postgres extra

    seen: list[tuple[str, object]] = []
    execute = SyncConnection.execute

    def traced(self: Any, sql: str, params: Any = ()) -> Any:
        if STATEMENT.match(sql):
            seen.append((sql, params))
        return execute(self, sql, params)

    db = await Database.open(postgres_url)
    try:
        await db.migrate()
        monkeypatch.setattr(SyncConnection, "execute", traced)
        await _user_paths(db)
        await _more_paths(db)
        monkeypatch.setattr(SyncConnection, "execute", execute)
        assert any("_character" in sql for sql, _ in seen)
        scans = {}
        async with db.transaction() as conn:
            await conn.execute("SET LOCAL enable_seqscan = off")
            for sql, params in seen:
                rows = await conn.execute_fetchall(f"EXPLAIN {sql}", params)
                plan = [str(row[0]).strip() for row in rows]
                found = [
                    line
                    for at, line in enumerate(plan)
                    if PG_SCAN.search(line)
                    or (PG_GUILD_WALK.search(line) and " on ledger" in plan[at - 1])
                ]
                if found:
                    scans[sql] = found
    finally:
        await db.close()
    assert not scans, "\n".join(f"{sql}\n  {plan}" for sql, plan in scans.items())


@pytest.mark.sqlite_only
async def test_no_user_query_scans_a_table(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "plans.sqlite3")
    try:
        await db.migrate()
        # The sqlite3 connections (writer and reader): their trace shows each statement.
        connections = [db.writer.connection, db.writer.reader.connection]
        seen: list[str] = []
        for traced in connections:
            await traced.set_trace_callback(seen.append)
        await _user_paths(db)
        await _more_paths(db)
        for traced in connections:
            await traced.set_trace_callback(None)
        queries = sorted({sql for sql in seen if STATEMENT.match(sql)})
        assert any("_character" in sql for sql in queries)  # the character ledger was traced
        async with db.read() as conn:
            scans = {}
            for sql in queries:
                plan = [row[3] for row in await conn.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}")]
                found = [line for line in plan if walks(line)]
                if found:
                    scans[sql] = found
    finally:
        await db.close()
    assert not scans, "\n".join(f"{sql}\n  {plan}" for sql, plan in scans.items())
