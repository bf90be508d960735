"""What moderators and Discord do to a connected bot (issue 30): a guild joined, left or
out; channels, threads and messages deleted; threads locked; permissions changed. Each
changes the world and dispatches the events Discord would."""

from __future__ import annotations

from collections.abc import Iterable

from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS
from .models import FakeChannel, FakeGuild, FakeMessage, FakeRole, Overwrite
from .state import FakeState


class Moderation(FakeState):
    """Changes to the world after the bot connected, pushed over the gateway."""

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
