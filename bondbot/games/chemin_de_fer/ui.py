"""Chemin de fer on the table message: who banks and how much, each ponte's call and what
the bank covers, the coup's cards once they are public, and only the moves of the moment
(the banker's Keep or Put up and Refuse, the pontes' Stake and Pass, the decider's Draw
and Stand; Banco and Withdraw are in the players' panels, Start waits for the GM).

The bank's buttons and the draw/stand buttons carry the table's move count; the pontes'
(stake, banco, pass) carry the coup's number, since they answer together. The seat panel
(**My seat**) shows the hand-holder and the banker their cards, their total and, when the
decision is theirs, seed 004's recommendation (`hand_note`), with their moves as buttons:
the table message never shows a card before it is public, nor the advice, which would
tell the banker's total.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables import modals
from bondbot.bot.tables.acting import act, check_amount, may_act, options_now, speaks_for_npc
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.bot.tables.glance import fold_lines
from bondbot.bot.tables.modals import amount_modal, amount_of, parse_amount_or_refuse
from bondbot.bot.tables.turns import whose_turn
from bondbot.errors import Refusal
from bondbot.games.chemin_de_fer.coverage import Cover
from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.chemin_de_fer.events import CoupSettled, StakeResult, ThirdCard
from bondbot.games.chemin_de_fer.tableau import BANKER_DRAWS_UP_TO
from bondbot.games.contract import Move, Record
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


def engine_of(snapshot: TableSnapshot) -> ChemindeFer:
    engine = snapshot.state.engine
    assert isinstance(engine, ChemindeFer)
    return engine


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
    pontes who passed by their timers on one line (shared with deux tableaux)."""
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


# -- the buttons -------------------------------------------------------------------------

actions = TableActions()


@actions.on("start")
async def _start(click: Click) -> None:
    await start(click.reply, click.table)


async def start(reply: Reply, table: int) -> None:
    """The GM starts the game: the first banker, chosen at open or drawn by the table."""
    await require_gm(reply.interaction)
    tables = bot_of(reply.interaction).services.tables
    snapshot = await tables.snapshot(table)
    engine = engine_of(snapshot)
    if engine.banker is not None:
        raise Refusal("chemin_de_fer.started")
    if len(engine.seats) < 2:
        raise Refusal("chemin_de_fer.nobody_seated")
    chosen = snapshot.state.config.options.get("first_banker")
    if chosen is not None and chosen not in engine.seats:
        raise Refusal("chemin_de_fer.first_banker_absent")
    # Drawn with the table's generator: the draw is then a recorded move like any other.
    banker = chosen if chosen is not None else tables.rng.choice(engine.seats)
    user = reply.interaction.user.id
    snapshot = await tables.act(table, user, "first_banker", target=banker, as_gm=True)
    await reply.say("chemin_de_fer.started_reply", name=name_of(snapshot, banker))


@actions.on("bank", int, form=True)
async def _bank(click: Click, moves: int) -> None:
    typed = amount_of(click) if click.submitted else None  # a form read first, whole
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    required = engine_of(snapshot).required
    if required is not None:  # a withdrawn bank is taken at its amount: nothing to ask
        await _played(click, await act(click, "bank", amount=required, moves=moves))
    elif typed is None:
        await may_act(click, moves=moves)
        hint = await limits_hint(click, "bank")
        modal = amount_modal(
            click.reply.lang, "chemin_de_fer.modal_bank", click.table, "bank", moves, hint=hint
        )
        await click.interaction.response.send_modal(modal)
    else:
        await check_amount(click, "bank", typed)
        await _played(click, await act(click, "bank", amount=typed, moves=moves))


@actions.on("stake", int, form=True)
async def _stake(click: Click, hand: int) -> None:
    if not click.submitted:
        await may_act(click, hand=hand)
        hint = await limits_hint(click, "stake")
        modal = amount_modal(
            click.reply.lang, "chemin_de_fer.modal_stake", click.table, "stake", hand, hint=hint
        )
        await click.interaction.response.send_modal(modal)
    else:
        amount = amount_of(click)
        await check_amount(click, "stake", amount)
        await _played(click, await act(click, "stake", amount=amount, hand=hand))


async def limits_hint(click: Click, kind: str, target: str | None = None) -> str | None:
    """What the clicker (or the NPC he plays for) may put on `kind` now, for the form's
    placeholder: "Between $10 and $500" (shared with deux tableaux)."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat = (await whose_turn(click.reply, snapshot)).seat
    for option in options_now(snapshot):
        if option.kind != kind or option.seat != seat or option.min is None:
            continue
        if target is not None and option.targets and target not in option.targets:
            continue
        return modals.limits_hint(click.reply.lang, click.reply.currency, option.min, option.max)
    return None


def _decision(kind: str) -> None:
    @actions.on(kind, int)
    async def _decide(click: Click, moves: int) -> None:
        await _played(click, await act(click, kind, moves=moves))


def _answer(kind: str) -> None:
    @actions.on(kind, int)
    async def _call(click: Click, hand: int) -> None:
        await _played(click, await act(click, kind, hand=hand))


for _kind in ("keep", "withdraw", "refuse", "draw", "stand"):
    _decision(_kind)
for _kind in ("banco", "pass"):
    _answer(_kind)


async def _played(click: Click, snapshot: TableSnapshot) -> None:
    """Tell the clicker what he did (or did for the NPC), and his result if the coup ended."""
    reply = click.reply
    first = snapshot.records[0]
    if speaks_for_npc(snapshot, click.user_id):
        text = reply.t(
            "chemin_de_fer.for_npc",
            name=snapshot.state.npc_name,
            move=_move_text(reply, first),
        )
    else:
        text = reply.t(f"chemin_de_fer.you_{first.move.kind}", **_move_params(reply, first))
    seat = snapshot.state.seat_of_user(click.user_id)
    settled = next(
        (e for r in snapshot.records for e in r.events if isinstance(e, CoupSettled)), None
    )
    if settled is not None and seat is not None:
        text += net_line(reply, "chemin_de_fer", net_of(settled, str(seat.character_id)))
    await reply.send(text)


def net_line(reply: Reply, game: str, net: int | None) -> str:
    """What the coup a click ended did for the clicker, as a line after its answer (none if
    he had nothing in play). Shared with deux tableaux, whose keys have the same names."""
    if net is None:
        return ""
    key = "won" if net > 0 else "lost" if net < 0 else "even"
    return "\n" + reply.t(f"{game}.coup_over_{key}", net=reply.money(abs(net)))


def _move_params(reply: Reply, record: Record) -> dict[str, str]:
    move = record.move
    params: dict[str, str] = {}
    if move.amount is not None:
        params["amount"] = reply.money(move.amount)
    card = next((e.card for e in record.events if isinstance(e, ThirdCard)), None)
    if card is not None:
        params["card"] = cards(card)
    return params


def _move_text(reply: Reply, record: Record) -> str:
    return reply.t(f"chemin_de_fer.did_{record.move.kind}", **_move_params(reply, record))


def net_of(settled: CoupSettled, seat: str) -> int | None:
    """What this seat won (+) or lost (−) on the coup; None if he had nothing in play."""
    if seat == settled.seat:
        return -sum(result.net for result in settled.results) - settled.commission
    return next((result.net for result in settled.results if result.seat == seat), None)


def _answering(engine: object) -> bool:
    """Whether the pontes are answering: the table's wait is said in the coup's field."""
    return getattr(engine, "coup", None) is None and getattr(engine, "phase", None) == "stakes"


def _waiting(snapshot: TableSnapshot, lang: Lang) -> str:
    """The table waits for these players, until when."""
    waiting = ", ".join(name_of(snapshot, seat) for seat in engine_of(snapshot).turn())
    return t("chemin_de_fer.waiting", lang, names=waiting, when=when(snapshot.state.deadline))


# -- the table message -------------------------------------------------------------------


class CheminDeFerUI:
    actions = actions

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """Under his cards in My cards: his total and, if the decision is his, the advice."""
        engine = engine_of(snapshot)
        coup = engine.coup
        if coup is None:
            return None
        hand = coup.ponte if seat == coup.holder else coup.banker if seat == engine.banker else None
        if hand is None:
            return None
        note = t("chemin_de_fer.note_total", lang, total=codes_value(hand))
        recommended = engine.advice()
        if recommended is None or engine.turn() != (seat,):
            return note
        if engine.phase == "ponte":
            why = t("chemin_de_fer.advice_ponte", lang)
        else:
            third = Card.parse(coup.ponte[2]) if len(coup.ponte) > 2 else None
            upto = BANKER_DRAWS_UP_TO[None if third is None else third.baccarat_value]
            why = (
                t("chemin_de_fer.advice_stood", lang, upto=upto)
                if third is None
                else t("chemin_de_fer.advice_third", lang, card=third.pretty, upto=upto)
            )
        move = t(f"chemin_de_fer.move_{'draw' if recommended else 'stand'}", lang)
        return f"{note}\n" + t("chemin_de_fer.advice", lang, why=why, move=move)

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        engine, seat = engine_of(snapshot), str(character_id)
        return _role(engine, seat, lang, money) if seat in engine.seats else None

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        engine = engine_of(snapshot)
        fields = [(t("chemin_de_fer.field_bank", lang), self._bank(snapshot, lang, money))]
        if engine.phase != "bank" or engine.coup is not None:
            coming = engine.hand if engine.coup is not None else engine.hand + 1
            title = t("chemin_de_fer.field_coup", lang, hand=coming)
            fields.append((title, self._coup(snapshot, lang, money)))
        if engine.last is not None and engine.coup is None:  # a coup dealt: its own field
            number = engine.hand
            title = t("chemin_de_fer.field_last", lang, hand=number)
            fields.append((title, self._last(snapshot, engine.last, number, lang, money)))
        return fields

    def _bank(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        state, engine = snapshot.state, engine_of(snapshot)
        amount = format_amount(engine.bank, money)
        banker = name_of(snapshot, engine.banker)
        lines = []
        if engine.banker is None:
            chosen = state.config.options.get("first_banker")
            if chosen is None:
                lines.append(t("chemin_de_fer.start_random", lang))
            else:
                lines.append(t("chemin_de_fer.start_chosen", lang, name=name_of(snapshot, chosen)))
        elif engine.phase != "bank":
            lines.append(t("chemin_de_fer.bank_holds", lang, name=banker, amount=amount))
        elif engine.bank > 0:
            lines.append(t("chemin_de_fer.bank_won", lang, name=banker, amount=amount))
        elif engine.required is not None:
            required = format_amount(engine.required, money)
            lines.append(t("chemin_de_fer.bank_required", lang, name=banker, amount=required))
        elif engine.turn():
            minimum = format_amount(engine.settings.min_bank, money)
            lines.append(t("chemin_de_fer.bank_offered", lang, name=banker, min=minimum))
        else:
            lines.append(t("chemin_de_fer.bank_nobody", lang))
        if engine.banco_suivi is not None:
            lines.append(t("chemin_de_fer.suivi", lang, name=name_of(snapshot, engine.banco_suivi)))
        order = engine.pontes() if engine.banker is not None else engine.seats
        if len(order) > 1 or engine.banker is not None:
            who = ", ".join(name_of(snapshot, seat) for seat in order)
            key = "chemin_de_fer.order" if engine.banker is not None else "chemin_de_fer.seats"
            lines.append(t(key, lang, names=who))
        if engine.turn() and not _answering(engine):  # else said first in the coup's field
            lines.append(_waiting(snapshot, lang))
        if not state.npc_auto:
            lines.append(t("chemin_de_fer.gm_plays", lang, name=state.npc_name))
        rules = t(
            f"chemin_de_fer.rules_{engine.settings.drawing}",
            lang,
            commission=engine.settings.commission,
        )
        lines[0] += " · " + rules  # one line: who banks, by which rules
        return "\n".join(lines)

    def _coup(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
        engine = engine_of(snapshot)
        coup = engine.coup
        lines = []
        if coup is None:  # the pontes are answering
            if engine.turn():
                lines.append(_waiting(snapshot, lang))
            covered = {item.seat: item for item in engine.coverage()}
            calls = []
            for seat in engine.pontes():  # those still to answer: "The table waits for"
                line = _call_line(snapshot, engine, seat, covered.get(seat), lang, money)
                calls += [line] if line else []
            lines += fold_lines(calls)  # ten pontes' answers side by side
        else:
            for item in coup.covers:
                lines.append(
                    cover_line(
                        snapshot, "chemin_de_fer", item.seat, item.stake, item.covered, lang, money
                    )
                )
            holder = name_of(snapshot, coup.holder)
            banker = name_of(snapshot, engine.banker)
            lines.append(t("chemin_de_fer.dealt", lang, holder=holder, banker=banker))
            if len(coup.ponte) > 2:
                lines.append(t("chemin_de_fer.ponte_draws", lang, card=cards(coup.ponte[2])))
            elif engine.phase == "banker":
                lines.append(t("chemin_de_fer.ponte_stands", lang))
            if engine.phase == "ponte":
                lines.append(t("chemin_de_fer.holder_speaks", lang, name=holder))
            else:
                lines.append(t("chemin_de_fer.banker_speaks", lang, name=banker))
        lines += timed_out(snapshot, engine.history, lang, "chemin_de_fer")
        return "\n".join(lines)

    def _last(
        self, snapshot: TableSnapshot, last: CoupSettled, number: int, lang: Lang, money: str
    ) -> str:
        holder, banker = name_of(snapshot, last.holder), name_of(snapshot, last.seat)
        lines = [
            t(
                "chemin_de_fer.hands",
                lang,
                holder=holder,
                ponte=shown(last.ponte),
                ponte_total=last.ponte_total,
                banker=banker,
                bank=shown(last.banker),
                banker_total=last.banker_total,
            )
        ]
        # The coup in three lines: the hands and who won, each result, the bank after.
        if last.natural:
            side = "ponte" if len(last.ponte) == 2 and last.ponte_total >= 8 else "banker"
            natural = last.ponte_total if side == "ponte" else last.banker_total
            lines[0] += " — " + t(f"chemin_de_fer.abattage_{side}", lang, total=natural)
        lines[0] += " " + t(f"chemin_de_fer.winner_{last.winner}", lang)
        offers = {(o.character_id, o.label): o for o in snapshot.state.offers if o.hand == number}
        results = [
            _result_line(snapshot, result, last, offers, lang, money) for result in last.results
        ]
        if results:
            lines.append(" · ".join(results))
        after = []
        if last.commission:
            commission = format_amount(last.commission, money)
            after.append(t("chemin_de_fer.commission", lang, amount=commission, name=banker))
        if last.winner == "ponte":
            after.append(t("chemin_de_fer.bank_passes", lang, name=banker))
        else:
            after.append(
                t("chemin_de_fer.bank_after", lang, amount=format_amount(last.bank, money))
            )
        lines.append(" ".join(after))
        lines += timed_out(snapshot, last.moves, lang, "chemin_de_fer")
        return "\n".join(lines)

    # "drawing" is common at a classic table only: the fixed tableau decides alone.
    COMMON_PHASES = ("bank", "stakes")

    def phase(self, snapshot: TableSnapshot) -> str:
        """The first bank (the GM's Start), the banker's bank, the pontes' stakes, or the
        holder's and the banker's draw-or-stand."""
        engine = engine_of(snapshot)
        if engine.banker is None:
            return "first bank"
        return engine.phase if engine.phase in ("bank", "stakes") else "drawing"

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The moves of the moment, on the table: the banker's bank (Keep, or Put up and
        Refuse; Withdraw is in his panel), the pontes' Stake and Pass (Banco, with its
        amount, is in each ponte's panel), the decider's Draw and Stand."""
        engine = engine_of(snapshot)
        if engine.banker is None or not engine.turn():
            return []
        wanted = {
            "bank": ("keep", "bank", "refuse"),
            "stakes": ("stake", "pass"),
        }.get(engine.phase, ("draw", "stand"))
        kinds = {option.kind for option in options_now(snapshot)}
        return [_move_button(snapshot, kind, lang, money) for kind in wanted if kind in kinds]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """The GM's Start, once two are seated: the table waits for the first bank."""
        engine = engine_of(snapshot)
        if engine.banker is not None or len(engine.seats) < 2:
            return None
        return table_button(lang, snapshot.id, "chemin_de_fer.btn_start", "start", style=BLUE)

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Start before the first bank; when the GM plays the NPC, its moves that are in a
        player's panel, not on the table (Withdraw its bank, call Banco)."""
        specs = []
        if engine_of(snapshot).banker is None:  # also when the table waits for it (a
            # redraw may be on its way); refused with the reason while one is seated
            specs.append(table_button(lang, snapshot.id, "chemin_de_fer.btn_start", "start"))
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
        """His legal moves now, with their amounts (`public=False`: only those the table
        message does not carry)."""
        engine = engine_of(snapshot)
        if seat not in engine.turn():
            return []
        kinds = sorted(
            {option.kind for option in options_now(snapshot) if option.seat == seat},
            key=ORDER.index,
        )
        on_table = {spec.custom_id for spec in self.buttons(snapshot, lang, money)}
        specs = [_move_button(snapshot, kind, lang, money) for kind in kinds]
        return [spec for spec in specs if public or spec.custom_id not in on_table]

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        """`/table bet`: a stake against the bank."""
        tables = bot_of(reply.interaction).services.tables
        snapshot = await tables.act(
            table,
            reply.interaction.user.id,
            "stake",
            amount=parse_amount_or_refuse(amount, reply.lang),
        )
        await reply.say(
            "chemin_de_fer.you_stake", amount=reply.money(snapshot.records[0].move.amount or 0)
        )

    async def deal(self, reply: Reply, table: int) -> None:
        """`/table deal`: the GM's start; after it the coups deal themselves."""
        snapshot = await bot_of(reply.interaction).services.tables.snapshot(table)
        if engine_of(snapshot).banker is not None:
            await require_gm(reply.interaction)
            raise Refusal("chemin_de_fer.deals_itself")
        await start(reply, table)


ORDER = ("keep", "bank", "refuse", "withdraw", "stake", "banco", "pass", "draw", "stand")
STYLES = {"keep": GREEN, "bank": GREEN, "stake": BLUE, "banco": RED, "draw": BLUE, "stand": RED}
HAND_BOUND = ("stake", "banco", "pass")  # the pontes answer together: the coup's number


def _move_button(snapshot: TableSnapshot, kind: str, lang: Lang, money: str) -> ButtonSpec:
    """The button of one move, with its amount where it has one (Take $N, Banco $N)."""
    engine = engine_of(snapshot)
    number = engine.answer_round if kind in HAND_BOUND else snapshot.state.moves
    key, params = f"chemin_de_fer.btn_{kind}", {}
    if kind == "bank" and engine.required is not None:  # a withdrawn bank: taken at its amount
        key, params = "chemin_de_fer.btn_take", {"amount": format_amount(engine.required, money)}
    elif kind == "banco":
        params = {"amount": format_amount(engine.bank, money)}
    style = STYLES.get(kind, discord.ButtonStyle.secondary)
    return table_button(lang, snapshot.id, key, kind, number, style=style, **params)


def _role(engine: ChemindeFer, seat: str, lang: Lang, money: str) -> str | None:
    """A seat's part in the coup, after his line in the seats' list."""
    if seat == engine.banker:
        return t("chemin_de_fer.role_banker", lang)
    coup = engine.coup
    if coup is not None:
        if seat == coup.holder:
            return t("chemin_de_fer.role_holder", lang)
        return None
    call = engine.calls.get(seat)
    if engine.phase != "stakes":
        return None
    if call is None:  # still to answer: said once, in "The table waits for"
        return None
    if call.kind == "stake":  # the coup's field says it, with what the bank covers
        return None
    return t(f"chemin_de_fer.role_{call.kind}", lang)


def _call_line(
    snapshot: TableSnapshot,
    engine: ChemindeFer,
    seat: str,
    covered: Cover | None,
    lang: Lang,
    money: str,
) -> str | None:
    name = name_of(snapshot, seat)
    call = engine.calls.get(seat)
    if call is None:
        return None if seat in engine.turn() else t("chemin_de_fer.call_out", lang, name=name)
    if call.kind == "banco":
        suivi = seat == engine.banco_suivi
        key = "chemin_de_fer.call_banco_suivi" if suivi else "chemin_de_fer.call_banco"
        return t(key, lang, name=name, amount=format_amount(engine.bank, money))
    if call.kind == "pass":  # his seat line says it
        return None
    cover = covered.covered if covered is not None else 0
    return cover_line(snapshot, "chemin_de_fer", seat, call.amount, cover, lang, money)


def cover_line(
    snapshot: TableSnapshot,
    game: str,
    seat: str,
    stake: int,
    covered: int,
    lang: Lang,
    money: str,
) -> str:
    """A stake and how much of it the bank covers (shared with deux tableaux)."""
    params = {
        "name": name_of(snapshot, seat),
        "stake": format_amount(stake, money),
        "covered": format_amount(covered, money),
        "out": format_amount(stake - covered, money),
    }
    key = "covered" if covered == stake else "uncovered" if covered == 0 else "part"
    return t(f"{game}.stake_{key}", lang, **params)


def _result_line(
    snapshot: TableSnapshot,
    result: StakeResult,
    last: CoupSettled,
    offers: dict[tuple[int, str], SpendOffer],
    lang: Lang,
    money: str,
) -> str:
    name = name_of(snapshot, result.seat)
    net = format_amount(abs(result.net), money)
    covered = format_amount(result.covered, money)
    key = "win" if result.net > 0 else "loss" if result.net < 0 else "push"
    text = t(f"chemin_de_fer.result_{key}", lang, name=name, net=net, covered=covered)
    # A Hero Point against the NPC: a PC ponte's lost stake, or the PC banker's loss to it.
    if result.net < 0:
        offer = offers.get((int(result.seat), f"stake:{result.covered}"))
        owner = name
    elif result.net > 0 and result.seat == snapshot.state.npc_key:  # the PC banker's
        offer = offers.get((int(last.seat or 0), f"bank:{result.covered}"))
        owner = name_of(snapshot, last.seat)
    else:
        offer, owner = None, name
    if offer is not None and offer.spent:  # an open offer is said in the Hero Points field
        text += " — " + offer_text(offer, "chemin_de_fer", owner, lang, money)
    return text


def offer_text(offer: SpendOffer, game: str, name: str, lang: Lang, money: str) -> str:
    """A lost stake's Hero Point offer: won back, or until when (shared with deux tableaux)."""
    if offer.spent:
        return t(f"{game}.won_back", lang, name=name)
    pay = format_amount(offer.pay, money)
    return t(f"{game}.may_win_back", lang, name=name, pay=pay, when=when(offer.expires_at))


UI = CheminDeFerUI()
