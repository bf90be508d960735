"""Tables whose channel is gone: closed by themselves, exactly as `/table close` would.

A moderator deletes a table's channel (CHANNEL_DELETE), or the bot is removed from the
server (GUILD_DELETE without `unavailable`): nobody can reach the table any more, and its
PCs could never sit anywhere else. So the table is closed (every PC cashed out, the NPC's
bank settled, a hand in play ended by the game's own end move), its ledger rows saying
why (`table.cash_out.channel_deleted`, `….bot_removed`). At start, and whenever a guild
becomes available again, a table whose channel Discord says is unknown (10003) is closed
the same way: its deletion happened while the bot was away. A guild that is unavailable
(an outage) changes nothing. Closing twice (two events, two processes) closes once
(`TableService.close_orphan`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from bondbot.storage import tables as stored
from bondbot.tables.service import TableSnapshot

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

log = logging.getLogger(__name__)

CHANNEL_DELETED = "channel_deleted"
BOT_REMOVED = "bot_removed"
UNKNOWN_CHANNEL = 10003  # Discord's error code: the only proof a channel is gone


async def close_gone(bot: BondBot, table_id: int, why: str) -> TableSnapshot | None:
    """Close one table nobody can reach; None when it was closed already."""
    bot.services.scheduler.cancel(("redraw", table_id))  # nothing left to redraw
    closed = await bot.services.tables.close_orphan(table_id, why)
    if closed is not None:
        log.warning(
            "table %s of guild %s in channel %s closed by itself (%s): everyone cashed out",
            table_id,
            closed.guild_id,
            closed.channel_id,
            why,
        )
    return closed


async def channel_deleted(bot: BondBot, guild_id: int, channel_id: int) -> None:
    """CHANNEL_DELETE: the channel's open table closes."""
    if not bot.services.tables.shards.owns(guild_id):
        return
    async with bot.db.read() as conn:  # type: ignore[union-attr]
        table_id = await stored.open_in_channel(conn, channel_id)
    if table_id is not None:
        await close_gone(bot, table_id, CHANNEL_DELETED)


async def bot_removed(bot: BondBot, guild_id: int) -> None:
    """GUILD_DELETE that is not an outage: every open table of the guild closes."""
    if not bot.services.tables.shards.owns(guild_id):
        return
    for table in await bot.services.tables.guild_tables(guild_id):
        await close_gone(bot, table.id, BOT_REMOVED)


async def channel_exists(bot: BondBot, guild: discord.Guild, channel_id: int) -> bool:
    """False only when Discord says the channel is unknown (10003): a channel missing from
    the cache (an archived thread) is asked for, and any other answer keeps the table."""
    if guild.get_channel_or_thread(channel_id) is not None:
        return True
    try:
        await bot.fetch_channel(channel_id)
    except discord.HTTPException as error:  # no access, Discord unwell: not proof it is gone
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
            return False
        log.info("channel %s of a table: %s; the table stays open", channel_id, error)
    return True


async def check_guild(bot: BondBot, guild: discord.Guild) -> None:
    """A guild available (at start, after an outage): close its tables whose channel was
    deleted while the bot was away."""
    if guild.unavailable or not bot.services.tables.shards.owns(guild.id):
        return
    for table in await bot.services.tables.guild_tables(guild.id):
        if not await channel_exists(bot, guild, table.channel_id):
            await close_gone(bot, table.id, CHANNEL_DELETED)
