"""The database goes away under a running bot and comes back: the bot comes back with it.

On PostgreSQL the server is stopped (`pg_ctl stop -m fast`, as a restart does) for about
ten seconds and started again; on SQLite the bot's connections break and the file cannot be
opened (a volume gone) for a moment. Meanwhile every click and grant is answered "the
database is unreachable; nothing was changed" in its user's language, the log says it once
(one WARNING, one INFO when it is back; no traceback), `bondbot health` fails only once
the outage is older than its threshold; afterwards the next click works, and nothing
refused during the outage was applied.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import pwd
import shlex
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e_env import BotEnv
from fakediscord import FakeDiscord
from fakediscord.fixtures import DefaultWorld
from table_flow import (
    bet,
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    redrawn_with,
    table_message,
    wait_table,
)

from bondbot.bot import health
from bondbot.bot.client import BondBot
from bondbot.cli import main
from bondbot.i18n import t
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeUser
from bondbot.storage import ledger
from bondbot.storage.db import Database

Outage = Callable[[BondBot], Awaitable[None]]


@dataclass(frozen=True)
class PgServer:
    """The test server behind BONDBOT_TEST_POSTGRES, stopped and started as its owner."""

    data: Path
    pg_ctl: Path
    options: str  # what it was started with (postmaster.opts), for the start again
    owner: str

    @classmethod
    def of(cls, url: str) -> PgServer | None:
        import psycopg

        with psycopg.connect(url) as conn:
            data = Path(str(conn.execute("SHOW data_directory").fetchone()[0]))  # type: ignore[index]
        try:
            words = shlex.split((data / "postmaster.opts").read_text())
        except OSError:
            return None  # not on this machine, or not ours to restart
        pg_ctl = Path(words[0]).with_name("pg_ctl")
        if "-D" in words:
            at = words.index("-D")
            del words[at : at + 2]
        owner = pwd.getpwuid(data.stat().st_uid).pw_name
        if not pg_ctl.exists() or (os.geteuid() != data.stat().st_uid and os.geteuid() != 0):
            return None
        return cls(data, pg_ctl, shlex.join(words[1:]), owner)

    async def _pg_ctl(self, *args: str) -> None:
        command = [str(self.pg_ctl), "-D", str(self.data), *args]
        if os.geteuid() == 0 and self.owner != "root":
            command = ["runuser", "-u", self.owner, "--", *command]
        done = await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr

    async def stop(self) -> None:
        await self._pg_ctl("-m", "fast", "-w", "stop")

    async def start(self) -> None:
        log = self.data / "bondbot-test-restart.log"
        await self._pg_ctl("-w", "-l", str(log), "-o", self.options, "start")


def records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name.startswith("bondbot")]


async def wager(fake: FakeDiscord, user: FakeUser, amount: str) -> InteractionResult:
    """A punto banco wager on the Player: the Bet button, then its form (unless the click
    itself is refused)."""
    opened = await fake.click(user, table_message(fake), button_id(fake, "bets"))
    if opened.modal is None:
        return opened
    return await fake.submit_modal(user, opened, {"on": ["player"], "amount": amount})


def unreachable(result: InteractionResult, lang: str = "en") -> bool:
    return result.ephemeral and result.content == t("errors.unreachable", lang)


async def wait_healthy(config: Path) -> None:
    """`bondbot health` passes again (the bot rewrites its file as the database is back)."""
    for _ in range(100):
        if main(["--config", str(config), "health"]) == 0:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("bondbot health still fails")


async def evening_through_an_outage(
    env: BotEnv,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *,
    stop: Outage,
    start: Outage,
    outage_s: float,
) -> None:
    fake, world = env.fake, env.world
    fake.heartbeat_interval_ms = 500  # the bot is "connected" once its gateway answered one
    monkeypatch.chdir(tmp_path)  # a server's health file is in the working folder
    config = tmp_path / "config.toml"
    config.write_text(f"database = {json.dumps(str(env.database))}\n", encoding="utf-8")
    ids = await create_cast(
        env,
        {"chiffre": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    async with env.run() as bot:
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        for user in (world.player, world.player_fr):
            await join(fake, user, "100")
            await press(fake, user, "choose", "simulate")
        assert redrawn_with(await bet(fake, world.player_fr, "banker", "10"), "on Banker: $10")
        caplog.clear()
        alive = health.heartbeat_path(env.database)
        await fake.wait_until(alive.exists, timeout=60, what="the health file")
        with caplog.at_level(logging.INFO, logger="bondbot"):
            await stop(bot)
            began = time.monotonic()
            english = await wager(fake, world.player, "20")
            french = await wager(fake, world.player_fr, "30")
            grant = await fake.slash(
                world.gm,
                "gm cash",
                character="James Bond",
                action="give",
                amount="500",
                reason="bribe",
            )
            assert unreachable(english) and unreachable(french, "fr") and unreachable(grant)
            # A short outage is not unhealthy; one past the threshold is.
            assert main(["--config", str(config), "health"]) == 0
            since = json.loads(alive.read_text())["database_unreachable_since"]
            assert since is not None
            assert health.problem(alive, now=since + health.UNREACHABLE_S - 1) is None
            said = health.problem(alive, now=since + health.UNREACHABLE_S + 1)
            assert said is not None and "database has been unreachable" in said
            monkeypatch.setattr(health, "UNREACHABLE_S", outage_s / 4)
            await asyncio.sleep(outage_s / 2)
            capsys.readouterr()
            assert main(["--config", str(config), "health"]) == 1
            assert "the database has been unreachable for" in capsys.readouterr().err
            assert unreachable(await wager(fake, world.player, "40"))
            await asyncio.sleep(max(0.0, outage_s - (time.monotonic() - began)))
            await start(bot)
            # The next click works: the bot reconnected by itself (or as it came).
            after = await wager(fake, world.player, "50")
            assert redrawn_with(after, "on Player: $50"), after.content
            await wait_healthy(config)
        logged = records(caplog)
    warnings = [r for r in logged if r.levelno >= logging.WARNING]
    assert [r.levelname for r in warnings] == ["WARNING"], [r.getMessage() for r in warnings]
    assert "unreachable" in warnings[0].getMessage()
    back = [r for r in logged if "reachable again" in r.getMessage()]
    assert [r.levelname for r in back] == ["INFO"]
    assert not any(r.exc_info for r in logged)
    if isinstance(env.database, str):  # nothing on PostgreSQL speaks of SQLite
        assert not [r for r in logged if "sqlite" in r.getMessage().lower()]
    # Nothing refused during the outage landed afterwards.
    db = await Database.open(env.database)
    try:
        async with db.read() as conn:
            notes = await conn.execute_fetchall("SELECT note FROM ledger WHERE note = 'bribe'")
            assert list(notes) == []
            assert await ledger.verify_balances(conn) == {}
            bets = await conn.execute_fetchall(
                "SELECT state FROM card_tables WHERE status = 'open'"
            )
        wagers = json.loads(bets[0][0])["engine"]["wagers"]
        assert wagers == {  # the wagers of before and after, none of those refused
            str(ids["mathis"]): {"bet": "banker", "amount": 1000},
            str(ids["bond"]): {"bet": "player", "amount": 5000},
        }
    finally:
        await db.close()


async def test_postgresql_restarts_under_the_bot_and_the_bot_comes_back(
    fake_discord: FakeDiscord,
    fake_world: DefaultWorld,
    postgres_url: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = PgServer.of(postgres_url)
    if server is None:
        pytest.skip("the PostgreSQL server is not on this machine to restart")

    stopped: list[bool] = []

    async def stop(bot: BondBot) -> None:
        await server.stop()
        stopped.append(True)

    async def start(bot: BondBot) -> None:
        await server.start()
        stopped.clear()

    try:
        await evening_through_an_outage(
            BotEnv(fake_discord, fake_world, postgres_url),
            tmp_path,
            caplog,
            monkeypatch,
            capsys,
            stop=stop,
            start=start,
            outage_s=10.0,
        )
    finally:
        if stopped:  # the other tests need it
            await server.start()


async def test_sqlite_s_file_goes_away_under_the_bot_and_the_bot_comes_back(
    fake_discord: FakeDiscord,
    fake_world: DefaultWorld,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bond.sqlite3"
    aside = tmp_path / "elsewhere.sqlite3"

    async def stop(bot: BondBot) -> None:
        """What a volume going away does: the connections fail, the file cannot be opened."""
        assert bot.db is not None
        writer = bot.db.writer
        for conn in (writer.reader.connection, writer.connection):
            await conn._execute(conn._conn.close)  # under aiosqlite, as an I/O error would
        shutil.move(path, aside)

    async def start(bot: BondBot) -> None:
        shutil.move(aside, path)

    await evening_through_an_outage(
        BotEnv(fake_discord, fake_world, path),
        tmp_path,
        caplog,
        monkeypatch,
        capsys,
        stop=stop,
        start=start,
        outage_s=3.0,
    )
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
