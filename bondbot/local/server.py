"""FakeDiscord: Discord's REST API and gateway on 127.0.0.1, backed by a scripted world."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import mimetypes
import re
import time
import traceback
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Self
from urllib.parse import quote

from aiohttp import WSMsgType, web

from .client import (
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    CallbackAttempt,
    FakeInteraction,
    FakeModal,
    InteractionResult,
    LatencyRecord,
    ScriptingMixin,
)
from .gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_PRESENCE,
    OP_RECONNECT,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    OP_VOICE_STATE,
    PRIVILEGED_INTENTS,
    GatewayConnection,
    GatewaySession,
)
from .models import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
    SnowflakeFactory,
    now,
)
from .ratelimits import RateLimits
from .validation import (
    DiscordAPIError,
    not_found,
    validate_choices,
    validate_commands,
    validate_message,
    validate_modal,
)

NONCE_TTL = dt.timedelta(minutes=2)  # how long Discord remembers an enforced nonce

#: Callback types each interaction type may answer with.
ALLOWED_CALLBACKS: dict[int, set[int]] = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    APPLICATION_COMMAND_AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
WEBHOOK_TOKEN_LIFETIME = 15 * 60.0
_CREATE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)
# Application flags: *_LIMITED = privileged intent enabled for an unverified bot.
_APP_FLAGS_PRIVILEGED = (1 << 13) | (1 << 15) | (1 << 19)
_APP_FLAG_COMMAND_BADGE = 1 << 23


@dataclass
class RecordedRequest:
    """One REST call the bot made."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    code: int | None = None
    files: list[str] = field(default_factory=list)
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}" + (
            f" ({self.code})" if self.code else ""
        )


@dataclass
class CommandSync:
    """One bulk overwrite of application commands."""

    guild_id: int | None
    names: list[str]
    at: float = field(default_factory=time.monotonic)


@dataclass
class UploadedFile:
    """A ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class ApiCall:
    """A parsed REST request handed to a route handler."""

    method: str
    path: str
    params: dict[str, str]
    query: dict[str, str]
    body: Any
    files: list[UploadedFile]

    def json(self) -> dict[str, Any]:
        """The body as a JSON object."""
        if not isinstance(self.body, dict):
            raise DiscordAPIError(400, 50109, "The request body contains invalid JSON.")
        return self.body

    def int_param(self, name: str) -> int:
        """A snowflake path parameter."""
        try:
            return int(self.params[name])
        except ValueError:
            raise DiscordAPIError(
                400,
                50035,
                "Invalid Form Body",
                {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}},
            ) from None


Handler = Callable[[ApiCall], Awaitable[tuple[int, Any]]]


@dataclass
class Fault:
    """Answers Discord gives instead of doing a request (`FakeDiscord.inject`): a 429
    storm or a 5xx on one route, for `count` requests or until `until` (monotonic)."""

    method: str
    path: re.Pattern[str]
    status: int
    count: int | None
    until: float | None
    retry_after: float
    served: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.count is not None and self.served >= self.count:
            return False
        if self.until is not None and time.monotonic() >= self.until:
            return False
        return method == self.method and self.path.fullmatch(path) is not None

    def response(self) -> web.Response:
        self.served += 1
        if self.status != 429:
            return _json_response(self.status, {"message": "Server Error", "code": 0})
        body = {"message": "You are being rate limited.", "retry_after": self.retry_after}
        return web.Response(
            status=429,
            body=json.dumps({**body, "global": False}).encode(),
            headers={
                "Content-Type": "application/json",
                "Via": "1.1 google",  # discord.py takes a 429 without it for Cloudflare's ban
                "Retry-After": str(self.retry_after),
                "X-RateLimit-Scope": "user",
            },
        )


def _valid_shard(shard: Any) -> bool:
    """``[shard_id, shard_count]``, with 0 <= shard_id < shard_count."""
    return (
        isinstance(shard, list)
        and len(shard) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        and 0 <= shard[0] < shard[1]
    )


def _json_response(status: int, body: Any) -> web.Response:
    if status == 204:
        return web.Response(status=204)
    # Exactly "application/json": discord.py compares the header verbatim.
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )


class FakeDiscord(ScriptingMixin):
    """A tiny Discord: REST under ``/api/v10``, gateway at ``/gateway``, CDN for attachments.

    Build the world (``add_guild``/``add_role``/``add_channel``/``add_user``) before the bot
    connects (later changes are not pushed over the gateway, except a guild the bot joins:
    ``join_guild``); then drive it with
    :meth:`slash`, :meth:`click`, :meth:`submit_modal`, ... Guild text channels only: no DMs,
    threads or context-menu commands.
    """

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

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> Self:
        """Listen on a random free port of 127.0.0.1."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/", self._handle_gateway)
        app.router.add_get("/attachments/{channel}/{attachment}/{filename}", self._handle_cdn)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the HTTP server."""
        for conn in list(self.connections):
            await conn.ws.close(code=1001, message=b"fake discord stopping")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

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

    # -- world building ----------------------------------------------------------------------

    def guild_id_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake for a guild that Discord puts on shard ``shard_id`` of
        ``shard_count``: ``(guild_id >> 22) % shard_count`` (its creation millisecond)."""
        value = self.snowflake()
        ms = value >> 22
        return ((ms + (shard_id - ms) % shard_count) << 22) | (value & 0x3FFFFF)

    def add_guild(
        self,
        name: str,
        *,
        id: int | None = None,
        owner_id: int | None = None,
        locale: str = "en-US",
        features: Iterable[str] = (),
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
    ) -> FakeGuild:
        """Create a guild with @everyone, the bot as member and its managed role."""
        gid = id or self.snowflake()
        guild = FakeGuild(
            id=gid,
            name=name,
            owner_id=owner_id or self.app_owner.id,
            preferred_locale=locale,
            features=list(features),
        )
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, 0)
        bot_role = FakeRole(
            self.snowflake(),
            gid,
            self.bot_user.name,
            bot_permissions,
            1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, [bot_role.id])
        self.guilds[gid] = guild
        return guild

    async def join_guild(self, guild: FakeGuild) -> int:
        """The bot is added to ``guild`` (built after it connected): GUILD_CREATE as Discord
        sends it for a join, without ``unavailable``, so the client fires ``on_guild_join``.
        Returns how many sessions got it."""
        sent = 0
        for session in self.sessions_for(guild.id):
            if not session.has_intent(INTENT_GUILDS):
                continue
            members = None
            if not session.has_intent(INTENT_GUILD_MEMBERS):
                members = [guild.members[self.bot_user.id]]
            payload = guild.to_payload(members=members)
            del payload["unavailable"]
            await session.dispatch("GUILD_CREATE", payload)
            sent += 1
        return sent

    async def delete_channel(self, channel: FakeChannel | int) -> int:
        """A moderator deletes a channel: it, its threads and their messages disappear
        (later requests to them get 10003 Unknown Channel) and CHANNEL_DELETE goes to the
        guild's sessions (none for its threads: clients drop them with it). With no bot
        connected, the channel is just gone (deleted while the bot was away). Returns how
        many sessions got the event."""
        gone = self._channel_of(channel)
        guild = self.guilds[gone.guild_id]
        doomed = {gone.id} | {c.id for c in guild.channels.values() if c.parent_id == gone.id}
        for cid in doomed:
            guild.channels.pop(cid, None)
            self.channels.pop(cid, None)
        for msg in self.messages.values():
            if msg.channel_id in doomed:
                msg.deleted = True
        sessions = self.sessions_for(guild.id)
        for session in sessions:
            await session.dispatch("CHANNEL_DELETE", gone.to_payload())
        await self._notify()
        return len(sessions)

    async def remove_bot(self, guild: FakeGuild | int) -> int:
        """The bot is removed from a guild (kicked, or the server deleted): GUILD_DELETE
        without ``unavailable``. The guild is gone for the bot: its channels answer 403
        Missing Access. Returns how many sessions got the event."""
        g = self._guild_of(guild)
        self.guilds.pop(g.id, None)
        sessions = self.sessions_for(g.id)
        for session in sessions:
            await session.dispatch("GUILD_DELETE", {"id": str(g.id)})
        await self._notify()
        return len(sessions)

    async def guild_outage(self, guild: FakeGuild | int, *, back: bool = False) -> int:
        """A Discord outage: GUILD_DELETE with ``unavailable: true`` (the bot stays in the
        guild); ``back=True`` ends it with GUILD_CREATE (``unavailable: false``)."""
        g = self._guild_of(guild)
        sessions = self.sessions_for(g.id)
        for session in sessions:
            if back:
                members = None
                if not session.has_intent(INTENT_GUILD_MEMBERS):
                    members = [g.members[self.bot_user.id]]
                await session.dispatch("GUILD_CREATE", g.to_payload(members=members))
            else:
                await session.dispatch("GUILD_DELETE", {"id": str(g.id), "unavailable": True})
        await self._notify()
        return len(sessions)

    def _guild_of(self, guild: FakeGuild | int | None) -> FakeGuild:
        if guild is None:
            return self.guild
        return guild if isinstance(guild, FakeGuild) else self.guilds[guild]

    def add_role(
        self,
        name: str,
        *,
        guild: FakeGuild | int | None = None,
        permissions: int = 0,
        color: int = 0,
        id: int | None = None,
        hoist: bool = False,
        mentionable: bool = False,
    ) -> FakeRole:
        """Create a role (positioned above the existing ones)."""
        g = self._guild_of(guild)
        position = max((r.position for r in g.roles.values()), default=0) + 1
        role = FakeRole(
            id or self.snowflake(),
            g.id,
            name,
            permissions,
            position,
            color,
            hoist,
            mentionable,
        )
        g.roles[role.id] = role
        return role

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
    ) -> FakeChannel:
        """Create a channel (text by default; ``type=4`` for categories)."""
        g = self._guild_of(guild)
        channel = FakeChannel(
            id=id or self.snowflake(),
            guild_id=g.id,
            name=name,
            type=type,
            position=len(g.channels),
            topic=topic,
            parent_id=parent if isinstance(parent, int) or parent is None else parent.id,
            overwrites=list(overwrites),
        )
        g.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_bot_message(self, channel: FakeChannel | int, content: str) -> FakeMessage:
        """A message the bot posted before it (re)starts: a world built for a restart."""
        return self._create_message(self._channel_of(channel), {"content": content}, [])

    def add_user(
        self,
        id: int | None,
        name: str,
        *,
        locale: str = "en-US",
        roles: Iterable[FakeRole | int | str] = (),
        permissions: int = 0,
        guild: FakeGuild | int | None = None,
        nick: str | None = None,
        global_name: str | None = None,
        owner: bool = False,
        bot: bool = False,
    ) -> FakeUser:
        """Create a user and make them a member of ``guild`` (default guild).

        ``roles`` are roles, role ids or role names. ``permissions`` are extra bits granted via a
        personal role named ``"<name> perms"``, so the guild cache and interaction payloads agree.
        ``owner=True`` makes them the guild owner. ``locale`` is their client locale.
        """
        g = self._guild_of(guild)
        user = self.users.get(id) if id is not None else None
        if user is None:
            user = FakeUser(id or self.snowflake(), name, locale, global_name, bot)
            self.users[user.id] = user
        role_ids: list[int] = []
        for role in roles:
            if isinstance(role, FakeRole):
                role_ids.append(role.id)
            elif isinstance(role, str):
                role_ids.append(g.role(role).id)
            else:
                role_ids.append(role)
        if permissions:
            role_ids.append(self.add_role(f"{name} perms", guild=g, permissions=permissions).id)
        g.members[user.id] = FakeMember(user, g.id, role_ids, nick)
        if owner:
            g.owner_id = user.id
        return user

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

    def user(self, name: str) -> FakeUser:
        """User by name."""
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(name)

    def new_attachment(
        self,
        channel_id: int,
        filename: str,
        data: bytes,
        content_type: str | None = None,
        description: str | None = None,
        *,
        ephemeral: bool = False,
    ) -> FakeAttachment:
        """Store bytes on the fake CDN and return the attachment."""
        aid = self.snowflake()
        att = FakeAttachment(
            id=aid,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{quote(filename)}",
            content_type=content_type or mimetypes.guess_type(filename)[0],
            description=description,
            ephemeral=ephemeral,
        )
        self.attachments[aid] = att
        return att

    # -- inspection ----------------------------------------------------------------------------

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """Synced commands: global (``guild=None``) or of one guild."""
        if guild is None:
            return self.global_commands
        gid = guild if isinstance(guild, int) else guild.id
        return self.guild_commands.get(gid, [])

    def command(self, name: str, guild: FakeGuild | int | None = None) -> dict[str, Any]:
        """One synced top-level command by name (guild first, then global)."""
        return self.find_command(name, guild)[0]

    def channel_messages(
        self, channel: FakeChannel | int | None = None, *, visible_to: FakeUser | int | None = None
    ) -> list[FakeMessage]:
        """Live messages of a channel, oldest first (``visible_to`` filters ephemerals)."""
        cid = self._channel_of(channel).id
        uid = visible_to.id if isinstance(visible_to, FakeUser) else visible_to
        out = []
        for msg in self.messages.values():
            if msg.channel_id != cid or msg.deleted:
                continue
            if uid is not None and not msg.visible_to(uid):
                continue
            out.append(msg)
        return out

    def last_message(self, channel: FakeChannel | int | None = None) -> FakeMessage | None:
        """Newest non-ephemeral message in a channel."""
        msgs = [m for m in self.channel_messages(channel) if m.ephemeral_for is None]
        return msgs[-1] if msgs else None

    def assert_no_unexpected(self) -> None:
        """Fail if the bot called routes the fake does not implement, or the fake crashed."""
        if self.server_errors:
            raise AssertionError("FakeDiscord raised:\n" + "\n".join(self.server_errors))
        if self.unexpected:
            calls = "\n  ".join(str(r) for r in self.unexpected)
            raise AssertionError(f"bot made unexpected Discord API calls:\n  {calls}")

    # -- waiting -------------------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(
        self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = ""
    ) -> None:
        """Wait until ``predicate()`` holds; re-checked whenever the fake's state changes."""
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
            except TimeoutError:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}") from None

    async def wait_for_message(
        self,
        channel: FakeChannel | int | None = None,
        predicate: Callable[[FakeMessage], bool] | None = None,
        *,
        timeout: float = 5.0,
    ) -> FakeMessage:
        """First live message in ``channel`` matching ``predicate`` (existing or future)."""
        found: list[FakeMessage] = []

        def check() -> bool:
            for msg in self.channel_messages(channel):
                if predicate is None or predicate(msg):
                    found.append(msg)
                    return True
            return False

        await self.wait_until(check, timeout, "a matching message")
        return found[0]

    async def wait_for_sync(self, count: int = 1, timeout: float = 5.0) -> CommandSync:
        """Wait until the bot synced commands ``count`` times; returns the last sync."""
        await self.wait_until(lambda: len(self.command_syncs) >= count, timeout, "command sync")
        return self.command_syncs[-1]

    # -- gateway -------------------------------------------------------------------------------

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """The sessions Discord sends this guild's events to: those of its shard (an
        unsharded session has them all; events outside a guild go to shard 0)."""
        return [s for s in list(self.sessions.values()) if s.serves(guild_id)]

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send a DISPATCH to every session of the event's guild's shard (every session for
        an unsharded bot); returns how many got it."""
        if not self.sessions:
            raise RuntimeError(f"cannot dispatch {event}: no gateway session (bot not connected?)")
        guild_id = data.get("guild_id")
        sessions = self.sessions_for(None if guild_id is None else int(guild_id))
        for session in sessions:
            await session.dispatch(event, data)
        return len(sessions)

    def expire_token(self, interaction: InteractionResult | FakeInteraction) -> None:
        """Jump past the 15-minute interaction token lifetime (webhook calls get 401/50027)."""
        inter = (
            interaction.interaction if isinstance(interaction, InteractionResult) else interaction
        )
        inter.token_expired = True

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the client should come back with RESUME."""
        for session in self.sessions.values():
            if session.connection is not None:
                await session.connection.send_op(OP_RECONNECT, None)

    async def invalidate_sessions(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION (discord.py sleeps 5 s before re-identifying)."""
        for conn in list(self.connections):
            await conn.send_op(OP_INVALID_SESSION, resumable)
            if not resumable and conn.session is not None:
                self.sessions.pop(conn.session.session_id, None)

    # -- what moderators and Discord do to a bot (issue 30) ------------------------------------

    async def delete_message(self, message: FakeMessage | int) -> None:
        """A moderator deletes a message: gone, and MESSAGE_DELETE dispatched."""
        msg = self.messages[message if isinstance(message, int) else message.id]
        msg.deleted = True
        await self._message_event("MESSAGE_DELETE", msg)
        await self._notify()

    async def delete_thread(self, thread: FakeChannel | int) -> None:
        """A moderator deletes a thread (its messages with it): THREAD_DELETE dispatched."""
        channel = self._channel_of(thread)
        for msg in self.channel_messages(channel):
            msg.deleted = True
        del self.channels[channel.id]
        self.guilds[channel.guild_id].channels.pop(channel.id, None)
        data = {
            "id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "parent_id": str(channel.parent_id),
            "type": channel.type,
        }
        await self.dispatch("THREAD_DELETE", data)
        await self._notify()

    async def lock_thread(self, thread: FakeChannel | int) -> None:
        """A moderator archives and locks a thread: posts in it get 400 50083."""
        channel = self._channel_of(thread)
        channel.archived = channel.locked = True
        await self.dispatch("THREAD_UPDATE", channel.to_payload())

    async def set_permissions(
        self, channel: FakeChannel | int, overwrites: Iterable[Overwrite]
    ) -> None:
        """A moderator changes a channel's permission overwrites: CHANNEL_UPDATE."""
        found = self._channel_of(channel)
        found.overwrites = list(overwrites)
        await self.dispatch("CHANNEL_UPDATE", found.to_payload())

    async def set_role_permissions(self, role: FakeRole, permissions: int) -> None:
        """An administrator changes a role's permissions: GUILD_ROLE_UPDATE."""
        role.permissions = permissions
        data = {"guild_id": str(role.guild_id), "role": role.to_payload()}
        await self.dispatch("GUILD_ROLE_UPDATE", data)

    def inject(
        self,
        method: str,
        path: str,
        status: int = 429,
        *,
        count: int | None = None,
        seconds: float | None = None,
        retry_after: float = 1.5,
    ) -> Fault:
        """Answer `status` to `method` requests whose path matches the regex `path` (e.g.
        ``/channels/\\d+/messages/\\d+``), `count` times or for `seconds`: a 429 storm
        (with `retry_after`) or a 5xx."""
        until = None if seconds is None else time.monotonic() + seconds
        fault = Fault(method, re.compile(path), status, count, until, retry_after)
        self.faults.append(fault)
        return fault

    def _fault_for(self, method: str, path: str) -> Fault | None:
        return next((f for f in self.faults if f.matches(method, path)), None)

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        # Decline permessage-deflate (discord.py offers it); compression is ?compress=.
        ws = web.WebSocketResponse(compress=False, max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        conn = GatewayConnection(ws, compress)
        self.connections.append(conn)
        self.gateway_connects += 1
        try:
            if request.query.get("encoding", "json") != "json":
                await ws.close(code=4002, message=b"Error while decoding payload.")
                return ws
            if request.query.get("v", "10") != "10":
                await ws.close(code=4012, message=b"Invalid API version.")
                return ws
            if compress not in (None, "zlib-stream", "zstd-stream"):
                await ws.close(code=4002, message=b"Unsupported compression.")
                return ws
            hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake-gateway"]}
            await conn.send_op(OP_HELLO, hello)
            async for msg in ws:
                if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                data = json.loads(msg.data)
                self.gateway_received.append(data)
                try:
                    await self._on_gateway_op(conn, data)
                except Exception:
                    self.server_errors.append(traceback.format_exc())
        finally:
            self.connections.remove(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if ws.close_code in (1000, 1001):
                    self.sessions.pop(session.session_id, None)
            await self._notify()
        return ws

    async def _on_gateway_op(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        op = data.get("op")
        d = data.get("d")
        if op == OP_HEARTBEAT:
            await conn.send_op(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            await self._resume(conn, d or {})
        elif conn.session is None:
            await conn.ws.close(code=4003, message=b"Not authenticated.")
        elif op == OP_PRESENCE:
            conn.session.presence = d
        elif op == OP_REQUEST_MEMBERS:
            await self._member_chunk(conn.session, d or {})
        elif op == OP_VOICE_STATE:
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")
        await self._notify()

    def _token_ok(self, token: str | None) -> bool:
        if not token:
            return False
        return self.expected_token is None or token == self.expected_token

    async def _identify(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not self.allow_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None and not _valid_shard(shard):
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if shard is not None:  # a new session for a shard replaces its dead one (kill -9)
            for old in list(self.sessions.values()):
                if old.shard == shard and old.connection is None:
                    self.sessions.pop(old.session_id, None)
        session = GatewaySession(token=d["token"], intents=intents, shard=shard)
        session.connection = conn
        conn.session = session
        self.sessions[session.session_id] = session
        self.identify_count += 1
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.to_payload(), "verified": True, "mfa_enabled": False},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self.guilds if session.serves(g)
            ],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fake"],
            "user_settings": {},
            "_trace": ["fake-gateway"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await session.dispatch("READY", ready)
        if session.has_intent(INTENT_GUILDS):
            for guild in [g for g in self.guilds.values() if session.serves(g.id)]:
                members = None
                if not session.has_intent(INTENT_GUILD_MEMBERS):
                    members = [guild.members[self.bot_user.id]]
                await session.dispatch("GUILD_CREATE", guild.to_payload(members=members))

    async def _resume(self, conn: GatewayConnection, d: dict[str, Any]) -> None:
        session = self.sessions.get(d.get("session_id", ""))
        if session is None or session.token != d.get("token"):
            await conn.send_op(OP_INVALID_SESSION, False)
            return
        session.connection = conn
        conn.session = session
        self.resume_count += 1
        await session.replay(int(d.get("seq") or 0))
        await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})

    async def _member_chunk(self, session: GatewaySession, d: dict[str, Any]) -> None:
        guild = self.guilds.get(int(d.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        wanted = [int(u) for u in d.get("user_ids") or []]
        if wanted:
            members = [m for m in members if m.id in wanted]
        elif d.get("query"):
            query = str(d["query"]).lower()
            members = [m for m in members if m.user.name.lower().startswith(query)]
        limit = int(d.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted if u not in guild.members],
        }
        if d.get("nonce"):
            chunk["nonce"] = d["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    @property
    def application_flags(self) -> int:
        """Application flags as the app would have them with/without privileged intents."""
        flags = _APP_FLAG_COMMAND_BADGE
        if self.allow_privileged_intents:
            flags |= _APP_FLAGS_PRIVILEGED
        return flags

    async def _message_event(self, event: str, msg: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for non-ephemeral messages, honouring intents."""
        if msg.ephemeral_for is not None:
            return
        guild = self.guilds.get(msg.guild_id or 0)
        member = guild.members.get(msg.author.id) if guild else None
        for session in self.sessions_for(msg.guild_id):
            if not session.has_intent(INTENT_GUILD_MESSAGES):
                continue
            if event == "MESSAGE_DELETE":
                data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
                if msg.guild_id:
                    data["guild_id"] = str(msg.guild_id)
            else:
                data = msg.to_payload(member=member)
                mentioned = self.bot_user.mention in msg.content
                privileged = session.has_intent(INTENT_MESSAGE_CONTENT)
                if msg.author.id != self.bot_user.id and not privileged and not mentioned:
                    data.update(content="", embeds=[], attachments=[], components=[])
            await session.dispatch(event, data)

    # -- REST plumbing -------------------------------------------------------------------------

    def _route(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, handler, auth))

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me)
        r("GET", "/users/{user}", self._get_user)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/oauth2/applications/@me", self._get_application)
        for prefix in ("/applications/{app}", "/applications/{app}/guilds/{guild}"):
            r("GET", f"{prefix}/commands", self._get_commands)
            r("PUT", f"{prefix}/commands", self._put_commands)
            r("POST", f"{prefix}/commands", self._post_command)
            r("GET", f"{prefix}/commands/{{command}}", self._get_command)
            r("DELETE", f"{prefix}/commands/{{command}}", self._delete_command)
        r("POST", "/interactions/{interaction}/{token}/callback", self._callback, auth=False)
        r("POST", "/webhooks/{app}/{token}", self._execute_webhook, auth=False)
        for method in ("GET", "PATCH", "DELETE"):
            r(
                method,
                "/webhooks/{app}/{token}/messages/{message}",
                self._webhook_message,
                auth=False,
            )
        r("GET", "/channels/{channel}", self._get_channel)
        r("PATCH", "/channels/{channel}", self._patch_channel)
        r("POST", "/channels/{channel}/messages/{message}/threads", self._start_thread)
        r("POST", "/channels/{channel}/threads", self._start_thread_alone)
        r("POST", "/channels/{channel}/typing", self._typing)
        r("GET", "/channels/{channel}/messages", self._get_messages)
        r("POST", "/channels/{channel}/messages", self._post_message)
        for method in ("GET", "PATCH", "DELETE"):
            r(method, "/channels/{channel}/messages/{message}", self._channel_message)
        r("GET", "/guilds/{guild}", self._get_guild)
        r("GET", "/guilds/{guild}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild}/roles", self._get_guild_roles)
        r("GET", "/guilds/{guild}/members/{user}", self._get_member)

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or not self._token_ok(auth[4:]):
            raise DiscordAPIError(401, 0, "401: Unauthorized")

    async def _parse_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            raw = form.get("payload_json")
            body = json.loads(raw) if isinstance(raw, str) else None
            files: list[UploadedFile] = []
            for key, value in form.items():
                m = re.fullmatch(r"files\[(\d+)\]", key)
                if m and isinstance(value, web.FileField):
                    data = value.file.read()
                    if len(data) > MAX_UPLOAD_BYTES:
                        raise DiscordAPIError(413, 40005, "Request entity too large")
                    ctype = mimetypes.guess_type(value.filename)[0] or value.content_type
                    files.append(UploadedFile(int(m[1]), value.filename, data, ctype))
            return body, sorted(files, key=lambda f: f.index)
        if request.body_exists:
            text = await request.text()
            if text:
                try:
                    return json.loads(text), []
                except json.JSONDecodeError:
                    raise DiscordAPIError(
                        400, 50109, "The request body contains invalid JSON."
                    ) from None
        return None, []

    async def _handle_api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        record = RecordedRequest(request.method, path, dict(request.query), None)
        self.requests.append(record)
        if (fault := self._fault_for(request.method, path)) is not None:
            record.status = fault.status
            await self._notify()
            return fault.response()
        limit_headers: dict[str, str] = {}
        if self.rate_limits is not None:
            refused, limit_headers = self.rate_limits.check(request.method, path)
            if refused is not None:
                record.status = 429
                await self._notify()
                return refused
        try:
            record.body, files = await self._parse_body(request)
            record.files = [f.filename for f in files]
            path_known = False
            for method, regex, handler, auth in self._routes:
                m = regex.match(path)
                if m is None:
                    continue
                path_known = True
                if method != request.method:
                    continue
                if auth:
                    self._check_auth(request)
                call = ApiCall(
                    request.method, path, m.groupdict(), record.query, record.body, files
                )
                status, body = await handler(call)
                break
            else:
                self.unexpected.append(record)
                if path_known:
                    raise DiscordAPIError(405, 0, "405: Method Not Allowed")
                raise DiscordAPIError(404, 0, "404: Not Found")
        except DiscordAPIError as exc:
            status, body = exc.status, exc.to_body()
            record.code = exc.code
        except Exception as exc:  # a fake bug: answer 400, since discord.py retries 5xx slowly
            self.server_errors.append(traceback.format_exc())
            status, body = 400, {"message": f"FakeDiscord bug: {exc!r}", "code": 0}
        record.status = status
        await self._notify()
        response = _json_response(status, body)
        response.headers.update(limit_headers)
        return response

    async def _handle_cdn(self, request: web.Request) -> web.Response:
        att = self.attachments.get(int(request.match_info["attachment"]))
        if att is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # -- REST: identity ------------------------------------------------------------------------

    async def _get_me(self, call: ApiCall) -> tuple[int, Any]:
        me = self.bot_user.to_payload()
        me.update(verified=True, mfa_enabled=False, locale="en-US", email=None, premium_type=0)
        return 200, me

    async def _get_user(self, call: ApiCall) -> tuple[int, Any]:
        user = self.users.get(call.int_param("user"))
        if user is None:
            raise not_found(10013, "User")
        return 200, user.to_payload()

    async def _get_gateway(self, call: ApiCall) -> tuple[int, Any]:
        return 200, {"url": self.gateway_url}

    async def _get_gateway_bot(self, call: ApiCall) -> tuple[int, Any]:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return 200, {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": limit,
        }

    async def _get_application(self, call: ApiCall) -> tuple[int, Any]:
        return 200, {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.app_owner.to_payload(),
            "team": None,
            "flags": self.application_flags,
            "bot": self.bot_user.to_payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(self.guilds),
        }

    # -- REST: application commands ------------------------------------------------------------

    def _command_scope(self, call: ApiCall) -> tuple[int | None, list[dict[str, Any]]]:
        if call.int_param("app") != self.application_id:
            raise DiscordAPIError(403, 50001, "Missing Access")
        if "guild" not in call.params:
            return None, self.global_commands
        gid = call.int_param("guild")
        if gid not in self.guilds:
            raise DiscordAPIError(403, 50001, "Missing Access")
        return gid, self.guild_commands.setdefault(gid, [])

    def _stored_command(
        self, cmd: dict[str, Any], guild_id: int | None, old: dict[str, Any] | None
    ) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": [0],
            "contexts": None,
            "name_localizations": None,
            "description_localizations": None,
            **cmd,
            "id": old["id"] if old else str(self.snowflake()),
            "application_id": str(self.application_id),
        }
        if stored["default_member_permissions"] is not None:  # Discord answers with a string
            stored["default_member_permissions"] = str(int(stored["default_member_permissions"]))
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        changed = old is None or {k: v for k, v in old.items() if k != "version"} != stored
        stored["version"] = str(self.snowflake()) if changed or old is None else old["version"]
        return stored

    async def _get_commands(self, call: ApiCall) -> tuple[int, Any]:
        _, cmds = self._command_scope(call)
        return 200, cmds

    async def _put_commands(self, call: ApiCall) -> tuple[int, Any]:
        gid, current = self._command_scope(call)
        body = call.body
        if not isinstance(body, list):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        validate_commands(body)
        existing = {(int(c.get("type", 1)), c["name"]): c for c in current}
        stored = [
            self._stored_command(cmd, gid, existing.get((int(cmd.get("type", 1)), cmd["name"])))
            for cmd in body
        ]
        current[:] = stored
        self.command_syncs.append(CommandSync(gid, [c["name"] for c in stored]))
        return 200, stored

    async def _post_command(self, call: ApiCall) -> tuple[int, Any]:
        gid, current = self._command_scope(call)
        cmd = call.json()
        validate_commands([cmd])
        key = (int(cmd.get("type", 1)), cmd["name"])
        for i, old in enumerate(current):
            if (int(old.get("type", 1)), old["name"]) == key:
                current[i] = self._stored_command(cmd, gid, old)
                return 200, current[i]
        current.append(self._stored_command(cmd, gid, None))
        return 201, current[-1]

    async def _get_command(self, call: ApiCall) -> tuple[int, Any]:
        _, current = self._command_scope(call)
        for cmd in current:
            if cmd["id"] == call.params["command"]:
                return 200, cmd
        raise not_found(10063, "application command")

    async def _delete_command(self, call: ApiCall) -> tuple[int, Any]:
        _, current = self._command_scope(call)
        for cmd in current:
            if cmd["id"] == call.params["command"]:
                current.remove(cmd)
                return 204, None
        raise not_found(10063, "application command")

    # -- REST: messages (shared) ---------------------------------------------------------------

    def _new_attachments(
        self,
        channel_id: int,
        current: list[FakeAttachment],
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        ephemeral: bool,
    ) -> list[FakeAttachment]:
        """Resolve the ``attachments`` array: keep listed existing ones, add uploads."""
        pending = {f.index: f for f in files}

        def upload(f: UploadedFile, meta: dict[str, Any]) -> FakeAttachment:
            return self.new_attachment(
                channel_id,
                meta.get("filename") or f.filename,
                f.data,
                f.content_type,
                meta.get("description"),
                ephemeral=ephemeral,
            )

        if body.get("attachments") is None:
            return current + [upload(f, {}) for f in files]
        result: list[FakeAttachment] = []
        for entry in body["attachments"]:
            aid = int(entry["id"])
            if aid in pending:
                result.append(upload(pending.pop(aid), entry))
                continue
            kept = next((a for a in current if a.id == aid), None)
            if kept is None:
                raise DiscordAPIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"attachments": {"_errors": [{"code": "ATTACHMENT_NOT_FOUND"}]}},
                )
            result.append(kept)
        return result + [upload(f, {}) for f in pending.values()]

    def _store_message(self, msg: FakeMessage) -> None:
        self.messages[msg.id] = msg
        chan = self.channels.get(msg.channel_id)
        if chan is not None and msg.ephemeral_for is None:
            chan.last_message_id = msg.id

    def _create_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        inter: FakeInteraction | None = None,
        flags: int | None = None,
        msg_type: int = 0,
    ) -> FakeMessage:
        validate_message(body, has_files=bool(files), creating=True)
        if flags is None:
            flags = int(body.get("flags") or 0) & _CREATE_FLAGS
            if inter is None:
                flags &= ~FLAG_EPHEMERAL
        ephemeral_for = inter.user_id if inter is not None and flags & FLAG_EPHEMERAL else None
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=str(body.get("content") or ""),
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            flags=flags,
            type=msg_type,
            ephemeral_for=ephemeral_for,
        )
        if body.get("message_reference"):
            msg.message_reference = body["message_reference"]
            msg.type = 19
        if inter is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_metadata = self._interaction_metadata(inter)
        msg.attachments = self._new_attachments(
            channel.id, [], body, files, ephemeral=ephemeral_for is not None
        )
        self._store_message(msg)
        return msg

    def _edit_message(
        self,
        msg: FakeMessage,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        fill_deferred: bool = False,
    ) -> FakeMessage:
        validate_message(body, has_files=bool(files), creating=False)
        content = str(body.get("content") or "") if "content" in body else msg.content
        embeds = list(body.get("embeds") or []) if "embeds" in body else msg.embeds
        comps = list(body.get("components") or []) if "components" in body else msg.components
        attachments = self._new_attachments(
            msg.channel_id, msg.attachments, body, files, ephemeral=msg.ephemeral_for is not None
        )
        flags = msg.flags & ~FLAG_LOADING
        if "flags" in body and body["flags"] is not None:
            wanted = int(body["flags"])
            flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (wanted & FLAG_SUPPRESS_EMBEDS)
            flags |= wanted & FLAG_COMPONENTS_V2
        if not (content.strip() or embeds or comps or attachments):
            raise DiscordAPIError(400, 50006, "Cannot send an empty message")
        msg.history.append(msg.snapshot())
        msg.content, msg.embeds, msg.components = content, embeds, comps
        msg.attachments, msg.flags = attachments, flags
        if not fill_deferred:
            msg.edit_count += 1
            msg.edited_at = now()
        return msg

    def _interaction_metadata(self, inter: FakeInteraction) -> dict[str, Any]:
        user = self.users[inter.user_id]
        meta: dict[str, Any] = {
            "id": str(inter.id),
            "type": inter.type,
            "user": user.to_payload(),
            "authorizing_integration_owners": {"0": str(inter.guild_id)},
        }
        if inter.type == APPLICATION_COMMAND:
            meta["name"] = inter.name
            meta["command_type"] = 1
        if inter.source_message_id is not None:
            meta["interacted_message_id"] = str(inter.source_message_id)
        if inter.original_message_id is not None:
            meta["original_response_message_id"] = str(inter.original_message_id)
        return meta

    # -- REST: interaction callbacks -----------------------------------------------------------

    async def _callback(self, call: ApiCall) -> tuple[int, Any]:
        at = time.monotonic()
        inter = self.interactions.get(call.int_param("interaction"))
        if inter is None or inter.token != call.params["token"]:
            raise not_found(10062, "interaction")
        body = call.json()
        rtype = body.get("type")
        try:
            if inter.response_type is not None:
                raise DiscordAPIError(400, 40060, "Interaction has already been acknowledged.")
            if at - inter.dispatched_at > self.interaction_deadline:
                raise not_found(10062, "interaction")
            if rtype not in ALLOWED_CALLBACKS.get(inter.type, set()):
                raise DiscordAPIError(
                    400,
                    50035,
                    "Invalid Form Body",
                    {"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID"}]}},
                )
            resource = await self._apply_callback(inter, int(rtype), body.get("data") or {}, call)
        except DiscordAPIError as exc:
            inter.attempts.append(CallbackAttempt(at, exc.status, exc.code, rtype, exc.message))
            raise
        inter.attempts.append(CallbackAttempt(at, 200, None, rtype, "ok"))
        inter.response_type = int(rtype)
        inter.response_data = body.get("data") or {}
        inter.responded_at = at
        self.latencies.append(
            LatencyRecord(inter.kind, inter.name, at - inter.dispatched_at, rtype)
        )
        msg = self.messages.get(inter.original_message_id or 0)
        response: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": rtype == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(msg and msg.ephemeral),
            }
        }
        if msg is not None and rtype != AUTOCOMPLETE_RESULT:
            response["interaction"]["response_message_id"] = str(msg.id)
        if resource is not None:
            response["resource"] = resource
        return 200, response

    async def _apply_callback(
        self, inter: FakeInteraction, rtype: int, data: dict[str, Any], call: ApiCall
    ) -> dict[str, Any] | None:
        channel = self.channels[inter.channel_id]
        if rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0) & _CREATE_FLAGS
            msg_type = 20 if inter.type == APPLICATION_COMMAND else 0
            if rtype == DEFERRED_CHANNEL_MESSAGE:
                flags = (flags & FLAG_EPHEMERAL) | FLAG_LOADING
                msg = FakeMessage(
                    id=self.snowflake(),
                    channel_id=channel.id,
                    guild_id=channel.guild_id,
                    author=self.bot_user,
                    flags=flags,
                    type=msg_type,
                    webhook_id=self.application_id,
                    application_id=self.application_id,
                    interaction_metadata=self._interaction_metadata(inter),
                    ephemeral_for=inter.user_id if flags & FLAG_EPHEMERAL else None,
                )
                self._store_message(msg)
            else:
                msg = self._create_message(
                    channel, data, call.files, inter=inter, flags=flags, msg_type=msg_type
                )
            inter.original_message_id = msg.id
            await self._message_event("MESSAGE_CREATE", msg)
            return {"type": rtype, "message": msg.to_payload()}
        if rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            source = self.messages.get(inter.source_message_id or 0)
            if source is None:
                raise not_found(10008, "Message")
            inter.original_message_id = source.id
            if rtype == UPDATE_MESSAGE:
                self._edit_message(source, data, call.files)
                await self._message_event("MESSAGE_UPDATE", source)
                return {"type": rtype, "message": source.to_payload()}
            return {"type": rtype}
        if rtype == AUTOCOMPLETE_RESULT:
            validate_choices(data)
            inter.choices = list(data.get("choices") or [])
            return None
        validate_modal(data)
        inter.modal = FakeModal(data["custom_id"], data["title"], list(data["components"]))
        return {"type": rtype}

    # -- REST: interaction webhooks ------------------------------------------------------------

    def _webhook_interaction(self, call: ApiCall) -> FakeInteraction:
        inter = self._token_index().get(call.params["token"])
        if inter is None or call.int_param("app") != self.application_id:
            raise not_found(10015, "Webhook")
        if not inter.acknowledged:
            raise not_found(10015, "Webhook")
        if inter.token_expired or time.monotonic() - inter.dispatched_at > WEBHOOK_TOKEN_LIFETIME:
            raise DiscordAPIError(401, 50027, "Invalid Webhook Token")
        return inter

    def _token_index(self) -> dict[str, FakeInteraction]:
        if len(self._by_token) != len(self.interactions):
            self._by_token = {i.token: i for i in self.interactions.values()}
        return self._by_token

    async def _execute_webhook(self, call: ApiCall) -> tuple[int, Any]:
        inter = self._webhook_interaction(call)
        body = call.json()
        original = self.messages.get(inter.original_message_id or 0)
        if (
            inter.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
        ):
            # The first follow-up after a "thinking" defer replaces the loading message.
            msg = self._edit_message(original, body, call.files, fill_deferred=True)
            event = "MESSAGE_UPDATE"
        else:
            channel = self.channels[inter.channel_id]
            msg = self._create_message(channel, body, call.files, inter=inter)
            event = "MESSAGE_CREATE"
        inter.followup_ids.append(msg.id)
        await self._message_event(event, msg)
        if call.query.get("wait", "").lower() in ("1", "true"):
            return 200, msg.to_payload()
        return 204, None

    async def _webhook_message(self, call: ApiCall) -> tuple[int, Any]:
        inter = self._webhook_interaction(call)
        ref = call.params["message"]
        mid = inter.original_message_id if ref == "@original" else int(ref)
        if mid is None or (mid != inter.original_message_id and mid not in inter.followup_ids):
            raise not_found(10008, "Message")
        msg = self.messages.get(mid)
        if msg is None or msg.deleted:
            raise not_found(10008, "Message")
        if call.method == "GET":
            return 200, msg.to_payload()
        if call.method == "DELETE":
            msg.deleted = True
            await self._message_event("MESSAGE_DELETE", msg)
            return 204, None
        fill = msg.loading
        self._edit_message(msg, call.json(), call.files, fill_deferred=fill)
        await self._message_event("MESSAGE_UPDATE", msg)
        return 200, msg.to_payload()

    # -- REST: channels & guilds ----------------------------------------------------------------

    def _channel_for(self, call: ApiCall) -> FakeChannel:
        channel = self.channels.get(call.int_param("channel"))
        if channel is None:
            raise not_found(10003, "Channel")
        guild = self.guilds.get(channel.guild_id)
        if guild is None:  # the bot was removed from its guild (`remove_bot`)
            raise DiscordAPIError(403, 50001, "Missing Access")
        if not guild.channel_permissions(self.bot_user.id, channel.id) & VIEW_CHANNEL:
            raise DiscordAPIError(403, 50001, "Missing Access")
        return channel

    def _bot_perms(self, channel: FakeChannel) -> int:
        return self.guilds[channel.guild_id].channel_permissions(self.bot_user.id, channel.id)

    async def _get_channel(self, call: ApiCall) -> tuple[int, Any]:
        return 200, self._channel_for(call).to_payload()

    async def _start_thread(self, call: ApiCall) -> tuple[int, Any]:
        """A public thread started from a message: it takes the message's id."""
        channel = self._channel_for(call)
        if not self._bot_perms(channel) & CREATE_PUBLIC_THREADS:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        msg = self.messages.get(call.int_param("message"))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_for:
            raise not_found(10008, "Message")
        if msg.id in self.channels:
            raise DiscordAPIError(400, 160004, "A thread has already been created for this message")
        body = call.json() or {}
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {"name": {"_errors": []}})
        if body.get("auto_archive_duration", 1440) not in (60, 1440, 4320, 10080):
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        thread = self.add_channel(name, guild=channel.guild_id, type=11, parent=channel, id=msg.id)
        thread.owner_id = self.bot_user.id
        thread.auto_archive_duration = int(body.get("auto_archive_duration", 1440))
        return 201, thread.to_payload()

    async def _start_thread_alone(self, call: ApiCall) -> tuple[int, Any]:
        """A public thread started from no message (type 11 only)."""
        channel = self._channel_for(call)
        if not self._bot_perms(channel) & CREATE_PUBLIC_THREADS:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        body = call.json()
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100 or body.get("type") != 11:
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        thread = self.add_channel(name, guild=channel.guild_id, type=11, parent=channel)
        thread.owner_id = self.bot_user.id
        thread.auto_archive_duration = int(body.get("auto_archive_duration", 1440))
        return 201, thread.to_payload()

    async def _patch_channel(self, call: ApiCall) -> tuple[int, Any]:
        """Only what the bot does to a channel: archive (or reopen) its own thread."""
        channel = self._channel_for(call)
        body = call.json() or {}
        if not channel.is_thread or set(body) - {"archived", "locked"}:
            raise DiscordAPIError(400, 50035, "Invalid Form Body")
        if channel.owner_id != self.bot_user.id and not self._bot_perms(channel) & MANAGE_THREADS:
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        channel.archived = bool(body.get("archived", channel.archived))
        return 200, channel.to_payload()

    async def _typing(self, call: ApiCall) -> tuple[int, Any]:
        self._channel_for(call)
        return 204, None

    async def _get_messages(self, call: ApiCall) -> tuple[int, Any]:
        channel = self._channel_for(call)
        msgs = [m for m in self.channel_messages(channel) if m.ephemeral_for is None]
        if "before" in call.query:
            msgs = [m for m in msgs if m.id < int(call.query["before"])]
        if "after" in call.query:
            msgs = [m for m in msgs if m.id > int(call.query["after"])]
        limit = max(1, min(100, int(call.query.get("limit", 50))))
        newest_first = list(reversed(msgs))
        if "after" in call.query:
            newest_first = list(reversed(msgs[:limit]))
        return 200, [m.to_payload() for m in newest_first[:limit]]

    async def _post_message(self, call: ApiCall) -> tuple[int, Any]:
        channel = self._channel_for(call)
        perms = self._bot_perms(channel)
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if not perms & needed or (call.files and not perms & ATTACH_FILES):
            raise DiscordAPIError(403, 50013, "Missing Permissions")
        if channel.locked:
            raise DiscordAPIError(400, 50083, "Thread is archived")
        channel.archived = False  # a message unarchives a thread that is not locked
        body = call.json()
        nonce = body.get("nonce")
        if nonce is not None and len(str(nonce)) > 25:
            raise DiscordAPIError(400, 50035, "Invalid Form Body", {"nonce": {"_errors": []}})
        key = (channel.id, str(nonce))
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: the same author and nonce within a few minutes returns the message
            # already created instead of a second one.
            known = self.messages.get(self._nonces.get(key, 0))
            if known is not None and not known.deleted and now() - known.created_at < NONCE_TTL:
                return 200, known.to_payload()
        msg = self._create_message(channel, body, call.files)
        if nonce is not None:
            self._nonces[key] = msg.id
        await self._message_event("MESSAGE_CREATE", msg)
        return 200, msg.to_payload()

    async def _channel_message(self, call: ApiCall) -> tuple[int, Any]:
        channel = self._channel_for(call)
        msg = self.messages.get(call.int_param("message"))
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral_for:
            raise not_found(10008, "Message")
        if call.method == "GET":
            return 200, msg.to_payload()
        if call.method == "DELETE":
            own = msg.author.id == self.bot_user.id
            if not own and not self._bot_perms(channel) & MANAGE_MESSAGES:
                raise DiscordAPIError(403, 50013, "Missing Permissions")
            msg.deleted = True
            await self._message_event("MESSAGE_DELETE", msg)
            return 204, None
        if msg.author.id != self.bot_user.id:
            raise DiscordAPIError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, call.json(), call.files)
        await self._message_event("MESSAGE_UPDATE", msg)
        return 200, msg.to_payload()

    def _guild_for(self, call: ApiCall) -> FakeGuild:
        guild = self.guilds.get(call.int_param("guild"))
        if guild is None:
            raise not_found(10004, "Guild")
        return guild

    async def _get_guild(self, call: ApiCall) -> tuple[int, Any]:
        payload = self._guild_for(call).to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            payload.pop(key, None)
        return 200, payload

    async def _get_guild_channels(self, call: ApiCall) -> tuple[int, Any]:
        return 200, [c.to_payload() for c in self._guild_for(call).channels.values()]

    async def _get_guild_roles(self, call: ApiCall) -> tuple[int, Any]:
        return 200, [r.to_payload() for r in self._guild_for(call).roles.values()]

    async def _get_member(self, call: ApiCall) -> tuple[int, Any]:
        member = self._guild_for(call).members.get(call.int_param("user"))
        if member is None:
            raise not_found(10007, "Member")
        return 200, member.to_payload()
