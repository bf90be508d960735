"""REST: interaction callbacks (the bot's first answer) and the interaction webhooks
(follow-ups, editing or deleting the original response) within the token's lifetime."""

from __future__ import annotations

import time
from typing import Any

from ..interaction import (
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
)
from ..models import FLAG_EPHEMERAL, FLAG_LOADING, FakeMessage
from ..state import FakeState
from ..validation import DiscordAPIError, not_found, validate_choices, validate_modal
from .call import ApiCall
from .messages import CREATE_FLAGS

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

WEBHOOK_TOKEN_LIFETIME = 15 * 60.0


class InteractionRoutes(FakeState):
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app}/{token}[/messages/...]``."""

    def expire_token(self, interaction: InteractionResult | FakeInteraction) -> None:
        """Jump past the 15-minute interaction token lifetime (webhook calls get 401/50027)."""
        inter = (
            interaction.interaction if isinstance(interaction, InteractionResult) else interaction
        )
        inter.token_expired = True

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
            flags = int(data.get("flags") or 0) & CREATE_FLAGS
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
