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


NAME_SHOWN = 32  # a name on the table message: ten seats of long names must still fit


def short(name: str, most: int = NAME_SHOWN) -> str:
    """A name cut to `most` characters (an ellipsis marks the cut)."""
    return name if len(name) <= most else name[: most - 1] + "…"


def names(snapshot: TableSnapshot) -> dict[int, str]:
    """Character id → name as the table message shows it, for everyone who sat at the
    table, now or earlier (a PC cashed out keeps his name), and its NPCs."""
    state = snapshot.state
    found = {npc.id: short(npc.name) for npc in state.other_npcs}
    found.update({character_id: short(name) for character_id, name in state.sat.items()})
    found.update({seat.character_id: short(seat.name) for seat in state.seats})
    found[state.npc_id] = short(state.npc_name)
    return found


FIELD_MAX = 1024  # Discord's limit for an embed field's value
EMBED_MAX = 6000  # … and for a whole embed


def add_lines(embed: discord.Embed, name: str, lines: list[str], more: str) -> None:
    """Lines as one field, or as several (the later ones named `more`) when they exceed a
    field's 1,024 characters; a line longer than a field is cut."""
    value = ""
    for line in (line if len(line) <= FIELD_MAX else line[: FIELD_MAX - 1] + "…" for line in lines):
        if value and len(value) + 1 + len(line) > FIELD_MAX:
            embed.add_field(name=name, value=value, inline=False)
            name, value = more, ""
        value = f"{value}\n{line}" if value else line
    if value:
        embed.add_field(name=name, value=value, inline=False)


def fit(embed: discord.Embed) -> discord.Embed:
    """Keep the embed within Discord's 6,000 characters: the last fields (the least
    important: the table message puts seats and the hand first) give way first."""
    while len(embed) > EMBED_MAX and len(embed.fields) > 1:
        embed.remove_field(len(embed.fields) - 1)
    return embed


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
