"""What every answer to one interaction needs, looked up once: the user's language and the
server's currency (a `Currency` carrying the user's language, so amounts in his answers are
written as his language writes them).

`reply_to(interaction)` reads the server's settings the first time it is asked about an
interaction and keeps the answer in the interaction's `extras` (discord.py's place for a
handler's own data), so a handler and the helpers it calls stop fetching the same settings
again and again, and the answer lives exactly as long as the interaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bondbot.i18n import Lang, lang_of, t
from bondbot.money import Cents, Currency, format_amount

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

_EXTRA = "bondbot.reply"


@dataclass(frozen=True, slots=True)
class Reply:
    interaction: discord.Interaction
    lang: Lang  # the user's Discord language if French or English, else the server's
    server_lang: Lang  # what the server's public messages are written in
    currency: Currency  # the server's symbol, its amounts written in `lang`

    def t(self, key: str, /, **params: Any) -> str:
        """A message in the user's language; `Cents` parameters shown as money."""
        return t(key, self.lang, **self.formatted(params))

    def money(self, cents: int) -> str:
        return format_amount(cents, self.currency, self.lang)

    def formatted(self, params: dict[str, Any]) -> dict[str, Any]:
        return {
            name: self.money(value) if isinstance(value, Cents) else value
            for name, value in params.items()
        }

    async def send(
        self, content: str | None = None, *, ephemeral: bool = True, **kwargs: Any
    ) -> None:
        """Answer the interaction, or follow up if it was already answered or deferred."""
        response = self.interaction.response
        if response.is_done():
            await self.interaction.followup.send(content, ephemeral=ephemeral, **kwargs)
        else:
            await response.send_message(content, ephemeral=ephemeral, **kwargs)

    async def say(self, key: str, /, **params: Any) -> None:
        """Answer privately with one translated message."""
        await self.send(self.t(key, **params))


async def reply_to(interaction: discord.Interaction) -> Reply:
    known: Reply | None = interaction.extras.get(_EXTRA)
    if known is not None:
        return known
    bot: BondBot = interaction.client  # type: ignore[assignment]
    lang: Lang = bot.settings.default_locale
    currency = bot.settings.currency
    if interaction.guild_id is not None:
        settings = await bot.services.guilds.get(interaction.guild_id)
        lang, currency = settings.locale, settings.currency
    user_lang = lang_of(str(interaction.locale), lang)
    reply = Reply(interaction, user_lang, lang, Currency(currency, user_lang))
    interaction.extras[_EXTRA] = reply
    return reply
