"""Punto banco on the table message: one Bet button (a form: on what, how much, within the
table's limits), the GM's Deal once the wagers are in; a player's panel has a button per
bet and Same again."""

from __future__ import annotations

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables import modals
from bondbot.bot.tables.acting import may_play
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, result_line, table_button
from bondbot.bot.tables.glance import by_hand_word
from bondbot.bot.tables.messages import table_messages
from bondbot.bot.tables.modals import (
    AMOUNT,
    amount_modal,
    choice_amount_modal,
    on_field,
    parse_amount_or_refuse,
)
from bondbot.errors import Refusal
from bondbot.games.punto_banco.engine import BETS, PuntoBanco
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.tables.service import TableSnapshot

_BLUE = discord.ButtonStyle.primary
_STYLES = {
    "player": discord.ButtonStyle.primary,
    "banker": discord.ButtonStyle.danger,
    "tie": discord.ButtonStyle.success,
}


def engine_of(snapshot: TableSnapshot) -> PuntoBanco:
    engine = snapshot.state.engine
    assert isinstance(engine, PuntoBanco)
    return engine


actions = TableActions()


def limits_hint(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    engine = engine_of(snapshot)
    return modals.limits_hint(lang, money, engine.min_bet, engine.max_bet)


@actions.on("bets", form=True)
async def _bets(click: Click) -> None:
    """The table's one Bet button: a form asking on what and how much (a rulebook player,
    or one without a seat, is refused before it opens)."""
    if click.submitted:
        values = click.form(on_field(BETS), AMOUNT)
        await wager(click.reply, click.table, values["on"], values["amount"])
        return
    snapshot = await may_play(click)
    lang = click.reply.lang
    modal = choice_amount_modal(
        lang,
        "baccarat.modal_bet",
        click.table,
        "bets",
        choice_key="table.modal_on",
        choices=[(bet, t(f"baccarat.bet_{bet}", lang)) for bet in BETS],
        hint=limits_hint(snapshot, lang, click.reply.currency),
    )
    await click.interaction.response.send_modal(modal)


@actions.on("bet", str, form=True)
async def _bet(click: Click, on: str) -> None:
    """A bet on one thing (the player's panel; the table's buttons before the Bet form)."""
    if not click.submitted:
        snapshot = await may_play(click)
        hint = limits_hint(snapshot, click.reply.lang, click.reply.currency)
        title = f"baccarat.bet_{on}"
        modal = amount_modal(click.reply.lang, title, click.table, "bet", on, hint=hint)
        await click.interaction.response.send_modal(modal)
    else:
        await wager(click.reply, click.table, on, click.form(AMOUNT)["amount"])


@actions.on("again")
async def _again(click: Click) -> None:
    tables = bot_of(click.interaction).services.tables
    await placed(click.reply, await tables.act(click.table, click.user_id, "again"))


async def wager(reply: Reply, table: int, on: str, amount: str) -> None:
    if on not in BETS:
        raise Refusal("baccarat.unknown_bet")
    snapshot = await bot_of(reply.interaction).services.tables.act(
        table,
        reply.interaction.user.id,
        "wager",
        target=on,
        amount=parse_amount_or_refuse(amount, reply.lang),
    )
    if not await table_messages(reply.interaction).answer_on_table(reply.interaction, snapshot):
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
    COMMON_PHASES = ("betting",)

    def phase(self, snapshot: TableSnapshot) -> str:
        return "betting"  # between coups, always: the deal settles a coup at once

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
        engine = engine_of(snapshot)
        fields = [(t("baccarat.field_next", lang), self._next(snapshot, lang))]
        last = engine.last
        if last is None:
            return fields
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
        return [*fields, (t("table.last_hand", lang), "\n".join(lines))]

    def _next(self, snapshot: TableSnapshot, lang: Lang) -> str:
        """What happens next: bets are open, and who deals (the GM, or the table itself)."""
        engine = engine_of(snapshot)
        coming = t("baccarat.coming", lang, hand=engine.hand + 1)
        if engine.auto_deal_s and engine.wagers:
            who = t("baccarat.deals_itself", lang, seconds=engine.auto_deal_s)
        else:
            who = t("baccarat.gm_deals", lang)
        return f"{coming} " + t("baccarat.bets_open", lang, bets=len(engine.wagers), deal=who)

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """One Bet button while someone plays the game (his chips are checked at the bet)."""
        if not engine_of(snapshot).seats:
            return []
        return [table_button(lang, snapshot.id, "baccarat.btn_bet", "bets", style=_BLUE)]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """Deal, once a wager is in (unless the table deals by itself)."""
        engine = engine_of(snapshot)
        if not engine.wagers or engine.auto_deal_s:
            return None
        return table_button(lang, snapshot.id, "table.btn_deal", "deal", style=_BLUE)

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Deal, whenever a wager is in (the table also shows it, unless it deals itself)."""
        if not engine_of(snapshot).wagers:
            return []
        return [table_button(lang, snapshot.id, "baccarat.btn_deal_now", "deal")]

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """His bets, each asking the amount, and his last coup's wager again."""
        table, engine = snapshot.id, engine_of(snapshot)
        specs = []
        if seat in engine.seats:
            specs += [
                table_button(lang, table, f"baccarat.bet_{bet}", "bet", bet, style=_STYLES[bet])
                for bet in BETS
            ]
        previous = engine.previous(seat)
        if seat in engine.seats and previous is not None:
            specs.append(
                table_button(
                    lang,
                    table,
                    "baccarat.again_amount",
                    "again",
                    bet=t(f"baccarat.bet_{previous.bet}", lang),
                    amount=format_amount(previous.amount, money),
                )
            )
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
        key = by_hand_word("dealt_by", snapshot.state.config.game, reply.lang)
        await reply.say(key, hand=snapshot.state.hand_no)


UI = PuntoBancoUI()
