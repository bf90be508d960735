"""Hold'em on the table message: the hand (board, pots and who may win each, the NPC, whose
turn it is), each player's bet and chips in his seat line, what happened this hand, and
between hands the showdown with the hands named in the server's language.

The table message shows only the moves of the moment: in a betting round Fold, Check or
Call, and Bet…/Raise… (its form states the least and the most), for whoever is to act;
between hands the GM's Deal, which the table waits for. Each player's seat panel (My seat)
holds his cards as a picture and, on his turn, the same moves with the bet sizes (½ pot,
pot, all-in) and their amounts, and Sit out / Back in; the GM's panel has the NPC's cards
and, when he plays it, the NPC's bet sizes. Only the player whose turn it is may use the
play buttons (the GM for the NPC, when he plays it). They carry the table's move count,
so a double click or a click on a message not yet redrawn is refused instead of playing
twice; a played click answers by redrawing the table message in place (from a panel: it
is told it was done, and the table redrawn). Hole cards are never on the message unless
shown at the showdown. What the message says (its lines and fields) is in
`table_text.py`; here are its buttons, their actions and the blinds read at open.
"""

from __future__ import annotations

from typing import Any

import discord

from bondbot.bot.context import bot_of, is_gm, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec, custom_id, modal_view, view_of
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import AREA, table_button
from bondbot.bot.tables.glance import by_hand_word
from bondbot.bot.tables.messages import table_messages
from bondbot.bot.tables.modals import amount_of, limits_hint, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.games.contract import Option
from bondbot.games.holdem.engine import CHIP, Holdem
from bondbot.games.holdem.table_text import (
    LOG,
    between_lines,
    engine_of,
    fit,
    hand_lines,
    in_hand,
    name_of,
    ready,
    result_lines,
    street_log,
)
from bondbot.i18n import Lang, t
from bondbot.money import Cents, format_amount
from bondbot.tables.service import TableSnapshot

MAX_LEVELS = 50  # blind levels a schedule may hold
# -- /table open holdem -------------------------------------------------------------------


def blind_options(
    big_blind: str, small_blind: str | None, schedule: str | None, every: int | None, lang: Lang
) -> dict[str, Any]:
    """The engine's options from the GM's blinds: the first level, then the schedule's
    levels (`20/40; 50/100`), or without a schedule blinds doubling every `every` hands.
    Blinds are whole chips (holdem.md): one with cents is refused; the default small blind
    is half the big one, rounded down to a whole chip (at least one)."""
    big = parse_amount_or_refuse(big_blind, lang)
    small = (
        parse_amount_or_refuse(small_blind, lang)
        if small_blind
        else max(big // 2 // CHIP * CHIP, CHIP)
    )
    levels = [(small, big)]
    if schedule:
        if every is None:
            raise Refusal("holdem.schedule_needs_every")
        for part in schedule.split(";"):
            low, slash, high = part.partition("/")
            if not slash:
                raise Refusal("holdem.bad_blinds")
            levels.append((parse_amount_or_refuse(low, lang), parse_amount_or_refuse(high, lang)))
    elif every is not None:
        levels += [(small << n, big << n) for n in range(1, 10)]
    if any(amount % CHIP for level in levels for amount in level):
        raise Refusal("holdem.blinds_whole", chip=Cents(CHIP))
    if len(levels) > MAX_LEVELS or any(low > high for low, high in levels):
        raise Refusal("holdem.bad_blinds")
    return {
        "levels": [{"small": low, "big": high} for low, high in levels],
        "raise_every": every,
    }


# -- the buttons ----------------------------------------------------------------------------

actions = TableActions()


async def _actor(click: Click, snapshot: TableSnapshot, moves: int) -> tuple[str, bool]:
    """Whose move the click makes: the clicker's own seat, or the NPC's for the GM (when
    he plays it); refused when the button is stale or it is someone else's turn."""
    state = snapshot.state
    if moves != state.moves:
        raise Refusal("table.stale_button")
    turn = engine_of(snapshot).turn()
    if not turn:
        raise Refusal("holdem.nobody_to_act")
    seat = state.seat_of_user(click.user_id)  # before the wait, which may see the next action
    if turn[0] == state.npc_key and not state.npc_auto and await is_gm(click.interaction):
        return turn[0], True
    if seat is None:
        raise Refusal("table.not_seated")
    if str(seat.character_id) != turn[0]:
        raise Refusal("holdem.not_your_turn", name=name_of(snapshot, turn[0]))
    return turn[0], False


async def play(click: Click, kind: str, moves: int, amount: int | None = None) -> None:
    """Play the clicker's move (or the NPC's, for the GM) and redraw the table in place."""
    tables = bot_of(click.interaction).services.tables
    snapshot = await tables.snapshot(click.table)
    seat, for_npc = await _actor(click, snapshot, moves)
    engine = engine_of(snapshot)
    if kind in ("bet", "raise"):
        option = _option(engine, seat, "bet", "raise")
        if option is None:
            raise Refusal("holdem.cannot_raise")
        assert amount is not None and option.min is not None and option.max is not None
        if not option.min <= amount <= option.max:
            raise Refusal("holdem.outside_bounds", min=Cents(option.min), max=Cents(option.max))
        kind = option.kind
    elif kind == "call":
        amount = engine.to_call(seat)
    played = await tables.act(
        click.table,
        click.user_id,
        kind,
        amount=amount,
        moves=moves,
        as_gm=for_npc,
        for_npc=for_npc,
    )
    await table_messages(click.interaction).answer(click.interaction, played)


def _play_action(name: str, kind: str) -> None:
    @actions.on(name, int)
    async def _play(click: Click, moves: int) -> None:
        await play(click, kind, moves)


for _action, _kind in (("fold", "fold"), ("check", "check"), ("call", "call"), ("allin", "all_in")):
    _play_action(_action, _kind)


@actions.on("to", int, int, str)
async def _bet_to(click: Click, moves: int, amount: int, size: str) -> None:
    """A quick bet (`size`: half or pot), its amount drawn on the button."""
    await play(click, "raise", moves, amount)


@actions.on("raise", int, form=True)
async def _raise(click: Click, moves: int) -> None:
    """The Bet/Raise modal: its bounds in its label; the submit plays the amount."""
    if click.submitted:
        amount = amount_of(click)
        await play(click, "raise", moves, amount)
        return
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat, _ = await _actor(click, snapshot, moves)
    option = _option(engine_of(snapshot), seat, "bet", "raise")
    if option is None:
        raise Refusal("holdem.cannot_raise")
    assert option.min is not None and option.max is not None
    reply = click.reply
    modal = modal_view(
        reply.t(f"holdem.modal_{option.kind}"),
        custom_id(AREA, click.table, "raise", moves),
        [
            discord.ui.TextInput(
                label=reply.t("holdem.modal_amount")[:45],
                placeholder=limits_hint(reply.lang, reply.currency, option.min, option.max)[:100],
                custom_id="amount",
                max_length=16,
            )
        ],
    )
    await click.interaction.response.send_modal(modal)


SIT = {"out": "sit_out", "in": "sit_in"}


@actions.on("sit", str)
async def _sit(click: Click, way: str) -> None:
    """Sit out from the next hand (`out`, in the player's seat panel) or come back (`in`,
    in the panel while he sits out, and on the answer to sitting out). Each button says
    which way it goes, so clicks repeated or crossing each other are one move, never a
    flip back."""
    if way not in SIT:
        raise Refusal("table.unknown_action")
    tables = bot_of(click.interaction).services.tables
    snapshot = await tables.snapshot(click.table)
    if snapshot.state.seat_of_user(click.user_id) is None:
        raise Refusal("table.not_seated")
    try:
        await tables.act(click.table, click.user_id, SIT[way])
        key = "holdem.sat_out" if way == "out" else "holdem.sat_in"
    except Refusal as refusal:
        if refusal.key != f"holdem.already_{way}":
            raise
        key = refusal.key
    if way == "in":
        await click.reply.say(key)
        return
    back = table_button(click.reply.lang, click.table, "holdem.btn_sit_in", "sit", "in")
    await click.reply.send(click.reply.t(key), view=view_of([back]))


def _option(engine: Holdem, seat: str, *kinds: str) -> Option | None:
    return next((o for o in engine.options() if o.seat == seat and o.kind in kinds), None)


# -- the table message ----------------------------------------------------------------------


class HoldemUI:
    actions = actions
    COMMON_PHASES = ("betting", "between hands")

    def opening_options(
        self, options: dict[str, Any], given: dict[str, Any], lang: Lang
    ) -> dict[str, Any]:
        """The blind levels the GM's blinds make (`blind_options`, which reads them)."""
        return blind_options(
            options["big_blind"],
            options["small_blind"],
            options["schedule"],
            options["raise_every"],
            lang,
        )

    def phase(self, snapshot: TableSnapshot) -> str:
        return "between hands" if engine_of(snapshot).over else "betting"

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        engine = engine_of(snapshot)
        seat = str(character_id)
        away = seat in engine.sitting_out
        if engine.over or seat not in engine.players:
            if away:
                return t("holdem.seat_sitting_out", lang)
            return None if engine.over else t("holdem.seat_waits", lang)
        # His chips are on his line already: his bet, not what is behind it too (issue 34).
        parts = in_hand(snapshot, seat, lang, money, behind=False)
        if away:
            parts.append(t("holdem.seat_sitting_out", lang))
        return " · ".join(parts)

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        engine = engine_of(snapshot)
        if not engine.over:
            blinds = engine.blinds
            assert blinds is not None
            title = t(
                "holdem.hand_title",
                lang,
                hand=engine.hand,
                small=format_amount(blinds.small, money),
                big=format_amount(blinds.big, money),
            )
            log = fit(street_log(snapshot, lang, money), LOG, keep_last=True)
            return [
                (title, fit(hand_lines(snapshot, lang, money))),
                (t("holdem.log_title", lang), log),
            ]
        fields = [(t("holdem.between_title", lang), fit(between_lines(snapshot, lang, money)))]
        if engine.players:
            hands, pots = result_lines(snapshot, lang, money)
            title = t("holdem.result_title", lang, hand=engine.hand)
            fields.append((title, fit(hands)))
            fields.append((t("holdem.pots_title", lang), fit(pots)))
        return fields

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """In a betting round, Fold, Check or Call and Bet…/Raise… for whoever may act by
        the table's buttons (a PC, or the NPC the GM plays); between hands, nothing: the
        table waits for the GM's Deal (`gm_waits`)."""
        state, engine = snapshot.state, engine_of(snapshot)
        turn = engine.turn()
        if not turn or (turn[0] == state.npc_key and state.npc_auto):
            return []
        return _play_buttons(snapshot, turn[0], lang, money, sizes=False)

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """Deal, once the hand is over and two players can be dealt in."""
        if not engine_of(snapshot).over or len(ready(snapshot)) < 2:
            return None
        return table_button(
            lang,
            snapshot.id,
            "table.btn_deal",
            "deal",
            snapshot.state.engine.answer_round,
            style=discord.ButtonStyle.primary,
        )

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """On the NPC's turn, when the GM plays it: the bet sizes with their amounts (Fold,
        Call and Raise… are on the table message). Between hands, Deal while the table
        does not wait for it (fewer than two players ready: the click says so)."""
        state, engine = snapshot.state, engine_of(snapshot)
        if engine.over and self.gm_waits(snapshot, lang, money) is None:
            return [
                table_button(
                    lang, snapshot.id, "holdem.btn_deal", "deal", snapshot.state.engine.answer_round
                )
            ]
        if state.npc_auto or engine.turn() != (state.npc_key,):
            return []
        return _size_buttons(snapshot, state.npc_key, lang, money)

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """A player's moves on his turn, the bet sizes with their amounts, and Sit out (or
        Back in while he sits out)."""
        engine, table = engine_of(snapshot), snapshot.id
        specs = []
        if engine.turn() == (seat,):
            specs = _play_buttons(snapshot, seat, lang, money, sizes=True)
        if seat in engine.sitting_out:
            specs.append(table_button(lang, table, "holdem.btn_sit_in", "sit", "in"))
        elif seat in engine.seats:
            specs.append(table_button(lang, table, "holdem.btn_sit_out", "sit", "out"))
        return specs

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """That it is his turn (his moves are the panel's buttons), or that he sits out; the
        NPC's cards, shown to the GM, have no note."""
        engine = engine_of(snapshot)
        notes = []
        if engine.turn() == (seat,) and seat != snapshot.state.npc_key:
            notes.append(t("holdem.note_your_turn", lang))
        if seat in engine.sitting_out:
            notes.append(t("holdem.note_sitting_out", lang))
        return " ".join(notes) or None

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        raise Refusal("holdem.use_buttons")

    async def deal(self, reply: Reply, table: int) -> None:
        await require_gm(reply.interaction)
        snapshot = await bot_of(reply.interaction).services.tables.act(
            table, reply.interaction.user.id, "deal", as_gm=True
        )
        key = by_hand_word("dealt_by", snapshot.state.config.game, reply.lang)
        await reply.say(key, hand=snapshot.state.hand_no)


def _play_buttons(
    snapshot: TableSnapshot, seat: str, lang: Lang, money: str, *, sizes: bool
) -> list[ButtonSpec]:
    """Fold, Check or Call, and Bet…/Raise… (the form), each only when legal for `seat`,
    carrying the move count; with `sizes`, the bet sizes too (½ pot, pot, all-in)."""
    table, engine, moves = snapshot.id, engine_of(snapshot), snapshot.state.moves
    legal = {o.kind: o for o in engine.options() if o.seat == seat}
    red, blue, green = (
        discord.ButtonStyle.danger,
        discord.ButtonStyle.primary,
        discord.ButtonStyle.success,
    )
    specs = []
    if "fold" in legal:
        specs.append(table_button(lang, table, "holdem.btn_fold", "fold", moves, style=red))
    call = legal.get("call")
    if call is not None and call.min:
        amount = format_amount(call.min, money)
        specs.append(
            table_button(lang, table, "holdem.btn_call", "call", moves, style=blue, amount=amount)
        )
    elif "check" in legal:
        specs.append(table_button(lang, table, "holdem.btn_check", "check", moves, style=blue))
    raising = legal.get("bet") or legal.get("raise")
    if raising is not None:
        key = f"holdem.btn_{raising.kind}"
        specs.append(table_button(lang, table, key, "raise", moves, style=green))
    if sizes:
        specs += _size_buttons(snapshot, seat, lang, money)
    return specs


def _size_buttons(snapshot: TableSnapshot, seat: str, lang: Lang, money: str) -> list[ButtonSpec]:
    """½ pot, Pot and All-in for `seat`, with what his bet comes to: only the legal ones,
    and a size only when it differs from a larger one (½ pot may already be all-in)."""
    table, engine, moves = snapshot.id, engine_of(snapshot), snapshot.state.moves
    legal = {o.kind: o for o in engine.options() if o.seat == seat}
    raising = legal.get("bet") or legal.get("raise")
    stack = engine.chips.get(seat, 0)
    behind = stack + engine.bets.get(seat, 0)  # what his bet comes to, all-in
    green, red = discord.ButtonStyle.success, discord.ButtonStyle.danger
    specs = []
    seen = set()
    for size, share in (("half", 2), ("pot", 1)):
        to = _pot_bet(engine, seat, raising, share)
        if to is None or to in seen or (to >= behind and "all_in" in legal):
            continue
        seen.add(to)
        amount = format_amount(to, money)
        key = f"holdem.btn_{size}"
        spec = table_button(lang, table, key, "to", moves, to, size, style=green, amount=amount)
        specs.append(spec)
    call = legal.get("call")
    calls_all = raising is None and call is not None and (call.min or 0) >= stack
    if "all_in" in legal and not calls_all:  # a call of all he has is Call's button
        amount = format_amount(stack, money)
        specs.append(
            table_button(lang, table, "holdem.btn_all_in", "allin", moves, style=red, amount=amount)
        )
    return specs


def _pot_bet(engine: Holdem, seat: str | None, raising: Option | None, share: int) -> int | None:
    """What the seat's bet comes to with a bet or raise of the pot (share 1) or half of it
    (share 2), the call included, to the nearest small blind (the smallest chip), within
    his bounds; None when he may not bet."""
    if seat is None or raising is None or raising.min is None or raising.max is None:
        return None
    assert engine.blinds is not None
    chip = engine.blinds.small
    call = engine.to_call(seat)
    pot = sum(p.amount for p in engine.pots()) + sum(engine.bets.values())
    target = max(engine.bets.values(), default=0) + (pot + call) // share
    target = (target + chip // 2) // chip * chip
    return min(max(target, raising.min), raising.max)


UI = HoldemUI()
