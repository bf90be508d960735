"""What the operator's commands check before they use a database, said in one line.

`bondbot run`, `migrate` and `backup` meet files the operator named: a path in a folder
that does not exist, a folder, a file that is not SQLite, a read-only file, a schema from
a newer BondBot. Each becomes a `DatabaseProblem` whose message names the file and what
to do, instead of a traceback; and a command that only copies a database never creates
one (SQLite would create an empty file at any path it is asked to open).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bondbot.storage import pgurl
from bondbot.storage.db import Database, MigrationError, is_postgres, shown

WRITE_CHECK = "bondbot_write_check"


class DatabaseProblem(Exception):
    """The database cannot be used as asked; the message says which file and what to do."""


def _where(path: Path) -> str | None:
    """Why `path` cannot hold a database file, before SQLite tries it."""
    try:
        path.stat()
    except FileNotFoundError:
        pass
    except OSError as exc:  # a name too long, a loop of links, no permission…
        return f"database: cannot use {path}: {exc.strerror}"
    if path.is_dir():
        return f"database: {path} is a folder: name a file, e.g. {path / 'bondbot.sqlite3'}"
    if not path.parent.is_dir():
        return f"database: the folder {path.parent} does not exist: create it or name another"
    return None


def describe(path: Path, error: Exception) -> str:
    """One line for an error SQLite (or the migrations) raised about `path`."""
    text = str(error)
    if isinstance(error, MigrationError):
        return (
            f"database: {path} {text.removeprefix('database ')}: "
            "run the BondBot version that wrote it, or restore a backup"
        )
    if "readonly" in text or "read-only" in text:
        return f"database: {path} is read-only: the bot must be able to write it (and its folder)"
    if "not a database" in text:
        return f"database: {path} is not a SQLite database: name the bot's database file"
    if "unable to open" in text:
        return f"database: cannot open {path}: check the path and its permissions"
    return f"database: {path}: {text}"


async def _open_postgres(url: str) -> Database:
    """Connect to a PostgreSQL database (it must exist: the server's owner creates it)."""
    try:
        import psycopg
    except ImportError:
        raise DatabaseProblem(
            "database: PostgreSQL needs the postgres extra: pip install -e '.[postgres]'"
        ) from None
    try:
        return await Database.open(url)
    except (psycopg.Error, sqlite3.Error, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = pgurl.hide(first, url)  # libpq may quote what it read
        raise DatabaseProblem(
            f"database: cannot use {shown(url)}: {first}: check the server, the user,"
            " the database's name and the password"
        ) from None


async def open_database(path: Path | str, *, create: bool) -> Database:
    """Open `path` (a SQLite file or a PostgreSQL URL); with `create=False` a missing file
    is a problem, never a new database."""
    if is_postgres(path):
        return await _open_postgres(str(path))
    path = Path(path)
    problem = _where(path)
    if problem is None and not create and not path.is_file():
        problem = (
            f"database: there is no database at {path.resolve()}: run this where config.toml "
            "is, or name the bot's configuration with --config"
        )
    if problem is not None:
        raise DatabaseProblem(problem)
    try:
        db = await Database.open(path)
    except (sqlite3.Error, OSError, ValueError) as exc:
        raise DatabaseProblem(describe(path, exc)) from None
    try:
        await db.schema_versions()  # reads the header: a file that is not SQLite fails here
    except sqlite3.Error as exc:
        await db.close()
        raise DatabaseProblem(describe(path, exc)) from None
    return db


async def migrate(db: Database) -> list[int]:
    """Apply pending migrations; a newer schema or a read-only file is a problem."""
    try:
        return await db.migrate()
    except (sqlite3.Error, MigrationError) as exc:
        raise DatabaseProblem(describe(db.path, exc)) from None


async def check_writable(db: Database) -> None:
    """Write (and drop) a scratch table: SQLite opens a read-only file without complaint
    and only fails at the first write, which would be a player's click."""
    try:
        async with db.transaction() as conn:
            await conn.execute(f"CREATE TABLE {WRITE_CHECK} (x INTEGER)")
            await conn.execute(f"DROP TABLE {WRITE_CHECK}")
    except sqlite3.Error as exc:
        raise DatabaseProblem(describe(db.path, exc)) from None


async def require_bondbot_data(db: Database) -> None:
    """A database BondBot never migrated has nothing to copy."""
    if not await db.schema_versions():
        raise DatabaseProblem(
            f"database: {db.path} holds no BondBot data: name the bot's database file"
        )


def backup_target_problem(source: Path | str, target: Path) -> str | None:
    """Why `target` cannot receive a backup of `source`, if it cannot."""
    name = "bondbot.dump" if is_postgres(source) else Path(source).name
    if target.is_dir():
        return f"backup: {target} is a folder: name the backup file, e.g. {target / name}"
    if not target.parent.is_dir():
        return f"backup: the folder {target.parent} does not exist: create it first"
    if not is_postgres(source) and target.resolve() == Path(source).resolve():
        return f"backup: {target} is the live database itself: name another file"
    return None
