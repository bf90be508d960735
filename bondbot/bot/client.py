"""The bot object: opens the database, loads the cogs, syncs commands, resumes tables."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.context import answer_error
from bondbot.bot.deliveries import Deliveries
from bondbot.bot.router import Router
from bondbot.bot.translator import CommandTranslator
from bondbot.config import ConfigError, Settings
from bondbot.services import Services
from bondbot.services.gm import REPEAT_WINDOW
from bondbot.storage.db import Database

log = logging.getLogger(__name__)

COGS = (
    "bondbot.bot.cogs.tables",
    "bondbot.bot.cogs.sheets",
    "bondbot.bot.cogs.gm",
    "bondbot.bot.cogs.roll",
)


class BondTree(app_commands.CommandTree):
    """Sends every command error through the one error answer."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error.original if hasattr(error, "original") else error)


class BondBot(commands.Bot):
    """The real bot; tests start this same object against the fake Discord."""

    def __init__(
        self,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        message_interval: float = 1.0,
        **services_options: Any,
    ) -> None:
        if settings.discord_api_base:
            discord.http.Route.BASE = settings.discord_api_base
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            help_command=None,
            tree_cls=BondTree,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
        )
        self.settings = settings
        self.message_interval = message_interval  # the least time between two table edits
        self.router = Router()
        self.deliveries = Deliveries(REPEAT_WINDOW.total_seconds())
        self._services_options = services_options
        self.db: Database | None = None
        self.services: Services

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database)
        applied = await self.db.migrate()
        if applied:
            log.info("applied migrations %s", applied)
        self.services = Services(self.db, self.settings, **self._services_options)
        for cog in COGS:
            await self.load_extension(cog)
        await self.tree.set_translator(CommandTranslator())
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound):
                raise ConfigError(
                    f"config: `dev_guild_id`: the bot is not in server {guild.id}: add it there"
                    " (README, Creating the Discord application) or remove dev_guild_id"
                ) from None
        else:
            await self.tree.sync()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        routed = self.router.resolve(interaction)
        if routed is None:
            return
        handler, args = routed
        try:
            await handler(interaction, args)
        except Exception as error:  # every failure gets an answer, never a silent click
            await answer_error(interaction, error)

    async def close(self) -> None:
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None
