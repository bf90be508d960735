"""The `bot_env` fixture: see e2e_env.py. It runs each test on SQLite, and on PostgreSQL
when BONDBOT_TEST_POSTGRES is set (see tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_env import BotEnv
from fakediscord import FakeDiscord
from fakediscord.fixtures import DefaultWorld


@pytest.fixture
def bot_env(
    fake_discord: FakeDiscord, fake_world: DefaultWorld, database_target: Path | str
) -> BotEnv:
    return BotEnv(fake_discord, fake_world, database_target)
