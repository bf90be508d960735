"""What every cog needs of an interaction: its language, answers, and the GM check."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bondbot.bot.reply import reply_to
from bondbot.errors import Refusal
from bondbot.i18n import Lang, t
from bondbot.money import Cents, Currency, format_amount
from bondbot.rules.errors import IllegalAction
from bondbot.storage.writer import Busy

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

log = logging.getLogger(__name__)
CONTENT_MAX = 2000  # Discord refuses a message whose content is longer
ECHO_MAX = 100  # what a refusal quotes of one line the user typed


def clip(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bot_of(interaction: discord.Interaction) -> BondBot:
    return interaction.client  # type: ignore[return-value]


async def lang_for(interaction: discord.Interaction) -> Lang:
    """The user's Discord language if French or English, else the server's."""
    return (await reply_to(interaction)).lang


async def currency_for(interaction: discord.Interaction) -> Currency:
    """The server's currency, its amounts written in the user's language."""
    return (await reply_to(interaction)).currency


async def send(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Answer the interaction, or follow up if it was already answered or deferred.

    Content over Discord's limit would get no answer at all: it is cut (and logged, as
    every message should have been built short enough)."""
    if content is not None and len(content) > CONTENT_MAX:
        log.warning("answer of %d characters cut to %d", len(content), CONTENT_MAX)
        content = clip(content, CONTENT_MAX)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=ephemeral, **kwargs)


async def say(interaction: discord.Interaction, key: str, /, **params: Any) -> None:
    """Answer privately with one translated message."""
    await send(interaction, t(key, await lang_for(interaction), **params))


def _shown(value: object, currency: str) -> object:
    """A refusal's parameter as the message shows it: amounts with the currency; one line
    of text (what the user typed, or a name) at most ECHO_MAX characters."""
    if isinstance(value, Cents):
        return format_amount(value, currency)
    if isinstance(value, str) and "\n" not in value:
        return clip(value, ECHO_MAX)
    return value


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Refusals get their translated message; our own faults are logged, never shown."""
    if isinstance(error, Refusal):
        key, params = error.key, error.params
    elif isinstance(error, IllegalAction):
        key, params = error.code, error.params
    elif isinstance(error, app_commands.MissingPermissions):
        key, params = "errors.missing_permissions", {}
    elif isinstance(error, app_commands.NoPrivateMessage):
        key, params = "errors.guild_only", {}
    elif isinstance(error, Busy):  # another process held the database past the deadline
        key, params = "errors.busy", {}
    else:
        log.error(
            "interaction %s by %s in guild %s failed: %r",
            interaction.data,
            interaction.user.id,
            interaction.guild_id,
            error,
            exc_info=error,
        )
        key, params = "errors.internal", {}
    try:
        lang = await lang_for(interaction)
        currency = await currency_for(interaction)
    except Exception:
        lang = bot_of(interaction).settings.default_locale
        currency = Currency(bot_of(interaction).settings.currency, lang)
    params = {name: _shown(value, currency) for name, value in params.items()}
    try:
        await send(interaction, t(key, lang, **params))
    except discord.HTTPException:
        log.exception("could not tell user %s about %s", interaction.user.id, key)


async def require_gm(interaction: discord.Interaction) -> None:
    """Refuse anyone without the server's GM role (set with /gm role)."""
    if interaction.guild_id is None:
        raise Refusal("errors.guild_only")
    settings = await bot_of(interaction).services.guilds.get(interaction.guild_id)
    if settings.gm_role_id is None:
        raise Refusal("errors.no_gm_role")
    roles = getattr(interaction.user, "roles", [])
    if not any(role.id == settings.gm_role_id for role in roles):
        raise Refusal("errors.not_gm")


async def is_gm(interaction: discord.Interaction) -> bool:
    try:
        await require_gm(interaction)
    except Refusal:
        return False
    return True
