"""Macao on the table message: wagers by buttons and a modal, then draws in seat order.

While the players decide (all at once, each seeing only his own cards in his seat panel,
My seat), the message offers "Bet on my hand" / "on the banker" / "on a tie" (each asks
the amount, its form stating the limits); each player's panel shows his cards as a
picture with their total, the same wagers he may still make, and Pass. Then Draw and
Stand for the seat whose turn it is, on the message and in his panel. Draw and Stand
carry the table's move count, so a double click plays once; a second wager or pass is
refused at the click. Between coups the table waits for the GM's Deal; End the evening is
in the GM's panel. The GM, who sits at no seat, plays the NPC with the same buttons when
he has taken it over (`/table npc auto:false`), and his panel shows him its cards.

At open the GM is told, privately, what the bank may expect: it takes the exact odds
(`Macao.bank_expectation`, a fraction of a second), computed in a thread and cached.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction
from typing import Any

import discord

from bondbot.bot.context import bot_of, is_gm, require_gm
from bondbot.bot.reply import Reply, reply_to
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import table_button
from bondbot.bot.tables.modals import AMOUNT, amount_modal, limits_hint, parse_amount_or_refuse
from bondbot.errors import Refusal
from bondbot.games.contract import Option
from bondbot.games.macao.counting import Counting, card_value, hand_total, is_bust, natural_of
from bondbot.games.macao.drawing import (
    player_may_draw,
    recommended_banker_draw,
    recommended_draw,
)
from bondbot.games.macao.engine import Bank, Macao, MacaoRules, Phase
from bondbot.games.macao.odds import BankExpectation
from bondbot.games.macao.settlement import Target
from bondbot.games.macao.table_text import TableText, engine_of, hand_of, total_text
from bondbot.i18n import Lang, t
from bondbot.money import Cents
from bondbot.rules.cards import cards_pretty
from bondbot.tables.service import TableSnapshot

TARGETS = tuple(target.value for target in Target)
# `/table bet`'s `on` (Player, Banker, Tie) at a Macao table.
BET_ON = {"player": Target.OWN, "banker": Target.BANKER, "tie": Target.TIE}
_STYLES = {
    Target.OWN: discord.ButtonStyle.primary,
    Target.BANKER: discord.ButtonStyle.danger,
    Target.TIE: discord.ButtonStyle.success,
}


def expectation_text(
    rules: MacaoRules, packs: int, expectation: BankExpectation, lang: Lang
) -> str:
    """What the bank may expect, per stake, told to the GM when the table opens."""

    def edge(value: Fraction) -> str:
        key = "macao.expect_wins" if value > 0 else "macao.expect_loses"
        return t(key, lang, pct=percent(value, lang))

    per = expectation.per_target
    text = t(
        "macao.expectation",
        lang,
        counting=t(f"macao.counting_name_{rules.counting}", lang),
        packs=t("macao.packs_by_size", lang)
        if rules.packs is None
        else t("macao.packs_one" if packs == 1 else "macao.packs_fixed", lang, packs=packs),
        tie=rules.tie_pays,
        own=edge(per[Target.OWN]),
        banker=edge(per[Target.BANKER]),
        tie_edge=edge(per[Target.TIE]),
        informed=percent(expectation.informed, lang),
    )
    if rules.bank is Bank.ROTATE:
        text += "\n" + t("macao.expectation_rotate", lang)
    return text


def percent(value: Fraction, lang: Lang) -> str:
    """`1.13%`, or in French `1,13 %`: the size of an edge, its sign said in words."""
    shown = f"{abs(float(value)) * 100:.2f}"
    return f"{shown.replace('.', ',')}\u00a0%" if lang == "fr" else f"{shown}%"


# -- the buttons' actions ---------------------------------------------------------------

actions = TableActions()


@actions.on("wager", str, form=True)
async def _wager(click: Click, target: str) -> None:
    """The amount form, its limits in its placeholder; refused at the click, before the
    form, when the clicker cannot wager on `target` now (and told why)."""
    if target not in TARGETS:
        raise Refusal("table.unknown_action")
    if click.submitted:
        await wager(click.reply, click.table, target, click.form(AMOUNT)["amount"])
        return
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat = snapshot.state.seat_of_user(click.user_id)
    if seat is None:
        if not await is_gm(click.interaction):
            raise Refusal("table.not_seated")
        key = snapshot.state.npc_key  # the GM wagers for the NPC he plays
    else:
        key = str(seat.character_id)
    option = wager_option(engine_of(snapshot), key, target)
    reply = click.reply
    assert option.min is not None and option.max is not None
    hint = limits_hint(reply.lang, reply.currency, option.min, option.max)
    modal = amount_modal(
        reply.lang, f"macao.modal_{target}", click.table, "wager", target, hint=hint
    )
    await click.interaction.response.send_modal(modal)


def wager_option(engine: Macao, seat: str, target: str) -> Option:
    """The seat's wager on `target` and its limits now; refused with the reason when he
    may not wager on it."""
    if engine.phase is not Phase.WAGERS:
        raise Refusal("macao.wagers_closed")
    hand = hand_of(engine, seat)
    if hand is None:
        raise Refusal("macao.no_hand_now")
    if hand.decided:
        raise Refusal("macao.already_decided")
    found = next(
        (
            o
            for o in engine.options()
            if o.seat == seat and o.kind == "wager" and target in o.targets
        ),
        None,
    )
    if found is None:
        raise Refusal("macao.no_room", min=Cents(engine.rules.min_stake))
    return found


@actions.on("pass")
async def _pass(click: Click) -> None:
    await play(click.reply, click.table, "pass")


@actions.on("draw", int)
async def _draw(click: Click, moves: int) -> None:
    await play(click.reply, click.table, "draw", moves=moves)


@actions.on("stand", int)
async def _stand(click: Click, moves: int) -> None:
    await play(click.reply, click.table, "stand", moves=moves)


@actions.on("end")
async def _end(click: Click) -> None:
    await require_gm(click.interaction)
    await bot_of(click.interaction).services.tables.act(
        click.table, click.user_id, "end", as_gm=True
    )
    await click.reply.say("macao.ended")


async def wager(reply: Reply, table: int, target: str, amount: str) -> None:
    await play(
        reply, table, "wager", target=target, amount=parse_amount_or_refuse(amount, reply.lang)
    )


async def play(
    reply: Reply,
    table: int,
    kind: str,
    *,
    target: str | None = None,
    amount: int | None = None,
    moves: int | None = None,
) -> None:
    """A player's own move; the GM's, who sits at no seat, is the NPC's."""
    tables = bot_of(reply.interaction).services.tables
    user = reply.interaction.user.id
    seated = (await tables.snapshot(table)).state.seat_of_user(user) is not None
    for_npc = not seated and await is_gm(reply.interaction)
    snapshot = await tables.act(
        table,
        user,
        kind,
        amount=amount,
        target=target,
        moves=moves,
        as_gm=for_npc,
        for_npc=for_npc,
    )
    seat = snapshot.state.seat_of_user(user)
    key = str(seat.character_id) if seat else snapshot.state.npc_key
    await reply.send(answer(snapshot, key, kind, reply))


def answer(snapshot: TableSnapshot, seat: str, kind: str, reply: Reply) -> str:
    """What the clicker is told of his own move (his own cards: only he sees it)."""
    engine = engine_of(snapshot)
    hand = hand_of(engine, seat)
    if kind == "wager" and hand is not None and hand.wager is not None:
        text = reply.t(
            "macao.you_wager",
            amount=reply.money(hand.wager.stake),
            target=reply.t(f"macao.your_{hand.wager.target}"),
        )
    elif kind == "pass":
        text = reply.t("macao.you_pass")
    else:
        cards = engine.bank_cards if seat == engine.banker else hand.cards if hand else []
        total = total_text(engine, cards, reply.lang)
        if kind == "draw" and len(cards) == 3:
            key = (
                "macao.you_draw_bust"
                if is_bust(hand_total(cards, engine.rules.counting))
                else "macao.you_draw"
            )
            text = reply.t(key, card=cards[2].pretty, cards=cards_pretty(cards), total=total)
        else:
            text = reply.t("macao.you_stand", total=total)
    if any(record.hand_over for record in snapshot.records):
        net = coup_net(engine, seat)
        key = "macao.coup_won" if net > 0 else "macao.coup_lost" if net < 0 else "macao.coup_even"
        text += "\n" + reply.t(key, net=reply.money(abs(net)))
    return text


def coup_net(engine: Macao, seat: str) -> int:
    """What the coup that just ended won (+) or lost (−) this seat, banker or player."""
    if seat == engine.banker:
        return -sum(hand.net or 0 for hand in engine.players)
    hand = hand_of(engine, seat)
    return 0 if hand is None or hand.net is None else hand.net


# -- the UI object ------------------------------------------------------------------------


PHASES = {
    Phase.IDLE: "between coups",
    Phase.WAGERS: "wagers",
    Phase.OVER: "evening over",
}


def _targets(engine: Macao, seat: str | None) -> list[Target]:
    """The wagers `seat` may make now (any undecided player's, for None), in table order."""
    offered = {
        target
        for option in engine.options()
        if option.kind == "wager" and (seat is None or option.seat == seat)
        for target in option.targets
    }
    return [target for target in Target if target.value in offered]


def _may_deal(engine: Macao) -> bool:
    """Whether the table waits for the GM's Deal: between coups, a banker to be and a
    player (the engine refuses a deal it cannot make, e.g. nobody able to bank)."""
    if engine.phase is not Phase.IDLE:
        return False
    if engine.rules.bank is Bank.NPC:
        return any(seat != engine.npc for seat in engine.seats)
    return len(engine.seats) >= 2


class MacaoUI:
    actions = actions
    COMMON_PHASES = ("between coups", "wagers", "drawing")

    def opening_options(
        self, options: dict[str, Any], given: dict[str, Any], lang: Lang
    ) -> dict[str, Any]:
        # The GM's packs are the game's too: without them it counts packs by table size.
        return {**options, "packs": given.get("packs")}

    async def opened(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        """The GM is told what the bank may expect (not at a rulebook table)."""
        if not snapshot.state.rulebook_only:
            engine = engine_of(snapshot)
            # A fraction of a second of exact odds the first time: off the event loop.
            expectation = await asyncio.to_thread(engine.bank_expectation)
            reply = await reply_to(interaction)
            await reply.send(expectation_text(engine.rules, engine.packs, expectation, reply.lang))

    def phase(self, snapshot: TableSnapshot) -> str:
        return PHASES.get(engine_of(snapshot).phase, "drawing")

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        return TableText(snapshot, lang, money).seat_extra(character_id)

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        return TableText(snapshot, lang, money).fields()

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """While the players decide, the wagers someone may still make; then Draw (when
        he may) and Stand for whoever is to act by the buttons. Between coups nothing: the
        table waits for the GM's Deal (`gm_waits`)."""
        state, engine = snapshot.state, engine_of(snapshot)
        if engine.phase is Phase.WAGERS:
            return _wager_buttons(snapshot, _targets(engine, None), lang)
        if engine.phase in (Phase.DRAWS, Phase.BANKER) and engine.actor is not None:
            if engine.actor == state.npc_key and state.npc_auto:
                return []
            return _draw_buttons(snapshot, engine.actor, lang)
        return []

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        if not _may_deal(engine_of(snapshot)):
            return None
        style = discord.ButtonStyle.primary
        return table_button(lang, snapshot.id, "table.btn_deal", "deal", style=style)

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Between coups, End the evening."""
        engine = engine_of(snapshot)
        if not any(option.kind == "end" for option in engine.options()):
            return []
        style = discord.ButtonStyle.danger
        return [table_button(lang, snapshot.id, "macao.btn_end", "end", style=style)]

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        """His wagers and Pass while he has not decided; Draw and Stand on his turn."""
        engine = engine_of(snapshot)
        hand = hand_of(engine, seat)
        if engine.phase is Phase.WAGERS and hand is not None and not hand.decided:
            wagers = _wager_buttons(snapshot, _targets(engine, seat), lang)
            return [*wagers, table_button(lang, snapshot.id, "macao.btn_pass", "pass")]
        if engine.phase in (Phase.DRAWS, Phase.BANKER) and engine.actor == seat:
            return _draw_buttons(snapshot, seat, lang)
        return []

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        """His total under the table's counting, and what he may do now (privately)."""
        engine = engine_of(snapshot)
        cards = list(engine.private_cards(seat))
        if not cards:
            return None
        counting: Counting = engine.rules.counting
        total = hand_total(cards, counting)
        notes = [
            t(
                "macao.note_total",
                lang,
                total=total,
                counting=t(f"macao.counting_name_{counting}", lang),
            )
        ]
        if (natural := natural_of(total, len(cards))) is not None:
            notes.append(t("macao.note_natural", lang, natural=natural))
        elif is_bust(total):
            notes.append(t("macao.note_bust", lang))
        hand = hand_of(engine, seat)
        if engine.phase is Phase.WAGERS and hand is not None and not hand.decided:
            notes.append(t("macao.note_decide", lang))
        elif engine.actor == seat and engine.phase is Phase.DRAWS:
            if player_may_draw(total):
                advice = "draw" if recommended_draw(total) else "stand"
                notes.append(
                    t("macao.note_may_draw", lang, advice=t(f"macao.advice_{advice}", lang))
                )
            else:
                notes.append(t("macao.note_only_stand", lang))
        elif engine.actor == seat and engine.phase is Phase.BANKER:
            thirds = [card_value(h.cards[2]) for h in engine.players if len(h.cards) == 3]
            advice = "draw" if recommended_banker_draw(total, thirds) else "stand"
            notes.append(t("macao.note_may_draw", lang, advice=t(f"macao.advice_{advice}", lang)))
            if (allowance := engine.banker_allowance()) is not None:
                who = snapshot.state.seat_of_character(int(allowance.seat))
                name = who.name if who else snapshot.state.npc_name
                notes.append(t("macao.note_allowed", lang, name=name, card=allowance.card.pretty))
        return " ".join(notes)

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        if on not in BET_ON:
            raise Refusal("macao.needs_target")
        await wager(reply, table, BET_ON[on].value, amount)

    async def deal(self, reply: Reply, table: int) -> None:
        await require_gm(reply.interaction)
        snapshot = await bot_of(reply.interaction).services.tables.act(
            table, reply.interaction.user.id, "deal", as_gm=True
        )
        await reply.say("macao.dealt", coup=engine_of(snapshot).hand)


def _wager_buttons(snapshot: TableSnapshot, targets: list[Target], lang: Lang) -> list[ButtonSpec]:
    return [
        table_button(
            lang, snapshot.id, f"macao.btn_{target}", "wager", target, style=_STYLES[target]
        )
        for target in targets
    ]


def _draw_buttons(snapshot: TableSnapshot, seat: str, lang: Lang) -> list[ButtonSpec]:
    """Draw when `seat` may draw, and Stand, carrying the move count."""
    table, moves = snapshot.id, snapshot.state.moves
    kinds = {option.kind for option in engine_of(snapshot).options() if option.seat == seat}
    specs = []
    if "draw" in kinds:
        style = discord.ButtonStyle.primary
        specs.append(table_button(lang, table, "macao.btn_draw", "draw", moves, style=style))
    if "stand" in kinds:
        style = discord.ButtonStyle.danger
        specs.append(table_button(lang, table, "macao.btn_stand", "stand", moves, style=style))
    return specs


UI = MacaoUI()
