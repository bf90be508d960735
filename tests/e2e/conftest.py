"""The `bot_env` fixture (see e2e_env.py): each test on SQLite, and on PostgreSQL when
BONDBOT_TEST_POSTGRES is set (see tests/conftest.py); and a check after every test that
uses it: no message the bot sent, in any version, put a "?" where a name goes
(`evening_end`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_env import BotEnv
from evening_end import unnamed
from fakediscord.fixtures import DefaultWorld

from bondbot.local import FakeDiscord


@pytest.fixture
def bot_env(
    fake_discord: FakeDiscord, fake_world: DefaultWorld, database_target: Path | str
) -> BotEnv:
    return BotEnv(fake_discord, fake_world, database_target)


@pytest.fixture(autouse=True)
def _no_name_is_a_question_mark(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    env = request.node.funcargs.get("bot_env")
    if isinstance(env, BotEnv):
        assert unnamed(env.fake) == [], "a '?' stands for a name"
