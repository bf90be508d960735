"""The table's language: what everything public at a table is written in.

The GM chooses it at `/table open` (`language`, default the server's) and it is kept in
the table's config. The table message (its embed and buttons), the thread's name, the
result posts, the closed table, the summary and its chart use it; answers, forms and
panels, which only the clicker sees, stay in his own Discord language (`bot.reply`).
"""

from __future__ import annotations

from bondbot.i18n import Lang
from bondbot.money import Currency
from bondbot.storage.settings import GuildSettings
from bondbot.tables.service import TableSnapshot


def table_lang(snapshot: TableSnapshot, settings: GuildSettings) -> Lang:
    """The language of the table's public messages: its own, or (a table saved before it
    had one) the server's."""
    return snapshot.state.config.language or settings.locale


def table_money(snapshot: TableSnapshot, settings: GuildSettings) -> Currency:
    """The server's currency, its amounts written as the table's language writes them."""
    return Currency(settings.currency, table_lang(snapshot, settings))
