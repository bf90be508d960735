"""`/help`, `/rules` and the welcome a new server gets: what the bot does and what to do next.

`/help` is one private embed: what the bot does, the GM's first three commands, each
game's rules in a few lines and the alternative rule by example. `/rules game:` gives one
topic's few lines and attaches its full text, the specification shipped with the bot
(`bondbot.rules_text`, in English). When the bot joins a server, one message in the
server's system channel, if it may post there, says the next step (`/gm role`); nothing
is sent anywhere else, and no one is messaged directly.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from bondbot.bot.client import BondBot
from bondbot.bot.context import currency_for, lang_for, send
from bondbot.games.registry import all_games
from bondbot.i18n import Lang, lang_of, t
from bondbot.money import format_amount
from bondbot.rules_text import GAMES, TOPICS, full_text

log = logging.getLogger(__name__)
COLOUR = discord.Colour(0x1F8B4C)
TOPIC_CHOICES = [
    app_commands.Choice(name=t(f"help.topics.{key}.name", "en"), value=key) for key in TOPICS
]


EXAMPLE_STAKE = 50_000  # the alternative rule's example: $500 staked, $1,000 paid


def topic_rules(topic: str, lang: Lang, money: str) -> str:
    """A topic's few lines, its amounts in the server's currency as `lang` writes them
    (`money`, a `Currency`: "$500" in English, "500 $" in French)."""
    if topic != "alternative":
        return t(f"help.topics.{topic}.rules", lang)
    stake, paid = (format_amount(cents, money) for cents in (EXAMPLE_STAKE, 2 * EXAMPLE_STAKE))
    return t("help.topics.alternative.rules", lang, stake=stake, paid=paid)


def help_embed(lang: Lang, playable: set[str], money: str = "$") -> discord.Embed:
    """The whole of /help; a game not yet at the bot's tables is marked as coming."""
    embed = discord.Embed(title=t("help.title", lang), description=t("help.about", lang))
    embed.colour = COLOUR
    embed.add_field(name=t("help.first_steps_title", lang), value=t("help.first_steps", lang))
    for key in GAMES:
        name = t(f"help.topics.{key}.name", lang)
        if key not in playable:
            name = f"{name} {t('help.coming', lang)}"
        embed.add_field(name=name, value=t(f"help.topics.{key}.rules", lang))
    embed.add_field(
        name=t("help.alternative_title", lang), value=topic_rules("alternative", lang, money)
    )
    embed.set_footer(text=t("help.rules_hint", lang))
    return embed


def rules_embed(topic: str, lang: Lang, money: str = "$") -> discord.Embed:
    text = f"{topic_rules(topic, lang, money)}\n\n{t('help.full_text', lang)}"
    embed = discord.Embed(title=t(f"help.topics.{topic}.name", lang), description=text)
    embed.colour = COLOUR
    return embed


def welcome_channel(guild: discord.Guild) -> discord.TextChannel | None:
    """The server's system channel, if the bot may read and write there."""
    channel = guild.system_channel
    if channel is None:
        return None
    allowed = channel.permissions_for(guild.me)
    return channel if allowed.view_channel and allowed.send_messages else None


class Help(commands.Cog):
    def __init__(self, bot: BondBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What BondBot does, and how to start")
    @app_commands.guild_only()
    async def help(self, interaction: discord.Interaction) -> None:
        playable = {spec.key for spec in all_games()}
        lang, money = await lang_for(interaction), await currency_for(interaction)
        await send(interaction, embed=help_embed(lang, playable, money))

    @app_commands.command(name="rules", description="A game's rules, with the full text attached")
    @app_commands.describe(game="The game, or the rule, to explain")
    @app_commands.choices(game=TOPIC_CHOICES)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        lang = await lang_for(interaction)
        attached = discord.File(io.BytesIO(full_text(game)), filename=TOPICS[game])
        money = await currency_for(interaction)
        await send(interaction, embed=rules_embed(game, lang, money), file=attached)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """One welcome, in the server's language: Discord's when French or English (a new
        server has no settings yet), else the bot's default."""
        channel = welcome_channel(guild)
        if channel is None:
            log.info("joined server %s: no system channel the bot may post in", guild.id)
            return
        settings = await self.bot.services.guilds.get(guild.id)
        lang = lang_of(str(guild.preferred_locale), settings.locale)
        try:
            await channel.send(t("help.welcome", lang))
        except discord.HTTPException:
            log.exception("joined server %s: the welcome could not be sent", guild.id)


async def setup(bot: BondBot) -> None:
    await bot.add_cog(Help(bot))
