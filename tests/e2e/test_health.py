"""The Docker HEALTHCHECK (`bondbot health`): healthy while the bot is connected to the
fake Discord, not before it starts nor after it stops."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from e2e_env import BotEnv

from bondbot.bot import health
from bondbot.cli import main


async def test_health_follows_the_bot_s_connection(
    bot_env: BotEnv, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"database = {str(bot_env.database)!r}\n")
    alive = health.heartbeat_path(bot_env.database)
    assert main(["--config", str(config), "health"]) == 1
    assert capsys.readouterr().err.startswith("health: not connected to Discord (no ")
    async with bot_env.run() as bot:
        for _ in range(200):
            if alive.exists():
                break
            await asyncio.sleep(0.05)
        assert health.connected(bot)
        assert main(["--config", str(config), "health"]) == 0
        assert capsys.readouterr().out == "health: connected to Discord\n"
    assert not alive.exists()
    assert main(["--config", str(config), "health"]) == 1


def test_a_heartbeat_three_beats_old_is_unhealthy(tmp_path: Path) -> None:
    alive = health.heartbeat_path(tmp_path / "bondbot.sqlite3")
    alive.touch()
    assert health.problem(alive) is None
    old = time.time() - health.STALE_S - 5
    os.utime(alive, (old, old))
    said = health.problem(alive)
    assert said is not None and said.startswith("health: not connected to Discord for 9")
