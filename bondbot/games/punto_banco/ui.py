"""Punto banco on the table message: wagers by buttons and a modal, the GM deals."""

from __future__ import annotations

import discord
from discord import app_commands

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, result_line, table_button
from bondbot.bot.tables.modals import amount_modal, parse_amount_or_refuse
from bondbot.bot.tables.opening import (
    COMMON,
    LANGUAGE,
    LANGUAGE_CHOICES,
    npc_names,
    open_table,
)
from bondbot.errors import Refusal
from bondbot.games.punto_banco.engine import BETS, PuntoBanco
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.tables.service import TableSnapshot

_STYLES = {
    "player": discord.ButtonStyle.primary,
    "banker": discord.ButtonStyle.danger,
    "tie": discord.ButtonStyle.success,
}


def engine_of(snapshot: TableSnapshot) -> PuntoBanco:
    engine = snapshot.state.engine
    assert isinstance(engine, PuntoBanco)
    return engine


@app_commands.command(name="punto_banco", description="Open a punto banco table (GM)")
@app_commands.describe(
    **COMMON,
    **LANGUAGE,
    tie_pays="A tie pays 8 or 9 to 1",
    auto_deal="Deal by itself this many seconds after a coup's first wager",
)
@app_commands.choices(
    tie_pays=[
        app_commands.Choice(name="8:1", value=8),
        app_commands.Choice(name="9:1", value=9),
    ]
)
@app_commands.choices(language=LANGUAGE_CHOICES)
@app_commands.autocomplete(npc=npc_names)
@app_commands.guild_only()
async def open_command(
    interaction: discord.Interaction,
    npc: str,
    minimum: str,
    maximum: str,
    packs: int | None = None,
    bankroll: str | None = None,
    other_npcs: str | None = None,
    tie_pays: int = 8,
    auto_deal: app_commands.Range[int, 5, 600] | None = None,
    thread: bool = True,
    language: str | None = None,
) -> None:
    await open_table(
        interaction,
        PuntoBanco.key,
        npc=npc,
        minimum=minimum,
        maximum=maximum,
        packs=packs,
        bankroll=bankroll,
        other_npcs=other_npcs,
        options={"tie_pays": tie_pays, "auto_deal_s": auto_deal},
        thread=thread,
        language=language,
    )


actions = TableActions()


@actions.on("bet", str)
async def _bet(click: Click, on: str) -> None:
    if not click.submitted:
        modal = amount_modal(click.reply.lang, f"baccarat.bet_{on}", click.table, "bet", on)
        await click.interaction.response.send_modal(modal)
    else:
        await wager(click.reply, click.table, on, click.values.get("amount", ""))


@actions.on("again")
async def _again(click: Click) -> None:
    tables = bot_of(click.interaction).services.tables
    await placed(click.reply, await tables.act(click.table, click.user_id, "again"))


async def wager(reply: Reply, table: int, on: str, amount: str) -> None:
    snapshot = await bot_of(reply.interaction).services.tables.act(
        table,
        reply.interaction.user.id,
        "wager",
        target=on,
        amount=parse_amount_or_refuse(amount, reply.lang),
    )
    await placed(reply, snapshot)


async def placed(reply: Reply, snapshot: TableSnapshot) -> None:
    """Tell the player, privately, the wager he now has on the next coup."""
    seat = snapshot.state.seat_of_user(reply.interaction.user.id)
    wager = engine_of(snapshot).wagers[str(seat.character_id if seat else "")]
    await reply.say(
        "table.wager_placed",
        bet=reply.t(f"baccarat.bet_{wager.bet}"),
        amount=reply.money(wager.amount),
    )


class PuntoBancoUI:
    actions = actions
    open_command = open_command

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        wager = engine_of(snapshot).wagers.get(str(character_id))
        if wager is None:
            return None
        return t(
            "table.wager_line",
            lang,
            bet=t(f"baccarat.bet_{wager.bet}", lang),
            amount=format_amount(wager.amount, money),
        )

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        last = engine_of(snapshot).last
        if last is None:
            return []
        who = names(snapshot)
        lines = [
            t(
                "table.coup_line",
                lang,
                hand=last.hand,
                player=cards(last.player),
                player_total=last.player_total,
                banker=cards(last.banker),
                banker_total=last.banker_total,
                winner=t(f"baccarat.bet_{last.winner}", lang),
            )
        ]
        for line in last.results:
            lines.append(
                result_line(
                    lang,
                    money,
                    who.get(int(line.seat), "?"),
                    line.net,
                    bet=t(f"baccarat.bet_{line.bet}", lang),
                    amount=format_amount(line.amount, money),
                )
            )
        for offer in snapshot.state.offers:
            if offer.spent and offer.hand == last.hand:
                lines.append(t("table.spent_line", lang, name=who.get(offer.character_id, "?")))
        return [(t("table.last_hand", lang), "\n".join(lines))]

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        table = snapshot.id
        specs = [
            table_button(lang, table, f"baccarat.bet_{bet}", "bet", bet, style=_STYLES[bet], row=1)
            for bet in BETS
        ]
        specs.append(table_button(lang, table, "baccarat.again", "again", row=1))
        specs.append(table_button(lang, table, "table.btn_deal", "deal", row=1))
        return specs

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        if on is None:
            raise Refusal("baccarat.unknown_bet")
        await wager(reply, table, on, amount)

    async def deal(self, reply: Reply, table: int) -> None:
        await require_gm(reply.interaction)
        snapshot = await bot_of(reply.interaction).services.tables.act(
            table, reply.interaction.user.id, "deal", as_gm=True
        )
        await reply.say("table.dealt", hand=snapshot.state.hand_no)


UI = PuntoBancoUI()
