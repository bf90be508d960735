"""The Discord part both baccarat-bank games extend: the table message's common frame (the
bank, the coup, the last coup), the buttons of the moment, the answer a click gets, and
the lines both say alike (a stake and what the bank covers, a result and its Hero Point,
the timers' defaults, seed 004's reason for the banker).

Each game's `ui.py` subclasses `BankUI` with its own words (its locale area is its key:
`chemin_de_fer.waiting`, `deux_tableaux.waiting`), its own fields' contents and the moves
only it has. Buttons the pontes answer together (`hand_bound`) carry the round of answers
(`answer_round`), the others the table's move count.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from typing import ClassVar

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables import modals
from bondbot.bot.tables.acting import act, check_amount, options_now, speaks_for_npc
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.bot.tables.modals import amount_modal
from bondbot.bot.tables.turns import whose_turn
from bondbot.games.baccarat_bank.engine import BankGame, bank_label, lost_label
from bondbot.games.baccarat_bank.events import CoupSettled, StakeResult, ThirdCard
from bondbot.games.baccarat_bank.tableau import BANKER_DRAWS_UP_TO
from bondbot.games.contract import Move, Record
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.cards import Card
from bondbot.tables.service import TableService, TableSnapshot
from bondbot.tables.state import SpendOffer

GREEN, BLUE, RED = (
    discord.ButtonStyle.success,
    discord.ButtonStyle.primary,
    discord.ButtonStyle.danger,
)
STYLES = {
    "keep": GREEN,
    "bank": GREEN,
    "bid": GREEN,
    "stake": BLUE,
    "banco": RED,
    "draw": BLUE,
    "stand": RED,
}

Played = Callable[[Click, TableSnapshot], Awaitable[None]]


def when(deadline: str | None) -> str:
    """A Discord relative timestamp (`in 1 minute`), shown in each reader's own time."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def shown(codes: list[str] | tuple[str, ...]) -> str:
    return cards(" ".join(codes))


def name_of(snapshot: TableSnapshot, seat: str | None) -> str:
    return "?" if seat is None else names(snapshot).get(int(seat), "?")


def timed_out(
    snapshot: TableSnapshot, moves: list[Move] | tuple[Move, ...], lang: Lang, area: str
) -> list[str]:
    """What the timers played, said on the table: the default of each move they made, the
    pontes who passed by their timers on one line."""
    lines, passed = [], []
    for move in moves:
        if move.auto != "timeout":
            continue
        if move.kind == "pass":
            passed.append(name_of(snapshot, move.seat))
        else:
            lines.append(t(f"{area}.timeout_{move.kind}", lang, name=name_of(snapshot, move.seat)))
    if len(passed) == 1:
        lines.append(t(f"{area}.timeout_pass", lang, name=passed[0]))
    elif passed:
        lines.append(t("table.timeout_pass_many", lang, names=", ".join(passed)))
    return lines


def cover_line(
    snapshot: TableSnapshot,
    area: str,
    seat: str,
    stake: int,
    covered: int,
    lang: Lang,
    money: str,
) -> str:
    """A stake and how much of it the bank covers."""
    params = {
        "name": name_of(snapshot, seat),
        "stake": format_amount(stake, money),
        "covered": format_amount(covered, money),
        "out": format_amount(stake - covered, money),
    }
    key = "covered" if covered == stake else "uncovered" if covered == 0 else "part"
    return t(f"{area}.stake_{key}", lang, **params)


def offer_text(offer: SpendOffer, area: str, name: str, lang: Lang, money: str) -> str:
    """A lost stake's Hero Point offer: won back, or until when."""
    if offer.spent:
        return t(f"{area}.won_back", lang, name=name)
    pay = format_amount(offer.pay, money)
    return t(f"{area}.may_win_back", lang, name=name, pay=pay, when=when(offer.expires_at))


def hand_offers(snapshot: TableSnapshot, hand: int) -> dict[tuple[int, str], SpendOffer]:
    """The Hero Point offers of one coup, by their owner and label."""
    return {(o.character_id, o.label): o for o in snapshot.state.offers if o.hand == hand}


def result_line(
    snapshot: TableSnapshot,
    area: str,
    result: StakeResult,
    table: str | None,
    last: CoupSettled,
    offers: dict[tuple[int, str], SpendOffer],
    lang: Lang,
    money: str,
) -> str:
    """A covered stake's result on a hand (`table`: its tableau, if the game has two) and,
    once spent, the Hero Point that won it back: a PC ponte's lost stake, or the PC
    banker's loss to the NPC ponte (an open offer is said in the Hero Points field)."""
    name = name_of(snapshot, result.seat)
    net = format_amount(abs(result.net), money)
    covered = format_amount(result.covered, money)
    key = "win" if result.net > 0 else "loss" if result.net < 0 else "push"
    text = t(f"{area}.result_{key}", lang, name=name, net=net, covered=covered)
    if result.net < 0:
        offer = offers.get((int(result.seat), lost_label(table, result.covered)))
        owner = name
    elif result.net > 0 and result.seat == snapshot.state.npc_key:  # the PC banker's
        offer = offers.get((int(last.seat or 0), bank_label(table, result.covered)))
        owner = name_of(snapshot, last.seat)
    else:
        offer, owner = None, name
    if offer is not None and offer.spent:
        text += " — " + offer_text(offer, area, owner, lang, money)
    return text


def banker_reason(area: str, lang: Lang, ponte: list[str], **params: object) -> str:
    """Seed 004's reason for the banker's advice: the highest total he draws on, seeing the
    ponte's third card (`ponte`: that hand's cards) or that he stood."""
    third = Card.parse(ponte[2]) if len(ponte) > 2 else None
    upto = BANKER_DRAWS_UP_TO[None if third is None else third.baccarat_value]
    if third is None:
        return t(f"{area}.advice_stood", lang, upto=upto, **params)
    return t(f"{area}.advice_third", lang, card=third.pretty, upto=upto, **params)


def net_line(reply: Reply, area: str, net: int | None) -> str:
    """What the coup a click ended did for the clicker, as a line after its answer (none if
    he had nothing in play)."""
    if net is None:
        return ""
    key = "won" if net > 0 else "lost" if net < 0 else "even"
    return "\n" + reply.t(f"{area}.coup_over_{key}", net=reply.money(abs(net)))


async def limits_hint(click: Click, kind: str, target: str | None = None) -> str | None:
    """What the clicker (or the NPC he plays for) may put on `kind` now, for the form's
    placeholder: "Between $10 and $500"."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat = (await whose_turn(click.reply, snapshot)).seat
    for option in options_now(snapshot):
        if option.kind != kind or option.seat != seat or option.min is None:
            continue
        if target is not None and option.targets and target not in option.targets:
            continue
        return modals.limits_hint(click.reply.lang, click.reply.currency, option.min, option.max)
    return None


async def ask_amount(
    click: Click, kind: str, title: str, *args: object, target: str | None = None
) -> None:
    """The form that asks the amount of `kind` (its button's `args` carried on)."""
    hint = await limits_hint(click, kind, target)
    modal = amount_modal(click.reply.lang, title, click.table, kind, *args, hint=hint)
    await click.interaction.response.send_modal(modal)


class BankUI:
    """The part of the table message and the buttons both games draw alike."""

    key: str  # the game's key, and its locale area
    engine_type: type[BankGame]
    actions: TableActions
    # The moves on the table message, by phase (else Draw and Stand).
    table_moves: ClassVar[dict[str, tuple[str, ...]]]
    hand_bound: ClassVar[tuple[str, ...]]  # the moves the pontes answer together: the round's
    order: ClassVar[tuple[str, ...]]  # the moves in a player's panel, in this order

    def engine_of(self, snapshot: TableSnapshot) -> BankGame:
        engine = snapshot.state.engine
        assert isinstance(engine, self.engine_type)
        return engine

    # -- a click's answer ----------------------------------------------------------------

    async def played(self, click: Click, snapshot: TableSnapshot) -> None:
        """Tell the clicker what he did (or did for the NPC), and his result if the coup
        ended."""
        reply = click.reply
        first = snapshot.records[0]
        params = self.move_params(reply, first)
        if speaks_for_npc(snapshot, click.user_id):
            move = reply.t(f"{self.key}.did_{first.move.kind}", **params)
            text = reply.t(f"{self.key}.for_npc", name=snapshot.state.npc_name, move=move)
        else:
            text = reply.t(f"{self.key}.you_{first.move.kind}", **params)
        seat = snapshot.state.seat_of_user(click.user_id)
        settled = next(
            (e for r in snapshot.records for e in r.events if isinstance(e, CoupSettled)), None
        )
        if settled is not None and seat is not None:
            text += net_line(reply, self.key, self.net_of(settled, str(seat.character_id)))
        await reply.send(text)

    async def play_amount(
        self,
        click: Click,
        kind: str,
        amount: int,
        *,
        target: str | None = None,
        moves: int | None = None,
        hand: int | None = None,
    ) -> None:
        """A submitted form's amount, checked against the bounds now, played."""
        await check_amount(click, kind, amount, target)
        snapshot = await act(click, kind, amount=amount, target=target, moves=moves, hand=hand)
        await self.played(click, snapshot)

    def move_params(self, reply: Reply, record: Record) -> dict[str, str]:
        move = record.move
        params: dict[str, str] = {}
        if move.amount is not None:
            params["amount"] = reply.money(move.amount)
        card = next((e.card for e in record.events if isinstance(e, ThirdCard)), None)
        if card is not None:
            params["card"] = cards(card)
        return params

    def net_of(self, settled: CoupSettled, seat: str) -> int | None:
        """What this seat won (+) or lost (−) on the coup; None if he had nothing in play."""
        raise NotImplementedError

    # -- the GM's start ------------------------------------------------------------------

    async def gm_table(self, reply: Reply, table: int) -> tuple[TableService, TableSnapshot]:
        """The table, for the GM alone."""
        await require_gm(reply.interaction)
        tables = bot_of(reply.interaction).services.tables
        return tables, await tables.snapshot(table)

    async def start(self, reply: Reply, table: int, dealing: bool = False) -> None:
        """The GM's start (Start, or `/table deal`, `dealing`: once started, the coups deal
        themselves)."""
        raise NotImplementedError

    async def deal(self, reply: Reply, table: int) -> None:
        """`/table deal`: the GM's start; after it the coups deal themselves."""
        await self.start(reply, table, dealing=True)

    # -- the table message ---------------------------------------------------------------

    def answering(self, engine: BankGame) -> bool:
        """Whether the pontes are answering: the table's wait is said in the coup's field."""
        return engine.coup is None and engine.phase == "stakes"

    def waiting(self, snapshot: TableSnapshot, lang: Lang) -> str:
        """The table waits for these players, until when."""
        waiting = ", ".join(name_of(snapshot, seat) for seat in self.engine_of(snapshot).turn())
        return t(f"{self.key}.waiting", lang, names=waiting, when=when(snapshot.state.deadline))

    def table_waits(self, snapshot: TableSnapshot, lang: Lang) -> list[str]:
        """The bank's last lines: whom the table waits for (unless the coup's field says
        it), and that the GM plays the NPC."""
        state, engine, lines = snapshot.state, self.engine_of(snapshot), []
        if engine.turn() and not self.answering(engine):
            lines.append(self.waiting(snapshot, lang))
        if not state.npc_auto:
            lines.append(t(f"{self.key}.gm_plays", lang, name=state.npc_name))
        return lines

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        engine = self.engine_of(snapshot)
        fields = [(t(f"{self.key}.field_bank", lang), self.bank_text(snapshot, lang, money))]
        if self.coup_shown(engine):
            coming = engine.hand if engine.coup_in_play else engine.hand + 1
            title = t(f"{self.key}.field_coup", lang, hand=coming)
            fields.append((title, self.coup_text(snapshot, lang, money)))
        if engine.last is not None and not engine.coup_in_play:  # a coup dealt: its field
            title = t(f"{self.key}.field_last", lang, hand=engine.hand)
            fields.append((title, self.last_text(snapshot, engine.last, engine.hand, lang, money)))
        return fields

    def coup_shown(self, engine: BankGame) -> bool:
        """Whether the coup has a field: dealt, or its stakes being answered."""
        raise NotImplementedError

    def bank_text(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        raise NotImplementedError

    def coup_text(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        """The coup: the pontes' answers (whom the table waits for first), or its cards as
        they are dealt; then the timers' defaults."""
        engine = self.engine_of(snapshot)
        lines = []
        if not engine.coup_in_play:  # the pontes are answering
            if engine.turn():
                lines.append(self.waiting(snapshot, lang))
            lines += self.answers(snapshot, lang, money)
        else:
            lines += self.dealt(snapshot, lang, money)
        lines += timed_out(snapshot, engine.history, lang, self.key)
        return "\n".join(lines)

    def answers(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        raise NotImplementedError

    def dealt(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        raise NotImplementedError

    def last_text(
        self, snapshot: TableSnapshot, last: CoupSettled, number: int, lang: Lang, money: str
    ) -> str:
        raise NotImplementedError

    # -- buttons -------------------------------------------------------------------------

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The moves of the moment, on the table (the others are in the players' panels)."""
        engine = self.engine_of(snapshot)
        if not engine.turn():  # none before the first bank, nor while the table deals
            return []
        wanted = self.table_moves.get(engine.phase, ("draw", "stand"))
        kinds = {option.kind for option in options_now(snapshot) if option.seat is not None}
        return [self.move_button(snapshot, kind, lang, money) for kind in wanted if kind in kinds]

    def panel_specs(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """His legal moves now, with their amounts, in the game's order."""
        raise NotImplementedError

    def panel_buttons(
        self,
        snapshot: TableSnapshot,
        seat: str,
        lang: Lang,
        money: str,
        public: bool = True,
    ) -> list[ButtonSpec]:
        """His legal moves now (`public=False`: only those the table message does not
        carry)."""
        specs = self.panel_specs(snapshot, seat, lang, money)
        on_table = {spec.custom_id for spec in self.buttons(snapshot, lang, money)}
        return [spec for spec in specs if public or spec.custom_id not in on_table]

    def npc_panel(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """When the GM plays the NPC: its moves that are in a player's panel, not on the
        table."""
        if snapshot.state.npc_auto:
            return []
        npc = snapshot.state.npc_key
        return self.panel_buttons(snapshot, npc, lang, money, public=False)

    def button_text(self, engine: BankGame, kind: str, money: str) -> tuple[str, dict[str, str]]:
        """A move's button's words and their amounts (Banco says the bank)."""
        if kind == "banco":
            return f"{self.key}.btn_banco", {"amount": format_amount(engine.bank, money)}
        return f"{self.key}.btn_{kind}", {}

    def move_button(self, snapshot: TableSnapshot, kind: str, lang: Lang, money: str) -> ButtonSpec:
        """The button of one move, with its amount where it has one."""
        engine = self.engine_of(snapshot)
        number = engine.answer_round if kind in self.hand_bound else snapshot.state.moves
        key, params = self.button_text(engine, kind, money)
        style = STYLES.get(kind, discord.ButtonStyle.secondary)
        return table_button(lang, snapshot.id, key, kind, number, style=style, **params)


def add_common_actions(
    actions: TableActions,
    ui: BankUI,
    decisions: Iterable[str],
    answers: Iterable[str] = ("banco", "pass"),
) -> None:
    """The GM's Start, and the moves a click plays as it is: a decision carries the table's
    move count, an answer the round of answers."""

    @actions.on("start")
    async def _start(click: Click) -> None:
        await ui.start(click.reply, click.table)

    for kind in decisions:
        _decision(actions, ui, kind)
    for kind in answers:
        _answer(actions, ui, kind)


def _decision(actions: TableActions, ui: BankUI, kind: str) -> None:
    @actions.on(kind, int)
    async def _decide(click: Click, moves: int) -> None:
        await ui.played(click, await act(click, kind, moves=moves))


def _answer(actions: TableActions, ui: BankUI, kind: str) -> None:
    @actions.on(kind, int)
    async def _call(click: Click, hand: int) -> None:
        await ui.played(click, await act(click, kind, hand=hand))
