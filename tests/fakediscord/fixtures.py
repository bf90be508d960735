"""Pytest plugin: ``fake_discord`` / ``fake_world`` fixtures and the ``run_bot`` helper.

Register from ``tests/conftest.py`` with ``pytest_plugins = ["fakediscord.fixtures"]``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TypeVar

import discord
import pytest_asyncio
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import INTERNAL_API_VERSION, Route

from bondbot.local.models import FakeChannel, FakeGuild, FakeRole, FakeUser
from bondbot.local.server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@dataclass(frozen=True)
class DefaultWorld:
    """The standard test guild: one channel, a GM role and four users."""

    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    gm_role: FakeRole
    owner: FakeUser
    gm: FakeUser
    player: FakeUser
    player_fr: FakeUser

    @classmethod
    def of(cls, fake: FakeDiscord) -> DefaultWorld:
        """Look the default world up in a fake built by :func:`build_default_world`."""
        guild = fake.guild
        return cls(
            fake=fake,
            guild=guild,
            channel=guild.channel("mission-briefing"),
            gm_role=guild.role("GM"),
            owner=fake.user("owner"),
            gm=fake.user("gm"),
            player=fake.user("player"),
            player_fr=fake.user("player_fr"),
        )


def build_default_world(fake: FakeDiscord) -> DefaultWorld:
    """Populate ``fake`` with the default guild (call before the bot connects)."""
    guild = fake.add_guild("Universal Exports", locale="en-US")
    fake.add_channel("mission-briefing", guild=guild, topic="Field reports")
    gm_role = fake.add_role("GM", guild=guild, color=0x1F8B4C, mentionable=True)
    manage_guild = discord.Permissions(manage_guild=True).value
    fake.add_user(None, "owner", global_name="M", owner=True, permissions=manage_guild)
    fake.add_user(None, "gm", global_name="Q", roles=[gm_role])
    fake.add_user(None, "player", global_name="James Bond")
    fake.add_user(None, "player_fr", global_name="René Mathis", locale="fr")
    return DefaultWorld.of(fake)


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord` with the default world; fails on unexpected API calls."""
    fake = FakeDiscord()
    build_default_world(fake)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()
    fake.assert_no_unexpected()


@pytest_asyncio.fixture
async def fake_world(fake_discord: FakeDiscord) -> DefaultWorld:
    """Handles on the default world's guild, channel, GM role and users."""
    return DefaultWorld.of(fake_discord)


@contextlib.asynccontextmanager
async def run_bot(
    bot: ClientT,
    fake: FakeDiscord,
    token: str = "test-token",
    *,
    ready_timeout: float = 10.0,
    redirect_gateway: bool = True,
    expect_sync: bool = False,
) -> AsyncIterator[ClientT]:
    """Run the real, unmodified ``bot`` against ``fake`` until the block exits.

    Sets ``Route.BASE`` (and, unless ``redirect_gateway=False``, ``DiscordWebSocket.
    DEFAULT_GATEWAY``: non-sharded clients connect there without asking ``/gateway/bot``),
    logs in (which runs ``setup_hook`` and its command sync), connects, waits for READY,
    then closes the bot and restores both globals.
    """
    old_base = Route.BASE
    if old_base == fake.api_base:  # the bot pointed itself at the fake in __init__
        old_base = f"https://discord.com/api/v{INTERNAL_API_VERSION}"
    old_gateway = DiscordWebSocket.DEFAULT_GATEWAY
    if str(old_gateway) == fake.gateway_url:
        old_gateway = yarl.URL("wss://gateway.discord.gg/")
    Route.BASE = fake.api_base
    if redirect_gateway:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    connect: asyncio.Task[None] | None = None
    try:
        await bot.login(token)
        if expect_sync:
            await fake.wait_for_sync(timeout=ready_timeout)
        connect = asyncio.create_task(bot.connect(reconnect=True), name="fake-bot-connect")
        ready = asyncio.create_task(bot.wait_until_ready(), name="fake-bot-ready")
        done, _ = await asyncio.wait(
            {connect, ready}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            if connect in done:
                connect.result()  # re-raise why the client stopped
            raise TimeoutError(
                f"bot not ready after {ready_timeout}s (gateway connects: "
                f"{fake.gateway_connects}, identifies: {fake.identify_count})"
            )
        yield bot
    finally:
        session_ids = _session_ids(bot)
        await bot.close()
        for session_id in session_ids:
            session = fake.sessions.get(session_id or "")
            if session is None:
                continue
            # discord.py closes a polling socket with 4000 (resumable), so the fake would keep
            # the session; the bot is gone for good, so wait for the socket and forget it.
            with contextlib.suppress(TimeoutError):
                await fake.wait_until(lambda s=session: s.connection is None, timeout=2.0)
            fake.sessions.pop(session.session_id, None)
        if connect is not None:
            with contextlib.suppress(TimeoutError):  # wait_for cancels it on timeout
                await asyncio.wait_for(connect, timeout=5.0)
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


def _session_ids(bot: discord.Client) -> list[str | None]:
    """The bot's gateway sessions: one per shard of an AutoShardedClient, else its own."""
    if isinstance(bot, discord.AutoShardedClient):
        return [info._parent.ws.session_id for info in bot.shards.values()]
    return [bot.ws.session_id if bot.ws is not None else None]
