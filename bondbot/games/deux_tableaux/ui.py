"""Baccara à deux tableaux on the table message: the bank (or its auction), both tables'
stakes with what each half covers, the coup's public cards, and only the moves of the
moment (one Stake, on both tableaux, and Pass; an auction's Offer a bank and Pass; Draw
and Stand). Stake right or left, Banco and the banker's Withdraw are in the players'
panels; Start, the auction and its close in the GM's.

The frame, the buttons and the lines both bank games say alike are the baccarat bank's
(`games.baccarat_bank.ui`). The pontes' and bidders' buttons carry the coup's number (they
answer together), the draw/stand buttons the table's move count. The seat panel (**My
seat**) shows the one who decides his cards and seed 004's recommendation (`hand_note`): a
hand-holder at 5, or the banker, with the advice for each table still in play and a
warning when they pull opposite ways.
"""

from __future__ import annotations

from typing import ClassVar

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.acting import act, may_act, options_now
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, table_button
from bondbot.bot.tables.glance import FOLD_AFTER, fold_lines
from bondbot.bot.tables.modals import amount_of, parse_amount_or_refuse
from bondbot.bot.tables.turns import whose_turn
from bondbot.errors import Refusal
from bondbot.games.baccarat_bank.events import StakeResult
from bondbot.games.baccarat_bank.ui import (
    BLUE,
    BankUI,
    add_common_actions,
    ask_amount,
    banker_reason,
    cover_line,
    hand_offers,
    name_of,
    result_line,
    shown,
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
)
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.baccarat import codes_value
from bondbot.tables.service import TableSnapshot
from bondbot.tables.state import SpendOffer

TARGETS = ("right", "left", "both")


def engine_of(snapshot: TableSnapshot) -> DeuxTableaux:
    engine = snapshot.state.engine
    assert isinstance(engine, DeuxTableaux)
    return engine


def table_name(table: str, lang: Lang) -> str:
    return t(f"deux_tableaux.table_{table}", lang)


# -- the buttons -------------------------------------------------------------------------

actions = TableActions()


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
        await ask_amount(click, "bid", "deux_tableaux.modal_bid", hand)
    else:
        await UI.play_amount(click, "bid", amount_of(click), hand=hand)


@actions.on("stake", str, int, form=True)
async def _stake(click: Click, on: str, hand: int) -> None:
    if on not in TARGETS:
        raise Refusal("table.unknown_action")
    if not click.submitted:
        await may_act(click, hand=hand)
        on = await _stake_target(click, on)
        title = f"deux_tableaux.modal_stake_{on}"
        await ask_amount(click, "stake", title, on, hand, target=on)
    else:
        await UI.play_amount(click, "stake", amount_of(click), target=on, hand=hand)


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
    await UI.played(click, await act(click, "withdraw", hand=hand, on_turn=False))


# -- the table message -------------------------------------------------------------------


class DeuxTableauxUI(BankUI):
    key = DeuxTableaux.key
    engine_type = DeuxTableaux
    actions = actions
    table_moves: ClassVar = {"auction": ("bid", "pass"), "stakes": ("stake", "pass")}
    hand_bound = ("bid", "stake", "banco", "pass", "withdraw")  # answered together
    order = ("bid", "stake", "banco", "pass", "withdraw", "draw", "stand")

    async def start(self, reply: Reply, table: int, dealing: bool = False) -> None:
        """The GM lets the NPC put up the first bank (the table does it by itself
        afterwards), unless he auctions it."""
        tables, snapshot = await self.gm_table(reply, table)
        if engine_of(snapshot).banker is not None or engine_of(snapshot).phase == "auction":
            raise Refusal("deux_tableaux.deals_itself" if dealing else "deux_tableaux.started")
        if len(engine_of(snapshot).seats) < 2:
            raise Refusal("deux_tableaux.nobody_seated")
        snapshot = await tables.act(table, reply.interaction.user.id, "default_bank", as_gm=True)
        started = next(e for r in snapshot.records for e in r.events if isinstance(e, BankStarted))
        await reply.say(
            "deux_tableaux.started_reply",
            name=name_of(snapshot, started.seat),
            amount=reply.money(started.amount),
        )

    def move_params(self, reply: Reply, record: Record) -> dict[str, str]:
        params = super().move_params(reply, record)
        staked = [e.table for e in record.events if isinstance(e, Staked)]
        if staked:
            key = "deux_tableaux.on_both" if len(staked) == 2 else f"deux_tableaux.on_{staked[0]}"
            params["where"] = reply.t(key)
        return params

    def net_of(self, settled: CoupSettled, seat: str) -> int | None:  # type: ignore[override]
        nets = [r.net for table in settled.tables for r in table.results]
        if seat == settled.seat:
            return -sum(nets) if nets else None
        mine = [r.net for table in settled.tables for r in table.results if r.seat == seat]
        return sum(mine) if mine else None

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

    def coup_shown(self, engine: DeuxTableaux) -> bool:  # type: ignore[override]
        return engine.coup is not None or (engine.phase == "stakes" and engine.banker is not None)

    def bank_text(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
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
        return "\n".join(lines + self.table_waits(snapshot, lang))

    def answers(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        engine, lines = engine_of(snapshot), []
        half = halves(engine.bank)
        for name in TABLES:
            covered = engine.coverage(name)
            if not covered:  # a heading with nothing under it says nothing
                continue
            where = table_name(name, lang)
            heading = t(
                "deux_tableaux.table_half", lang, table=where, half=format_amount(half[name], money)
            )
            stakes = [  # a tableau's stakes on its heading's line
                cover_line(snapshot, self.key, item.seat, item.stake, item.covered, lang, money)
                for item in covered
            ]
            lines.append(f"{heading} " + " · ".join(stakes))
        bancos = []
        for seat in engine.pontes():
            if engine.calls.get(seat) == "banco":  # a pass: his seat line says it
                bank = format_amount(engine.bank, money)
                again = engine.banco_right == "again"
                key = "deux_tableaux.call_banco_again" if again else "deux_tableaux.call_banco"
                bancos.append(t(key, lang, name=name_of(snapshot, seat), amount=bank))
        many = len(engine.seats) > FOLD_AFTER  # ten seats: the bancos on one line
        return lines + (fold_lines(bancos, 1) if many else bancos)

    def dealt(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        engine = engine_of(snapshot)
        coup = engine.coup
        assert coup is not None
        lines = [t("deux_tableaux.dealt", lang, banker=name_of(snapshot, engine.banker))]
        for name, hand in coup.hands.items():
            where = table_name(name, lang)
            holder = name_of(snapshot, hand.holder)
            heading = t("deux_tableaux.table_hand", lang, table=where, holder=holder)
            stakes = [
                cover_line(snapshot, self.key, item.seat, item.stake, item.covered, lang, money)
                for item in hand.covers
            ]
            lines.append(f"{heading} " + " · ".join(stakes))
            if hand.winner is not None:  # a natural, shown at once (the banker's would
                # have settled the coup with the deal)
                natural = {"cards": shown(hand.cards), "total": codes_value(hand.cards)}
                lines.append(t("deux_tableaux.abattage", lang, table=where, **natural))
            elif len(hand.cards) > 2:
                lines.append(t("deux_tableaux.draws", lang, table=where, card=cards(hand.cards[2])))
            elif hand.done:
                lines.append(t("deux_tableaux.stands", lang, table=where))
        if engine.phase == "hands":
            assert coup.waiting is not None
            holder = name_of(snapshot, coup.hands[coup.waiting].holder)
            where = table_name(coup.waiting, lang)
            lines.append(t("deux_tableaux.holder_speaks", lang, name=holder, table=where))
        elif engine.phase == "banker":
            banker = name_of(snapshot, engine.banker)
            lines.append(t("deux_tableaux.banker_speaks", lang, name=banker))
        return lines

    def last_text(  # type: ignore[override]
        self, snapshot: TableSnapshot, last: CoupSettled, number: int, lang: Lang, money: str
    ) -> str:
        banker = name_of(snapshot, last.seat)
        cards_of_bank = {"cards": shown(last.banker), "total": last.banker_total}
        lines = [t("deux_tableaux.bank_hand", lang, name=banker, **cards_of_bank)]
        offers = hand_offers(snapshot, number)
        for result in last.tables:  # a tableau's cards, outcome and results on one line
            paid = [
                _result_line(snapshot, stake, result.table, last, offers, lang, money)
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
        return specs + self.npc_panel(snapshot, lang, money)

    def panel_specs(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """Stake right, left or both, Banco with its amount, Pass; the banker's Withdraw; an
        auction's Offer a bank and Pass; Draw and Stand."""
        specs = []
        for option in options_now(snapshot):
            if option.seat != seat:
                continue
            if option.kind == "stake":
                specs += [_stake_button(snapshot, on, lang) for on in option.targets]
            elif option.kind in ("withdraw", "banco", "pass", "bid", "draw", "stand"):
                specs.append(self.move_button(snapshot, option.kind, lang, money))
        specs.sort(key=lambda spec: self.order.index(spec.custom_id.split(":")[3]))
        return specs

    def move_button(self, snapshot: TableSnapshot, kind: str, lang: Lang, money: str) -> ButtonSpec:
        """Stake on the table stakes on both tableaux (or the one its clicker may still
        stake on)."""
        if kind != "stake":
            return super().move_button(snapshot, kind, lang, money)
        round_ = engine_of(snapshot).answer_round
        key = "deux_tableaux.btn_stake"
        return table_button(lang, snapshot.id, key, "stake", "both", round_, style=BLUE)

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
        await reply.say("deux_tableaux.you_stake", **self.move_params(reply, snapshot.records[0]))


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
        move = t(f"deux_tableaux.move_{'draw' if draw else 'stand'}", lang)
        where = table_name(name, lang)
        lines.append(
            banker_reason("deux_tableaux", lang, coup.hands[name].cards, table=where, move=move)
        )
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
    """A result under its tableau (its line's leading space is dropped)."""
    return result_line(snapshot, "deux_tableaux", result, table, last, offers, lang, money).strip()


UI = DeuxTableauxUI()
add_common_actions(actions, UI, decisions=("draw", "stand"))
