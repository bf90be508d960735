"""Pieces every game's table rendering shares."""

from __future__ import annotations

from typing import Any

import discord

from bondbot.bot.router import ButtonSpec, custom_id
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.cards import cards_pretty, parse_cards
from bondbot.tables.service import TableSnapshot

AREA = "tbl"


def cards(codes: str) -> str:
    """`As Td` shown as `A♠ 10♦`; a dash for no cards."""
    return cards_pretty(parse_cards(codes)) if codes else "—"


def names(snapshot: TableSnapshot) -> dict[int, str]:
    """Character id → name, for everyone at the table, NPC included."""
    found = {seat.character_id: seat.name for seat in snapshot.state.seats}
    found[snapshot.state.npc_id] = snapshot.state.npc_name
    return found


def quality(value: int | None, lang: Lang) -> str:
    return t("quality.failure", lang) if value is None else t(f"quality.qr{value}", lang)


def result_line(lang: Lang, money: str, name: str, net: int, **params: Any) -> str:
    """`Bond wins $50 (…)`, `loses`, or `stake returned`, by the sign of `net`."""
    key = "table.result_win" if net > 0 else "table.result_loss" if net < 0 else "table.result_push"
    return t(key, lang, name=name, net=format_amount(abs(net), money), **params)


def table_button(
    lang: Lang,
    table: int,
    key: str,
    action: str,
    *args: object,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
    disabled: bool = False,
    **params: Any,
) -> ButtonSpec:
    """A button of the table message: `bb:tbl:<table>:<action>:<args>`."""
    return ButtonSpec(
        t(key, lang, **params),
        custom_id(AREA, table, action, *args),
        style=style,
        row=row,
        disabled=disabled,
    )
