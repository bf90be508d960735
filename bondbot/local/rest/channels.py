"""REST: a channel (get, archive its thread), its threads (started from a message or
alone) and typing; the access check every channel route makes."""

from __future__ import annotations

from typing import Any

from ..models import CREATE_PUBLIC_THREADS, MANAGE_THREADS, VIEW_CHANNEL, FakeChannel
from ..state import FakeState
from ..validation import DiscordAPIError, not_found
from .call import ApiCall


class ChannelRoutes(FakeState):
    """``/channels/{channel}`` and its threads; `_channel_for` answers 10003/50001 as
    Discord does for a channel gone or out of the bot's sight."""

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
