"""`/table open <game>`: what every game's opening command shares.

Each game declares its own subcommand (its options differ, and Discord allows 25 a
command); they all take the same first options and end here.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import reply_to
from bondbot.bot.sheet_views import actor_of
from bondbot.bot.tables.modals import parse_amount_or_refuse
from bondbot.tables.service import TableSnapshot

# The descriptions of the options every game's opening command has.
COMMON = {
    "npc": "The NPC who holds the bank",
    "minimum": "Smallest wager",
    "maximum": "Largest wager",
    "packs": "Packs in the shoe",
    "bankroll": "The NPC's bankroll (empty: unlimited)",
    "other_npcs": "Other NPCs playing too, comma-separated: then only the rulebook is played",
}


async def npc_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    names = await bot_of(interaction).services.sheets.names(
        await actor_of(interaction), current, kind="NPC"
    )
    return [app_commands.Choice(name=name, value=name) for name in names]


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
) -> TableSnapshot:
    """Open `game` in this channel for the GM, and answer with the shoe's commitment."""
    await require_gm(interaction)
    reply = await reply_to(interaction)
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
    )
    if snapshot.state.rulebook_only:
        await reply.say("table.opened_rulebook_only", count=len(others) + 1)
    else:
        await reply.say("table.opened", commitment=snapshot.state.shoes[-1].commitment)
    return snapshot
