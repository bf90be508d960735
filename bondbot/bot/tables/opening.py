"""`/table open <game>`: where every game's opening ends.

Each game's subcommand is built from the options it declares (`open_commands.py`); they
all take the same first options (`bondbot.games.table_options.COMMON`) and end here.
`language` is the table's: what its public messages are written in (default: the
server's language of the moment).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import discord
from discord import app_commands

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import reply_to
from bondbot.bot.sheet_views import actor_of
from bondbot.bot.tables.message import npc_level_line
from bondbot.bot.tables.messages import table_messages
from bondbot.bot.tables.modals import parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.i18n import LANGS, Lang
from bondbot.tables.service import TableSnapshot

FIRST_POST_WAIT_S = 2.0  # the open answer waits this long for the table's message


async def npc_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = await bot_of(interaction).services.sheets.names(
        await actor_of(interaction), current, kind="NPC"
    )
    return [app_commands.Choice(name=name, value=name) for name in names]


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    found = await bot_of(interaction).services.sheets.names(await actor_of(interaction), current)
    return [app_commands.Choice(name=name, value=name) for name in found]


async def open_table(
    interaction: discord.Interaction,
    game: str,
    *,
    npc: str,
    minimum: str,
    maximum: str,
    packs: int | None,
    bankroll: str | None,
    other_npcs: str | None,
    options: dict[str, Any],
    thread: bool = True,
    language: str | None = None,
) -> TableSnapshot:
    """Open `game` in this channel for the GM, and answer with the shoe's commitment.
    The table speaks `language`, or the server's language of the moment."""
    await require_gm(interaction)
    reply = await reply_to(interaction)
    if language is not None and language not in LANGS:
        raise Refusal("table.bad_options")
    lang: Lang = language or reply.server_lang  # type: ignore[assignment]
    sheets = bot_of(interaction).services.sheets
    npc_id = await sheets.find_id(interaction.guild_id, npc, kind="NPC")
    others = [
        await sheets.find_id(interaction.guild_id, name.strip(), kind="NPC")
        for name in (other_npcs or "").split(",")
        if name.strip()
    ]
    snapshot = await bot_of(interaction).services.tables.open_table(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        actor_id=interaction.user.id,
        game=game,
        npc_id=npc_id,
        min_bet=parse_amount_or_refuse(minimum, reply.lang),
        max_bet=parse_amount_or_refuse(maximum, reply.lang),
        packs=packs,
        bankroll=None if bankroll is None else parse_amount_or_refuse(bankroll, reply.lang),
        options=options,
        other_npc_ids=others,
        thread=thread,
        language=lang,
    )
    if snapshot.state.rulebook_only:
        text = reply.t("table.opened_rulebook_only", count=len(others) + 1)
    else:
        text = reply.t("table.opened", commitment=snapshot.state.shoes[-1].commitment)
        text += "\n" + npc_level_line(snapshot.state, reply.lang)
    if thread:  # where it plays: its thread, or the channel when no thread may be started
        await _first_post(interaction, snapshot.id)
        started = bot_of(interaction).services.tables.latest_thread(snapshot.id)
        if started:
            text += "\n" + reply.t("table.opened_thread", thread=f"<#{started}>")
        elif started == 0:
            text += "\n" + reply.t("table.no_thread_permission")
    await reply.send(text)
    return snapshot


async def _first_post(interaction: discord.Interaction, table_id: int) -> None:
    """Wait (a little) until the table's message is posted and its thread started."""
    messages = table_messages(interaction)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(messages.posted(table_id).wait(), FIRST_POST_WAIT_S)
