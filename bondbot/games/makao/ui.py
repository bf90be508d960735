"""Makao (piekiełko) on the table message: the deal (its number, the trump card, every
player's bid and tricks, the trick in play and the last one), the score sheet and the pot.

Bids and cards come from each player's seat panel: the table's Bid or Play a card button
opens it for the player whose turn it is (his cards, the trump, and only his legal bids
or cards as buttons), or plays his only legal card at once; the GM gets the NPC's from
the table's "Bid / Play for <NPC>" when its automatic play is off. Deal (when the table
waits for it) is the table's, End the game is in the GM panel (games/trick_taking/ui.py:
what Michigan's table shares). Buttons carry the table's move count, so a double click
plays once.
"""

from __future__ import annotations

from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.bot.tables.glance import fold_lines
from bondbot.games.contract import Record
from bondbot.games.makao.engine import (
    POT,
    Bid,
    DealRecord,
    Makao,
    Played,
    Scored,
    TrickTaken,
)
from bondbot.games.trick_taking.ui import BLUE, TrickTakingUI, Words, seat_name, when
from bondbot.i18n import Lang, t
from bondbot.money import format_amount
from bondbot.tables.service import TableSnapshot

POT_NAME = POT.removeprefix("pot:")


def engine_of(snapshot: TableSnapshot) -> Makao:
    engine = snapshot.state.engine
    assert isinstance(engine, Makao)
    return engine


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
            name=seat_name(snapshot, deal.players[(start + i) % len(deal.players)]),
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
        name=seat_name(snapshot, trick.winner),
    )


def _timeouts(snapshot: TableSnapshot, lang: Lang) -> str | None:
    """Who the table played for because his time ran out, over the last round of turns."""
    game = engine_of(snapshot)
    recent = game.history[-len(game.seats) :] if game.seats else []
    timed = [m.seat for m in recent if m.auto == "timeout" and m.seat is not None]
    if not timed:
        return None
    who = ", ".join(seat_name(snapshot, seat) for seat in dict.fromkeys(timed))
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
            name=seat_name(snapshot, seat),
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
        lines[0] += " · " + t(key, lang, name=seat_name(snapshot, seat), when=when(state.deadline))
    pot = snapshot.held.get(POT_NAME, 0)
    if pot and game.phase in ("bidding", "playing"):  # the score sheet says it between deals
        lines[0] += " · " + t("makao.pot", lang, pot=format_amount(pot, money))
    if game.phase == "done" and state.deadline_action == "offers":
        lines.append(t("makao.cycle_ends", lang, when=when(state.deadline)))
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
                name=seat_name(snapshot, seat),
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


# -- a player's panel (his bids and cards are `MakaoUI.moves`) -----------------------------


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


# The table's Bid / Play a card button, the panels' answers, Deal and End the game are
# the core's (`TrickTakingUI`, which adds them to `actions`); a bid's or a card's button
# plays it.
actions = TableActions()


@actions.on("bid", int, int)
async def _bid(click: Click, amount: int, moves: int) -> None:
    await UI.act(click, "bid", moves, amount=amount)


@actions.on("card", str, int)
async def _card(click: Click, card: str, moves: int) -> None:
    await UI.act(click, "play", moves, target=card)


async def _dealt(reply: Reply, snapshot: TableSnapshot) -> None:
    game = engine_of(snapshot)
    deal = game.deals[-1]
    await reply.say(
        "makao.dealt",
        number=deal.number,
        cycle=game.cycle,
        dealer=seat_name(snapshot, deal.dealer),
        trump=_trump(deal, reply.lang),
    )


class MakaoUI(TrickTakingUI[Makao]):
    actions = actions
    engine = Makao
    words = Words(
        turn={"bidding": "makao.btn_bid", "playing": "makao.btn_play"},
        for_npc={"bidding": "makao.btn_bid_npc", "playing": "makao.btn_play_npc"},
        npc_hand="makao.panel_npc",
        deal="makao.btn_deal",
        end="makao.btn_end",
        ended="makao.ended",
        no_bets="makao.no_bets",
    )

    def moves(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> list[ButtonSpec]:
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
                lang,
                table,
                "makao.btn_play_card",
                "card",
                code,
                moves,
                style=BLUE,
                card=cards(code),
            )
            for code in game.legal(seat)
        ]

    def events_text(self, snapshot: TableSnapshot, records: tuple[Record, ...], lang: Lang) -> str:
        """What a bid or a card set off, for the panel that made it."""
        lines = []
        for record in records:
            for event in record.events:
                if isinstance(event, Bid):
                    lines.append(
                        t(
                            "makao.log_bid",
                            lang,
                            name=seat_name(snapshot, event.seat),
                            bid=event.bid,
                        )
                    )
                elif isinstance(event, Played):
                    name = seat_name(snapshot, event.seat)
                    lines.append(t("makao.log_card", lang, name=name, card=cards(event.card)))
                elif isinstance(event, TrickTaken):
                    lines.append(t("makao.log_trick", lang, name=seat_name(snapshot, event.seat)))
                elif isinstance(event, Scored):
                    lines.append(t("makao.log_scored", lang, number=event.number))
        return "\n".join(lines)

    async def dealt(self, reply: Reply, snapshot: TableSnapshot) -> None:
        await _dealt(reply, snapshot)

    def npc_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str:
        return _note(snapshot, seat, lang)

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
                dealer=seat_name(snapshot, deal.dealer),
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

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        game = engine_of(snapshot)
        return _note(snapshot, seat, lang) if game.in_hand() else None


UI = MakaoUI()
