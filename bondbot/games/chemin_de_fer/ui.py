"""Chemin de fer on the table message: who banks and how much, each ponte's call and what
the bank covers, the coup's cards once they are public, and only the moves of the moment
(the banker's Keep or Put up and Refuse, the pontes' Stake and Pass, the decider's Draw
and Stand; Banco and Withdraw are in the players' panels, Start waits for the GM).

The frame, the buttons and the lines both bank games say alike are the baccarat bank's
(`games.baccarat_bank.ui`). The bank's buttons and the draw/stand buttons carry the
table's move count; the pontes' (stake, banco, pass) carry the coup's number, since they
answer together. The seat panel (**My seat**) shows the hand-holder and the banker their
cards, their total and, when the decision is theirs, seed 004's recommendation
(`hand_note`), with their moves as buttons: the table message never shows a card before it
is public, nor the advice, which would tell the banker's total.
"""

from __future__ import annotations

from typing import ClassVar

from bondbot.bot.context import bot_of
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.acting import act, may_act, options_now
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, table_button
from bondbot.bot.tables.glance import fold_lines
from bondbot.bot.tables.modals import amount_of, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.games.baccarat_bank.coverage import Cover
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
    timed_out,
)
from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.chemin_de_fer.events import CoupSettled
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.baccarat import codes_value
from bondbot.tables.service import TableSnapshot


def engine_of(snapshot: TableSnapshot) -> ChemindeFer:
    engine = snapshot.state.engine
    assert isinstance(engine, ChemindeFer)
    return engine


# -- the buttons -------------------------------------------------------------------------

actions = TableActions()


@actions.on("bank", int, form=True)
async def _bank(click: Click, moves: int) -> None:
    typed = amount_of(click) if click.submitted else None  # a form read first, whole
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    required = engine_of(snapshot).required
    if required is not None:  # a withdrawn bank is taken at its amount: nothing to ask
        await UI.played(click, await act(click, "bank", amount=required, moves=moves))
    elif typed is None:
        await may_act(click, moves=moves)
        await ask_amount(click, "bank", "chemin_de_fer.modal_bank", moves)
    else:
        await UI.play_amount(click, "bank", typed, moves=moves)


@actions.on("stake", int, form=True)
async def _stake(click: Click, hand: int) -> None:
    if not click.submitted:
        await may_act(click, hand=hand)
        await ask_amount(click, "stake", "chemin_de_fer.modal_stake", hand)
    else:
        await UI.play_amount(click, "stake", amount_of(click), hand=hand)


# -- the table message -------------------------------------------------------------------


class CheminDeFerUI(BankUI):
    key = ChemindeFer.key
    engine_type = ChemindeFer
    actions = actions
    table_moves: ClassVar = {"bank": ("keep", "bank", "refuse"), "stakes": ("stake", "pass")}
    hand_bound = ("stake", "banco", "pass")  # the pontes answer together: the coup's number
    order = ("keep", "bank", "refuse", "withdraw", "stake", "banco", "pass", "draw", "stand")

    async def start(self, reply: Reply, table: int, dealing: bool = False) -> None:
        """The GM starts the game: the first banker, chosen at open or drawn by the table."""
        tables, snapshot = await self.gm_table(reply, table)
        engine = engine_of(snapshot)
        if engine.banker is not None:
            raise Refusal("chemin_de_fer.deals_itself" if dealing else "chemin_de_fer.started")
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

    def net_of(self, settled: CoupSettled, seat: str) -> int | None:  # type: ignore[override]
        if seat == settled.seat:
            return -sum(result.net for result in settled.results) - settled.commission
        return next((result.net for result in settled.results if result.seat == seat), None)

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
            why = banker_reason("chemin_de_fer", lang, coup.ponte)
        move = t(f"chemin_de_fer.move_{'draw' if recommended else 'stand'}", lang)
        return f"{note}\n" + t("chemin_de_fer.advice", lang, why=why, move=move)

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        engine, seat = engine_of(snapshot), str(character_id)
        return _role(engine, seat, lang) if seat in engine.seats else None

    def coup_shown(self, engine: ChemindeFer) -> bool:  # type: ignore[override]
        return engine.phase != "bank" or engine.coup is not None

    def bank_text(self, snapshot: TableSnapshot, lang: Lang, money: str) -> str:
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
        lines += self.table_waits(snapshot, lang)
        rules = t(
            f"chemin_de_fer.rules_{engine.settings.drawing}",
            lang,
            commission=engine.settings.commission,
        )
        lines[0] += " · " + rules  # one line: who banks, by which rules
        return "\n".join(lines)

    def answers(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        engine = engine_of(snapshot)
        covered = {item.seat: item for item in engine.coverage()}
        calls = []
        for seat in engine.pontes():  # those still to answer: "The table waits for"
            line = _call_line(snapshot, engine, seat, covered.get(seat), lang, money)
            calls += [line] if line else []
        return fold_lines(calls)  # ten pontes' answers side by side

    def dealt(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
        engine = engine_of(snapshot)
        coup = engine.coup
        assert coup is not None
        lines = [
            cover_line(snapshot, self.key, item.seat, item.stake, item.covered, lang, money)
            for item in coup.covers
        ]
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
        return lines

    def last_text(  # type: ignore[override]
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
        offers = hand_offers(snapshot, number)
        results = [
            result_line(snapshot, self.key, result, None, last, offers, lang, money)
            for result in last.results
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
        return specs + self.npc_panel(snapshot, lang, money)

    def panel_specs(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """His legal moves now, with their amounts (Take $N, Banco $N)."""
        if seat not in engine_of(snapshot).turn():
            return []
        kinds = sorted(
            {option.kind for option in options_now(snapshot) if option.seat == seat},
            key=self.order.index,
        )
        return [self.move_button(snapshot, kind, lang, money) for kind in kinds]

    def button_text(  # type: ignore[override]
        self, engine: ChemindeFer, kind: str, money: str
    ) -> tuple[str, dict[str, str]]:
        if kind == "bank" and engine.required is not None:  # a withdrawn bank: at its amount
            return "chemin_de_fer.btn_take", {"amount": format_amount(engine.required, money)}
        return super().button_text(engine, kind, money)

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


def _role(engine: ChemindeFer, seat: str, lang: Lang) -> str | None:
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


UI = CheminDeFerUI()
add_common_actions(actions, UI, decisions=("keep", "withdraw", "refuse", "draw", "stand"))
