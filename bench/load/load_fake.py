"""The fake Discord as bench/load/load.py drives it: many users waiting at once, cheaply.

`FakeDiscord.wait_until` wakes every waiter on every change of the fake, which is fine
for a test and quadratic under load: with 150 users waiting, each REST call would wake
150 tasks and the bench process, not the bot, would set the pace. `BenchFake` adds two
targeted waits instead (an interaction's acknowledgement, a change in one channel);
everything Discord-facing is the tests' fake, unchanged.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))

from bondbot.local import FakeDiscord
from bondbot.local.client import FakeInteraction, InteractionRejected, InteractionResult
from bondbot.local.models import FakeChannel, FakeGuild, FakeMessage, FakeRole, FakeUser
from bondbot.local.ratelimits import RateLimits
from bondbot.local.server import ApiCall


class BenchFake(FakeDiscord):
    """FakeDiscord with per-interaction and per-channel waits (see the module's doc)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._acks: dict[int, asyncio.Future[None]] = {}
        self._channel_waiters: dict[int, list[asyncio.Future[None]]] = {}

    # -- hooks on the fake's REST handlers ---------------------------------------------------

    async def _callback(self, call: ApiCall) -> tuple[int, Any]:
        try:
            return await super()._callback(call)
        finally:
            waiter = self._acks.get(_int(call.params.get("interaction")))
            inter = self.interactions.get(_int(call.params.get("interaction")))
            if waiter is not None and not waiter.done() and inter and inter.acknowledged:
                waiter.set_result(None)

    async def _post_message(self, call: ApiCall) -> tuple[int, Any]:
        try:
            return await super()._post_message(call)
        finally:
            self._wake(_int(call.params.get("channel")))

    async def _channel_message(self, call: ApiCall) -> tuple[int, Any]:
        try:
            return await super()._channel_message(call)
        finally:
            self._wake(_int(call.params.get("channel")))

    def _wake(self, channel_id: int) -> None:
        for waiter in self._channel_waiters.pop(channel_id, []):
            if not waiter.done():
                waiter.set_result(None)

    # -- waits -------------------------------------------------------------------------------

    async def wait_ack(self, inter: FakeInteraction, timeout: float) -> None:
        """Until the bot's callback for `inter` was accepted; TimeoutError after `timeout`."""
        if inter.acknowledged:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._acks[inter.id] = waiter
        try:
            async with asyncio.timeout(timeout):
                await waiter
        finally:
            self._acks.pop(inter.id, None)

    async def wait_channel(
        self, channel_id: int, predicate: Callable[[], bool], timeout: float
    ) -> None:
        """Until `predicate()` holds, re-checked when the bot posts or edits in the channel."""
        async with asyncio.timeout(timeout):
            while not predicate():
                waiter = asyncio.get_running_loop().create_future()
                self._channel_waiters.setdefault(channel_id, []).append(waiter)
                await waiter

    def public_message(self, channel: FakeChannel) -> FakeMessage | None:
        """The channel's newest public message (the table message: every answer is private)."""
        if channel.last_message_id is None:
            return None
        return self.messages.get(channel.last_message_id)


def _int(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


__all__ = [
    "BenchFake",
    "FakeChannel",
    "FakeMessage",
    "InteractionRejected",
    "InteractionResult",
    "RateLimits",
    "World",
]


class World:
    """One guild, `tables` channels, a GM with the GM role and three players per table.

    With `shards` > 1 (the fake's shard count), one guild on each shard instead, each with
    its GM role: table n plays in guild n % shards, its players members there, the GM in
    every guild.
    """

    def __init__(self, fake: BenchFake, tables: int, shards: int = 1) -> None:
        self.fake = fake
        self.guilds: list[FakeGuild] = [
            fake.add_guild(
                "Universal Exports" if shards == 1 else f"Universal Exports {shard}",
                id=None if shards == 1 else fake.guild_id_on_shard(shard, shards),
                locale="en-US",
            )
            for shard in range(shards)
        ]
        self.guild = self.guilds[0]
        self.channels: list[FakeChannel] = [
            fake.add_channel(f"table-{n:02d}", guild=self.guilds[(n - 1) % shards])
            for n in range(1, tables + 1)
        ]
        self.gm_roles: list[FakeRole] = [
            fake.add_role("GM", guild=guild, mentionable=True) for guild in self.guilds
        ]
        self.gm_role = self.gm_roles[0]
        self.gm: FakeUser = fake.add_user(None, "gm", global_name="Q", roles=[self.gm_role])
        for guild, role in zip(self.guilds[1:], self.gm_roles[1:], strict=True):
            fake.add_user(self.gm.id, "gm", global_name="Q", roles=[role], guild=guild)
        self.players: list[FakeUser] = [
            fake.add_user(
                None,
                f"agent{n:03d}",
                global_name=f"Agent {n:03d}",
                guild=self.guilds[((n - 1) // 3) % shards],
            )
            for n in range(1, 3 * tables + 1)
        ]

    def guild_of(self, table: int) -> FakeGuild:
        """The guild table number `table` (from 0) plays in."""
        return self.guilds[table % len(self.guilds)]
