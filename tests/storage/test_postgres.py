"""What PostgreSQL does its own way: the setting, the migration history, a lock held
elsewhere, a second writer of a table, and backup (the rest of the storage suite runs on
both backends through the `db` fixture)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from bondbot.config import load_settings
from bondbot.storage import ledger
from bondbot.storage import tables as stored
from bondbot.storage.db import Database, load_migrations
from bondbot.storage.writer import Busy, deadline_after

URL = "postgresql://bondbot:secret@db.example/bondbot"
NOW = "2026-11-21T19:00:00.000+00:00"


def test_the_setting_takes_a_url_or_a_path(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'database = "{URL}"\n', encoding="utf-8")
    assert load_settings(config, environ={"BONDBOT_TOKEN": "t"}).database == URL
    config.write_text('database = "data/bond.sqlite3"\n', encoding="utf-8")
    assert load_settings(config, environ={"BONDBOT_TOKEN": "t"}).database == Path(
        "data/bond.sqlite3"
    )
    environ = {"BONDBOT_TOKEN": "t", "BONDBOT_DATABASE_URL": URL}
    assert load_settings(config, environ=environ).database == URL  # the environment wins


def test_both_backends_share_one_numbered_history() -> None:
    sqlite, postgresql = load_migrations(), load_migrations(dialect="postgresql")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]
    assert [m.version for m in sqlite] == list(range(1, len(sqlite) + 1))
    assert any(a.sql != b.sql for a, b in zip(sqlite, postgresql, strict=True))


async def _migrated(url: str) -> Database:
    db = await Database.open(url)
    await db.migrate()
    return db


def _hold(url: str, taken: threading.Event, seconds: float) -> None:
    import psycopg

    with psycopg.connect(url) as other:  # another process's transaction, rolled back
        other.execute("LOCK TABLE ledger IN EXCLUSIVE MODE")
        taken.set()
        time.sleep(seconds)
        other.rollback()


async def test_a_lock_held_elsewhere_refuses_jobs_by_their_deadline_and_never_applies_them(
    postgres_url: str,
) -> None:
    db = await _migrated(postgres_url)
    try:
        taken = threading.Event()
        holder = threading.Thread(target=_hold, args=(postgres_url, taken, 1.5), daemon=True)
        holder.start()
        await asyncio.to_thread(taken.wait, 5)

        def grant(conn) -> int:  # type: ignore[no-untyped-def]
            return ledger.append_transfer(
                conn,
                guild_id=1,
                kind="cash",
                amount=5,
                src=None,
                dst="sheet:1",
                reason="gm.grant",
                now=NOW,
            )

        started = time.monotonic()
        with pytest.raises(Busy):
            await db.submit(grant, deadline=deadline_after(0.4))
        assert time.monotonic() - started < 1.2  # at its deadline, not when the lock went
        with pytest.raises(Busy):
            async with db.transaction(deadline=deadline_after(0.3)) as conn:
                await ledger.transfer(
                    conn,
                    guild_id=1,
                    kind="cash",
                    amount=7,
                    src=None,
                    dst="sheet:1",
                    reason="gm.grant",
                    now=NOW,
                )
        await asyncio.to_thread(holder.join, 5)
        assert await db.submit(grant, deadline=deadline_after(2)) > 0  # free again
        async with db.read() as conn:
            amounts = [row[0] for row in await conn.execute_fetchall("SELECT amount FROM ledger")]
        assert amounts == [5]  # the refused ones never landed
    finally:
        await db.close()


async def test_a_second_process_saving_a_table_is_refused_and_overwrites_nothing(
    postgres_url: str,
) -> None:
    first, second = await _migrated(postgres_url), await Database.open(postgres_url)
    try:
        table = await first.submit(
            lambda conn: stored.insert(
                conn, guild_id=1, channel_id=2, game="punto_banco", state='{"n": 0}', now=NOW
            )
        )
        await first.submit(lambda conn: stored.save(conn, table, '{"n": 1}', version=0, now=NOW))
        with pytest.raises(stored.TableChanged):  # it read version 0 too
            await second.submit(
                lambda conn: stored.save(conn, table, '{"n": 2}', version=0, now=NOW)
            )
        async with second.read() as conn:
            row = await stored.load(conn, table)
        assert row is not None and (row.state, row.version) == ('{"n": 1}', 1)
    finally:
        await second.close()
        await first.close()


@pytest.mark.skipif(shutil.which("pg_restore") is None, reason="needs PostgreSQL's pg_restore")
async def test_backup_runs_pg_dump(postgres_url: str, tmp_path: Path) -> None:
    db = await _migrated(postgres_url)
    try:
        target = tmp_path / "bond.dump"
        await db.backup(target)
    finally:
        await db.close()
    listing = subprocess.run(
        ["pg_restore", "--list", str(target)], check=True, capture_output=True, text=True
    ).stdout
    assert "TABLE public ledger" in listing or " ledger " in listing
    assert not (tmp_path / "bond.dump.partial").exists()


async def test_backup_without_pg_dump_says_to_use_it(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await _migrated(postgres_url)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    try:
        with pytest.raises(RuntimeError, match="pg_dump"):
            await db.backup(tmp_path / "bond.dump")
    finally:
        await db.close()
    assert not (tmp_path / "bond.dump").exists()


def test_the_offline_commands_read_the_database_url_from_the_environment(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bondbot.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BONDBOT_DATABASE_URL", postgres_url)
    assert main(["migrate"]) == 0
    assert "applied migrations [1, 2" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert "applied migrations none" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # no SQLite file was made instead
