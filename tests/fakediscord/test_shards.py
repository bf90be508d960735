"""The fake Discord's shards: a session IDENTIFYs with ``shard`` and gets only its shard's
guilds and their events, as two processes of a big bot each run their shards."""

from __future__ import annotations

import contextlib
import json

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bondbot.local.server import FakeDiscord

from .fixtures import build_default_world, run_bot


class ShardedBot(commands.AutoShardedBot):
    """One process of a sharded bot; `/where` says which process and shard answered."""

    def __init__(self, name: str, shard_count: int | None, shard_ids: list[int] | None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            guild_ready_timeout=0.05,
            shard_count=shard_count,
            shard_ids=shard_ids,
        )
        self.name = name

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s between a process's shards: the fake limits no IDENTIFY."""

    async def setup_hook(self) -> None:
        @app_commands.command(name="where", description="Which process answers")
        async def where(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            await interaction.response.send_message(
                f"{self.name} shard {interaction.guild.shard_id}", ephemeral=True
            )

        self.tree.add_command(where)
        await self.tree.sync()


async def test_two_processes_get_each_their_shard_s_guilds_and_events() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        world = build_default_world(fake)  # the default guild, on whichever shard
        guilds = [fake.add_guild(f"Station {n}", id=fake.guild_id_on_shard(n, 2)) for n in (0, 1)]
        for guild in guilds:
            fake.add_channel("casino", guild=guild)
            guild.members[world.player.id] = world.guild.members[world.player.id]
        async with (
            run_bot(ShardedBot("first", 2, [0]), fake) as first,
            run_bot(ShardedBot("second", 2, [1]), fake) as second,
        ):
            assert [s.shard for s in fake.sessions.values()] == [[0, 2], [1, 2]]
            for bot, mine, theirs in ((first, guilds[0], guilds[1]), (second, *guilds[::-1])):
                assert bot.get_guild(mine.id) is not None
                assert bot.get_guild(theirs.id) is None  # never sent its GUILD_CREATE
            answered = [
                await fake.slash(world.player, "where", _channel=guild.channel("casino"))
                for guild in guilds
            ]
            assert [a.content for a in answered] == ["first shard 0", "second shard 1"]
        assert not fake.sessions


async def test_gateway_bot_gives_the_shard_count_and_an_unsharded_session_gets_everything() -> None:
    async with FakeDiscord(shard_count=3) as fake:
        build_default_world(fake)
        other = fake.add_guild("Station", id=fake.guild_id_on_shard(2, 3))
        async with run_bot(ShardedBot("auto", None, None), fake) as bot:
            # Asked /gateway/bot, so it runs the 3 shards the fake recommends.
            assert bot.shard_count == 3
            assert sorted(s.shard[0] for s in fake.sessions.values()) == [0, 1, 2]
            assert bot.get_guild(other.id) is not None and bot.get_guild(fake.guild.id)
        async with run_bot(commands.Bot("!", intents=discord.Intents(guilds=True)), fake) as bot:
            (session,) = fake.sessions.values()
            assert session.shard is None
            assert {g.id for g in bot.guilds} == set(fake.guilds)


async def test_an_invalid_shard_is_closed_with_4010() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession() as http:
        for shard in ([2, 2], [-1, 2], [0], "0,1"):
            async with http.ws_connect(fake.gateway_url) as ws:
                hello = json.loads((await ws.receive()).data)
                assert hello["op"] == 10
                identify = {"token": "t", "intents": 1, "shard": shard, "properties": {}}
                await ws.send_json({"op": 2, "d": identify})
                with contextlib.suppress(TypeError):
                    await ws.receive()
                assert ws.close_code == 4010, shard
        assert not fake.sessions
