"""Scripting API: act as Discord users (slash commands, clicks, modals, autocomplete)."""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from .models import (
    ADMINISTRATOR,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    walk_components,
)

if TYPE_CHECKING:
    from .gateway import GatewaySession
    from .server import FakeDiscord

# Interaction types.
PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Interaction callback (response) types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Application command option types.
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

_SELECT_TYPES = (3, 5, 6, 7, 8)

UserLike = FakeUser | FakeMember | int
ChannelLike = FakeChannel | int


class InteractionRejected(Exception):
    """The Discord client itself would not send this interaction.

    Raised for unknown/unsynced commands, missing permissions (``default_member_permissions``),
    missing required options, values outside choices/limits, clicking invisible or disabled
    components, or submitting a modal without its required fields.
    """


class NoResponse(AssertionError):
    """The bot did not acknowledge an interaction in time ("The application did not respond")."""


@dataclass
class Upload:
    """A file a user uploads through an ATTACHMENT option or a modal file upload."""

    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass
class CallbackAttempt:
    """One POST to ``/interactions/{id}/{token}/callback`` and what the fake answered."""

    at: float
    status: int
    code: int | None
    response_type: int | None
    message: str


@dataclass
class LatencyRecord:
    """Time from INTERACTION_CREATE dispatch to the bot's (successful) callback."""

    kind: str
    name: str
    seconds: float
    response_type: int


@dataclass
class FakeModal:
    """A modal the bot opened (callback type 9)."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]

    def fields(self) -> list[dict[str, Any]]:
        """The input components (text inputs, selects, uploads, checkboxes...)."""
        return [c for c in walk_components(self.components) if "custom_id" in c]

    @property
    def field_ids(self) -> list[str]:
        """custom_ids of the inputs, in order."""
        return [c["custom_id"] for c in self.fields()]

    def field(self, custom_id: str) -> dict[str, Any]:
        """Input component by custom_id."""
        for comp in self.fields():
            if comp["custom_id"] == custom_id:
                return comp
        raise KeyError(f"modal {self.custom_id!r} has no field {custom_id!r}; has {self.field_ids}")

    def labels(self) -> list[str]:
        """Labels of the inputs (from Label wrappers or legacy text input labels)."""
        out: list[str] = []
        for comp in walk_components(self.components):
            if comp.get("type") == 18:
                out.append(comp.get("label", ""))
            elif comp.get("type") == 4 and comp.get("label"):
                out.append(comp["label"])
        return out


@dataclass(eq=False)
class FakeInteraction:
    """Server-side record of a dispatched interaction and everything the bot did with it."""

    id: int
    token: str
    type: int
    kind: str
    name: str
    user_id: int
    guild_id: int | None
    channel_id: int
    payload: dict[str, Any]
    source_message_id: int | None = None
    dispatched_at: float = 0.0
    response_type: int | None = None
    response_data: dict[str, Any] | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    attempts: list[CallbackAttempt] = field(default_factory=list)
    modal: FakeModal | None = None
    choices: list[dict[str, Any]] | None = None
    token_expired: bool = False

    @property
    def acknowledged(self) -> bool:
        """Whether a callback was accepted."""
        return self.response_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the accepted callback."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.dispatched_at


class InteractionResult:
    """What the bot did in reply to one interaction; message fields are live views."""

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        inter = self.interaction
        return (
            f"<InteractionResult {inter.kind} {inter.name!r} response_type={inter.response_type} "
            f"content={self.content!r} followups={len(inter.followup_ids)}>"
        )

    # -- response ---------------------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        """Callback type (4 message, 5 deferred, 6 deferred update, 7 update, 8, 9)."""
        return self.interaction.response_type

    @property
    def response_data(self) -> dict[str, Any]:
        """Raw ``data`` of the accepted callback."""
        return self.interaction.response_data or {}

    @property
    def latency(self) -> float | None:
        """Dispatch -> callback seconds."""
        return self.interaction.latency

    @property
    def deferred(self) -> bool:
        """Whether the bot deferred (type 5 or 6)."""
        return self.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def message(self) -> FakeMessage | None:
        """The original response message (for 6/7: the message the component is on)."""
        mid = self.interaction.original_message_id
        return None if mid is None else self.fake.messages.get(mid)

    def _msg(self) -> FakeMessage:
        msg = self.message
        if msg is None:
            raise AttributeError(f"{self!r} has no message (response_type={self.response_type})")
        return msg

    @property
    def content(self) -> str | None:
        """Current content of the original response (``None`` if there is none)."""
        msg = self.message
        return None if msg is None else msg.content

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """Embeds of the original response."""
        msg = self.message
        return [] if msg is None else msg.embeds

    @property
    def embed(self) -> dict[str, Any] | None:
        """First embed or ``None``."""
        return self.embeds[0] if self.embeds else None

    @property
    def components(self) -> list[dict[str, Any]]:
        """Components of the original response."""
        msg = self.message
        return [] if msg is None else msg.components

    @property
    def attachments(self) -> list[FakeAttachment]:
        """Files attached to the original response."""
        msg = self.message
        return [] if msg is None else msg.attachments

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is only visible to the invoking user."""
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def modal(self) -> FakeModal | None:
        """Modal opened by the bot."""
        return self.interaction.modal

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices."""
        return self.interaction.choices or []

    @property
    def followups(self) -> list[FakeMessage]:
        """Follow-up messages (the first one after a type-5 defer *is* the original message)."""
        return [self.fake.messages[mid] for mid in self.interaction.followup_ids]

    def buttons(self) -> list[dict[str, Any]]:
        """Buttons on the original response."""
        return self._msg().buttons()

    def custom_ids(self) -> list[str]:
        """custom_ids on the original response."""
        return self._msg().custom_ids()

    def button_labels(self) -> list[str | None]:
        """Button labels on the original response."""
        return self._msg().button_labels()

    # -- waiting ----------------------------------------------------------------------------

    async def wait_until(self, predicate: Callable[[Self], bool], timeout: float = 5.0) -> Self:
        """Wait until ``predicate(self)`` holds (re-checked on every fake state change)."""
        await self.fake.wait_until(lambda: predicate(self), timeout=timeout, what=repr(self))
        return self

    async def wait_followup(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait until there are at least ``n`` follow-ups; returns the ``n``-th."""
        await self.wait_until(lambda r: len(r.interaction.followup_ids) >= n, timeout)
        return self.followups[n - 1]

    async def wait_edit(self, n: int = 1, timeout: float = 5.0) -> FakeMessage:
        """Wait until the original message was edited ``n`` times (a deferred fill is not one)."""

        def edited(r: InteractionResult) -> bool:
            msg = r.message
            return msg is not None and not msg.loading and msg.edit_count >= n

        await self.wait_until(edited, timeout)
        return self._msg()

    async def wait_content(self, timeout: float = 5.0) -> FakeMessage:
        """Wait until a deferred original response got its real content."""
        await self.wait_until(lambda r: r.message is not None and not r.message.loading, timeout)
        return self._msg()


def _id_of(obj: Any) -> int:
    if isinstance(obj, int):
        return obj
    return int(obj.id)


class ScriptingMixin:
    """User-side actions of :class:`~fakediscord.server.FakeDiscord`."""

    # Provided by FakeDiscord.
    application_id: int
    bot_user: FakeUser
    guilds: dict[int, FakeGuild]
    channels: dict[int, FakeChannel]
    messages: dict[int, FakeMessage]
    interactions: dict[int, FakeInteraction]
    sessions: dict[str, GatewaySession]
    interaction_deadline: float
    snowflake: Callable[[], int]

    if TYPE_CHECKING:

        def sessions_for(self, guild_id: int | None) -> list[GatewaySession]: ...

        @property
        def channel(self) -> FakeChannel: ...

        def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]: ...

        def new_attachment(
            self,
            channel_id: int,
            filename: str,
            data: bytes,
            content_type: str | None = None,
            description: str | None = None,
            *,
            ephemeral: bool = False,
        ) -> FakeAttachment: ...

        async def dispatch(self, event: str, data: dict[str, Any]) -> int: ...

        async def wait_until(
            self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = ""
        ) -> None: ...

        def _store_message(self, msg: FakeMessage) -> None: ...

        async def _message_event(self, event: str, msg: FakeMessage) -> None: ...

    # -- lookups ----------------------------------------------------------------------------

    def _channel_of(self, channel: ChannelLike | None) -> FakeChannel:
        if channel is None:
            return self.channel
        return self.channels[_id_of(channel)]

    def _member_of(self, user: UserLike, guild: FakeGuild) -> FakeMember:
        uid = _id_of(user)
        try:
            return guild.members[uid]
        except KeyError:
            raise InteractionRejected(f"user {uid} is not a member of {guild.name!r}") from None

    def find_command(
        self, name: str, guild: FakeGuild | int | None = None, *, type: int = 1
    ) -> tuple[dict[str, Any], int | None]:
        """Synced command by top-level name: guild commands first, then global."""
        gid = None if guild is None else _id_of(guild)
        if gid is not None:
            for cmd in self.commands(gid):
                if cmd["name"] == name and int(cmd.get("type", 1)) == type:
                    return cmd, gid
        for cmd in self.commands(None):
            if cmd["name"] == name and int(cmd.get("type", 1)) == type:
                return cmd, None
        known = sorted({c["name"] for c in self.commands(gid) + self.commands(None)})
        raise InteractionRejected(f"command {name!r} (type {type}) is not synced; synced: {known}")

    # -- building -----------------------------------------------------------------------------

    def _base_payload(
        self,
        itype: int,
        member: FakeMember,
        guild: FakeGuild,
        channel: FakeChannel,
        data: dict[str, Any],
        locale: str | None,
        message: FakeMessage | None,
    ) -> FakeInteraction:
        inter_id = self.snowflake()
        raw = f"interaction:{inter_id}:{secrets.token_urlsafe(48)}".encode()
        token = base64.urlsafe_b64encode(raw).decode().rstrip("=")
        perms = guild.channel_permissions(member.id, channel.id)
        app_perms = guild.channel_permissions(self.bot_user.id, channel.id)
        payload: dict[str, Any] = {
            "id": str(inter_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": {**channel.to_payload(), "permissions": str(perms)},
            "member": {**member.to_payload(), "permissions": str(perms)},
            "token": token,
            "version": 1,
            "locale": locale or member.user.locale,
            "guild_locale": guild.preferred_locale,
            "app_permissions": str(app_perms),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message.to_payload()
        return FakeInteraction(
            id=inter_id,
            token=token,
            type=itype,
            kind="",
            name="",
            user_id=member.id,
            guild_id=guild.id,
            channel_id=channel.id,
            payload=payload,
            source_message_id=None if message is None else message.id,
        )

    def _resolve_user(
        self, value: Any, guild: FakeGuild, channel: FakeChannel, resolved: dict[str, Any]
    ) -> str:
        uid = _id_of(value)
        member = guild.members.get(uid)
        user = member.user if member is not None else getattr(value, "user", value)
        if not isinstance(user, FakeUser):
            raise InteractionRejected(f"unknown user {uid}")
        resolved.setdefault("users", {})[str(uid)] = user.to_payload()
        if member is not None:
            perms = guild.channel_permissions(uid, channel.id)
            resolved.setdefault("members", {})[str(uid)] = {
                **member.to_payload(with_user=False),
                "permissions": str(perms),
            }
        return str(uid)

    def _resolve_role(self, value: Any, guild: FakeGuild, resolved: dict[str, Any]) -> str:
        rid = _id_of(value)
        role = guild.roles.get(rid)
        if role is None:
            raise InteractionRejected(f"unknown role {rid}")
        resolved.setdefault("roles", {})[str(rid)] = role.to_payload()
        return str(rid)

    def _resolve_channel(
        self, value: Any, guild: FakeGuild, member: FakeMember, resolved: dict[str, Any]
    ) -> FakeChannel:
        chan = self.channels.get(_id_of(value))
        if chan is None or chan.guild_id != guild.id:
            raise InteractionRejected(f"unknown channel {value!r}")
        perms = guild.channel_permissions(member.id, chan.id)
        resolved.setdefault("channels", {})[str(chan.id)] = {
            **chan.to_payload(),
            "permissions": str(perms),
        }
        return chan

    def _resolve_upload(self, value: Any, channel: FakeChannel, resolved: dict[str, Any]) -> str:
        if isinstance(value, FakeAttachment):
            att = value
        else:
            if isinstance(value, tuple):
                value = Upload(*value)
            if not isinstance(value, Upload):
                raise TypeError(f"attachment values must be Upload or (filename, bytes): {value!r}")
            att = self.new_attachment(
                channel.id,
                value.filename,
                value.data,
                value.content_type,
                value.description,
                ephemeral=True,
            )
        resolved.setdefault("attachments", {})[str(att.id)] = att.to_payload()
        return str(att.id)

    def _encode_option(
        self,
        opt: dict[str, Any],
        value: Any,
        guild: FakeGuild,
        channel: FakeChannel,
        member: FakeMember,
        resolved: dict[str, Any],
    ) -> Any:
        otype = int(opt["type"])
        name = opt["name"]
        if otype == STRING:
            if not isinstance(value, str | int | float) or isinstance(value, bool):
                raise TypeError(f"option {name!r} is a STRING, got {value!r}")
            value = str(value)
            low, high = opt.get("min_length", 0), opt.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise InteractionRejected(f"option {name!r} length must be {low}..{high}")
        elif otype == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise TypeError(f"option {name!r} is an INTEGER, got {value!r}")
            value = int(value)
        elif otype == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise TypeError(f"option {name!r} is a NUMBER, got {value!r}")
            value = float(value)
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a BOOLEAN, got {value!r}")
        elif otype == USER:
            return self._resolve_user(value, guild, channel, resolved)
        elif otype == ROLE:
            return self._resolve_role(value, guild, resolved)
        elif otype == MENTIONABLE:
            if isinstance(value, FakeRole):
                return self._resolve_role(value, guild, resolved)
            return self._resolve_user(value, guild, channel, resolved)
        elif otype == CHANNEL:
            chan = self._resolve_channel(value, guild, member, resolved)
            allowed = opt.get("channel_types")
            if allowed and chan.type not in allowed:
                raise InteractionRejected(
                    f"option {name!r} does not accept channel type {chan.type}"
                )
            return str(chan.id)
        elif otype == ATTACHMENT:
            return self._resolve_upload(value, channel, resolved)
        else:
            raise TypeError(f"unsupported option type {otype} for {name!r}")
        if otype in (INTEGER, NUMBER):
            if "min_value" in opt and value < opt["min_value"]:
                raise InteractionRejected(f"option {name!r} must be >= {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise InteractionRejected(f"option {name!r} must be <= {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise InteractionRejected(
                f"option {name!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
            )
        return value

    def _command_data(
        self,
        member: FakeMember,
        guild: FakeGuild,
        channel: FakeChannel,
        path: str,
        values: Mapping[str, Any],
        *,
        focused: str | None = None,
    ) -> tuple[dict[str, Any], str]:
        parts = path.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command path")
        cmd, scope = self.find_command(parts[0], guild)
        self._check_command_allowed(cmd, member, guild)
        node = cmd
        chain: list[dict[str, Any]] = []
        for part in parts[1:]:
            sub = next(
                (
                    o
                    for o in node.get("options") or []
                    if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and o["name"] == part
                ),
                None,
            )
            if sub is None:
                raise InteractionRejected(f"/{' '.join(parts)}: no subcommand {part!r}")
            chain.append(sub)
            node = sub
        defs = node.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
            subs = [o["name"] for o in defs]
            raise InteractionRejected(f"/{' '.join(parts)} needs a subcommand: {subs}")
        by_name = {o["name"]: o for o in defs}
        resolved: dict[str, Any] = {}
        leaf: list[dict[str, Any]] = []
        for key, value in values.items():
            opt = by_name.get(key)
            if opt is None:
                raise InteractionRejected(
                    f"/{' '.join(parts)} has no option {key!r}; options: {list(by_name)}"
                )
            if key == focused:
                leaf.append({"type": opt["type"], "name": key, "value": value, "focused": True})
                continue
            encoded = self._encode_option(opt, value, guild, channel, member, resolved)
            leaf.append({"type": opt["type"], "name": key, "value": encoded})
        if focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in values]
            if missing:
                raise InteractionRejected(f"/{' '.join(parts)} is missing required {missing}")
        elif focused not in by_name or not by_name[focused].get("autocomplete"):
            raise InteractionRejected(
                f"option {focused!r} of /{' '.join(parts)} has no autocomplete"
            )
        # Discord sends options in declaration order.
        order = {o["name"]: i for i, o in enumerate(defs)}
        options = sorted(leaf, key=lambda o: order[o["name"]])
        for sub in reversed(chain):
            options = [{"type": sub["type"], "name": sub["name"], "options": options}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": options,
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data, " ".join(parts)

    def _check_command_allowed(
        self, cmd: dict[str, Any], member: FakeMember, guild: FakeGuild
    ) -> None:
        contexts = cmd.get("contexts")
        if contexts is not None and 0 not in contexts:
            raise InteractionRejected(f"/{cmd['name']} is not available in guilds")
        required = cmd.get("default_member_permissions")
        if required is None:
            return
        perms = guild.base_permissions(member.id)
        if perms & ADMINISTRATOR:
            return
        need = int(required)
        if need == 0 or perms & need != need:
            raise InteractionRejected(
                f"{member.user.name} lacks default_member_permissions={need} for /{cmd['name']}"
            )

    # -- running ------------------------------------------------------------------------------

    async def _run(
        self, inter: FakeInteraction, kind: str, name: str, timeout: float, wait: bool
    ) -> InteractionResult:
        def connected() -> bool:  # a bot's session for the guild's shard
            return any(s.connection is not None for s in self.sessions_for(inter.guild_id))

        if not connected():
            try:  # allow a reconnect in progress to finish
                await self.wait_until(
                    connected,
                    timeout=1.0,
                    what="a connected bot",
                )
            except TimeoutError:
                raise RuntimeError("no bot is connected to the fake gateway") from None
        inter.kind = kind
        inter.name = name
        self.interactions[inter.id] = inter
        inter.dispatched_at = time.monotonic()
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        result = InteractionResult(self, inter)  # type: ignore[arg-type]
        if wait:
            limit = min(timeout, self.interaction_deadline + 0.25)
            try:
                await self.wait_until(lambda: inter.acknowledged, timeout=limit)
            except TimeoutError:
                tried = "; ".join(f"{a.status} {a.code} {a.message}" for a in inter.attempts)
                raise NoResponse(
                    f"bot did not acknowledge {kind} {name!r} within {limit:.2f}s"
                    + (f" (rejected callbacks: {tried})" if tried else "")
                ) from None
        return result

    async def slash(
        self,
        user: UserLike,
        path: str,
        /,
        *,
        _channel: ChannelLike | None = None,
        _locale: str | None = None,
        _timeout: float = 5.0,
        _wait: bool = True,
        _options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> InteractionResult:
        """Invoke ``/path`` ("cmd", "group sub" or "group subgroup sub") as ``user``.

        Keyword arguments are option values, typed from the synced command definition;
        ``_options`` takes names that are not Python identifiers. Underscore keywords set the
        channel (default: the default channel), the user's locale override, the wait timeout,
        or ``_wait=False`` to return right after dispatch.
        """
        channel = self._channel_of(_channel)
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        values = {**(_options or {}), **options}
        data, name = self._command_data(member, guild, channel, path, values)
        inter = self._base_payload(APPLICATION_COMMAND, member, guild, channel, data, _locale, None)
        return await self._run(inter, "slash", name, _timeout, _wait)

    async def autocomplete(
        self,
        user: UserLike,
        path: str,
        /,
        *,
        focused: str,
        value: Any = "",
        _channel: ChannelLike | None = None,
        _locale: str | None = None,
        _timeout: float = 5.0,
        _options: Mapping[str, Any] | None = None,
        **others: Any,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` of ``/path``; returns the bot's choices."""
        result = await self.autocomplete_result(
            user,
            path,
            focused=focused,
            value=value,
            _channel=_channel,
            _locale=_locale,
            _timeout=_timeout,
            _options=_options,
            **others,
        )
        return result.choices

    async def autocomplete_result(
        self,
        user: UserLike,
        path: str,
        /,
        *,
        focused: str,
        value: Any = "",
        _channel: ChannelLike | None = None,
        _locale: str | None = None,
        _timeout: float = 5.0,
        _options: Mapping[str, Any] | None = None,
        **others: Any,
    ) -> InteractionResult:
        """Like :meth:`autocomplete` but returns the full :class:`InteractionResult`."""
        channel = self._channel_of(_channel)
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        values = {**(_options or {}), **others, focused: value}
        data, name = self._command_data(member, guild, channel, path, values, focused=focused)
        inter = self._base_payload(
            APPLICATION_COMMAND_AUTOCOMPLETE, member, guild, channel, data, _locale, None
        )
        return await self._run(inter, "autocomplete", name, _timeout, True)

    def _target_message(self, message: FakeMessage | InteractionResult | int) -> FakeMessage:
        if isinstance(message, InteractionResult):
            msg = message.message
            if msg is None:
                raise ValueError(f"{message!r} produced no message to interact with")
            return msg
        if isinstance(message, int):
            return self.messages[message]
        return message

    def _select_values(
        self,
        comp: dict[str, Any],
        values: Iterable[Any],
        guild: FakeGuild,
        channel: FakeChannel,
        member: FakeMember,
    ) -> tuple[list[str], dict[str, Any]]:
        ctype = comp["type"]
        resolved: dict[str, Any] = {}
        out: list[str] = []
        for v in values:
            if ctype == 3 or ctype == 22:
                out.append(str(v))
            elif ctype == 5:
                out.append(self._resolve_user(v, guild, channel, resolved))
            elif ctype == 6:
                out.append(self._resolve_role(v, guild, resolved))
            elif ctype == 7:
                if isinstance(v, FakeRole):
                    out.append(self._resolve_role(v, guild, resolved))
                else:
                    out.append(self._resolve_user(v, guild, channel, resolved))
            elif ctype == 8:
                out.append(str(self._resolve_channel(v, guild, member, resolved).id))
            elif ctype == 19:
                out.append(self._resolve_upload(v, channel, resolved))
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in out if v not in allowed]
            if bad:
                raise InteractionRejected(f"select {comp['custom_id']!r} has no options {bad}")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not comp.get("required", True) and not out:
            low = 0
        if not low <= len(out) <= high:
            raise InteractionRejected(
                f"select {comp['custom_id']!r} takes {low}..{high} values, got {len(out)}"
            )
        return out, resolved

    async def click(
        self,
        user: UserLike,
        message: FakeMessage | InteractionResult | int,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
        values: Iterable[Any] | None = None,
        _locale: str | None = None,
        _timeout: float = 5.0,
        _wait: bool = True,
    ) -> InteractionResult:
        """Click a button (by custom_id or label) or pick ``values`` in a select menu."""
        msg = self._target_message(message)
        channel = self.channels[msg.channel_id]
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        if not msg.visible_to(member.id):
            raise InteractionRejected(f"{member.user.name} cannot see message {msg.id}")
        comp = msg.find_component(custom_id, label=label)
        if comp.get("disabled"):
            raise InteractionRejected(f"component {comp.get('custom_id')!r} is disabled")
        ctype = int(comp["type"])
        data: dict[str, Any] = {"custom_id": comp["custom_id"], "component_type": ctype}
        if "id" in comp:
            data["id"] = comp["id"]
        if ctype in _SELECT_TYPES:
            if values is None:
                raise ValueError(f"select {comp['custom_id']!r} needs values=[...]")
            vals, resolved = self._select_values(comp, values, guild, channel, member)
            data["values"] = vals
            if resolved:
                data["resolved"] = resolved
        elif values is not None:
            raise ValueError(f"component {comp['custom_id']!r} is not a select")
        inter = self._base_payload(MESSAGE_COMPONENT, member, guild, channel, data, _locale, msg)
        return await self._run(inter, "component", comp["custom_id"], _timeout, _wait)

    async def select(
        self,
        user: UserLike,
        message: FakeMessage | InteractionResult | int,
        custom_id: str,
        values: Iterable[Any],
        /,
        *,
        _timeout: float = 5.0,
        _wait: bool = True,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id``."""
        return await self.click(
            user, message, custom_id, values=list(values), _timeout=_timeout, _wait=_wait
        )

    def _mirror_modal(
        self,
        comps: list[dict[str, Any]],
        values: Mapping[str, Any],
        used: set[str],
        ctx: tuple[FakeGuild, FakeChannel, FakeMember],
        resolved: dict[str, Any],
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for comp in comps:
            ctype = comp.get("type")
            item: dict[str, Any] = {"type": ctype}
            if "id" in comp:
                item["id"] = comp["id"]
            if ctype == 1:
                item["components"] = self._mirror_modal(
                    comp.get("components", []), values, used, ctx, resolved
                )
            elif ctype == 18:
                item["component"] = self._mirror_modal(
                    [comp["component"]], values, used, ctx, resolved
                )[0]
            elif "custom_id" in comp:
                cid = comp["custom_id"]
                item["custom_id"] = cid
                used.add(cid)
                given = values.get(cid)
                required = comp.get("required", True)
                if ctype in (4, 21):
                    text = "" if given is None else str(given)
                    if required and not text:
                        raise InteractionRejected(f"modal field {cid!r} is required")
                    low, high = comp.get("min_length", 0), comp.get("max_length", 4000)
                    if ctype == 4 and text and not low <= len(text) <= high:
                        raise InteractionRejected(
                            f"modal field {cid!r} length must be {low}..{high}"
                        )
                    if ctype == 21 and not text:
                        item["value"] = None
                    else:
                        item["value"] = text
                elif ctype == 23:
                    item["value"] = bool(given)
                else:
                    given_list = [] if given is None else list(given)
                    item["values"], res = self._select_values(comp, given_list, *ctx)
                    for key, entries in res.items():
                        resolved.setdefault(key, {}).update(entries)
            out.append(item)
        return out

    async def submit_modal(
        self,
        user: UserLike,
        modal: InteractionResult | FakeModal,
        values: Mapping[str, Any],
        /,
        *,
        _locale: str | None = None,
        _timeout: float = 5.0,
        _wait: bool = True,
    ) -> InteractionResult:
        """Fill and submit a modal; ``values`` maps field custom_id to text (list for selects)."""
        source: FakeInteraction | None = None
        if isinstance(modal, InteractionResult):
            source = modal.interaction
            if modal.modal is None:
                raise ValueError(f"{modal!r} did not open a modal")
            modal = modal.modal
        channel = self.channels[source.channel_id] if source is not None else self.channel
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        if source is not None and source.user_id != member.id:
            raise InteractionRejected("only the user the modal was shown to can submit it")
        used: set[str] = set()
        resolved: dict[str, Any] = {}
        comps = self._mirror_modal(
            modal.components, values, used, (guild, channel, member), resolved
        )
        unknown = set(values) - used
        if unknown:
            raise InteractionRejected(f"modal {modal.custom_id!r} has no fields {sorted(unknown)}")
        data: dict[str, Any] = {"custom_id": modal.custom_id, "components": comps}
        if resolved:
            data["resolved"] = resolved
        message = None
        if source is not None and source.source_message_id is not None:
            message = self.messages.get(source.source_message_id)
        inter = self._base_payload(MODAL_SUBMIT, member, guild, channel, data, _locale, message)
        return await self._run(inter, "modal", modal.custom_id, _timeout, _wait)

    async def click_forged(
        self,
        user: UserLike,
        message: FakeMessage | InteractionResult | int,
        custom_id: str,
        /,
        *,
        _locale: str | None = None,
        _timeout: float = 5.0,
    ) -> InteractionResult:
        """Send a button click with ``custom_id`` from ``message`` as a client could forge
        it (or replay it after the message changed): the id need not be on the message."""
        msg = self._target_message(message)
        channel = self.channels[msg.channel_id]
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        inter = self._base_payload(MESSAGE_COMPONENT, member, guild, channel, data, _locale, msg)
        return await self._run(inter, "component", custom_id, _timeout, True)

    async def submit_forged_modal(
        self,
        user: UserLike,
        custom_id: str,
        components: list[dict[str, Any]],
        /,
        *,
        message: FakeMessage | InteractionResult | int | None = None,
        _locale: str | None = None,
        _timeout: float = 5.0,
    ) -> InteractionResult:
        """Submit a modal payload as a client could forge it: any custom id, any components
        (missing, unknown or over-long fields), unchecked against a modal the bot opened."""
        msg = None if message is None else self._target_message(message)
        channel = self.channels[msg.channel_id] if msg is not None else self.channel
        guild = self.guilds[channel.guild_id]
        member = self._member_of(user, guild)
        data: dict[str, Any] = {"custom_id": custom_id, "components": components}
        inter = self._base_payload(MODAL_SUBMIT, member, guild, channel, data, _locale, msg)
        return await self._run(inter, "modal", custom_id, _timeout, True)

    async def send_user_message(
        self,
        user: UserLike,
        content: str,
        /,
        *,
        channel: ChannelLike | None = None,
        files: Iterable[Upload] = (),
    ) -> FakeMessage:
        """Post a message as a user (dispatches MESSAGE_CREATE, subject to intents)."""
        chan = self._channel_of(channel)
        guild = self.guilds[chan.guild_id]
        member = self._member_of(user, guild)
        msg = FakeMessage(
            id=self.snowflake(),
            channel_id=chan.id,
            guild_id=guild.id,
            author=member.user,
            content=content,
        )
        msg.attachments = [
            self.new_attachment(chan.id, f.filename, f.data, f.content_type, f.description)
            for f in files
        ]
        self._store_message(msg)
        await self._message_event("MESSAGE_CREATE", msg)
        return msg
