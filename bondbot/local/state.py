"""What the fake Discord holds, shared by the mixins that make up
:class:`~bondbot.local.server.FakeDiscord` (world building, moderation, gateway, one per
REST route family, scripting): each inherits `FakeState` for the attributes its
``__init__`` sets and the few lookups all use; below, for type checkers only, is what
they call on one another."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .gateway import GatewayConnection, GatewaySession
from .interaction import FakeInteraction, LatencyRecord
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeUser,
    Overwrite,
    SnowflakeFactory,
)
from .ratelimits import RateLimits
from .rest.call import ApiCall, CommandSync, Fault, Handler, RecordedRequest, UploadedFile

UserLike = FakeUser | FakeMember | int
ChannelLike = FakeChannel | int


def id_of(obj: Any) -> int:
    """A snowflake as given, or the ``id`` of what has one (a user, member, channel...)."""
    if isinstance(obj, int):
        return obj
    return int(obj.id)


class FakeState:
    """The fake's world, records and connections (see `FakeDiscord` for the arguments)."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "BondBot",
        application_id: int | None = None,
        interaction_deadline: float = 3.0,
        heartbeat_interval_ms: int = 41_250,
        allow_privileged_intents: bool = True,
        shard_count: int = 1,
        rate_limits: bool = False,
    ) -> None:
        self.snowflake = SnowflakeFactory()
        # Discord's buckets and their headers (`ratelimits`), when asked: off by default.
        self.rate_limits: RateLimits | None = RateLimits() if rate_limits else None
        # What ``GET /gateway/bot`` recommends; a session that IDENTIFYs with ``shard``
        # [id, count] gets only the guilds of its shard, ``(guild_id >> 22) % count``.
        self.shard_count = shard_count
        self.expected_token = token
        self.application_id = application_id or self.snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True, discriminator="4242")
        self.app_owner = FakeUser(self.snowflake(), "developer")
        self.interaction_deadline = interaction_deadline
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.allow_privileged_intents = allow_privileged_intents

        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self._nonces: dict[tuple[int, str], int] = {}  # (channel, nonce) → message
        self.faults: list[Fault] = []  # injected 429s and 5xx (`inject`)
        self.attachments: dict[int, FakeAttachment] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[CommandSync] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self._by_token: dict[str, FakeInteraction] = {}
        self.latencies: list[LatencyRecord] = []

        self.requests: list[RecordedRequest] = []
        self.unexpected: list[RecordedRequest] = []
        self.server_errors: list[str] = []
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.gateway_received: list[dict[str, Any]] = []
        self.gateway_connects = 0
        self.identify_count = 0
        self.resume_count = 0

        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        self._install_routes()

    # -- addresses (`port` is set when the server starts) -----------------------------------

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Websocket URL returned by ``GET /gateway/bot`` and used as resume URL."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- lookups ------------------------------------------------------------------------------

    @property
    def guild(self) -> FakeGuild:
        """The first guild."""
        if not self.guilds:
            raise LookupError("no guild yet: call add_guild() first")
        return next(iter(self.guilds.values()))

    @property
    def channel(self) -> FakeChannel:
        """The first text channel of the first guild."""
        for chan in self.guild.channels.values():
            if chan.type == 0:
                return chan
        raise LookupError("no text channel yet: call add_channel() first")

    def _guild_of(self, guild: FakeGuild | int | None) -> FakeGuild:
        if guild is None:
            return self.guild
        return guild if isinstance(guild, FakeGuild) else self.guilds[guild]

    def _channel_of(self, channel: ChannelLike | None) -> FakeChannel:
        if channel is None:
            return self.channel
        return self.channels[id_of(channel)]

    def _token_ok(self, token: str | None) -> bool:
        if not token:
            return False
        return self.expected_token is None or token == self.expected_token

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # -- what the mixins call on one another (for type checkers) -----------------------------

    if TYPE_CHECKING:

        def _install_routes(self) -> None: ...  # server

        async def wait_until(
            self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = ""
        ) -> None: ...  # server

        def add_channel(
            self,
            name: str,
            *,
            guild: FakeGuild | int | None = None,
            type: int = 0,
            topic: str | None = None,
            overwrites: Iterable[Overwrite] = (),
            parent: FakeChannel | int | None = None,
            id: int | None = None,
        ) -> FakeChannel: ...  # world

        def channel_messages(
            self,
            channel: FakeChannel | int | None = None,
            *,
            visible_to: FakeUser | int | None = None,
        ) -> list[FakeMessage]: ...  # world

        def sessions_for(self, guild_id: int | None) -> list[GatewaySession]: ...  # gateway_server

        async def dispatch(self, event: str, data: dict[str, Any]) -> int: ...  # gateway_server

        async def _message_event(self, event: str, msg: FakeMessage) -> None: ...  # gateway_server

        @property
        def application_flags(self) -> int: ...  # rest.identity

        def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]: ...

        def find_command(
            self, name: str, guild: FakeGuild | int | None = None, *, type: int = 1
        ) -> tuple[dict[str, Any], int | None]: ...  # payloads

        def new_attachment(
            self,
            channel_id: int,
            filename: str,
            data: bytes,
            content_type: str | None = None,
            description: str | None = None,
            *,
            ephemeral: bool = False,
        ) -> FakeAttachment: ...  # rest.files

        def _new_attachments(
            self,
            channel_id: int,
            current: list[FakeAttachment],
            body: dict[str, Any],
            files: list[UploadedFile],
            *,
            ephemeral: bool,
        ) -> list[FakeAttachment]: ...  # rest.files

        def _store_message(self, msg: FakeMessage) -> None: ...  # rest.messages

        def _create_message(
            self,
            channel: FakeChannel,
            body: dict[str, Any],
            files: list[UploadedFile],
            *,
            inter: FakeInteraction | None = None,
            flags: int | None = None,
            msg_type: int = 0,
        ) -> FakeMessage: ...  # rest.messages

        def _edit_message(
            self,
            msg: FakeMessage,
            body: dict[str, Any],
            files: list[UploadedFile],
            *,
            fill_deferred: bool = False,
        ) -> FakeMessage: ...  # rest.messages

        def _interaction_metadata(self, inter: FakeInteraction) -> dict[str, Any]: ...

        def _channel_for(self, call: ApiCall) -> FakeChannel: ...  # rest.channels

        def _bot_perms(self, channel: FakeChannel) -> int: ...  # rest.channels
