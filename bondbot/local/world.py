"""Building the fake's world before the bot connects (guilds, roles, channels, users, the
bot's old messages) and reading it back (users, a channel's messages)."""

from __future__ import annotations

from collections.abc import Iterable

from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
)
from .state import FakeState


class WorldBuilding(FakeState):
    """``add_guild``/``add_role``/``add_channel``/``add_user``: no gateway event is sent."""

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

    def user(self, name: str) -> FakeUser:
        """User by name."""
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(name)

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
