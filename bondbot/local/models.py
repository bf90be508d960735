"""Data model of the fake Discord: users, guilds, roles, channels, messages, attachments."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits the fake itself needs.
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
ATTACH_FILES = 1 << 15
ALL_PERMISSIONS = discord.Permissions.all().value

#: What a freshly created guild grants @everyone (Discord's default, minus voice extras).
DEFAULT_EVERYONE_PERMISSIONS = discord.Permissions(
    create_instant_invite=True,
    add_reactions=True,
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    mention_everyone=False,
    external_emojis=True,
    connect=True,
    speak=True,
    use_voice_activation=True,
    change_nickname=True,
    use_application_commands=True,
    create_public_threads=True,
    create_private_threads=True,
    send_messages_in_threads=True,
).value

#: Permissions of the bot's managed role (what an invite with sensible scopes grants).
DEFAULT_BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
    manage_messages=True,
).value

THREAD_TYPES = (10, 11, 12)  # announcement, public and private threads
CREATE_PUBLIC_THREADS = 1 << 35
MANAGE_THREADS = 1 << 34
SEND_MESSAGES_IN_THREADS = 1 << 38

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15


class SnowflakeFactory:
    """Generates strictly increasing, realistic snowflakes (timestamp << 22 | counter)."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (ms << 22) | (next(self._counter) & 0xFFF)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value


def iso(ts: dt.datetime | None) -> str | None:
    """Discord-style ISO 8601 timestamp."""
    return ts.isoformat() if ts is not None else None


def now() -> dt.datetime:
    """Timezone-aware UTC now."""
    return dt.datetime.now(dt.UTC)


@dataclass
class FakeUser:
    """A Discord user (players, GMs, the bot itself)."""

    id: int
    name: str
    locale: str = "en-US"
    global_name: str | None = None
    bot: bool = False
    discriminator: str = "0"

    def to_payload(self) -> dict[str, Any]:
        """User object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": self.discriminator,
            "avatar": None,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "bot": self.bot,
            "system": False,
            "primary_guild": None,
            "collectibles": None,
        }

    @property
    def mention(self) -> str:
        """``<@id>`` mention string."""
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    """A guild role."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False
    bot_id: int | None = None

    def to_payload(self) -> dict[str, Any]:
        """Role object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }
        if self.bot_id is not None:
            payload["tags"] = {"bot_id": str(self.bot_id)}
        return payload

    @property
    def mention(self) -> str:
        """``<@&id>`` mention string."""
        return f"<@&{self.id}>"


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, Any]:
        """Overwrite object."""
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass
class FakeChannel:
    """A guild channel (text by default)."""

    id: int
    guild_id: int
    name: str
    type: int = 0
    position: int = 0
    topic: str | None = None
    parent_id: int | None = None
    nsfw: bool = False
    overwrites: list[Overwrite] = field(default_factory=list)
    last_message_id: int | None = None
    owner_id: int | None = None  # a thread's creator
    archived: bool = False  # a thread's state
    auto_archive_duration: int = 1440
    locked: bool = False  # a thread only moderators may unarchive (`FakeDiscord.lock_thread`)

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def to_payload(self, *, with_guild_id: bool = True) -> dict[str, Any]:
        """Channel object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.to_payload() for o in self.overwrites],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": self.topic,
            "nsfw": self.nsfw,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if with_guild_id:
            payload["guild_id"] = str(self.guild_id)
        if self.is_thread:
            payload |= {
                "owner_id": str(self.owner_id),
                "message_count": 0,
                "member_count": 1,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(now()),
                    "locked": self.locked,
                },
            }
        return payload

    @property
    def mention(self) -> str:
        """``<#id>`` mention string."""
        return f"<#{self.id}>"


@dataclass
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=now)

    @property
    def id(self) -> int:
        """The user's id."""
        return self.user.id

    def to_payload(self, *, with_user: bool = True) -> dict[str, Any]:
        """Guild member object (``permissions`` is added by interaction payloads)."""
        payload: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "unusual_dm_activity_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        return payload


@dataclass
class FakeGuild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    features: list[str] = field(default_factory=list)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: dt.datetime = field(default_factory=now)
    system_channel_id: int | None = None  # where Discord posts joins (and bots welcome)

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (same id as the guild)."""
        return self.roles[self.id]

    @property
    def bot_role(self) -> FakeRole:
        """The bot's managed role."""
        return next(r for r in self.roles.values() if r.bot_id is not None)

    def role(self, name: str) -> FakeRole:
        """Role by name."""
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role named {name!r} in guild {self.name!r}")

    def channel(self, name: str) -> FakeChannel:
        """Channel by name."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    def base_permissions(self, user_id: int) -> int:
        """Guild-level permissions of a member (owner/admin get everything)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members[user_id]
        perms = self.everyone.permissions
        for role_id in member.roles:
            role = self.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def channel_permissions(self, user_id: int, channel_id: int) -> int:
        """Permissions in a channel, applying overwrites the way Discord does (a thread
        has its parent channel's)."""
        perms = self.base_permissions(user_id)
        if perms == ALL_PERMISSIONS:
            return perms
        channel = self.channels[channel_id]
        if channel.is_thread and channel.parent_id in self.channels:
            channel = self.channels[channel.parent_id]
        member = self.members[user_id]
        by_id = {o.id: o for o in channel.overwrites}
        everyone = by_id.get(self.id)
        if everyone is not None:
            perms = (perms & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.roles:
            ow = by_id.get(role_id)
            if ow is not None and ow.type == 0:
                allow |= ow.allow
                deny |= ow.deny
        perms = (perms & ~deny) | allow
        own = by_id.get(user_id)
        if own is not None and own.type == 1:
            perms = (perms & ~own.deny) | own.allow
        return perms

    def to_payload(self, *, members: list[FakeMember] | None = None) -> dict[str, Any]:
        """Full guild payload as in GUILD_CREATE (``members`` limited by intents)."""
        shown = list(self.members.values()) if members is None else members
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "system_channel_id": str(self.system_channel_id) if self.system_channel_id else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "preferred_locale": self.preferred_locale,
            "features": list(self.features),
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "application_id": None,
            "joined_at": iso(self.joined_at),
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(self.members),
            "members": [m.to_payload() for m in shown],
            "channels": [c.to_payload(with_guild_id=False) for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "embedded_activities": [],
            "incidents_data": None,
        }


@dataclass
class FakeAttachment:
    """An uploaded file; its bytes are served by the fake CDN."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        """Attachment object."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            payload["description"] = self.description
        if self.ephemeral:
            payload["ephemeral"] = True
        return payload


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first walk over (possibly v2, nested) message or modal components."""
    for comp in components:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        for key in ("component", "accessory"):
            if isinstance(comp.get(key), dict):
                yield from walk_components([comp[key]])


@dataclass
class MessageVersion:
    """Snapshot of a message before an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    attachments: list[str]


@dataclass
class FakeMessage:
    """A message as stored by the fake (channel messages and interaction responses)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[FakeAttachment] = field(default_factory=list)
    type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    ephemeral_for: int | None = None
    created_at: dt.datetime = field(default_factory=now)
    edited_at: dt.datetime | None = None
    edit_count: int = 0
    deleted: bool = False
    history: list[MessageVersion] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Whether only one user can see the message."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred "Bot is thinking..." message."""
        return bool(self.flags & FLAG_LOADING)

    def snapshot(self) -> MessageVersion:
        """Copy of the visible state (kept in ``history`` on edits)."""
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            flags=self.flags,
            attachments=[a.filename for a in self.attachments],
        )

    def visible_to(self, user_id: int) -> bool:
        """Whether the given user can see it."""
        return not self.deleted and (self.ephemeral_for is None or self.ephemeral_for == user_id)

    def to_payload(self, *, member: FakeMember | None = None) -> dict[str, Any]:
        """Message object (``member`` adds the gateway-style partial member)."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": list(self.embeds),
            "reactions": [],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": list(self.components),
        }
        if self.guild_id is not None:
            payload["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            payload["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            payload["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        if member is not None:
            payload["member"] = member.to_payload(with_user=False)
        return payload

    # -- component helpers -------------------------------------------------------------------

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, flattened (rows, containers, buttons, selects, ...)."""
        return list(walk_components(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        """Button components (type 2) in display order."""
        return [c for c in self.all_components() if c.get("type") == 2]

    def custom_ids(self) -> list[str]:
        """custom_ids of all interactive components."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def button_labels(self) -> list[str | None]:
        """Labels of all buttons."""
        return [b.get("label") for b in self.buttons()]

    def find_component(
        self, custom_id: str | None = None, *, label: str | None = None
    ) -> dict[str, Any]:
        """Component by custom_id or label; raises ``KeyError`` when absent."""
        for comp in self.all_components():
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label") == label and "custom_id" in comp:
                return comp
        raise KeyError(
            f"no component custom_id={custom_id!r} label={label!r} on message {self.id}; "
            f"have {self.custom_ids()}"
        )
