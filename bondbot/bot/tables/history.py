"""`/table history`: the table's hands a page at a time, newest first, each PC's result on
each, with the latest shoes' commitments. Read from the ledger, so the pages (their
buttons carry the page) work after a restart."""

from __future__ import annotations

import discord

from bondbot.bot.context import bot_of
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec, custom_id, view_of
from bondbot.bot.tables.common import AREA, short
from bondbot.bot.tables.story import SHOES_IN_HISTORY, verify_answer
from bondbot.storage import characters, ledger
from bondbot.tables.summary import evening, hand_results, hand_title

HISTORY_PAGE = 10  # hands on a page of /table history


async def show_history(reply: Reply, table: int, page: int, *, edit: bool) -> None:
    """A page of the table's hands, newest first, each PC's result on each; read from the
    ledger, so the pages (their buttons carry the page) work after a restart."""
    bot = bot_of(reply.interaction)
    snapshot = await bot.services.tables.snapshot(table)
    async with bot.db.read() as conn:  # type: ignore[union-attr]
        story = evening(await ledger.table_entries(conn, table), table)
        names = {**snapshot.state.sat, **{s.character_id: s.name for s in snapshot.state.seats}}
        for pc in story.pcs:
            if pc.character_id not in names:
                found = await characters.get_character(conn, pc.character_id, include_dead=True)
                names[pc.character_id] = found.name
    hands = list(reversed(hand_results(story)))
    pages = max(1, -(-len(hands) // HISTORY_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = hands[page * HISTORY_PAGE : (page + 1) * HISTORY_PAGE]
    lines = [
        reply.t(
            "table.history_line",
            heading=hand_title(snapshot.state.config.game, reply.lang, hand),
            results=", ".join(
                f"{short(names.get(pc, '?'))} {'+' if net > 0 else '−'}{reply.money(abs(net))}"
                for pc, net in sorted(moved.items(), key=lambda item: -item[1])
            ),
        )
        for hand, moved in shown
    ]
    embed = discord.Embed(
        title=reply.t("table.history_title", page=page + 1, pages=pages),
        description="\n".join(lines) or reply.t("table.history_none"),
    )
    buttons = [
        ButtonSpec(
            reply.t("table.btn_history_newer"),
            custom_id(AREA, table, "hist", page - 1),
            disabled=page == 0,
        ),
        ButtonSpec(
            reply.t("table.btn_history_older"),
            custom_id(AREA, table, "hist", page + 1),
            disabled=page >= pages - 1,
        ),
    ]
    shoes, _ = verify_answer(snapshot, reply.lang, SHOES_IN_HISTORY)  # the latest shoes
    if edit:
        await reply.interaction.response.edit_message(embeds=[embed, shoes], view=view_of(buttons))
    else:
        await reply.send(embeds=[embed, shoes], view=view_of(buttons))
