"""A server that adds the bot gets one welcome in its system channel, in its language,
naming the next step; without a system channel it may post in, nothing is sent at all."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord
import pytest
from e2e_env import BotEnv

from bondbot.bot.client import BondBot
from bondbot.local import FakeDiscord, FakeGuild, Overwrite


def new_server(
    fake: FakeDiscord, name: str, *, locale: str = "en-US", system: bool = True
) -> FakeGuild:
    guild = fake.add_guild(name, locale=locale)
    fake.add_channel("general", guild=guild)
    fake.add_channel("casino", guild=guild)
    if system:
        guild.system_channel_id = guild.channel("general").id
    return guild


def messages_in(fake: FakeDiscord, guild: FakeGuild) -> list[str]:
    return [m.content for c in guild.channels.values() for m in fake.channel_messages(c)]


async def eventually(predicate: Callable[[], bool], what: str) -> None:
    """Polled: what the bot does without calling Discord wakes no waiter of the fake."""
    for _ in range(500):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(f"never: {what}")


async def joined(fake: FakeDiscord, bot: BondBot, guild: FakeGuild) -> None:
    assert await fake.join_guild(guild) == 1
    await eventually(lambda: bot.get_guild(guild.id) is not None, "the bot sees the server")


async def settled(caplog: pytest.LogCaptureFixture, guild: FakeGuild) -> None:
    """Until the bot said why it sends no welcome to this server."""
    await eventually(
        lambda: any(str(guild.id) in r.getMessage() for r in caplog.records),
        "the bot handles the join",
    )


async def test_a_new_server_is_welcomed_in_its_language_with_the_next_step(
    bot_env: BotEnv,
) -> None:
    fake = bot_env.fake
    async with bot_env.run() as bot:
        french = new_server(fake, "Le Cercle", locale="fr")
        english = new_server(fake, "Universal Exports London")
        await joined(fake, bot, french)
        await joined(fake, bot, english)
        greeted = await fake.wait_for_message(french.channel("general"))
        await fake.wait_for_message(english.channel("general"))
    assert "`/mj rôle`" in greeted.content and "Prochaine étape" in greeted.content
    assert messages_in(fake, french) == [greeted.content]
    (english_welcome,) = messages_in(fake, english)
    assert "**Next step**: someone with *Manage Server* runs `/gm role`" in english_welcome
    assert len(english_welcome) <= 2000
    # The servers the bot was already in when it started are not welcomed again.
    assert messages_in(fake, bot_env.world.guild) == []


async def test_no_system_channel_or_no_right_to_post_there_sends_nothing(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake = bot_env.fake
    caplog.set_level(logging.INFO, logger="bondbot.bot.cogs.help")
    async with bot_env.run() as bot:
        silent = new_server(fake, "No system channel", system=False)
        closed = new_server(fake, "Read only")
        deny = Overwrite(closed.bot_role.id, 0, deny=discord.Permissions(send_messages=True).value)
        closed.channel("general").overwrites.append(deny)
        for guild in (silent, closed):
            await joined(fake, bot, guild)
            await settled(caplog, guild)
    assert messages_in(fake, silent) == [] and messages_in(fake, closed) == []
    posts = [r for r in fake.requests if r.method == "POST" and "/messages" in r.path]
    assert posts == []  # not even tried (and no one was messaged directly)
