"""Blackjack on the table message: every hand in the seat lines, the dealer's up card and
whose turn it is in a public field, play buttons that only the PC to act can use.

The play buttons carry the table's move count (`bb:tbl:<table>:hit:<moves>`), so a double
click, or a click on a message that has not been redrawn yet, is refused instead of
playing twice. Hint answers privately with the basic-strategy move for the clicker's hand.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bondbot.bot.context import bot_of, currency_for, lang_for, require_gm, send
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.bot.tables.modals import amount_modal, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.blackjack import Action, HandView, Phase
from bondbot.rules.blackjack_strategy import basic_strategy
from bondbot.rules.cards import cards_pretty
from bondbot.tables.games.blackjack import BlackjackTable, table_of
from bondbot.tables.service import TableSnapshot

HIDDEN = "🂠"
PLAY = ("hit", "stand", "double", "split", "surrender")
_STYLES = {
    "hit": discord.ButtonStyle.primary,
    "stand": discord.ButtonStyle.danger,
    "double": discord.ButtonStyle.success,
    "split": discord.ButtonStyle.success,
    "surrender": discord.ButtonStyle.secondary,
}


def _when(deadline: str | None) -> str:
    """A Discord relative timestamp (`in 1 minute`), shown in each reader's own time."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def _total(hand: HandView, lang: Lang) -> str:
    if hand.blackjack:
        return t("blackjack.total_blackjack", lang)
    if hand.soft and hand.total < 21:
        return t("blackjack.total_soft", lang, total=hand.total)
    return str(hand.total)


def _hidden_double(bj: BlackjackTable, hand: HandView) -> bool:
    """American: a doubled hand's card is dealt face down until the round is settled."""
    game = bj.game
    return hand.doubled and not game.rules.european and game.phase is not Phase.SETTLED


def _hand_text(
    bj: BlackjackTable, seat: str, index: int, hand: HandView, lang: Lang, money: str
) -> str:
    game = bj.game
    if _hidden_double(bj, hand):
        shown, total = f"{cards_pretty(hand.cards[:-1])} {HIDDEN}", "?"
    else:
        shown, total = cards_pretty(hand.cards), _total(hand, lang)
    current = game.current() == (seat, index)
    if current:
        status = "to_play"
    elif hand.surrendered:
        status = "surrendered"
    elif hand.total > 21 and not _hidden_double(bj, hand):
        status = "bust"
    elif hand.doubled:
        status = "doubled"
    elif hand.done or hand.total >= 21:
        status = "stands"
    else:
        status = "waiting"
    return t(
        "blackjack.hand_line",
        lang,
        marker="▶ " if current else "",
        cards=shown,
        total=total,
        stake=format_amount(hand.stake, money),
        status=t(f"blackjack.status_{status}", lang),
    )


def _name_of(snapshot: TableSnapshot, character_id: int | str) -> str:
    return names(snapshot).get(int(character_id), "?")


class BlackjackUI:
    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        bj = table_of(snapshot.state)
        game, seat = bj.game, str(character_id)
        if seat not in game.seats or game.phase is Phase.SETTLED:
            return None
        if game.phase is Phase.BETTING:
            return t("blackjack.bet_line", lang, amount=format_amount(game.bet(seat), money))
        hands = game.hands(seat)
        lines = [_hand_text(bj, seat, i, hand, lang, money) for i, hand in enumerate(hands)]
        if game.insurance_open:
            pending = seat in game.insurance_pending
            taken = game.insurance(seat)
            key = "pending" if pending else "taken" if taken else "declined"
            lines[0] += " · " + t(
                f"blackjack.insurance_{key}", lang, amount=format_amount(taken, money)
            )
        elif game.insurance(seat):
            lines[0] += " · " + t(
                "blackjack.insurance_taken",
                lang,
                amount=format_amount(game.insurance(seat), money),
            )
        if len(lines) == 1:
            return lines[0]
        # Split hands: numbered, one line each, under the seat.
        numbered = [f"{i}) {line}" for i, line in enumerate(lines, start=1)]
        return "\n".join([numbered[0], *(f"\u2003↳ {line}" for line in numbered[1:])])

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        state = snapshot.state
        bj = table_of(state)
        fields = [(t("blackjack.dealer", lang, npc=state.npc_name), self._dealer(snapshot, lang))]
        if bj.log:
            lines = [self._log_line(snapshot, entry, lang, money) for entry in bj.log]
            fields.append((t("blackjack.this_round", lang), "\n".join(lines)))
        last = state.last or {}
        if last.get("kind") == "bj_settled":
            title = t("blackjack.last_round", lang, hand=last["hand"])
            fields.append((title, self._results(snapshot, last, lang, money)))
        return fields

    def _dealer(self, snapshot: TableSnapshot, lang: Lang) -> str:
        state = snapshot.state
        game = table_of(state).game
        if game.phase is Phase.BETTING:
            return t("blackjack.betting_open", lang, bets=len(game.seats))
        if game.phase is Phase.SETTLED:
            return t("blackjack.betting_open", lang, bets=0)
        up = game.dealer_up
        shown = up.pretty if up else "—"
        if not game.rules.european:
            shown += f" {HIDDEN}"
        lines = [t("blackjack.dealer_shows", lang, cards=shown)]
        when = _when(state.deadline)
        if game.insurance_open:
            waiting = ", ".join(_name_of(snapshot, s) for s in game.insurance_pending)
            lines.append(t("blackjack.turn_insurance", lang, names=waiting, when=when))
        elif (current := game.current()) is not None:
            seat, index = current
            several = len(game.hands(seat)) > 1
            lines.append(
                t(
                    "blackjack.turn_hand" if several else "blackjack.turn",
                    lang,
                    name=_name_of(snapshot, seat),
                    hand=index + 1,
                    when=when,
                )
            )
        return "\n".join(lines)

    def _log_line(
        self, snapshot: TableSnapshot, entry: dict[str, Any], lang: Lang, money: str
    ) -> str:
        kind = entry["kind"]
        params: dict[str, Any] = {"hand": entry.get("hand", 0) + 1}
        if "character_id" in entry:
            params["name"] = _name_of(snapshot, entry["character_id"])
        if kind == "dealt":
            params["hand"] = entry["hand"]
        if "card" in entry:
            params["card"] = cards(entry["card"])
            params["total"] = entry["total"]
            if entry["total"] > 21:
                kind += "_bust"
        elif kind == "double":
            kind = "double_hidden"
        if "amount" in entry:
            params["amount"] = format_amount(entry["amount"], money)
        if "hands" in entry:
            params["hands"] = entry["hands"]
        return t(f"blackjack.log_{kind}", lang, **params)

    def _results(
        self, snapshot: TableSnapshot, last: dict[str, Any], lang: Lang, money: str
    ) -> str:
        dealer = "dealer_blackjack" if last["dealer_blackjack"] else "dealer_result"
        lines = [
            t(f"blackjack.{dealer}", lang, cards=cards(last["dealer"]), total=last["dealer_total"])
        ]
        offers = {o.id: o for o in snapshot.state.offers}
        counts: dict[int, int] = {}
        for line in last["results"]:
            counts[line["character_id"]] = counts.get(line["character_id"], 0) + 1
        for line in last["results"]:
            name = _name_of(snapshot, line["character_id"])
            who = (
                t("blackjack.who_hand", lang, name=name, hand=line["hand"] + 1)
                if counts[line["character_id"]] > 1
                else name
            )
            text = t(
                "blackjack.result_line",
                lang,
                who=who,
                cards=cards(line["cards"]),
                total=line["total"],
                outcome=t(
                    f"blackjack.outcome_{line['outcome']}",
                    lang,
                    net=format_amount(abs(line["net"]), money),
                ),
            )
            offer = offers.get(line["offer"]) if line.get("offer") else None
            if offer is not None and offer.spent:
                text += " — " + t("blackjack.won_back", lang, name=name)
            elif offer is not None:
                text += " — " + t(
                    "blackjack.may_win_back",
                    lang,
                    pay=format_amount(offer.pay, money),
                    when=_when(offer.expires_at),
                )
            lines.append(text)
        for insurance in last["insurance"]:
            net = insurance["net"]
            lines.append(
                t(
                    "blackjack.insurance_won" if net > 0 else "blackjack.insurance_lost",
                    lang,
                    name=_name_of(snapshot, insurance["character_id"]),
                    net=format_amount(abs(net), money),
                )
            )
        return "\n".join(lines)

    def buttons(self, snapshot: TableSnapshot, lang: Lang) -> list[ButtonSpec]:
        table = snapshot.id
        bj = table_of(snapshot.state)
        game = bj.game
        if game.phase in (Phase.BETTING, Phase.SETTLED):
            return [
                table_button(
                    lang,
                    table,
                    "blackjack.btn_bet",
                    "bet",
                    style=discord.ButtonStyle.primary,
                    row=1,
                ),
                table_button(lang, table, "table.btn_deal", "deal", row=1),
            ]
        hint = table_button(lang, table, "blackjack.btn_hint", "hint", row=2)
        if game.insurance_open:
            return [
                table_button(
                    lang,
                    table,
                    "blackjack.btn_insure",
                    "insure",
                    style=discord.ButtonStyle.success,
                    row=1,
                ),
                table_button(lang, table, "blackjack.btn_no_insurance", "noinsure", row=1),
                hint,
            ]
        current = game.current()
        legal = {a.value for a in game.legal_actions(current[0])} if current else set()
        specs = [
            table_button(
                lang,
                table,
                f"blackjack.btn_{action}",
                action,
                bj.moves,
                style=_STYLES[action],
                row=1,
                disabled=action not in legal,
            )
            for action in PLAY
        ]
        return [*specs, hint]

    async def bet(
        self, interaction: discord.Interaction, table: int, on: str | None, amount: str
    ) -> None:
        await wager(interaction, table, amount)

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
                    amount_modal(lang, "blackjack.modal_bet", table, "bet")
                )
            else:
                await wager(interaction, table, values["amount"])
        elif action in ("insure", "noinsure"):
            await insure(interaction, table, action == "insure")
        elif action in PLAY:
            await play(interaction, table, action, args[0] if args else None)
        elif action == "hint":
            await hint(interaction, table)
        else:
            return False
        return True


async def wager(interaction: discord.Interaction, table: int, amount: str) -> None:
    snapshot = await bot_of(interaction).services.tables.act(
        table,
        interaction.user.id,
        "wager",
        {"amount": parse_amount_or_refuse(amount, await lang_for(interaction))},
    )
    lang, money = await lang_for(interaction), await currency_for(interaction)
    await send(
        interaction,
        t("blackjack.bet_placed", lang, amount=format_amount(snapshot.event["amount"], money)),
    )


async def deal(interaction: discord.Interaction, table: int) -> None:
    await require_gm(interaction)
    snapshot = await bot_of(interaction).services.tables.act(
        table, interaction.user.id, "deal", as_gm=True
    )
    lang = await lang_for(interaction)
    key = "blackjack.dealt_settled" if snapshot.event["kind"] == "bj_settled" else "blackjack.dealt"
    await send(interaction, t(key, lang, hand=snapshot.state.hand_no))


async def insure(interaction: discord.Interaction, table: int, take: bool) -> None:
    snapshot = await bot_of(interaction).services.tables.act(
        table, interaction.user.id, "insure" if take else "no_insurance"
    )
    lang, money = await lang_for(interaction), await currency_for(interaction)
    if take:
        cost = table_of(snapshot.state).game.insurance_cost(str(_character(snapshot, interaction)))
        text = t("blackjack.insured", lang, amount=format_amount(cost, money))
    else:
        text = t("blackjack.declined", lang)
    await send(interaction, text + _round_over(snapshot, interaction, lang, money))


async def play(interaction: discord.Interaction, table: int, action: str, move: str | None) -> None:
    args = {} if move is None else {"move": move}
    snapshot = await bot_of(interaction).services.tables.act(
        table, interaction.user.id, action, args
    )
    lang, money = await lang_for(interaction), await currency_for(interaction)
    event = snapshot.event or {}
    if event.get("kind") == "bj_move":
        text = _move_text(event, lang)
    elif event.get("kind") == "bj_void":
        text = t("blackjack.log_void", lang)
    else:
        text = t(f"blackjack.done_{action}", lang)
    await send(interaction, text + _round_over(snapshot, interaction, lang, money))


def _move_text(event: dict[str, Any], lang: Lang) -> str:
    action = event["action"]
    shown = cards(event["cards"])
    if event["hidden"]:
        return t("blackjack.you_double_hidden", lang, cards=shown)
    key = f"blackjack.you_{action}"
    if action in ("hit", "double") and event["total"] > 21:
        key += "_bust"
    return t(key, lang, cards=shown, total=event["total"])


def _character(snapshot: TableSnapshot, interaction: discord.Interaction) -> int:
    seat = snapshot.state.seat_of_user(interaction.user.id)
    if seat is None:
        raise Refusal("table.not_seated")
    return seat.character_id


def _round_over(
    snapshot: TableSnapshot, interaction: discord.Interaction, lang: Lang, money: str
) -> str:
    """When this decision ended the round: the clicker's own net, after a line break."""
    event = snapshot.event or {}
    if event.get("kind") != "bj_settled":
        return ""
    seat = snapshot.state.seat_of_user(interaction.user.id)
    mine = seat.character_id if seat else None
    net = sum(line["net"] for line in event["results"] if line["character_id"] == mine)
    net += sum(i["net"] for i in event["insurance"] if i["character_id"] == mine)
    key = "won" if net > 0 else "lost" if net < 0 else "even"
    return "\n" + t(f"blackjack.round_over_{key}", lang, net=format_amount(abs(net), money))


async def hint(interaction: discord.Interaction, table: int) -> None:
    """The basic-strategy move for the clicker's hand to act, privately."""
    snapshot = await bot_of(interaction).services.tables.snapshot(table)
    lang = await lang_for(interaction)
    seat = snapshot.state.seat_of_user(interaction.user.id)
    if seat is None:
        raise Refusal("table.not_seated")
    game = table_of(snapshot.state).game
    name = str(seat.character_id)
    if game.insurance_open and name in game.insurance_pending:
        await send(interaction, t("blackjack.hint_insurance", lang))
        return
    current = game.current()
    if current is None or current[0] != name or game.dealer_up is None:
        raise Refusal("blackjack.hint_not_your_turn")
    hand = game.hands(name)[current[1]]
    move = basic_strategy(hand.cards, game.dealer_up, game.legal_actions(name), game.rules)
    await send(
        interaction,
        t(
            "blackjack.hint",
            lang,
            cards=cards_pretty(hand.cards),
            total=_total(hand, lang),
            up=game.dealer_up.pretty,
            move=t(f"blackjack.btn_{Action(move).value}", lang),
        ),
    )
