"""The fake's rate limits (issue 32): Discord's buckets and headers, the global limit, the
interaction endpoints exempt from it, and discord.py pacing itself on those headers."""

from __future__ import annotations

import aiohttp
import discord

from bondbot.local.ratelimits import RateLimits
from bondbot.local.server import FakeDiscord

from .fixtures import build_default_world, run_bot

AUTH = {"Authorization": "Bot test-token"}


async def test_a_burst_of_edits_to_one_channel_is_answered_429_with_discords_headers() -> None:
    async with FakeDiscord(rate_limits=True) as fake, aiohttp.ClientSession() as http:
        world = build_default_world(fake)
        other = fake.add_channel("other")
        message = fake.add_bot_message(world.channel, "table")
        elsewhere = fake.add_bot_message(other, "table")
        url = f"{fake.api_base}/channels/{world.channel.id}/messages/{message.id}"
        remaining = []
        for n in range(5):
            async with http.patch(url, json={"content": f"edit {n}"}, headers=AUTH) as answer:
                assert answer.status == 200
                assert answer.headers["X-RateLimit-Limit"] == "5"
                assert float(answer.headers["X-RateLimit-Reset-After"]) > 0
                assert float(answer.headers["X-RateLimit-Reset"]) > 1e9  # epoch seconds
                assert answer.headers["X-RateLimit-Bucket"]
                remaining.append(answer.headers["X-RateLimit-Remaining"])
        assert remaining == ["4", "3", "2", "1", "0"]
        async with http.patch(url, json={"content": "one too many"}, headers=AUTH) as answer:
            assert answer.status == 429
            body = await answer.json()
            assert body["message"] == "You are being rate limited."
            assert body["global"] is False
            assert 0 < body["retry_after"] <= 5
            assert answer.headers["X-RateLimit-Scope"] == "user"
            assert answer.headers["X-RateLimit-Remaining"] == "0"
            assert int(answer.headers["Retry-After"]) >= 1
            assert answer.headers["Via"]  # discord.py takes a 429 without it for a ban
        assert fake.messages[message.id].content == "edit 4"  # the refused edit did nothing
        # Another channel has its own bucket.
        url = f"{fake.api_base}/channels/{other.id}/messages/{elsewhere.id}"
        async with http.patch(url, json={"content": "here"}, headers=AUTH) as answer:
            assert answer.status == 200
        assert fake.rate_limits is not None and fake.rate_limits.limited == 1


async def test_the_global_limit_spans_routes_and_spares_interaction_endpoints() -> None:
    async with FakeDiscord(rate_limits=True) as fake, aiohttp.ClientSession() as http:
        world = build_default_world(fake)
        fake.rate_limits = RateLimits(global_per_second=3)
        paths = ["/users/@me", "/gateway/bot", f"/channels/{world.channel.id}"]
        for path in paths:  # three routes, three buckets: the global one is spent
            async with http.get(fake.api_base + path, headers=AUTH) as answer:
                assert answer.status == 200
        async with http.get(f"{fake.api_base}/guilds/{world.guild.id}", headers=AUTH) as answer:
            assert answer.status == 429
            body = await answer.json()
            assert body["global"] is True
            assert answer.headers["X-RateLimit-Global"] == "true"
            assert answer.headers["X-RateLimit-Scope"] == "global"
        # An interaction's callback and its token's webhook are not counted: Discord
        # answers them (here: an unknown interaction), never 429.
        callback = f"{fake.api_base}/interactions/1/token/callback"
        async with http.post(callback, json={"type": 4, "data": {"content": "x"}}) as answer:
            assert answer.status != 429
        webhook = f"{fake.api_base}/webhooks/{fake.application_id}/token/messages/@original"
        async with http.get(webhook) as answer:
            assert answer.status != 429
        assert fake.rate_limits.limited_global == 1


async def test_discord_py_paces_itself_on_the_headers() -> None:
    """Seven edits of one message in a row through discord.py: it reads the bucket's
    headers and waits before the sixth, so the fake answers no 429."""
    async with FakeDiscord(rate_limits=True) as fake:
        world = build_default_world(fake)
        message = fake.add_bot_message(world.channel, "table")
        bot = discord.Client(intents=discord.Intents.none())
        async with run_bot(bot, fake):
            channel = bot.get_partial_messageable(world.channel.id)
            for n in range(7):
                await channel.get_partial_message(message.id).edit(content=f"edit {n}")
        assert fake.messages[message.id].content == "edit 6"
        assert [r for r in fake.requests if r.status == 429] == []
