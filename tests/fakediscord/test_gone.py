"""Self-tests: what moderators and Discord do to a bot's world, as a real client sees it.

A deleted channel disappears (CHANNEL_DELETE; later requests get 10003 Unknown Channel);
the bot removed from a server gets GUILD_DELETE without `unavailable` (its channels then
answer 403 Missing Access); an outage is GUILD_DELETE with `unavailable: true`, and the
guild's return a GUILD_CREATE.
"""

from __future__ import annotations

import asyncio

import discord
import pytest

from bondbot.local.server import FakeDiscord

from .fixtures import DefaultWorld, fake_discord, fake_world, run_bot

__all__ = ["fake_discord", "fake_world"]


class Watcher(discord.Client):
    """Records the guild and channel events discord.py dispatches."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.seen: list[tuple[str, int]] = []
        self.changed = asyncio.Event()

    def _saw(self, event: str, id: int) -> None:
        self.seen.append((event, id))
        self.changed.set()

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self._saw("channel_delete", channel.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self._saw("remove", guild.id)

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        self._saw("unavailable", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self._saw("available", guild.id)

    async def saw(self, event: tuple[str, int], times: int = 1) -> None:
        while self.seen.count(event) < times:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 5)


async def test_a_deleted_channel_is_gone(
    fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    channel = fake_world.channel
    async with run_bot(Watcher(), fake_discord) as bot:
        await bot.saw(("available", fake_world.guild.id))
        assert await fake_discord.delete_channel(channel) == 1
        await bot.saw(("channel_delete", channel.id))
        assert channel.id not in fake_world.guild.channels and bot.get_channel(channel.id) is None
        with pytest.raises(discord.NotFound) as unknown:
            await bot.fetch_channel(channel.id)
        assert unknown.value.code == 10003


async def test_the_bot_removed_and_an_outage(
    fake_discord: FakeDiscord, fake_world: DefaultWorld
) -> None:
    guild = fake_world.guild
    async with run_bot(Watcher(), fake_discord) as bot:
        await bot.saw(("available", guild.id))
        await fake_discord.guild_outage(guild)
        await bot.saw(("unavailable", guild.id))
        await fake_discord.guild_outage(guild, back=True)
        await bot.saw(("available", guild.id), times=2)
        assert ("remove", guild.id) not in bot.seen
        assert await fake_discord.remove_bot(guild) == 1
        await bot.saw(("remove", guild.id))
        assert bot.get_guild(guild.id) is None
        with pytest.raises(discord.Forbidden) as refused:
            await bot.http.send_message(fake_world.channel.id, params=_hello())
        assert refused.value.code == 50001


def _hello() -> discord.http.MultipartParameters:
    return discord.http.handle_message_parameters(content="hello")
