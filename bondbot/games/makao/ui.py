"""Makao (piekiełko) on the table message: the deal (its number, the trump card, every
player's bid and tricks, the trick in play and the last one), the score sheet and the pot.

Bids and cards come from each player's seat panel: the table's Bid or Play a card button
opens it for the player whose turn it is (his cards, the trump, and only his legal bids
or cards as buttons), or plays his only legal card at once; the GM gets the NPC's from
the table's "Bid / Play for <NPC>" when its automatic play is off. Deal (when the table
waits for it) is the table's, End the game is in the GM panel. Buttons carry the table's
move count, so a double click plays once.
"""

from __future__ import annotations

from datetime import datetime

import discord

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec, view_of
from bondbot.bot.tables import turns
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, short, table_button
from bondbot.bot.tables.glance import fold_lines
from bondbot.bot.tables.panels import show_seat_panel
from bondbot.bot.tables.turns import Turn
from bondbot.errors import Refusal
from bondbot.games.contract import Record
from bondbot.games.makao.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    POT,
    Bid,
    DealRecord,
    Makao,
    Played,
    Scored,
    TrickTaken,
)
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.rules.cards import Card, cards_pretty
from bondbot.tables.service import TableSnapshot

BLUE = discord.ButtonStyle.primary
COMPACT = 24  # characters of a name in the per-player lines: eight players fit a field
POT_NAME = POT.removeprefix("pot:")


def engine_of(snapshot: TableSnapshot) -> Makao:
    engine = snapshot.state.engine
    assert isinstance(engine, Makao)
    return engine


def _name(snapshot: TableSnapshot, seat: str) -> str:
    return short(names(snapshot).get(int(seat), "?"), COMPACT)


def _when(deadline: str | None) -> str:
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def _trump(deal: DealRecord, lang: Lang) -> str:
    if deal.trump is None:
        return t("makao.no_trump", lang)
    return t("makao.trump", lang, card=cards(deal.trump))


def _trick_line(snapshot: TableSnapshot, deal: DealRecord, index: int, lang: Lang) -> str:
    """`Trick 2: 5♠ Bond · 9♠ Mathis`, and who took it once it is complete."""
    trick = deal.tricks[index]
    start = deal.players.index(trick.leader)
    played = " · ".join(
        t(
            "makao.card_by",
            lang,
            card=cards(card),
            name=_name(snapshot, deal.players[(start + i) % len(deal.players)]),
        )
        for i, card in enumerate(trick.cards)
    )
    if trick.winner is None:
        return t("makao.trick", lang, number=index + 1, cards=played or "—")
    return t(
        "makao.trick_taken",
        lang,
        number=index + 1,
        cards=played,
        name=_name(snapshot, trick.winner),
    )


def _timeouts(snapshot: TableSnapshot, lang: Lang) -> str | None:
    """Who the table played for because his time ran out, over the last round of turns."""
    game = engine_of(snapshot)
    recent = game.history[-len(game.seats) :] if game.seats else []
    timed = [m.seat for m in recent if m.auto == "timeout" and m.seat is not None]
    if not timed:
        return None
    who = ", ".join(_name(snapshot, seat) for seat in dict.fromkeys(timed))
    return t("makao.log_timeouts", lang, names=who)


def _deal_lines(
    snapshot: TableSnapshot, deal: DealRecord, lang: Lang, money: str = "$"
) -> list[str]:
    """The trump, every player's bid and tricks (and score once the deal is over), whose
    turn it is."""
    state, game = snapshot.state, engine_of(snapshot)
    turn = game.turn()
    lines = [_trump(deal, lang)]
    players = []
    for seat in deal.players:
        bid = deal.bids.get(seat)
        line = t(
            "makao.player_line",
            lang,
            marker="▶ " if seat in turn else "",
            name=_name(snapshot, seat),
            bid="—" if bid is None else bid,
            taken=deal.taken(seat),
        )
        if deal.complete:
            score = deal.score(seat) or 0
            key = "makao.won_back_score" if seat in deal.won_back else "makao.deal_score"
            line += " → " + t(key, lang, score=score)
        players.append(line)
    # A deal played: its result on one line (the score sheet below adds up the cycle).
    # … and in play, ten players' bids side by side (`fold_lines`: up to five, a line each)
    lines += ["; ".join(players)] if deal.complete and players else fold_lines(players)
    if game.phase == "bidding":
        total = sum(deal.bids.values())
        lines[0] += " · " + t("makao.bids_total", lang, total=total, tricks=deal.number)
    if turn:
        (seat,) = turn
        gm = seat == state.npc_key and not state.npc_auto
        key = f"makao.to_{'bid' if game.phase == 'bidding' else 'play'}{'_gm' if gm else ''}"
        # Beside the trump: what the table waits for, at the top.
        lines[0] += " · " + t(key, lang, name=_name(snapshot, seat), when=_when(state.deadline))
    pot = snapshot.held.get(POT_NAME, 0)
    if pot and game.phase in ("bidding", "playing"):  # the score sheet says it between deals
        lines[0] += " · " + t("makao.pot", lang, pot=format_amount(pot, money))
    if game.phase == "done" and state.deadline_action == "offers":
        lines.append(t("makao.cycle_ends", lang, when=_when(state.deadline)))
    return lines


def _trick_lines(snapshot: TableSnapshot, deal: DealRecord, lang: Lang) -> list[str]:
    """The last trick taken and the one in play, and who the table played for."""
    game = engine_of(snapshot)
    lines = []
    shown = 2 if game.phase == "playing" else 1
    for index in range(max(len(deal.tricks) - shown, 0), len(deal.tricks)):
        if deal.tricks[index].cards or deal.tricks[index].winner is not None:
            lines.append(_trick_line(snapshot, deal, index, lang))
    if (timeouts := _timeouts(snapshot, lang)) is not None:
        lines.append(timeouts)
    return lines


def _score_sheet(snapshot: TableSnapshot, lang: Lang, money: str, whole: bool = True) -> str:
    """Every player's scores deal by deal (`whole`), or only what the deal's lines do not
    say: those out of the deal, and the pot."""
    game = engine_of(snapshot)
    totals = game.totals()
    lines = []
    dealt = set(game.deals[-1].players) if game.deals and not whole else set()
    for seat in game.seats:
        if seat in dealt:
            continue
        scores = []
        for deal in game.deals:
            if not deal.complete or seat not in deal.players:
                continue
            score = str(deal.score(seat) or 0)
            scores.append(score + "★" if seat in deal.won_back else score)
        lines.append(
            t(
                "makao.sheet_line",
                lang,
                name=_name(snapshot, seat),
                scores=" · ".join(scores) or "—",
                total=totals.get(seat, 0),
            )
        )
    lines = fold_lines(lines)  # ten players' scores side by side
    if whole and any(deal.won_back for deal in game.deals):
        lines.append(t("makao.sheet_star", lang))
    pot = snapshot.held.get(POT_NAME, 0)
    if pot:
        lines.append(t("makao.pot", lang, pot=format_amount(pot, money)))
    return "\n".join(lines)


def _game_over(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    game = engine_of(snapshot)
    complete = len(game.deals) == game.cycle and game.deals[-1].complete
    if not complete:
        return t("makao.ended_early", lang)
    totals = game.totals()
    winners = game.winners()
    text = t(
        "makao.winners",
        lang,
        names=", ".join(names(snapshot).get(int(seat), "?") for seat in winners),
        total=totals[winners[0]],
    )
    if game.settings.stake:
        pot = game.settings.stake * len(game.seats)
        text += "\n" + t("makao.pot_won", lang, pot=format_amount(pot, money))
    return text


def _events_text(snapshot: TableSnapshot, records: tuple[Record, ...], lang: Lang) -> str:
    """What a bid or a card set off, for the panel that made it."""
    lines = []
    for record in records:
        for event in record.events:
            if isinstance(event, Bid):
                lines.append(
                    t("makao.log_bid", lang, name=_name(snapshot, event.seat), bid=event.bid)
                )
            elif isinstance(event, Played):
                name = _name(snapshot, event.seat)
                lines.append(t("makao.log_card", lang, name=name, card=cards(event.card)))
            elif isinstance(event, TrickTaken):
                lines.append(t("makao.log_trick", lang, name=_name(snapshot, event.seat)))
            elif isinstance(event, Scored):
                lines.append(t("makao.log_scored", lang, number=event.number))
    return "\n".join(lines)


# -- a player's panel ------------------------------------------------------------------------


def _moves(snapshot: TableSnapshot, seat: str, lang: Lang) -> list[ButtonSpec]:
    """`seat`'s legal bids ("Bid 2": every trick count of the deal) or cards ("Play 7♥"),
    as buttons carrying the table's move count; nothing unless it is his turn."""
    game = engine_of(snapshot)
    moves, table = snapshot.state.moves, snapshot.id
    if seat not in game.turn():
        return []
    if game.phase == "bidding":
        number = game.deals[-1].number
        return [
            table_button(lang, table, "makao.btn_bid_n", "bid", n, moves, count=n)
            for n in range(number + 1)
        ]
    return [
        table_button(
            lang, table, "makao.btn_play_card", "card", code, moves, style=BLUE, card=cards(code)
        )
        for code in game.legal(seat)
    ]


def _note(snapshot: TableSnapshot, seat: str, lang: Lang) -> str:
    """The trump, and what `seat` is asked now: his bid, or his card for the trick in play
    (what he bid and took)."""
    game = engine_of(snapshot)
    deal = game.deals[-1]
    lines = [_trump(deal, lang)]
    if game.phase == "bidding" and seat in game.turn():
        lines.append(t("makao.panel_bid", lang, number=deal.number))
    elif game.phase == "playing" and seat in deal.bids:
        trick = _trick_line(snapshot, deal, len(deal.tricks) - 1, lang)
        lines.append(
            t("makao.panel_status", lang, bid=deal.bids[seat], taken=deal.taken(seat), trick=trick)
        )
        if seat in game.turn():
            lines.append(t("makao.panel_play", lang))
    return "\n".join(lines)


def _npc_panel(snapshot: TableSnapshot, turn: Turn, lang: Lang) -> tuple[str, list[ButtonSpec]]:
    """The NPC's hand and its legal bids or cards, for the GM who plays for it."""
    game = engine_of(snapshot)
    hand = cards_pretty([Card.parse(c) for c in game.hands.get(turn.seat, [])])
    text = t("makao.panel_npc", lang, name=turn.name, cards=hand)
    return text + "\n" + _note(snapshot, turn.seat, lang), _moves(snapshot, turn.seat, lang)


async def _answer(click: Click, snapshot: TableSnapshot, turn: Turn, text: str, edit: bool) -> None:
    """What a bid or a card set off, with the panel it was made from drawn again: the
    player's seat panel (his cards now, his moves if it is his turn again), or the NPC's
    for the GM."""
    seat = snapshot.state.seat_of_user(click.user_id)
    if turn.for_npc or seat is None:
        buttons: list[ButtonSpec] = []
        if turn.seat in snapshot.state.engine.turn():  # its turn again (it leads the next trick)
            more, buttons = _npc_panel(snapshot, turn, click.reply.lang)
            text = f"{text}\n\n{more}" if text else more
        if edit:
            await click.interaction.response.edit_message(content=text, view=view_of(buttons))
        else:
            await click.reply.send(text, view=view_of(buttons))
        return
    await show_seat_panel(click, snapshot, seat, text, edit=edit)


async def _act(
    click: Click,
    kind: str,
    moves: int,
    amount: int | None = None,
    target: str | None = None,
    edit: bool = True,
) -> None:
    tables = bot_of(click.interaction).services.tables
    turn = await turns.whose_turn(click.reply, await tables.snapshot(click.table))
    snapshot = await turns.act(
        click.reply, click.table, turn, kind, moves=moves, amount=amount, target=target
    )
    text = _events_text(snapshot, snapshot.records, click.reply.lang)
    await _answer(click, snapshot, turn, text, edit)


actions = TableActions()


@actions.on("hand", int)
async def _hand(click: Click, moves: int) -> None:
    """The table's Bid / Play a card button (the GM's, for the NPC): one legal card is
    played at once; otherwise the seat panel with the legal bids or cards (the NPC's hand
    to the GM)."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    if moves != snapshot.state.moves:  # drawn before the last move: its play may be done
        raise Refusal("table.stale_button")
    turn = await turns.whose_turn(click.reply, snapshot)
    game = engine_of(snapshot)
    legal = game.legal(turn.seat) if game.phase == "playing" else []
    if len(legal) == 1:  # nothing to choose
        await _act(click, "play", moves, target=legal[0], edit=False)
        return
    await _answer(click, snapshot, turn, "", edit=False)


@actions.on("bid", int, int)
async def _bid(click: Click, amount: int, moves: int) -> None:
    await _act(click, "bid", moves, amount=amount)


@actions.on("card", str, int)
async def _card(click: Click, card: str, moves: int) -> None:
    await _act(click, "play", moves, target=card)


@actions.on("newhand")
async def _deal(click: Click) -> None:
    await _dealt(click.reply, await turns.deal(click.reply, click.table))


@actions.on("end")
async def _end(click: Click) -> None:
    await require_gm(click.interaction)
    await bot_of(click.interaction).services.tables.act(
        click.table, click.user_id, "end", as_gm=True
    )
    await click.reply.say("makao.ended")


async def _dealt(reply: Reply, snapshot: TableSnapshot) -> None:
    game = engine_of(snapshot)
    deal = game.deals[-1]
    await reply.say(
        "makao.dealt",
        number=deal.number,
        cycle=game.cycle,
        dealer=_name(snapshot, deal.dealer),
        trump=_trump(deal, reply.lang),
    )


def _ready(game: Makao) -> bool:
    """Whether the deal may go ahead as far as the seats go (3 to 8, the NPC among them)."""
    return MIN_PLAYERS <= len(game.seats) <= MAX_PLAYERS and game.npc in game.seats


class MakaoUI:
    actions = actions

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        return None  # every player, the NPC too, has his line in the deal and the score sheet

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        game = engine_of(snapshot)
        fields = []
        if game.deals:
            deal = game.deals[-1]
            title = t(
                "makao.deal_title",
                lang,
                number=deal.number,
                cycle=game.cycle,
                dealer=_name(snapshot, deal.dealer),
            )
            fields.append((title, "\n".join(_deal_lines(snapshot, deal, lang, money))))
            if tricks := _trick_lines(snapshot, deal, lang):
                fields.append((t("makao.tricks", lang), "\n".join(tricks)))
        else:
            waiting = t("makao.waiting", lang, cycle=game.cycle, players=len(game.seats))
            fields.append((t("makao.cycle", lang), waiting))
        if game.phase not in ("bidding", "playing"):  # in a deal, its lines say the deal;
            # between deals the sheet adds up the cycle
            fields.append((t("makao.score_sheet", lang), _score_sheet(snapshot, lang, money)))
        if game.phase == "over":
            fields.append((t("makao.game_over", lang), _game_over(snapshot, lang, money)))
        return fields

    # The phases the table message names (tests/tables/test_table_buttons.py).
    COMMON_PHASES = ("bidding", "playing", "between deals")

    def phase(self, snapshot: TableSnapshot) -> str:
        game = engine_of(snapshot)
        names = {"idle": "between deals", "done": "cycle complete", "over": "game over"}
        return names.get(game.phase, game.phase)

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Bid or Play a card, while a player is to: his seat panel with his legal bids or
        cards (his only legal card is played at once); anyone else is told whose turn."""
        state, game = snapshot.state, engine_of(snapshot)
        turn = game.turn()
        if not turn or turn[0] == state.npc_key:
            return []  # the NPC plays by itself, or the GM for it (`gm_waits`)
        key = "makao.btn_bid" if game.phase == "bidding" else "makao.btn_play"
        return [table_button(lang, snapshot.id, key, "hand", state.moves, style=BLUE)]

    def gm_waits(self, snapshot: TableSnapshot, lang: Lang, money: str) -> ButtonSpec | None:
        """The next deal, once enough players sit; the NPC's bid or card when the GM
        plays it."""
        state, game = snapshot.state, engine_of(snapshot)
        if game.phase == "idle" and _ready(game):
            return table_button(lang, snapshot.id, "table.btn_deal", "newhand", style=BLUE)
        if game.turn() == (state.npc_key,) and not state.npc_auto:
            key = "makao.btn_bid_npc" if game.phase == "bidding" else "makao.btn_play_npc"
            name = short(state.npc_name, COMPACT)
            return table_button(lang, snapshot.id, key, "hand", state.moves, style=BLUE, name=name)
        return None

    def gm_buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """Deal while the table cannot (it is refused with the reason), and End the game."""
        game = engine_of(snapshot)
        specs = []
        if game.phase == "idle" and not _ready(game):
            specs.append(table_button(lang, snapshot.id, "makao.btn_deal", "newhand"))
        if game.phase != "over":
            specs.append(table_button(lang, snapshot.id, "makao.btn_end", "end"))
        return specs

    def panel_buttons(
        self, snapshot: TableSnapshot, seat: str, lang: Lang, money: str
    ) -> list[ButtonSpec]:
        return _moves(snapshot, seat, lang)

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        game = engine_of(snapshot)
        return _note(snapshot, seat, lang) if game.in_hand() else None

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        await reply.say("makao.no_bets")

    async def deal(self, reply: Reply, table: int) -> None:
        await _dealt(reply, await turns.deal(reply, table))


UI = MakaoUI()
