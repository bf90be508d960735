"""`bondbot copy-database FROM TO`: a whole group's data, from SQLite to PostgreSQL and back.

The source has every game's table open, sheets, a roll, settings, and a ledger of 100,000
rows; the copy must hold every column of every row, its balances must equal its ledger,
and a target that is not empty is refused with nothing written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "tables"))

from table_helpers import GM, GUILD, Clock, make_character, service

from bondbot.cli import main
from bondbot.games.registry import all_games
from bondbot.storage import ledger
from bondbot.storage.copy import TABLES, CopyRefused, copy_database
from bondbot.storage.db import Database
from bondbot.storage.writer import deadline_after

LEDGER_ROWS = 100_000
NOW = "2026-11-21T19:00:00.000+00:00"
EVERY_TABLE = (*TABLES, "balances", "schema_version")


async def _fill(db: Database, *, rows: int) -> None:
    """Sheets, every game's table open (each with its NPC), then `rows` ledger rows in all."""
    clock = Clock()
    tables = service(db, clock)
    bond = await make_character(db, "James Bond", owner=11, cash=100_000, hero=2)
    vesper = await make_character(db, "Vesper Lynd", owner=12, cash=50_000)
    for index, spec in enumerate(all_games()):
        npc = await make_character(db, f"Banker {index}", kind="NPC", gambling=10)
        await tables.open_table(
            guild_id=GUILD,
            channel_id=5000 + index,
            actor_id=GM,
            game=spec.key,
            npc_id=npc,
            min_bet=1_000,
            max_bet=50_000,
            bankroll=1_000_000,
        )
    async with db.transaction() as conn:
        await ledger.set_unlimited(conn, "bank:999", "cash")
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, locale, currency) VALUES (?, 'en', '£')",
            (GUILD,),
        )
    async with db.read() as conn:
        found = await conn.execute_fetchall("SELECT COUNT(*) FROM ledger")
    moves: list[tuple[Any, ...]] = []
    a, b = ledger.sheet_account(bond), ledger.sheet_account(vesper)
    for n in range(rows - int(found[0][0])):
        src, dst = [(None, a), (a, b), ("bank:999", f"chips:1:{bond}")][n % 3]
        moves.append((GUILD, "cash", 1 + n % 2, src, dst, "gm.grant", 1, GM, f"n{n}", NOW))
    async with db.transaction(deadline=deadline_after(600)) as conn:
        await conn.executemany(
            "INSERT INTO ledger (guild_id, kind, amount, src, dst, reason, table_id, actor_id,"
            " note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            moves,
        )


async def _dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored column of every row, in a stable order."""
    found = {}
    async with db.read() as conn:
        for table in EVERY_TABLE:
            columns = (
                TABLES.get(table)
                or {
                    "balances": ["account", "kind", "balance", "unlimited"],
                    "schema_version": ["version", "name"],
                }[table]
            )
            order = ", ".join(columns)
            rows = await conn.execute_fetchall(f"SELECT {order} FROM {table} ORDER BY {order}")
            found[table] = [tuple(row) for row in rows]
    return found


async def _opened(target: Path | str) -> Database:
    return await Database.open(target)


async def test_a_copy_to_either_backend_and_back_holds_every_row(
    tmp_path: Path, database_target: Path | str
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    await source.migrate()
    try:
        await _fill(source, rows=LEDGER_ROWS)
        before = await _dump(source)
        assert len(before["ledger"]) == LEDGER_ROWS
        assert {row[3] for row in before["card_tables"]} == {g.key for g in all_games()}
        middle = await _opened(database_target)
        try:
            report = await copy_database(source, middle)
            assert report.rows["ledger"] == LEDGER_ROWS
            assert await _dump(middle) == before
            async with middle.read() as conn:
                assert await ledger.verify_balances(conn) == {}
            # The target goes on: new ids follow the copied ones.
            async with middle.transaction() as conn:
                new = await ledger.transfer(
                    conn,
                    guild_id=GUILD,
                    kind="hero",
                    amount=1,
                    src=None,
                    dst="sheet:1",
                    reason="gm.grant",
                    now=NOW,
                )
            assert new == LEDGER_ROWS + 1
            back = await Database.open(tmp_path / "back.sqlite3")
            try:
                await copy_database(middle, back)
                again = await _dump(back)
            finally:
                await back.close()
        finally:
            await middle.close()
    finally:
        await source.close()
    assert len(again["ledger"]) == LEDGER_ROWS + 1
    assert {k: v for k, v in again.items() if k not in ("ledger", "balances")} == {
        k: v for k, v in before.items() if k not in ("ledger", "balances")
    }
    assert again["ledger"][:-1] == before["ledger"]


async def test_a_target_that_is_not_empty_is_refused_and_keeps_its_data(
    tmp_path: Path, db: Database
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    await source.migrate()
    try:
        await _fill(source, rows=200)
        await make_character(db, "Felix Leiter", owner=13, cash=700)
        kept = await _dump(db)
        with pytest.raises(CopyRefused, match="not empty"):
            await copy_database(source, db)
    finally:
        await source.close()
    assert await _dump(db) == kept


async def test_a_copy_whose_balances_disagree_is_rolled_back(
    tmp_path: Path, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = await Database.open(tmp_path / "source.sqlite3")
    await source.migrate()
    try:
        await _fill(source, rows=200)

        async def disagree(conn: Any) -> dict[Any, Any]:
            return {("sheet:1", "cash"): (1, 2)}

        monkeypatch.setattr(ledger, "verify_balances", disagree)
        with pytest.raises(CopyRefused, match="disagree"):
            await copy_database(source, db)
    finally:
        await source.close()
    assert all(not rows for table, rows in (await _dump(db)).items() if table != "schema_version")


def test_the_command_copies_and_refuses_a_second_time(
    tmp_path: Path, database_target: Path | str, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    async def build() -> None:
        source = await Database.open(tmp_path / "source.sqlite3")
        await source.migrate()
        try:
            await _fill(source, rows=100)
        finally:
            await source.close()

    asyncio.run(build())
    args = ["copy-database", str(tmp_path / "source.sqlite3"), str(database_target)]
    assert main(args) == 0
    assert "balances equal their ledger" in capsys.readouterr().out
    assert main(args) == 2
    assert "is not empty" in capsys.readouterr().err
    missing = ["copy-database", str(tmp_path / "none.sqlite3"), str(tmp_path / "x.sqlite3")]
    assert main(missing) == 2
    assert "there is no database" in capsys.readouterr().err
