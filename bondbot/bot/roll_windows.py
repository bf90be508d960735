"""A roll's Hero Point button goes when its spend window closes (docs/decisions.md).

The roll message is edited at the end of the window: a public roll in its channel, a
secret one through its interaction's token, which Discord keeps for 15 minutes. The
messages are known only while the bot runs; after a restart, or for a secret roll whose
window outlives the token, the first click after the window removes the button.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import aiohttp
import discord

from bondbot import background
from bondbot.bot.roll_views import roll_embed
from bondbot.i18n import Lang
from bondbot.services.rolls import Roll

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

log = logging.getLogger(__name__)
TOKEN_LIFETIME = timedelta(minutes=14)  # Discord's 15, less a margin for the edit itself
_KEY = ("roll-windows",)  # its job on the bot's scheduler


@dataclass(frozen=True, slots=True)
class RollMessage:
    roll_id: int
    guild_id: int
    lang: Lang
    closes_at: datetime
    channel_id: int | None = None  # a public roll, edited in its channel
    message_id: int | None = None
    interaction: discord.Interaction | None = None  # a secret roll, edited through its token


class RollWindows:
    """The roll messages whose button is still up, and one timer for the next to close."""

    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self._open: dict[int, RollMessage] = {}

    async def watch(self, interaction: discord.Interaction, roll: Roll, lang: Lang) -> None:
        """Remember the message just sent for `roll`, to close its button in time."""
        closes_at = await self.closes_at(roll)
        entry = RollMessage(roll.id, roll.guild_id, lang, closes_at)
        if roll.secret:
            if closes_at - self.bot.services.clock() > TOKEN_LIFETIME:
                return  # the token will be gone: the first late click removes the button
            entry = replace(entry, interaction=interaction)
        else:
            try:
                message = await interaction.original_response()
            except (discord.HTTPException, aiohttp.ClientError) as exc:  # a late click will do
                log.info("roll %s: no message to close later: %s", roll.id, exc)
                return
            entry = replace(entry, channel_id=message.channel.id, message_id=message.id)
        self._open[roll.id] = entry
        self._arm()

    async def closes_at(self, roll: Roll) -> datetime:
        settings = await self.bot.services.guilds.get(roll.guild_id)
        return roll.expires_at(settings.spend_window_s)

    async def window_open(self, roll: Roll) -> bool:
        return self.bot.services.clock() <= await self.closes_at(roll)

    async def close_due(self) -> None:
        """Take the button off every roll message whose window has closed (the timer's job)."""
        now = self.bot.services.clock()
        for roll_id, entry in list(self._open.items()):
            if entry.closes_at > now:
                continue
            del self._open[roll_id]
            try:
                await self._close(entry)
            except discord.HTTPException as exc:  # deleted, or a token gone: a click will do
                log.info("could not close the window of roll %s: %s", roll_id, exc)
        self._arm()

    def stop(self) -> None:
        self.bot.services.scheduler.cancel(_KEY)

    async def _close(self, entry: RollMessage) -> None:
        roll = await self.bot.services.rolls.get(entry.guild_id, entry.roll_id)
        embed = roll_embed(roll, entry.lang, window_open=False)
        if entry.interaction is not None:
            await entry.interaction.edit_original_response(embed=embed, view=None)
        elif entry.channel_id is not None and entry.message_id is not None:
            channel = self.bot.get_partial_messageable(entry.channel_id, guild_id=entry.guild_id)
            await channel.get_partial_message(entry.message_id).edit(embed=embed, view=None)

    def _arm(self) -> None:
        """One job on the bot's scheduler, for the next window to close."""
        if not self._open:
            self.stop()
            return
        closes_at = min(entry.closes_at for entry in self._open.values())
        self.bot.services.scheduler.at(
            _KEY,
            closes_at + timedelta(milliseconds=50),
            lambda: background.spawn(self.close_due()),
        )
