"""The bot object: opens the database, loads the cogs, syncs commands, resumes tables,
and shuts down cleanly on SIGTERM (what `docker stop` and systemd send)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

from bondbot import background
from bondbot.bot import health
from bondbot.bot.context import answer_error, lang_for, send
from bondbot.bot.deliveries import Deliveries
from bondbot.bot.router import Router
from bondbot.bot.tables import orphans
from bondbot.bot.translator import CommandTranslator
from bondbot.config import ConfigError, Settings
from bondbot.i18n import t
from bondbot.services import Services
from bondbot.storage.db import WRITE_DEADLINE_S, Database, answer_by
from bondbot.storage.leases import Leases
from bondbot.storage.repeats import REPEAT_WINDOW
from bondbot.storage.writer import deadline_after

log = logging.getLogger(__name__)


def _not_about_voice(record: logging.LogRecord) -> bool:
    """discord.py warns at every start that PyNaCl and davey (voice) are missing: the bot
    speaks no voice, so an operator would only wonder what to install."""
    return not str(record.msg).endswith("is not installed, voice will NOT be supported")


logging.getLogger("discord.client").addFilter(_not_about_voice)
# What a shutdown gives the interactions in flight: `docker stop` kills after 10 s.
DRAIN_TIMEOUT_S = 8.0

COGS = (
    "bondbot.bot.cogs.tables",
    "bondbot.bot.cogs.sheets",
    "bondbot.bot.cogs.gm",
    "bondbot.bot.cogs.roll",
    "bondbot.bot.cogs.help",
)


GC_YOUNG_THRESHOLD = 7000  # Python's default is 700


class BondTree(app_commands.CommandTree):
    """Sends every command error through the one error answer; turns commands away while
    the bot shuts down."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await self.client.admit(interaction)  # type: ignore[attr-defined]

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await answer_error(interaction, error.original if hasattr(error, "original") else error)


class BondBot(commands.AutoShardedBot):
    """The real bot; tests start this same object against the fake Discord.

    Sharded even as the single process: unconfigured, it runs every shard Discord
    recommends (one for a small bot); with `shard_count`/`shard_ids` it runs its own part
    and serves only their guilds (bondbot/shards.py).
    """

    def __init__(
        self,
        settings: Settings,
        *,
        guild_ready_timeout: float = 2.0,
        message_interval: float = 1.0,
        freeze_gc: bool = True,
        **services_options: Any,
    ) -> None:
        if settings.discord_api_base:
            discord.http.Route.BASE = settings.discord_api_base
        super().__init__(
            command_prefix=commands.when_mentioned,
            # Guild messages: MESSAGE_DELETE of a table's message (it is posted again). Not
            # their content (privileged), and none kept: the bot reads no message.
            intents=discord.Intents(guilds=True, guild_messages=True),
            max_messages=None,
            help_command=None,
            tree_cls=BondTree,
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            shard_count=settings.shards.count,
            shard_ids=None if settings.shards.ids is None else list(settings.shards.ids),
        )
        self.settings = settings
        self.message_interval = message_interval  # the least time between two table edits
        self.freeze_gc = freeze_gc
        self.router = Router()
        self.deliveries = Deliveries(REPEAT_WINDOW.total_seconds())
        self._services_options = services_options
        self._in_flight: set[asyncio.Task[Any]] = set()
        self.draining = False  # shutting down: no new interaction is taken
        self.db: Database | None = None
        self.services: Services
        self._heartbeat: asyncio.Task[None] | None = None
        self.leases: Leases | None = None
        self.lease_lost: str | None = None  # why it stopped serving, if another took over

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database)
        applied = await self.db.migrate()
        if applied:
            log.info("applied migrations %s", applied)
        self.db.watch()  # an outage noticed without a click (the health file says it)
        leases = Leases(self.db, self.settings.shards, self._lost_lease)
        await leases.take()  # one process per shard: refused in one line if not
        self.leases = leases
        self.services = Services(self.db, self.settings, **self._services_options)
        log.info("serving %s", self.settings.shards.describe())
        if self.settings.discord_api_base:  # a test double: its gateway, not Discord's
            _, url, _ = await self.http.get_bot_gateway()
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
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
        self._heartbeat = background.spawn(
            health.beat(
                self,
                health.heartbeat_path(self.settings.database, self.settings.shards),
                self.db.link,
            ),
            name="health",
        )
        if self.freeze_gc:
            # What start-up built (cogs, commands, tables, catalogs) lives as long as the
            # bot: out of the collector's reach, its full passes walk only what play makes
            # (bench/load/load.py --gc: the longest gen-2 pause halves). Interactions are freed
            # as soon as they are answered (`_release`), so the young generation can wait
            # for ten times more objects: each pass walks the interactions in flight, and
            # far fewer passes took GC from 13% to 4% of the bot's time under load. Tests
            # start many bots in one process and leave both off.
            gc.freeze()
            gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])

    def _lost_lease(self, line: str) -> None:
        """Another process serves these shards now: stop, rather than serve them twice."""
        self.lease_lost = line
        background.spawn(self.shutdown(), name="bondbot-lease-lost")

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Count this interaction as in flight, or, while shutting down, say so and drop it."""
        if self.draining:
            await _turn_away(interaction)
            return False
        answer_by.set(deadline_after(WRITE_DEADLINE_S))  # counted from its start, not its write
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
            task.add_done_callback(lambda _: _release(interaction))
        return True

    async def shutdown(self, timeout: float = DRAIN_TIMEOUT_S) -> None:
        """Stop taking interactions, let those in flight finish, then close Discord and the
        database (Database.close waits for a transaction under way)."""
        self.draining = True
        pending = self._in_flight - {asyncio.current_task()}
        log.info("shutting down: %d interaction(s) in flight", len(pending))
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            if late:
                log.warning("%d interaction(s) still running after %.0f s", len(late), timeout)
        await self.close()
        log.info("shut down cleanly")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        routed = self.router.resolve(interaction)
        if routed is None or not await self.admit(interaction):
            return
        handler, args = routed
        try:
            await handler(interaction, args)
        except Exception as error:  # every failure gets an answer, never a silent click
            await answer_error(interaction, error)

    # -- what moderators and Discord do to a table's message, thread and permissions -------

    def _table_messages(self) -> Any:
        """The tables' messages (bot/tables/messages.py), once the Tables cog is loaded."""
        return getattr(self.get_cog("Tables"), "messages", None)

    def _mend(self, method: str, *args: Any) -> None:
        """Hand an event to the tables' messages, as the bot's own work (`background`)."""
        messages = self._table_messages()
        if messages is None:
            return

        async def run() -> None:
            try:
                await getattr(messages, method)(*args)
            except Exception:
                log.exception("tables: %s%s failed", method, args)

        background.spawn(run())

    async def on_message(self, message: discord.Message) -> None:
        """Guild messages come only for their deletion: no prefix command is read."""

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            self._mend("message_deleted", payload.guild_id, {payload.message_id})

    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            self._mend("message_deleted", payload.guild_id, set(payload.message_ids))

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self._mend("thread_deleted", payload.guild_id, payload.thread_id)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        self._mend("permissions_changed", after.guild.id)  # its overwrites, perhaps

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self._mend("permissions_changed", after.guild.id)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if self.user is not None and after.id == self.user.id:
            self._mend("permissions_changed", after.guild.id)

    # -- a table whose channel or server is gone ------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A table whose channel was deleted closes by itself (bot/tables/orphans.py); so
        does one in a thread of that channel, which Discord deleted with it."""
        await orphans.channel_deleted(self, channel.guild.id, channel.id)
        await orphans.check_guild(self, channel.guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from the server (not an outage: discord.py tells those
        apart): its tables close, their money back on the sheets."""
        await orphans.bot_removed(self, guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """At start or after an outage: tables whose channel went while the bot was away."""
        await orphans.check_guild(self, guild)

    async def close(self) -> None:
        await super().close()
        if self._heartbeat is not None:  # a stopped bot is not healthy: its file goes
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        if self.leases is not None:  # given back: a restart takes the shards at once
            await self.leases.release()
            self.leases = None
        if self.db is not None:
            await self.db.close()
            self.db = None


def _release(interaction: discord.Interaction) -> None:
    """Once its handler is done, cut the interaction loose from what refers back to it.

    discord.py's Interaction and its cached InteractionResponse refer to each other, as does
    our Reply kept in its `extras`: each interaction, with the message and the twenty buttons
    it carries, would otherwise wait for the garbage collector instead of being freed at
    once, and under load its passes took 15-25% of the bot's time (bench/load/load.py --gc).
    """
    interaction.extras.clear()
    with contextlib.suppress(AttributeError):  # discord.py builds it again if asked
        del interaction._cs_response


async def _turn_away(interaction: discord.Interaction) -> None:
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await send(interaction, t("errors.restarting", await lang_for(interaction)))
    except discord.HTTPException:
        log.info("could not turn interaction %s away", interaction.id)


async def serve(bot: BondBot, token: str) -> None:
    """Run the bot until Discord stops it or a SIGTERM/SIGINT asks it to shut down."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        running = background.spawn(bot.start(token), name="bondbot")
        stopping = background.spawn(stop.wait(), name="bondbot-stop")
        done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if running in done:
            running.result()  # why it stopped (a refused token, Discord unreachable…)
            return
        await bot.shutdown()
        await running
