"""Baccara à deux tableaux on the table message: the bank (or its auction), both tables'
stakes with what each half covers, the coup's public cards, and only the moves of the
moment (one Stake, on both tableaux, and Pass; an auction's Offer a bank and Pass; Draw
and Stand). Stake right or left, Banco and the banker's Withdraw are in the players'
panels; Start, the auction and its close in the GM's.

The pontes' and bidders' buttons carry the coup's number (they answer together), the
draw/stand buttons the table's move count. The seat panel (**My seat**) shows the one who
decides his cards and seed 004's recommendation (`hand_note`): a hand-holder at 5, or the
banker, with the advice for each table still in play and a warning when they pull
opposite ways.
"""

from __future__ import annotations

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.acting import act, check_amount, may_act, options_now, speaks_for_npc
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, table_button
from bondbot.bot.tables.glance import FOLD_AFTER, fold_lines
from bondbot.bot.tables.modals import amount_modal, amount_of, parse_amount_or_refuse
from bondbot.bot.tables.turns import whose_turn
from bondbot.errors import Refusal
from bondbot.games.chemin_de_fer.events import StakeResult
from bondbot.games.chemin_de_fer.tableau import BANKER_DRAWS_UP_TO
from bondbot.games.chemin_de_fer.ui import (
    cover_line,
    limits_hint,
    name_of,
    net_line,
    offer_text,
    shown,
    timed_out,
    when,
)
from bondbot.games.contract import Record
from bondbot.games.deux_tableaux.engine import TABLES, DeuxTableaux, halves
from bondbot.games.deux_tableaux.events import (
    BankerAdvice,
    BankStarted,
    CoupSettled,
    Staked,
    Table,
    TableResult,
    ThirdCard,
)
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.baccarat import codes_value
from bondbot.rules.cards import Card
from bondbot.tables.service import TableSnapshot
from bondbot.tables.state import SpendOffer

GREEN, BLUE, RED = (
    discord.ButtonStyle.success,
    discord.ButtonStyle.primary,
    discord.ButtonStyle.danger,
)
TARGETS = ("right", "left", "both")


def engine_of(snapshot: TableSnapshot) -> DeuxTableaux:
    engine = snapshot.state.engine
    assert isinstance(engine, DeuxTableaux)
    return engine


def table_name(table: str, lang: Lang) -> str:
    return t(f"deux_tableaux.table_{table}", lang)


# -- opening -----------------------------------------------------------------------------


# -- the buttons -------------------------------------------------------------------------

actions = TableActions()


@actions.on("start")
async def _start(click: Click) -> None:
    await start(click.reply, click.table)


async def start(reply: Reply, table: int) -> None:
    """The GM lets the NPC put up the first bank (the table does it by itself afterwards)."""
    await require_gm(reply.interaction)
    tables = bot_of(reply.interaction).services.tables
    snapshot = await tables.snapshot(table)
    if engine_of(snapshot).banker is not None or engine_of(snapshot).phase == "auction":
        raise Refusal("deux_tableaux.started")
    if len(engine_of(snapshot).seats) < 2:
        raise Refusal("deux_tableaux.nobody_seated")
    snapshot = await tables.act(table, reply.interaction.user.id, "default_bank", as_gm=True)
    started = next(e for r in snapshot.records for e in r.events if isinstance(e, BankStarted))
    await reply.say(
        "deux_tableaux.started_reply",
        name=name_of(snapshot, started.seat),
        amount=reply.money(started.amount),
    )


@actions.on("auction", int)
async def _auction(click: Click, moves: int) -> None:
    """Auction the bank: the button carries the move count it was drawn at, so a second
    click does not open the auction again over the offers made since."""
    await require_gm(click.interaction)
    tables = bot_of(click.interaction).services.tables
    await tables.act(click.table, click.user_id, "open_auction", moves=moves, as_gm=True)
    await click.reply.say("deux_tableaux.auction_opened")


@actions.on("close")
async def _close(click: Click) -> None:
    await require_gm(click.interaction)
    tables = bot_of(click.interaction).services.tables
    snapshot = await tables.act(click.table, click.user_id, "close_auction", as_gm=True)
    started = next(
        (e for r in snapshot.records for e in r.events if isinstance(e, BankStarted)), None
    )
    if started is None:
        await click.reply.say("deux_tableaux.auction_void")
    else:
        name, amount = name_of(snapshot, started.seat), click.reply.money(started.amount)
        await click.reply.say("deux_tableaux.auction_won", name=name, amount=amount)


@actions.on("bid", int, form=True)
async def _bid(click: Click, hand: int) -> None:
    if not click.submitted:
        await may_act(click, hand=hand)
        hint = await limits_hint(click, "bid")
        modal = amount_modal(
            click.reply.lang, "deux_tableaux.modal_bid", click.table, "bid", hand, hint=hint
        )
        await click.interaction.response.send_modal(modal)
    else:
        amount = amount_of(click)
        await check_amount(click, "bid", amount)
        await _played(click, await act(click, "bid", amount=amount, hand=hand))


@actions.on("stake", str, int, form=True)
async def _stake(click: Click, on: str, hand: int) -> None:
    if on not in TARGETS:
        raise Refusal("table.unknown_action")
    if not click.submitted:
        await may_act(click, hand=hand)
        on = await _stake_target(click, on)
        title = f"deux_tableaux.modal_stake_{on}"
        hint = await limits_hint(click, "stake", on)
        modal = amount_modal(click.reply.lang, title, click.table, "stake", on, hand, hint=hint)
        await click.interaction.response.send_modal(modal)
    else:
        amount = amount_of(click)
        await check_amount(click, "stake", amount, on)
        await _played(click, await act(click, "stake", amount=amount, target=on, hand=hand))


async def _stake_target(click: Click, on: str) -> str:
    """The table's one Stake button stakes on both tableaux; a ponte who has staked on one
    already (or can cover only one) gets the form of the one he may still stake on."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat = (await whose_turn(click.reply, snapshot)).seat
    targets = [
        target
        for option in options_now(snapshot)
        if option.kind == "stake" and option.seat == seat
        for target in option.targets
    ]
    if on in targets or not targets:  # none: the service says why
        return on
    return "both" if "both" in targets else targets[0]


@actions.on("withdraw", int)
async def _withdraw(click: Click, hand: int) -> None:
    await _played(click, await act(click, "withdraw", hand=hand, on_turn=False))


def _decision(kind: str) -> None:
    @actions.on(kind, int)
    async def _decide(click: Click, moves: int) -> None:
        await _played(click, await act(click, kind, moves=moves))


def _answer(kind: str) -> None:
    @actions.on(kind, int)
    async def _call(click: Click, hand: int) -> None:
        await _played(click, await act(click, kind, hand=hand))


for _kind in ("draw", "stand"):
    _decision(_kind)
for _kind in ("banco", "pass"):
    _answer(_kind)


async def _played(click: Click, snapshot: TableSnapshot) -> None:
    """Tell the clicker what he did (or did for the NPC), and his result if the coup ended."""
    reply = click.reply
    first = snapshot.records[0]
    params = _move_params(reply, first)
    if speaks_for_npc(snapshot, click.user_id):
        move = reply.t(f"deux_tableaux.did_{first.move.kind}", **params)
        text = reply.t("deux_tableaux.for_npc", name=snapshot.state.npc_name, move=move)
    else:
        text = reply.t(f"deux_tableaux.you_{first.move.kind}", **params)
    seat = snapshot.state.seat_of_user(click.user_id)
    settled = next(
        (e for r in snapshot.records for e in r.events if isinstance(e, CoupSettled)), None
    )
    if settled is not None and seat is not None:
        text += net_line(reply, "deux_tableaux", net_of(settled, str(seat.character_id)))
    await reply.send(text)


def _move_params(reply: Reply, record: Record) -> dict[str, str]:
    move = record.move
    params: dict[str, str] = {}
    if move.amount is not None:
        params["amount"] = reply.money(move.amount)
    staked = [e.table for e in record.events if isinstance(e, Staked)]
    if staked:
        key = "deux_tableaux.on_both" if len(staked) == 2 else f"deux_tableaux.on_{staked[0]}"
        params["where"] = reply.t(key)
    card = next((e.card for e in record.events if isinstance(e, ThirdCard)), None)
    if card is not None:
        params["card"] = cards(card)
    return params


def net_of(settled: CoupSettled, seat: str) -> int | None:
    """What this seat won (+) or lost (−) on the coup; None if he had nothing in play."""
    nets = [r.net for table in settled.tables for r in table.results]
    if seat == settled.seat:
        return -sum(nets) if nets else None
    mine = [r.net for table in settled.tables for r in table.results if r.seat == seat]
    return sum(mine) if mine else None


def _answering(engine: object) -> bool:
    """Whether the pontes are answering: the table's wait is said in the coup's field."""
    return getattr(engine, "coup", None) is None and getattr(engine, "phase", None) == "stakes"


def _waiting(snapshot: TableSnapshot, lang: Lang) -> str:
    """The table waits for these players, until when."""
    waiting = ", ".join(name_of(snapshot, seat) for seat in engine_of(snapshot).turn())
    return t("deux_tableaux.waiting", lang, names=waiting, when=when(snapshot.state.deadline))


# -- the table message -------------------------------------------------------------------


class DeuxTableauxUI:
    actions = actions

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """Under his cards in My cards: each hand's total and, if the decision is his, seed
        004's advice (for the banker: per table, and a warning when they disagree)."""
        engine = engine_of(snapshot)
        coup = engine.coup
        if coup is None:
            return None
        notes = [
            t(
                "deux_tableaux.note_table",
                lang,
                table=table_name(name, lang),
                total=codes_value(hand.cards),
            )
            for name, hand in coup.hands.items()
            if hand.holder == seat and hand.winner is None
        ]
        if seat == engine.banker:
            notes.append(t("deux_tableaux.note_bank", lang, total=codes_value(coup.banker)))
        if not notes or engine.turn() != (seat,):
            return "\n".join(notes) or None
        if engine.phase == "hands":
            assert coup.waiting is not None
            notes.append(
                t("deux_tableaux.advice_ponte", lang, table=table_name(coup.waiting, lang))
            )
        elif (advised := engine.advice()) is not None:
            notes += _banker_advice(engine, advised, lang)
        return "\n".join(notes)

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        engine, seat = engine_of(snapshot), str(character_id)
        if seat not in engine.seats:
            return None
        if seat == engine.banker:
            return t("deux_tableaux.role_banker", lang)
        if engine.coup is not None:
            held = [name for name, hand in engine.coup.hands.items() if hand.holder == seat]
            if held:
                where = ", ".join(table_name(name, lang) for name in held)
                return t("deux_tableaux.role_holder", lang, tables=where)
            return None
        if engine.phase != "stakes" or engine.banker is None:
            return None
        call = engine.calls.get(seat)
        if call is None:  # still to answer: said once, in "The table waits for"
            return None
        if call != "stake":
            return t(f"deux_tableaux.role_{call}", lang)
        staked = [
            f"{table_name(name, lang)} {format_amount(engine.stakes[name][seat], money)}"
            for name in TABLES
            if seat in engine.stakes[name]
        ]
        return ", ".join(staked)

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        engine = engine_of(snapshot)
        fields = [(t("deux_tableaux.field_bank", lang), self._bank(snapshot, lang, money))]
        in_coup = engine.coup is not None or (
            engine.phase == "stakes" and engine.banker is not None
        )
        if in_coup:
            coming = engine.hand if engine.coup is not None else engine.hand + 1
            title = t("deux_tableaux.field_coup", lang, hand=coming)
            fields.append((title, self._coup(snapshot, lang, money)))
        if engine.last is not None and engine.coup is None:  # a coup dealt: its own field
            number = engine.hand
            title = t("deux_tableaux.field_last", lang, hand=number)
            fields.append((title, self._last(snapshot, engine.last, number, lang, money)))
        return fields

    def _bank(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        state, engine = snapshot.state, engine_of(snapshot)
        lines = []
        if engine.phase == "auction":
            assert engine.auction is not None
            if engine.auction.best is None:
                lines.append(t("deux_tableaux.auction_none", lang))
            else:
                best = format_amount(engine.auction.amount, money)
                name = name_of(snapshot, engine.auction.best)
                lines.append(t("deux_tableaux.auction_best", lang, name=name, amount=best))
        elif engine.banker is None:
            amount = format_amount(engine.settings.limited(engine.settings.npc_bank), money)
            lines.append(t("deux_tableaux.start", lang, npc=state.npc_name, amount=amount))
        else:
            half = halves(engine.bank)
            lines.append(
                t(
                    "deux_tableaux.bank_holds",
                    lang,
                    name=name_of(snapshot, engine.banker),
                    amount=format_amount(engine.bank, money),
                    right=format_amount(half["right"], money),
                    left=format_amount(half["left"], money),
                )
            )
            if engine.banco_right == "again" and engine.banco_loser is not None:
                loser = name_of(snapshot, engine.banco_loser)
                lines.append(t("deux_tableaux.banco_again", lang, name=loser))
            elif engine.banco_right == "closed":
                lines.append(t("deux_tableaux.banco_closed", lang))
            orders = []
            for name in TABLES if engine.coup is None else ():  # dealt: the holders say it
                order = ", ".join(name_of(snapshot, seat) for seat in engine.table_order(name))
                where = table_name(name, lang)
                orders.append(t("deux_tableaux.order", lang, table=where, names=order))
            many = len(engine.seats) > FOLD_AFTER  # ten seats: both orders on one line
            lines += fold_lines(orders, 1) if many else orders
        if engine.turn() and not _answering(engine):  # else said first in the coup's field
            lines.append(_waiting(snapshot, lang))
        if not state.npc_auto:
            lines.append(t("deux_tableaux.gm_plays", lang, name=state.npc_name))
        return "\n".join(lines)

    def _coup(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        engine = engine_of(snapshot)
        coup = engine.coup
        lines = []
        if coup is None:  # the pontes are answering
            if engine.turn():
                lines.append(_waiting(snapshot, lang))
            half = halves(engine.bank)
            for name in TABLES:
                covered = engine.coverage(name)
                if not covered:  # a heading with nothing under it says nothing
                    continue
                where = table_name(name, lang)
                heading = t(
                    "deux_tableaux.table_half",
                    lang,
                    table=where,
                    half=format_amount(half[name], money),
                )
                stakes = [  # a tableau's stakes on its heading's line
                    _cover_line(snapshot, item.seat, item.stake, item.covered, lang, money).strip()
                    for item in covered
                ]
                lines.append(f"{heading} " + " · ".join(stakes))
            bancos = []
            for seat in engine.pontes():
                call = engine.calls.get(seat)
                if call == "banco":  # a pass: his seat line says it
                    bank = format_amount(engine.bank, money)
                    again = engine.banco_right == "again"
                    key = "deux_tableaux.call_banco_again" if again else "deux_tableaux.call_banco"
                    bancos.append(t(key, lang, name=name_of(snapshot, seat), amount=bank))
            many = len(engine.seats) > FOLD_AFTER  # ten seats: the bancos on one line
            lines += fold_lines(bancos, 1) if many else bancos
        else:
            lines.append(t("deux_tableaux.dealt", lang, banker=name_of(snapshot, engine.banker)))
            for name, hand in coup.hands.items():
                where = table_name(name, lang)
                heading = t(
                    "deux_tableaux.table_hand",
                    lang,
                    table=where,
                    holder=name_of(snapshot, hand.holder),
                )
                stakes = [
                    _cover_line(snapshot, item.seat, item.stake, item.covered, lang, money).strip()
                    for item in hand.covers
                ]
                lines.append(f"{heading} " + " · ".join(stakes))
                if hand.winner is not None:  # a natural, shown at once (the banker's would
                    # have settled the coup with the deal)
                    natural = {"cards": shown(hand.cards), "total": codes_value(hand.cards)}
                    lines.append(t("deux_tableaux.abattage", lang, table=where, **natural))
                elif len(hand.cards) > 2:
                    lines.append(
                        t("deux_tableaux.draws", lang, table=where, card=cards(hand.cards[2]))
                    )
                elif hand.done:
                    lines.append(t("deux_tableaux.stands", lang, table=where))
            if engine.phase == "hands":
                assert coup.waiting is not None
                holder = name_of(snapshot, coup.hands[coup.waiting].holder)
                where = table_name(coup.waiting, lang)
                lines.append(t("deux_tableaux.holder_speaks", lang, name=holder, table=where))
            elif engine.phase == "banker":
                lines.append(
                    t("deux_tableaux.banker_speaks", lang, name=name_of(snapshot, engine.banker))
                )
        lines += timed_out(snapshot, engine.history, lang, "deux_tableaux")
        return "\n".join(lines)

    def _last(
        self, snapshot: TableSnapshot, last: CoupSettled, number: int, lang: Lang, money: str
    ) -> str:
        banker = name_of(snapshot, last.seat)
        lines = [
            t(
                "deux_tableaux.bank_hand",
                lang,
                name=banker,
                cards=shown(last.banker),
                total=last.banker_total,
            )
        ]
        offers = {(o.character_id, o.label): o for o in snapshot.state.offers if o.hand == number}
        for result in last.tables:  # a tableau's cards, outcome and results on one line
            paid = [
                _result_line(snapshot, stake, result.table, last, offers, lang, money).strip()
                for stake in result.results
            ]
            lines.append(
                " — ".join([_table_line(result, lang), " · ".join(paid)][: 1 + bool(paid)])
            )
        after = []
        decided = [m for m in last.moves if m.seat == last.seat and m.kind in ("draw", "stand")]
        if decided and decided[-1].auto != "timeout":  # a timer's default is said below
            card = cards(last.banker[2]) if len(last.banker) > 2 else ""
            after.append(
                t(f"deux_tableaux.banker_{decided[-1].kind}", lang, name=banker, card=card)
            )
        after.append(t("deux_tableaux.bank_after", lang, amount=format_amount(last.bank, money)))
        lines.append(" ".join(after))  # the timers' defaults were said while it was played
        return "\n".join(lines)

    COMMON_PHASES = ("auction", "stakes", "drawing")

    def phase(self, snapshot: TableSnapshot) -> str:
        """The first bank (the GM's Start or auction), the auction, the pontes' stakes, or
        a hand-holder's or the banker's draw-or-stand."""
        engine = engine_of(snapshot)
        if engine.phase == "auction":
            return "auction"
        if engine.banker is None:
            return "first bank"
        return "stakes" if engine.phase == "stakes" else "drawing"

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The moves of the moment, on the table: Offer a bank and Pass at an auction; one
        Stake (on both tableaux, or the one a ponte may still stake on) and Pass (Stake
        right/left, Banco and the banker's Withdraw are in the players' panels); Draw and
        Stand."""
        engine = engine_of(snapshot)
        if not engine.turn():  # none before the first bank, nor while the table deals
            return []
        wanted = {"auction": ("bid", "pass"), "stakes": ("stake", "pass")}.get(
            engine.phase, ("draw", "stand")
        )
        kinds = {option.kind for option in options_now(snapshot) if option.seat is not None}
        return [_move_button(snapshot, kind, lang, money) for kind in wanted if kind in kinds]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """What the table waits for from the GM: the first bank (Start), or closing an
        auction nobody has left to answer."""
        engine = engine_of(snapshot)
        kinds = {option.kind for option in options_now(snapshot)}
        if engine.phase == "auction" and not engine.turn() and "close_auction" in kinds:
            return table_button(lang, snapshot.id, "deux_tableaux.btn_close", "close", style=BLUE)
        if engine.banker is None and engine.phase != "auction" and len(engine.seats) >= 2:
            return table_button(lang, snapshot.id, "deux_tableaux.btn_start", "start", style=BLUE)
        return None

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The GM's controls: auction the NPC's bank, close an auction still running; when
        he plays the NPC, its moves that are in a player's panel (Banco, Stake right…)."""
        engine, table = engine_of(snapshot), snapshot.id
        kinds = {option.kind for option in options_now(snapshot)}
        waits = self.gm_waits(snapshot, lang, money)
        specs = []
        if engine.banker is None and engine.phase != "auction":  # also when the table
            # waits for it (a redraw may be on its way); refused with the reason if alone
            specs.append(table_button(lang, table, "deux_tableaux.btn_start", "start"))
        if "open_auction" in kinds:
            moves = snapshot.state.moves
            specs.append(table_button(lang, table, "deux_tableaux.btn_auction", "auction", moves))
        if "close_auction" in kinds and waits is None:
            specs.append(table_button(lang, table, "deux_tableaux.btn_close", "close"))
        if not snapshot.state.npc_auto:
            npc = snapshot.state.npc_key
            specs += self.panel_buttons(snapshot, npc, lang, money, public=False)
        return specs

    def panel_buttons(
        self,
        snapshot: TableSnapshot,
        seat: str,
        lang: Lang,
        money: str,
        public: bool = True,
    ) -> list[ButtonSpec]:
        """His legal moves now (`public=False`: only those the table message does not
        carry): Stake right, left or both, Banco with its amount, Pass; the banker's
        Withdraw; an auction's Offer a bank and Pass; Draw and Stand."""
        mine = [option for option in options_now(snapshot) if option.seat == seat]
        specs = []
        for option in mine:
            if option.kind == "stake":
                specs += [_stake_button(snapshot, on, lang) for on in option.targets]
            elif option.kind in ("withdraw", "banco", "pass", "bid", "draw", "stand"):
                specs.append(_move_button(snapshot, option.kind, lang, money))
        specs.sort(key=lambda spec: ORDER.index(spec.custom_id.split(":")[3]))
        on_table = {spec.custom_id for spec in self.buttons(snapshot, lang, money)}
        return [spec for spec in specs if public or spec.custom_id not in on_table]

    def offer_label(
        self, snapshot: TableSnapshot, offer: SpendOffer, pay: int, lang: Lang, money: str
    ) -> str | None:
        """A lost stake's Hero Point, in the pick among several: which tableau it was on."""
        where = offer.label.removeprefix("bank:").split(":")[0]
        if where not in TABLES:
            return None
        return t(f"deux_tableaux.offer_{where}", lang, pay=format_amount(pay, money))

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        """`/table bet`: the same stake on both tables (the buttons choose a table)."""
        if on is not None:
            raise Refusal("deux_tableaux.bet_on_tables")
        snapshot = await bot_of(reply.interaction).services.tables.act(
            table,
            reply.interaction.user.id,
            "stake",
            target="both",
            amount=parse_amount_or_refuse(amount, reply.lang),
        )
        await reply.say("deux_tableaux.you_stake", **_move_params(reply, snapshot.records[0]))

    async def deal(self, reply: Reply, table: int) -> None:
        """`/table deal`: the GM's start; after it the coups deal themselves."""
        snapshot = await bot_of(reply.interaction).services.tables.snapshot(table)
        engine = engine_of(snapshot)
        if engine.banker is not None or engine.phase == "auction":
            await require_gm(reply.interaction)
            raise Refusal("deux_tableaux.deals_itself")
        await start(reply, table)


ORDER = ("bid", "stake", "banco", "pass", "withdraw", "draw", "stand")
STYLES = {"bid": GREEN, "stake": BLUE, "banco": RED, "draw": BLUE, "stand": RED}
HAND_BOUND = ("bid", "stake", "banco", "pass", "withdraw")  # answered together: the coup's


def _move_button(snapshot: TableSnapshot, kind: str, lang: Lang, money: str) -> ButtonSpec:
    """The button of one move; Stake on the table stakes on both tableaux (or the one its
    clicker may still stake on), Banco says its amount."""
    engine = engine_of(snapshot)
    if kind == "stake":
        return table_button(
            lang,
            snapshot.id,
            "deux_tableaux.btn_stake",
            "stake",
            "both",
            engine.answer_round,
            style=BLUE,
        )
    number = engine.answer_round if kind in HAND_BOUND else snapshot.state.moves
    params = {"amount": format_amount(engine.bank, money)} if kind == "banco" else {}
    style = STYLES.get(kind, discord.ButtonStyle.secondary)
    return table_button(
        lang, snapshot.id, f"deux_tableaux.btn_{kind}", kind, number, style=style, **params
    )


def _stake_button(snapshot: TableSnapshot, on: str, lang: Lang) -> ButtonSpec:
    key = f"deux_tableaux.btn_stake_{on}"
    round_ = engine_of(snapshot).answer_round
    return table_button(lang, snapshot.id, key, "stake", on, round_, style=BLUE)


def _banker_advice(engine: DeuxTableaux, advised: BankerAdvice, lang: Lang) -> list[str]:
    """Seed 004's advice for each table still in play, and which way the money pulls."""
    coup = engine.coup
    assert coup is not None
    lines = []
    for name in TABLES:
        draw = getattr(advised, name)
        if draw is None:
            continue
        cards_there = coup.hands[name].cards
        third = Card.parse(cards_there[2]) if len(cards_there) > 2 else None
        params = {
            "table": table_name(name, lang),
            "upto": BANKER_DRAWS_UP_TO[None if third is None else third.baccarat_value],
            "move": t(f"deux_tableaux.move_{'draw' if draw else 'stand'}", lang),
        }
        if third is None:
            lines.append(t("deux_tableaux.advice_stood", lang, **params))
        else:
            lines.append(t("deux_tableaux.advice_third", lang, card=third.pretty, **params))
    if advised.conflict:
        money = {name: sum(c.covered for c in coup.hands[name].covers) for name in TABLES}
        move = t(f"deux_tableaux.move_{'draw' if engine.weighed_draw() else 'stand'}", lang)
        if money["right"] == money["left"]:
            lines.append(t("deux_tableaux.advice_conflict_even", lang, move=move))
        else:
            heavier = "right" if money["right"] > money["left"] else "left"
            where = table_name(heavier, lang)
            lines.append(t("deux_tableaux.advice_conflict", lang, table=where, move=move))
    return lines


def _cover_line(
    snapshot: TableSnapshot, seat: str, stake: int, covered: int, lang: Lang, money: str
) -> str:
    under = cover_line(snapshot, "deux_tableaux", seat, stake, covered, lang, money)
    return "\u2003" + under  # under its table


def _table_line(result: TableResult, lang: Lang) -> str:
    where = table_name(result.table, lang)
    natural = t("deux_tableaux.natural", lang) if result.natural else ""
    outcome = t(f"deux_tableaux.outcome_{result.winner}", lang)
    return t(
        "deux_tableaux.table_result",
        lang,
        table=where,
        cards=shown(result.cards),
        total=result.total,
        natural=natural,
        outcome=outcome,
    )


def _result_line(
    snapshot: TableSnapshot,
    result: StakeResult,
    table: Table,
    last: CoupSettled,
    offers: dict[tuple[int, str], SpendOffer],
    lang: Lang,
    money: str,
) -> str:
    name = name_of(snapshot, result.seat)
    net = format_amount(abs(result.net), money)
    covered = format_amount(result.covered, money)
    key = "win" if result.net > 0 else "loss" if result.net < 0 else "push"
    text = "\u2003" + t(f"deux_tableaux.result_{key}", lang, name=name, net=net, covered=covered)
    # A Hero Point against the NPC: a PC's lost stake, or the PC banker's loss to it.
    if result.net < 0:
        offer = offers.get((int(result.seat), f"{table}:{result.covered}"))
        owner = name
    elif result.net > 0 and result.seat == snapshot.state.npc_key:  # the PC banker's
        offer = offers.get((int(last.seat or 0), f"bank:{table}:{result.covered}"))
        owner = name_of(snapshot, last.seat)
    else:
        offer, owner = None, name
    if offer is not None and offer.spent:  # an open offer is said in the Hero Points field
        text += " — " + offer_text(offer, "deux_tableaux", owner, lang, money)
    return text


UI = DeuxTableauxUI()
