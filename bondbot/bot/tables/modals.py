"""The one-field amount modal the table buttons open, and reading its answer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bondbot.bot.router import FormField, custom_id, modal_view
from bondbot.bot.tables.actions import Click
from bondbot.bot.tables.common import AREA
from bondbot.i18n import Lang, t
from bondbot.money import amount_or_refuse, format_amount

UNIT = 100  # a whole unit of the currency, in cents: the limits a form states are whole

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


def whole_limits(low: int, high: int | None) -> tuple[int, int | None]:
    """The limits a form states, in whole units, rounded so that the amounts it states are
    allowed: the least up, the most down ($10 to $66.66 is "$10 to $66"). Exact when no
    whole unit lies between them."""
    up = -(-low // UNIT) * UNIT
    down = None if high is None else high // UNIT * UNIT
    if down is not None and down < up:
        return low, high
    return up, down


def limits_hint(lang: Lang, money: str, low: int, high: int | None = None) -> str:
    """A form's placeholder for an amount from `low` to `high` (None: no most), in whole
    units: "Between $10 and $66", "At least $10"."""
    least, most = whole_limits(low, high)
    if most is None:
        return t("table.hint_at_least", lang, min=format_amount(least, money))
    return t(
        "table.hint_between",
        lang,
        min=format_amount(least, money),
        max=format_amount(most, money),
    )


def most_hint(lang: Lang, money: str, most: int) -> str:
    """A form's placeholder for an amount up to a player's chips, rounded down to a whole
    unit when he has one: "At most $66 (your chips)"."""
    whole = most // UNIT * UNIT or most
    return t("table.hint_at_most", lang, most=format_amount(whole, money))
