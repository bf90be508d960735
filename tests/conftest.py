"""Shared fixtures: a real, migrated database per test, and the fake Discord plugin.

`db` (and `database_target`, what `Database.open` takes) run each test on SQLite, and
again on PostgreSQL when BONDBOT_TEST_POSTGRES holds a server's URL (each such test gets a
schema of its own, dropped afterwards); without it, the PostgreSQL runs skip with the
reason. A test that needs PostgreSQL itself asks for `postgres_url` (a fresh, empty
schema's URL), or calls `fresh_postgres()` for several. A test of something only SQLite
has (a file, its locks) is marked `@pytest.mark.sqlite_only`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bondbot.storage.db import Database

pytest_plugins = ["fakediscord.fixtures"]

POSTGRES_ENV = "BONDBOT_TEST_POSTGRES"
BACKENDS = ("sqlite", "postgresql")


def postgres_server() -> str | None:
    """The URL of the PostgreSQL server the tests may use, if any."""
    return os.environ.get(POSTGRES_ENV) or None


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """A URL whose every table lives in a new, empty schema, dropped on exit; skips the
    test when BONDBOT_TEST_POSTGRES is not set."""
    server = postgres_server()
    if server is None:
        pytest.skip(f"PostgreSQL tests need {POSTGRES_ENV}=postgresql://user@host/db")
    import psycopg

    schema = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in server else "?"
    try:
        yield f"{server}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema's URL (skips without BONDBOT_TEST_POSTGRES)."""
    with fresh_postgres() as url:
        yield url


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Which database a test runs on: each test asking for it runs on both."""
    if request.param == "postgresql" and request.node.get_closest_marker("sqlite_only"):
        pytest.skip("tests something only SQLite has")
    return str(request.param)


@pytest.fixture
def database_target(backend: str, tmp_path: Path) -> Iterator[Path | str]:
    """What `Database.open` takes for this test: a SQLite file or a PostgreSQL URL."""
    if backend == "sqlite":
        yield tmp_path / "bond.sqlite3"
    else:
        with fresh_postgres() as url:
            yield url


@pytest.fixture
async def db(database_target: Path | str) -> AsyncIterator[Database]:
    database = await Database.open(database_target)
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()
