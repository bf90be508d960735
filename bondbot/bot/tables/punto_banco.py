"""Punto banco on the table message: wagers by buttons and a modal, the GM deals."""

from __future__ import annotations

import discord

from bondbot.bot.context import bot_of, currency_for, lang_for, require_gm, say, send
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.common import cards, names, result_line, table_button
from bondbot.bot.tables.modals import amount_modal, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.tables.service import TableSnapshot

BETS = ("player", "banker", "tie")
_STYLES = {
    "player": discord.ButtonStyle.primary,
    "banker": discord.ButtonStyle.danger,
    "tie": discord.ButtonStyle.success,
}


class PuntoBancoUI:
    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        wager = snapshot.state.engine.get("wagers", {}).get(str(character_id))
        if not wager:
            return None
        return t(
            "table.wager_line",
            lang,
            bet=t(f"baccarat.bet_{wager['bet']}", lang),
            amount=format_amount(wager["amount"], money),
        )

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        last = snapshot.state.last or {}
        if last.get("kind") != "coup":
            return []
        who = names(snapshot)
        lines = [
            t(
                "table.coup_line",
                lang,
                hand=last["hand"],
                player=cards(last["player"]),
                player_total=last["player_total"],
                banker=cards(last["banker"]),
                banker_total=last["banker_total"],
                winner=t(f"baccarat.bet_{last['winner']}", lang),
            )
        ]
        for line in last["results"]:
            lines.append(
                result_line(
                    lang,
                    money,
                    who.get(line["character_id"], "?"),
                    line["net"],
                    bet=t(f"baccarat.bet_{line['bet']}", lang),
                    amount=format_amount(line["amount"], money),
                )
            )
        for offer in snapshot.state.offers:
            if offer.spent and offer.hand == last["hand"]:
                lines.append(t("table.spent_line", lang, name=who.get(offer.character_id, "?")))
        return [(t("table.last_hand", lang), "\n".join(lines))]

    def buttons(self, snapshot: TableSnapshot, lang: Lang) -> list[ButtonSpec]:
        table = snapshot.id
        specs = [
            table_button(lang, table, f"baccarat.bet_{bet}", "bet", bet, style=_STYLES[bet], row=1)
            for bet in BETS
        ]
        specs.append(table_button(lang, table, "baccarat.again", "again", row=1))
        specs.append(table_button(lang, table, "table.btn_deal", "deal", row=1))
        return specs

    async def bet(
        self, interaction: discord.Interaction, table: int, on: str | None, amount: str
    ) -> None:
        if on is None:
            raise Refusal("baccarat.unknown_bet")
        await wager(interaction, table, on, amount)

    async def deal(self, interaction: discord.Interaction, table: int) -> None:
        await deal(interaction, table)

    async def handle(
        self,
        interaction: discord.Interaction,
        table: int,
        action: str,
        args: list[str],
        values: dict[str, str],
    ) -> bool:
        if action == "bet":
            if "amount" not in values:
                lang = await lang_for(interaction)
                await interaction.response.send_modal(
                    amount_modal(lang, f"baccarat.bet_{args[0]}", table, "bet", args[0])
                )
            else:
                await wager(interaction, table, args[0], values["amount"])
            return True
        if action == "again":
            await placed(
                interaction,
                await bot_of(interaction).services.tables.act(table, interaction.user.id, "again"),
            )
            return True
        return False


async def wager(interaction: discord.Interaction, table: int, on: str, amount: str) -> None:
    snapshot = await bot_of(interaction).services.tables.act(
        table,
        interaction.user.id,
        "wager",
        {"bet": on, "amount": parse_amount_or_refuse(amount, await lang_for(interaction))},
    )
    await placed(interaction, snapshot)


async def placed(interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
    """Tell the player, privately, the wager he now has on the next coup."""
    on = str(snapshot.event["bet"])
    lang = await lang_for(interaction)
    money = await currency_for(interaction)
    await send(
        interaction,
        t(
            "table.wager_placed",
            lang,
            bet=t(f"baccarat.bet_{on}", lang),
            amount=format_amount(snapshot.event["amount"], money),
        ),
    )


async def deal(interaction: discord.Interaction, table: int) -> None:
    await require_gm(interaction)
    snapshot = await bot_of(interaction).services.tables.act(
        table, interaction.user.id, "deal", as_gm=True
    )
    await say(interaction, "table.dealt", hand=snapshot.state.hand_no)
