"""REST: messages in a channel (list, post, get, edit, delete), and the creating and editing
that interaction responses and webhooks share."""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..interaction import APPLICATION_COMMAND, FakeInteraction
from ..models import (
    ATTACH_FILES,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    MANAGE_MESSAGES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    FakeChannel,
    FakeMessage,
    now,
)
from ..state import FakeState
from ..validation import DiscordAPIError, not_found, validate_message
from .call import ApiCall, UploadedFile

NONCE_TTL = dt.timedelta(minutes=2)  # how long Discord remembers an enforced nonce
CREATE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)


class MessageRoutes(FakeState):
    """``/channels/{channel}/messages[/{message}]``, and messages made or edited for any route."""

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
            flags = int(body.get("flags") or 0) & CREATE_FLAGS
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
