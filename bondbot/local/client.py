"""Scripting API: act as Discord users (slash commands, clicks, modals, autocomplete).

The payloads are built in `payloads`; the interaction records and type numbers are in
`interaction` (re-exported here, where callers import them from)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from .interaction import (
    APPLICATION_COMMAND,
    APPLICATION_COMMAND_AUTOCOMPLETE,
    ATTACHMENT,
    AUTOCOMPLETE_RESULT,
    BOOLEAN,
    CHANNEL,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    INTEGER,
    MENTIONABLE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    NUMBER,
    PING,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    UPDATE_MESSAGE,
    USER,
    CallbackAttempt,
    FakeInteraction,
    FakeModal,
    InteractionRejected,
    InteractionResult,
    LatencyRecord,
    NoResponse,
    Upload,
)
from .models import FakeMessage
from .payloads import InteractionPayloads
from .state import ChannelLike, UserLike

__all__ = [
    "APPLICATION_COMMAND",
    "APPLICATION_COMMAND_AUTOCOMPLETE",
    "ATTACHMENT",
    "AUTOCOMPLETE_RESULT",
    "BOOLEAN",
    "CHANNEL",
    "CHANNEL_MESSAGE",
    "DEFERRED_CHANNEL_MESSAGE",
    "DEFERRED_UPDATE_MESSAGE",
    "INTEGER",
    "MENTIONABLE",
    "MESSAGE_COMPONENT",
    "MODAL",
    "MODAL_SUBMIT",
    "NUMBER",
    "PING",
    "ROLE",
    "STRING",
    "SUB_COMMAND",
    "SUB_COMMAND_GROUP",
    "UPDATE_MESSAGE",
    "USER",
    "CallbackAttempt",
    "ChannelLike",
    "FakeInteraction",
    "FakeModal",
    "InteractionRejected",
    "InteractionResult",
    "LatencyRecord",
    "NoResponse",
    "ScriptingMixin",
    "Upload",
    "UserLike",
]

_SELECT_TYPES = (3, 5, 6, 7, 8)


class ScriptingMixin(InteractionPayloads):
    """User-side actions of :class:`~bondbot.local.server.FakeDiscord`."""

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
