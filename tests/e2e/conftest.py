"""The `bot_env` fixture: see e2e_env.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_env import BotEnv
from fakediscord import FakeDiscord
from fakediscord.fixtures import DefaultWorld


@pytest.fixture
def bot_env(fake_discord: FakeDiscord, fake_world: DefaultWorld, tmp_path: Path) -> BotEnv:
    return BotEnv(fake_discord, fake_world, tmp_path / "bondbot.sqlite3")
