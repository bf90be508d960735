"""Shared fixtures: a real, migrated SQLite file per test, and the fake Discord plugin."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bondbot.storage.db import Database

pytest_plugins = ["fakediscord.fixtures"]


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "bond.sqlite3")
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
