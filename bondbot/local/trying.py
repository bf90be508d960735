"""`bondbot try`: the real bot against the stand-in, drawn in a browser, without a token.

The server it builds has fixed ids, so a ``--database`` kept from an earlier try finds its
characters and tables again; the cast is written only to a database that has none.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import sys
import tempfile
import webbrowser
import zlib
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from aiohttp import web

from bondbot import background

from .models import FakeChannel, FakeGuild, FakeRole, FakeUser
from .server import FakeDiscord
from .web import LocalWeb

log = logging.getLogger(__name__)

TOKEN = "bondbot-try"  # the stand-in takes any token; no Discord one is read
GUILD_ID = 1_100_000_000_000_000_001
CHANNEL_ID = 1_100_000_000_000_000_002
GM_ROLE_ID = 1_100_000_000_000_000_003
LOCALES = {"en": "en-US", "en-us": "en-US", "en-gb": "en-GB", "fr": "fr"}


@dataclass(frozen=True)
class Person:
    """Who sits at the try table: a name (his ``?as=`` link) and his client's language."""

    name: str
    locale: str = "en-US"

    @classmethod
    def parse(cls, text: str) -> Person:
        """``Name`` or ``Name:fr`` (en, en-GB, fr)."""
        name, _, lang = text.strip().partition(":")
        name = name.strip()
        if not name or not name.replace("_", "").replace("-", "").isalnum() or len(name) > 32:
            raise ValueError(f"{text!r}: a name is letters and digits (up to 32)")
        locale = LOCALES.get(lang.strip().casefold() or "en")
        if locale is None:
            raise ValueError(f"{text!r}: the language is en, en-GB or fr")
        return cls(name, locale)


DEFAULT_GM = Person("Morgan")
DEFAULT_PLAYERS = (Person("Alex"), Person("Camille", "fr"), Person("Dana"))
# Each player's character, in order: the first a simulator with a Hero Point to spend.
PCS: tuple[dict[str, Any], ...] = (
    {"name": "James Bond", "skills": {"gambling": 8}, "cash": 100_000, "hero_points": 1},
    {"name": "René Mathis", "skills": {"gambling": 4}, "cash": 50_000, "hero_points": 1},
    {"name": "Felix Leiter", "skills": {"gambling": 6}, "cash": 80_000, "hero_points": 1},
)


@dataclass(frozen=True)
class TryWorld:
    """The try server: one channel, the GM role, the GM (its owner) and the players."""

    guild: FakeGuild
    channel: FakeChannel
    gm_role: FakeRole
    gm: FakeUser
    players: tuple[FakeUser, ...]

    @property
    def people(self) -> list[FakeUser]:
        return [self.gm, *self.players]


def _user_id(name: str) -> int:
    """A stable id per name, so a kept database knows its players again."""
    return 1_100_000_000_000_100_000 + zlib.crc32(name.casefold().encode())


def build_world(
    fake: FakeDiscord, gm: Person = DEFAULT_GM, players: Sequence[Person] = DEFAULT_PLAYERS
) -> TryWorld:
    """Populate ``fake`` with the try server (before the bot connects)."""
    names = [p.name.casefold() for p in (gm, *players)]
    if len(set(names)) != len(names):
        raise ValueError("each person needs a name of his own")
    guild = fake.add_guild("Casino Royale", id=GUILD_ID, locale="en-US")
    channel = fake.add_channel("casino", guild=guild, id=CHANNEL_ID, topic="Tables")
    gm_role = fake.add_role("GM", guild=guild, id=GM_ROLE_ID, color=0x1F8B4C, mentionable=True)
    manage_guild = discord.Permissions(manage_guild=True).value
    gm_user = fake.add_user(
        _user_id(gm.name),
        gm.name,
        global_name=gm.name,
        locale=gm.locale,
        roles=[gm_role],
        owner=True,
        permissions=manage_guild,
        guild=guild,
    )
    users = tuple(
        fake.add_user(_user_id(p.name), p.name, global_name=p.name, locale=p.locale, guild=guild)
        for p in players
    )
    return TryWorld(guild, channel, gm_role, gm_user, users)


async def seed(database: Path | str, world: TryWorld) -> bool:
    """Write the GM role, Le Chiffre and one PC per player to a database without characters;
    return whether it did."""
    from bondbot.sheets import validate_sheet
    from bondbot.storage import characters
    from bondbot.storage import settings as guild_settings
    from bondbot.storage.db import Database

    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    db = await Database.open(database)
    try:
        await db.migrate()
        async with db.read() as conn:
            if await characters.list_characters(conn, world.guild.id):
                return False
        async with db.transaction() as conn:
            await guild_settings.update_settings(
                conn, world.guild.id, default_locale="en", gm_role_id=world.gm_role.id
            )
            npc = {"name": "Le Chiffre", "kind": "NPC", "skills": {"gambling": 12}}
            await characters.create_character(
                conn,
                world.guild.id,
                validate_sheet({"characteristics": {"PER": 10}, **npc}),
                now=now,
            )
            for player, pc in zip(world.players, PCS, strict=False):
                sheet = validate_sheet(
                    {"characteristics": {"PER": 10}, "kind": "PC", "owner_id": player.id, **pc}
                )
                made = await characters.create_character(conn, world.guild.id, sheet, now=now)
                await characters.set_active_character(conn, world.guild.id, player.id, made.id)
    finally:
        await db.close()
    return True


def _lan_address() -> str:
    """This machine's address on its network, for the links a phone opens (no packet is
    sent: a UDP socket only picks the route); 127.0.0.1 when there is none."""
    import socket

    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        return str(probe.getsockname()[0])
    return "127.0.0.1"


def _has_display() -> bool:
    """Whether a graphical browser can open (never a text one taking over the terminal)."""
    import os

    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


OPEN_HOSTS = {"127.0.0.1", "localhost", "::1"}  # this machine's own address: no secrets


def _open_host(host: str) -> bool:
    """Whether the page may go without secrets: only on this machine's own loopback address
    (any other address, 0.0.0.0 above all, may be reached from elsewhere)."""
    return host in OPEN_HOSTS


@dataclass
class TryOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    database: Path | None = None
    empty: bool = False
    gm: Person = DEFAULT_GM
    players: tuple[Person, ...] = DEFAULT_PLAYERS
    open_browser: bool = True


@contextlib.asynccontextmanager
async def running(
    options: TryOptions, *, message_interval: float = 1.0, **bot_options: Any
) -> AsyncIterator[tuple[LocalWeb, TryWorld, str, Path]]:
    """The stand-in, the bot and the page, running until the block exits; yields
    ``(page, world, base_url, database)``. ``bot_options`` go to the bot's services (a test's
    seeds)."""
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    from bondbot.bot.client import BondBot
    from bondbot.config import Settings

    # The bot points discord.py's globals at the stand-in: put them back afterwards, so a
    # process that goes on (the tests) does not keep a stopped stand-in's address.
    discord_urls = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    fake = FakeDiscord(token=TOKEN)
    world = build_world(fake, options.gm, options.players)
    await fake.start()
    folder: Path | None = None
    if options.database is None:
        folder = Path(tempfile.mkdtemp(prefix="bondbot-try-"))
        database = folder / "bondbot.sqlite3"
    else:
        database = options.database
    if not options.empty:
        await seed(database, world)
    settings = Settings(
        token=TOKEN,
        database=database,
        default_locale="en",
        dev_guild_id=world.guild.id,
        discord_api_base=fake.api_base,
    )
    bot = BondBot(settings, message_interval=message_interval, **bot_options)
    page = LocalWeb(fake, world.guild, world.people, secure=not _open_host(options.host))
    runner = web.AppRunner(page.app, handle_signals=False, access_log=None, shutdown_timeout=0.5)
    await runner.setup()
    try:
        site = web.TCPSite(runner, options.host, options.port)
        await site.start()
        port = runner.addresses[0][1]
        shown_host = _lan_address() if options.host in ("0.0.0.0", "::") else options.host
        if ":" in shown_host:
            shown_host = f"[{shown_host}]"
        base = f"http://{shown_host}:{port}"
        async with bot:
            started = background.spawn(bot.start(TOKEN), name="bondbot-try")
            ready = background.spawn(bot.wait_until_ready(), name="bondbot-try-ready")
            done, _ = await asyncio.wait({started, ready}, return_when=asyncio.FIRST_COMPLETED)
            if started in done:
                ready.cancel()
                started.result()
                raise RuntimeError("the bot stopped before it was ready")
            await fake.wait_until(lambda: bool(fake.commands(world.guild)), timeout=10)
            try:
                yield page, world, base, database
            finally:
                await bot.shutdown()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(started, 5)
    finally:
        await runner.cleanup()
        await fake.stop()
        if folder is not None:  # a try's own database goes with it (--database keeps one)
            shutil.rmtree(folder, ignore_errors=True)
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = discord_urls


async def main(options: TryOptions) -> int:
    """Run until Ctrl-C: print each user's link, open the GM's page in a browser."""
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with running(options) as (page, world, base, database):
        lan = page.secure
        kept = "" if options.database else ", removed when it stops; --database keeps one"
        print(
            f"BondBot is running against a local stand-in for Discord (database {database}{kept})."
        )
        if lan:
            print("Each person opens his own link (it holds his secret; keep it to him):")
        else:
            print(f"Open {base} (the page switches between users), or one link per person:")
        for user in world.people:
            role = "GM" if user is world.gm else "player"
            print(f"  {user.name:<12} ({role}, {user.locale}): {page.link(base, user)}")
        if lan:
            print(f"  (listening on {options.host}:{options.port}; another address of this")
            print("  machine works too, with the same ?as=…&t=… part)")
        print("Ctrl-C stops it.", flush=True)
        if options.open_browser and _has_display():
            with contextlib.suppress(Exception):
                webbrowser.open(page.link(base, world.gm))
        await stop.wait()
    print("stopped", file=sys.stderr)
    return 0
