"""The one-field amount modal the table buttons open, and reading its answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bondbot.bot.router import FormField, custom_id, modal_view
from bondbot.bot.tables.actions import Click
from bondbot.bot.tables.common import AREA
from bondbot.i18n import Lang, t
from bondbot.money import amount_or_refuse

AMOUNT_LENGTH = 16
AMOUNT = FormField("amount", AMOUNT_LENGTH)  # the amount every table form asks


def on_field(choices: Sequence[str]) -> FormField:
    """The menu of a choice-and-amount form (`choice_amount_modal`): the values it offers."""
    return FormField("on", max(map(len, choices), default=1), choices=frozenset(choices))


def amount_of(click: Click) -> int:
    """The amount of a submitted one-field form, read as the clicker's language writes it."""
    return parse_amount_or_refuse(click.form(AMOUNT)["amount"], click.reply.lang)


def amount_modal(
    lang: Lang, title_key: str, table: int, action: str, *args: Any, hint: str | None = None
) -> discord.ui.Modal:
    """A modal asking for an amount; its submit comes back as the same table action.
    `hint` (the placeholder) says what the amount may be: "Between $10 and $500"."""
    return modal_view(
        t(title_key, lang),
        custom_id(AREA, table, action, *args),
        [
            discord.ui.TextInput(
                label=t("table.modal_amount", lang),
                custom_id=AMOUNT.name,
                max_length=AMOUNT_LENGTH,
                placeholder=None if hint is None else hint[:100],
            )
        ],
    )


def choice_amount_modal(
    lang: Lang,
    title_key: str,
    table: int,
    action: str,
    *args: Any,
    choice_key: str,
    choices: Sequence[tuple[str, str]],
    hint: str | None = None,
) -> discord.ui.Modal:
    """A form asking what on (a menu of `choices`: value, label) and how much: one button
    and one form where a game had a button per choice. The choice comes back as `on`."""
    modal = discord.ui.Modal(
        title=t(title_key, lang), custom_id=custom_id(AREA, table, action, *args), timeout=None
    )
    menu = discord.ui.Select(  # type: ignore[var-annotated]
        custom_id="on",
        options=[discord.SelectOption(label=label, value=value) for value, label in choices],
    )
    modal.add_item(discord.ui.Label(text=t("table.modal_on", lang), component=menu))
    amount = discord.ui.TextInput(  # type: ignore[var-annotated]
        custom_id=AMOUNT.name,
        max_length=AMOUNT_LENGTH,
        placeholder=None if hint is None else hint[:100],
    )
    modal.add_item(discord.ui.Label(text=t("table.modal_amount", lang), component=amount))
    modal.stop()
    return modal


def parse_amount_or_refuse(text: str, lang: Lang) -> int:
    """An amount typed in a table command or modal, read as the user's language writes it."""
    return amount_or_refuse(text, lang)
