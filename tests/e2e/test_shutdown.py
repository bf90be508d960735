"""SIGTERM shuts the bot down cleanly: no new interaction is taken, those in flight finish
and get their answer, then Discord and the database are closed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any

from e2e_env import BotEnv
from fakediscord.fixtures import DefaultWorld
from sheet_helpers import query_file, refused

from bondbot.i18n import t
from bondbot.local import FakeDiscord


async def test_a_shutdown_finishes_what_is_in_flight_and_turns_the_rest_away(
    bot_env: BotEnv,
) -> None:
    fake, w = bot_env.fake, bot_env.world
    async with bot_env.run() as bot:
        sheets = bot.services.sheets
        create, entered, release = sheets.create, asyncio.Event(), asyncio.Event()

        async def slow_create(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await release.wait()
            return await create(*args, **kwargs)

        sheets.create = slow_create  # type: ignore[method-assign]
        in_flight = await fake.slash(w.player, "sheet create", name="James Bond", _wait=False)
        await entered.wait()
        stopping = asyncio.create_task(bot.shutdown(timeout=5))
        await asyncio.sleep(0.05)
        assert not stopping.done()  # waiting for the command in flight

        late = await fake.slash(w.player_fr, "sheet list")
        assert refused(late, "errors.restarting", "fr")
        names = await fake.autocomplete(w.player, "sheet show", focused="character", value="")
        assert names == []

        release.set()
        await in_flight.wait_content()
        assert in_flight.content == t("sheet.created", "en", name="James Bond")
        await asyncio.wait_for(stopping, timeout=5)
        assert bot.db is None and bot.is_closed()
    assert await query_file(bot_env.database, "SELECT name FROM characters") == [("James Bond",)]


async def test_sigterm_stops_the_bot_process_cleanly(
    fake_discord: FakeDiscord, fake_world: DefaultWorld, tmp_path: Path
) -> None:
    database = tmp_path / "bond.sqlite3"
    config = tmp_path / "config.toml"
    settings = {
        "database": str(database),
        "default_locale": "en",
        "dev_guild_id": fake_world.guild.id,
        "discord_api_base": fake_discord.api_base,
        "log_level": "INFO",
    }
    config.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items()))
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bondbot",
        "--config",
        str(config),
        "run",
        env={**os.environ, "BONDBOT_TOKEN": "test-token"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake_discord.wait_for_sync(timeout=30)
        await fake_discord.wait_until(lambda: fake_discord.identify_count > 0, timeout=30)
        created = await fake_discord.slash(
            fake_world.player, "sheet create", name="James Bond", _timeout=10
        )
        assert created.content == t("sheet.created", "en", name="James Bond")
        assert Path(f"{database}-wal").exists()  # the bot holds the database open
        bot.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(bot.communicate(), timeout=30)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    log = err.decode()
    assert bot.returncode == 0, log
    assert "Traceback" not in log
    assert "shutting down: 0 interaction(s) in flight" in log and "shut down cleanly" in log
    # SQLite folds its write-ahead log into the file when the last connection closes.
    assert not Path(f"{database}-wal").exists()
    with sqlite3.connect(database) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT name FROM characters").fetchall() == [("James Bond",)]
