"""`bondbot try | run | migrate | backup PATH | copy-database FROM TO | health | verify SEED
COMMITMENT`: the operator's commands."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path

from bondbot.config import (
    FILE_SUFFIX,
    TOKEN_ENV,
    ConfigError,
    Settings,
    load_settings,
    password_apart,
)
from bondbot.rules.cards import cards_code
from bondbot.rules.shoe import verify
from bondbot.storage import pgurl, preflight
from bondbot.storage.conn import DatabaseError
from bondbot.storage.db import shown

DEFAULT_CONFIG = Path("config.toml")
PACKS_MIN, PACKS_MAX = 1, 8  # what a table's shoe can hold (Shoe.shuffled)


def _packs(text: str) -> int:
    """A pack count a table can have; argparse turns the ValueError into one usage line."""
    try:
        packs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of packs") from None
    if not PACKS_MIN <= packs <= PACKS_MAX:
        raise argparse.ArgumentTypeError(
            f"a table's shoe holds {PACKS_MIN} to {PACKS_MAX} packs, not {packs}"
        )
    return packs


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bondbot", description=__doc__)
    parser.add_argument(
        "--config", type=Path, help="configuration file (default: ./config.toml)", default=None
    )
    sub = parser.add_subparsers(dest="command", required=True)
    trying = sub.add_parser(
        "try",
        help="try BondBot in a browser: no Discord, no token",
        description="Start the bot against a local stand-in for Discord and serve it as a web "
        "page (each person's link is printed; the GM's opens in a browser when there is one). "
        "The server has a GM, three players, the GM role, Le Chiffre (NPC) and one character "
        "per player, so a table is two clicks away. No token is read; the database is a new "
        "SQLite file in a temporary folder unless --database names one.",
    )
    trying.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 for phones on the LAN: then "
        "each person's link carries a secret and requests without it are refused)",
    )
    trying.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    trying.add_argument(
        "--database", type=Path, default=None, help="a SQLite file to use (and keep)"
    )
    trying.add_argument(
        "--empty", action="store_true", help="no characters and no GM role: start bare"
    )
    trying.add_argument(
        "--gm",
        default="Morgan",
        metavar="NAME[:LANG]",
        help="the GM (default Morgan; LANG en, en-GB or fr)",
    )
    trying.add_argument(
        "--players",
        default="Alex,Camille:fr,Dana",
        metavar="NAME[:LANG],...",
        help="the three players (default Alex,Camille:fr,Dana)",
    )
    trying.add_argument(
        "--no-browser", action="store_true", help="print the links, open no browser"
    )
    sub.add_parser(
        "run",
        help="start the bot",
        description="Start the bot: create or upgrade the database (config.toml's `database`, "
        "default ./bondbot.sqlite3), check that it can be written, then connect to Discord "
        "with the token from BONDBOT_TOKEN (or the file BONDBOT_TOKEN_FILE names, or "
        "config.toml's `token`) and run until stopped "
        "(Ctrl-C, SIGTERM, docker stop: clicks under way finish first).",
    )
    sub.add_parser(
        "migrate",
        help="create or upgrade the database",
        description="Create the database (config.toml's `database`, default ./bondbot.sqlite3) "
        "or apply the migrations it lacks, print which, and exit. `run` does this too; "
        "migrate prepares a database, or upgrades one, without starting the bot.",
    )
    backup = sub.add_parser(
        "backup",
        help="copy the live database to PATH (online backup)",
        description="Copy the database to PATH with SQLite's online backup: safe while the bot "
        "runs (on PostgreSQL: pg_dump --format=custom, restored with pg_restore). It never "
        "creates the database it copies: run it where config.toml is, or pass --config. To "
        "restore a SQLite backup, stop the bot and copy it over the database file.",
    )
    backup.add_argument(
        "path",
        type=Path,
        metavar="PATH",
        help="the backup file to write (its folder must exist; not the database itself)",
    )
    copy = sub.add_parser(
        "copy-database",
        help="copy a database into a new, empty one (SQLite file or postgresql:// URL)",
        description="Copy a whole database into a new, empty one, each a SQLite file or a "
        "postgresql:// URL. A URL without a password takes the one BONDBOT_DATABASE_PASSWORD "
        "(or the file BONDBOT_DATABASE_PASSWORD_FILE names) gives, else PostgreSQL's own "
        "PGPASSWORD or ~/.pgpass; in a URL, a password's @ / : % are percent-encoded.",
    )
    copy.add_argument("source", metavar="FROM", help="the database to copy: a file or a URL")
    copy.add_argument("target", metavar="TO", help="a new or empty database: a file or a URL")
    sub.add_parser(
        "health",
        help="exit 0 while the running bot is connected to Discord and its database",
        description="Exit 0 while the bot running on this configuration's database and "
        "shards is connected to Discord and has not found its database unreachable for more "
        "than 30 s (it writes a file beside the database every 30 s, and when the database "
        "goes or comes back), else say why in one line and exit 1: the Docker image's "
        "HEALTHCHECK.",
    )
    check = sub.add_parser(
        "verify",
        help="check a revealed shoe seed against its commitment",
        description="Check the seed a table revealed when its shoe ended against the commitment "
        "it showed when the shoe opened, and print the shoe, top card first.",
    )
    check.add_argument("seed", help="the revealed seed: 64 hexadecimal digits (32 bytes)")
    check.add_argument(
        "commitment", help="the SHA-256 commitment shown when the shoe opened (64 hex digits)"
    )
    check.add_argument(
        "--packs",
        type=_packs,
        default=8,
        help=f"packs in the shoe, {PACKS_MIN} to {PACKS_MAX} as at a table (default 8)",
    )
    return parser


def _settings(args: argparse.Namespace, *, need_token: bool) -> Settings:
    path = args.config or DEFAULT_CONFIG
    # Offline commands need no token; they read the rest of the environment
    # (BONDBOT_DATABASE_URL) as the bot does.
    environ = None
    if not need_token:
        environ = {k: v for k, v in os.environ.items() if k != TOKEN_ENV + FILE_SUFFIX}
        environ[TOKEN_ENV] = "unused-offline"
    return load_settings(path, must_exist=args.config is not None, environ=environ)


async def _migrate(settings: Settings) -> list[int]:
    db = await preflight.open_database(settings.database, create=True)
    try:
        return await preflight.migrate(db)
    finally:
        await db.close()


async def _backup(settings: Settings, target: Path) -> None:
    problem = preflight.backup_target_problem(settings.database, target)
    if problem is not None:
        raise preflight.DatabaseProblem(problem)
    db = await preflight.open_database(settings.database, create=False)
    try:
        await preflight.require_bondbot_data(db)
        await db.backup(target)
    except (OSError, DatabaseError) as exc:
        raise preflight.DatabaseProblem(f"backup: cannot write {target}: {exc}") from None
    except RuntimeError as exc:  # the backend's backup tool is missing: what to use
        raise preflight.DatabaseProblem(str(exc)) from None
    finally:
        await db.close()


def _database(text: str, name: str) -> Path | str:
    """FROM or TO as the storage opens it: a file's path, or a URL checked as the
    configuration checks it and given the environment's password apart when it has none."""
    if not pgurl.is_url(text):
        return Path(text).expanduser()
    problem = pgurl.problem(text)
    if problem:
        raise preflight.DatabaseProblem(f"copy-database: {name}: {problem}")
    password = password_apart(dict(os.environ))
    if password and not pgurl.has_password(text):
        return pgurl.with_password(text, password)
    return text


async def _copy(source_text: str, target_text: str) -> str:
    from bondbot.storage.copy import CopyRefused, copy_database

    source, target = _database(source_text, "FROM"), _database(target_text, "TO")
    if str(source) == str(target):
        raise preflight.DatabaseProblem("copy-database: FROM and TO are the same database")
    src = await preflight.open_database(source, create=False)
    try:
        await preflight.require_bondbot_data(src)
        dst = await preflight.open_database(target, create=True)
        try:
            report = await copy_database(src, dst)
        except CopyRefused as exc:
            raise preflight.DatabaseProblem(str(exc)) from None
        except DatabaseError as exc:
            raise preflight.DatabaseProblem(
                f"copy-database: nothing was written to {dst.path}: {exc}"
            ) from None
        finally:
            await dst.close()
    finally:
        await src.close()
    counts = ", ".join(f"{count} {table}" for table, count in report.rows.items())
    return (
        f"copied {src.path} to {dst.path}: {counts}; all {report.accounts} balances equal"
        " their ledger"
    )


async def _prepare(settings: Settings) -> None:
    """Before the bot connects: the database opens, is migrated and can be written."""
    db = await preflight.open_database(settings.database, create=True)
    try:
        applied = await preflight.migrate(db)
        if applied:
            logging.getLogger(__name__).info("applied migrations %s", applied)
        await preflight.check_writable(db)
    finally:
        await db.close()


def _run(settings: Settings) -> int:
    import aiohttp
    import discord

    from bondbot.bot.client import BondBot, serve

    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(_prepare(settings))
    bot = BondBot(settings)
    try:
        asyncio.run(serve(bot, settings.token))
    except discord.LoginFailure:
        print("discord: the bot token was refused: check BONDBOT_TOKEN", file=sys.stderr)
        return 2
    except aiohttp.ClientConnectionError as exc:
        print(f"discord: cannot reach Discord ({exc})", file=sys.stderr)
        return 3
    if bot.lease_lost is not None:  # another process serves its shards now
        print(bot.lease_lost, file=sys.stderr)
        return 2
    return 0


def _try(args: argparse.Namespace) -> int:
    from bondbot.local import trying

    try:
        gm = trying.Person.parse(args.gm)
        players = tuple(trying.Person.parse(p) for p in args.players.split(",") if p.strip())
    except ValueError as exc:
        print(f"try: {exc}", file=sys.stderr)
        return 2
    if args.database is not None and not args.database.parent.is_dir():
        print(f"try: --database {args.database}: no folder {args.database.parent}", file=sys.stderr)
        return 2
    options = trying.TryOptions(
        host=args.host,
        port=args.port,
        database=args.database,
        empty=args.empty,
        gm=gm,
        players=players,
        open_browser=not args.no_browser,
    )
    logging.basicConfig(level="WARNING", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(trying.main(options))
    except OSError as exc:
        print(f"try: cannot listen on {args.host}:{args.port} ({exc})", file=sys.stderr)
        return 3


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "try":
        return _try(args)
    try:
        if args.command == "verify":
            try:
                cards = verify(args.seed, args.commitment, args.packs)
            except ValueError as exc:
                print(f"verify: {exc}", file=sys.stderr)
                return 1
            print(f"seed matches the commitment; the shoe, top card first ({len(cards)} cards):")
            print(cards_code(cards))
            return 0
        if args.command == "copy-database":
            print(asyncio.run(_copy(args.source, args.target)))
            return 0
        settings = _settings(args, need_token=args.command == "run")
        if args.command == "health":
            from bondbot.bot.health import heartbeat_path, problem

            said = problem(heartbeat_path(settings.database, settings.shards))
            print(said or "health: connected to Discord", file=sys.stderr if said else sys.stdout)
            return 1 if said else 0
        if args.command == "migrate":
            applied = asyncio.run(_migrate(settings))
            print(f"database {shown(settings.database)}: applied migrations {applied or 'none'}")
        elif args.command == "backup":
            asyncio.run(_backup(settings, args.path))
            print(f"backed up {shown(settings.database)} to {args.path}")
        else:
            return _run(settings)
    except (ConfigError, preflight.DatabaseProblem) as exc:
        print(exc, file=sys.stderr)
        return 2
    return 0
