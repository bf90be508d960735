"""What a table does when Discord loses or refuses what it posts (issue 30).

Discord answers a post or an edit in one of four ways besides yes: the message or thread
is gone (a moderator deleted it: 10008, 10003), the thread is closed to the bot (archived
and locked: 50083), the bot may not (403: 50013 Missing Permissions, 50001 Missing Access),
or not now (a 429 that outlasted discord.py's own retries, a 5xx, the network). The first
two are mended (posted again, a new thread), a refusal is told once and not tried again
until the permissions change (Discord counts every 401/403/429 against a bot's
invalid-request limit, 10,000 in 10 minutes, then bans the whole bot for a while), and the
last is tried again with a growing pause.
"""

from __future__ import annotations

from typing import Literal

import aiohttp
import discord

from bondbot.errors import Refusal
from bondbot.i18n import Lang, t

Outcome = Literal["gone", "closed", "refused", "later", "bug"]
THREAD_CLOSED = 50083  # "Thread is archived": locked, the bot may not open it again
THREAD_EXISTS = 160004  # "A thread has already been created for this message"
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 60.0
POST_TRIES = 10  # a post the bot makes by itself: about five minutes of tries in all
THREAD_TRIES = 3  # new threads for one post (a moderator who keeps deleting them)

# What each post needs in the table's channel (a thread has its channel's permissions).
NEEDS: dict[str, tuple[str, ...]] = {
    "table": ("view_channel", "send_messages", "embed_links"),
    "thread": ("view_channel", "send_messages_in_threads", "embed_links", "attach_files"),
    "channel": ("view_channel", "send_messages", "embed_links", "attach_files"),
}
# What a channel takes away with a permission it refuses (as Discord and discord.py do).
IMPLIED = (
    ("view_channel", ("send_messages", "send_messages_in_threads", "embed_links", "attach_files")),
    ("send_messages", ("embed_links", "attach_files")),
)


def outcome(error: BaseException) -> Outcome:
    """What Discord's answer (or the lack of one) means for a post or an edit."""
    if isinstance(error, discord.NotFound):
        return "gone"
    if isinstance(error, discord.Forbidden):
        return "refused"
    if isinstance(error, discord.HTTPException):
        if error.code == THREAD_CLOSED:
            return "closed"
        return "later" if error.status == 429 or error.status >= 500 else "bug"
    if isinstance(error, OSError | aiohttp.ClientError | Refusal):  # TimeoutError too
        return "later"  # the network, or our database busy: both pass
    return "bug"


def backoff(failures: int) -> float:
    """The pause before try `failures + 1`: 1 s, 2 s, 4 s… at most a minute."""
    return min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** max(0, failures - 1))


def missing(bot: discord.Client, guild_id: int, channel_id: int, where: str) -> list[str] | None:
    """The permissions the bot lacks in the channel for a post `where` ("table", "thread",
    "channel"), as discord.py last heard them; None when it does not know the channel."""
    guild = bot.get_guild(guild_id)
    channel = None if guild is None else guild.get_channel(channel_id)
    if guild is None or channel is None or guild.me is None:
        return None
    perms = channel.permissions_for(guild.me)
    lacking = [name for name in NEEDS[where] if not getattr(perms, name)]
    # Without a permission Discord takes the ones that depend on it: name only the first.
    for root, implied in IMPLIED:
        if root in lacking:
            lacking = [name for name in lacking if name not in implied]
    return lacking


def refused_line(what: str, permissions: list[str], bot_name: str, lang: Lang) -> str:
    """ "⚠️ I can't post the hands' pictures here: give BondBot Attach Files." """
    names = ", ".join(t(f"table.perm_{name}", lang) for name in permissions)
    key = "table.refused_with" if permissions else "table.refused"
    return t(key, lang, what=t(f"table.refused_{what}", lang), bot=bot_name, permissions=names)


def repost_nonce(table_id: int, deleted: int) -> str:
    """The nonce of the table message posted again after `deleted` was deleted: one per
    deletion (Discord returns the message already posted with it), at most 25 characters."""
    digits, value = "", deleted
    while value:
        value, rest = divmod(value, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[rest] + digits
    return f"t{table_id}r{digits or '0'}"[:25]
