"""Michigan on the table message: the pay cards and their chips, every player's cards left,
chips and plays, the widow, who leads and the last run; the end of the last round.

Only the leader decides. The table's Lead button leads his only suit at once, or opens
his seat panel: his cards and a button per suit he holds (the card it leads; the automatic
choice in green); the cards above it follow by themselves. My seat shows the same panel.
The GM leads for the NPC from the table's "Lead for <NPC>" when its automatic play is off;
Deal (when the table waits for it) is the table's, End the game is in the GM panel
(games/trick_taking/ui.py: what Makao's table shares).
Buttons carry the table's move count, so a double click leads once.
The pay cards are named in words on the table message: the same cards are in the hands.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import discord

from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import Click, TableActions
from bondbot.bot.tables.common import cards, names, table_button
from bondbot.games.contract import Record
from bondbot.games.michigan.engine import (
    PAY_CARDS,
    Michigan,
    PayCardWon,
    Played,
    RoundOver,
    Stop,
    next_card,
)
from bondbot.games.michigan.npc import look_ahead_lead
from bondbot.games.trick_taking.ui import TrickTakingUI, Words, seat_name, when
from bondbot.i18n import Lang, plural, t
from bondbot.money import format_amount
from bondbot.rules.cards import SUITS
from bondbot.tables.service import TableSnapshot

RUNS_SHOWN = 2  # the last runs shown in full; every card played is on its player's line


def engine_of(snapshot: TableSnapshot) -> Michigan:
    engine = snapshot.state.engine
    assert isinstance(engine, Michigan)
    return engine


def _order(game: Michigan) -> list[str]:
    """The seats from the dealer's left (the order of the deal and of play)."""
    if game.dealer not in game.seats:
        return list(game.seats)
    start = game.seats.index(game.dealer) + 1
    return game.seats[start:] + game.seats[:start]


@dataclass(frozen=True, slots=True)
class Play:
    seat: str
    card: str
    lead: bool
    auto: str | None  # a lead the table made: "timeout" or "npc"


def plays(game: Michigan) -> list[Play]:
    """This round's cards in the order they were played, read from its moves: a lead names
    its suit and the card is the leader's next one in front of him; a follow names its card."""
    found: list[Play] = []
    count: dict[str, int] = {}
    for move in game.history:
        if move.kind == "lead" and move.seat is not None:
            seat, lead = move.seat, True
            card = game.played[seat][count.get(seat, 0)]
        elif move.kind == "follow" and move.target is not None:
            card, lead = move.target, False
            seat = next(s for s, played in game.played.items() if card in played)
        else:
            continue
        count[seat] = count.get(seat, 0) + 1
        found.append(Play(seat, card, lead, move.auto if lead else None))
    return found


def _chips(snapshot: TableSnapshot, seat: str, lang: Lang) -> str:
    game = engine_of(snapshot)
    cents = snapshot.bank if seat == snapshot.state.npc_key else snapshot.chips.get(int(seat), 0)
    if cents is None:  # the NPC without a bankroll: what it won or lost, not a bank
        net = game.net.get(seat, 0) // game.settings.chip
        return t("michigan.chips_so_far", lang, net=f"+{net}" if net > 0 else str(net))
    return plural("michigan.chips", lang, cents // game.settings.chip)


def _pay_card(code: str, lang: Lang) -> str:
    return t(f"michigan.pay_{code}", lang)


# -- lines ---------------------------------------------------------------------------------


def _run_line(snapshot: TableSnapshot, run: list[Play], lang: Lang) -> str:
    """`Bond leads 9♥ 10♥ → J♥ Q♥ Mathis`: the run's cards, each player's in a row."""
    groups: list[tuple[str, list[str]]] = []
    for play in run:
        if groups and groups[-1][0] == play.seat:
            groups[-1][1].append(play.card)
        else:
            groups.append((play.seat, [play.card]))
    (leader, led), rest = groups[0], groups[1:]
    line = t("michigan.log_lead", lang, name=seat_name(snapshot, leader), card=cards(" ".join(led)))
    for seat, played in rest:
        line += " → " + t(
            "michigan.log_follow",
            lang,
            card=cards(" ".join(played)),
            name=seat_name(snapshot, seat),
        )
    return line


def _stop_text(snapshot: TableSnapshot, stop: Stop, lang: Lang) -> str:
    name = seat_name(snapshot, stop.seat)
    if stop.reason == "ace":
        return t("michigan.stop_ace", lang, name=name)
    following = next_card(stop.card)
    assert following is not None  # only an Ace has none
    return t(f"michigan.stop_{stop.reason}", lang, card=cards(following), name=name)


def _derived_stop(game: Michigan, last: Play) -> Stop:
    """Why the last run stopped, from what is public: an Ace, a card shown in the widow,
    or a card played earlier."""
    following = next_card(last.card)
    if following is None:
        return Stop(seat=last.seat, card=last.card, reason="ace")
    reason = "widow" if following in game.shown else "played"
    return Stop(seat=last.seat, card=last.card, reason=reason)


def _round_lines(snapshot: TableSnapshot, lang: Lang) -> list[str]:
    """The round in play: the widow, pay cards won, the last runs and how they stopped,
    the leader and his clock."""
    state, game = snapshot.state, engine_of(snapshot)
    shown = [c for c in game.widow if c in game.shown]
    size = plural("michigan.cards_left", lang, len(game.widow))
    lines = [
        t("michigan.widow_shown", lang, size=size, cards=cards(" ".join(shown)))
        if shown
        else t("michigan.widow", lang, size=size)
    ]
    played = plays(game)
    won = [  # the pay cards won this round, on one line
        t("michigan.log_pay_card", lang, name=seat_name(snapshot, play.seat), card=cards(play.card))
        for play in played
        if play.card in PAY_CARDS
    ]
    if won:
        lines.append(" ".join(won))
    starts = [i for i, play in enumerate(played) if play.lead]
    runs = [played[a:b] for a, b in pairwise([*starts, len(played)])]
    # The last lead someone decided (not the NPC's automatic play): was it a timeout?
    decided = next((run[0] for run in reversed(runs) if run[0].auto != "npc"), None)
    if decided is not None and decided.auto == "timeout":
        lines.append(t("michigan.log_timeout", lang, name=seat_name(snapshot, decided.seat)))
    for run in runs[-RUNS_SHOWN:]:
        line = _run_line(snapshot, run, lang)
        if run is not runs[-1] or game.phase == "lead":  # a finished run: how it stopped
            line += " — " + _stop_text(snapshot, _derived_stop(game, run[-1]), lang)
        lines.append(line)
    if game.phase == "lead" and game.leader is not None:
        key = "michigan.to_lead"
        if game.leader == state.npc_key and not state.npc_auto:
            key = "michigan.to_lead_gm"
        lines.append(t(key, lang, name=seat_name(snapshot, game.leader), when=when(state.deadline)))
    return lines


def _seat_lines(snapshot: TableSnapshot, lang: Lang, *, all_seats: bool = False) -> list[str]:
    """The players' lines in the game's field: the NPC's (a PC's part of the round is on his
    line of the table's Players, `seat_extra`), or everyone's once the game is over."""
    game = engine_of(snapshot)
    seated = {str(seat.character_id) for seat in snapshot.state.seats}
    lines = []
    for seat in _order(game):
        if seat in seated and not all_seats:
            continue
        marker = "▶ " if game.phase == "lead" and seat == game.leader else ""
        line = t(
            "michigan.seat_line",
            lang,
            marker=marker,
            name=seat_name(snapshot, seat),
            chips=_chips(snapshot, seat, lang),
        )
        extra = _seat_part(game, seat, lang).removeprefix("▶").removeprefix(" · ")
        lines.append(f"{line} · {extra}" if extra else line)
    return lines


def _seat_part(game: Michigan, seat: str, lang: Lang) -> str:
    """His part of the round: whether he leads, his cards left and played, the deal."""
    parts = ["▶"] if game.phase == "lead" and seat == game.leader else []
    if game.in_hand():
        parts.append(plural("michigan.cards_left", lang, len(game.hands.get(seat, ()))))
        if game.played.get(seat):
            parts.append(t("michigan.played", lang, cards=cards(" ".join(game.played[seat]))))
    if seat == game.dealer:
        parts.append(t("michigan.dealer", lang))
    return " · ".join(parts)


def _last_round(snapshot: TableSnapshot, last: RoundOver, lang: Lang, money: str) -> str:
    state, game = snapshot.state, engine_of(snapshot)
    lines = [t("michigan.out_first", lang, name=seat_name(snapshot, last.seat))]
    for seat, left in last.cards_left.items():
        lines.append(
            t(
                "michigan.paid_line",
                lang,
                name=seat_name(snapshot, seat),
                cards=plural("michigan.cards_left", lang, left),
                chips=plural("michigan.chips", lang, last.paid.get(seat, 0)),
            )
        )
    lines.append(t("michigan.widow_was", lang, cards=cards(" ".join(last.widow))))
    for offer in state.offers:
        if offer.spent and offer.hand == game.hand:
            name = seat_name(snapshot, str(offer.character_id))
            pay = format_amount(offer.pay, money)
            lines.append(t("michigan.won_back", lang, name=name, pay=pay))
    return "\n".join(lines)


def _game_over(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    game = engine_of(snapshot)
    winners = ", ".join(names(snapshot).get(int(seat), "?") for seat in game.winners())
    lines = [t("michigan.winners", lang, names=winners or "—")]
    for seat, net in sorted(game.net.items(), key=lambda item: -item[1]):
        sign = "+" if net > 0 else ""
        lines.append(
            t(
                "michigan.net_line",
                lang,
                name=seat_name(snapshot, seat),
                net=sign + format_amount(net, money),
            )
        )
    return "\n".join(lines)


# -- the buttons ---------------------------------------------------------------------------

# The table's Lead button, the panels' answers, Deal and End the game are the core's
# (`TrickTakingUI`, which adds them to `actions`); a suit's button leads it. When the GM
# ends the game, a round in play is abandoned and its antes stay on the pay cards.
actions = TableActions()


@actions.on("lead", str, int)
async def _lead(click: Click, suit: str, moves: int) -> None:
    await UI.act(click, "lead", moves, target=suit)


async def _dealt(reply: Reply, snapshot: TableSnapshot) -> None:
    game = engine_of(snapshot)
    assert game.dealer is not None
    await reply.say("michigan.dealt", hand=game.hand, dealer=seat_name(snapshot, game.dealer))


class MichiganUI(TrickTakingUI[Michigan]):
    actions = actions
    engine = Michigan
    words = Words(
        turn={"lead": "michigan.btn_lead"},
        for_npc={"lead": "michigan.btn_lead_npc"},
        npc_hand="michigan.panel_npc",
        deal="michigan.btn_deal",
        end="michigan.btn_end",
        ended="michigan.ended",
        no_bets="michigan.no_bets",
    )

    def moves(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> list[ButtonSpec]:
        """One button per suit `seat` holds, naming the card it leads (the automatic choice,
        what his timer would play, in green); nothing unless he is to lead."""
        game = engine_of(snapshot)
        if game.phase != "lead" or game.leader != seat:
            return []
        hand = game.hands.get(seat, [])
        advised = look_ahead_lead(game.view(seat)) if hand else None
        buttons = []
        for suit in SUITS:
            held = [c for c in hand if c[1] == suit]
            if not held:
                continue
            buttons.append(
                table_button(
                    lang,
                    snapshot.id,
                    "michigan.btn_lead_card",
                    "lead",
                    suit,
                    snapshot.state.moves,
                    style=discord.ButtonStyle.success
                    if suit == advised
                    else discord.ButtonStyle.secondary,
                    card=cards(held[0]),  # hands are sorted: the lowest
                )
            )
        return buttons

    def events_text(self, snapshot: TableSnapshot, records: tuple[Record, ...], lang: Lang) -> str:
        """What a lead set off, for the panel that made it: runs, pay cards, stops, the end."""
        lines: list[str] = []
        pay_cards: list[str] = []
        run: list[Play] = []

        def flush(stop: Stop | None = None) -> None:
            if run:
                line = _run_line(snapshot, run, lang)
                if stop is not None:
                    line += " — " + _stop_text(snapshot, stop, lang)
                lines.append(line)
                run.clear()

        for record in records:
            for event in record.events:
                if isinstance(event, Played):
                    run.append(Play(event.seat, event.card, event.lead, None))
                elif isinstance(event, PayCardWon):
                    name = seat_name(snapshot, event.seat)
                    pay_cards.append(
                        t(
                            "michigan.log_pay_card_chips",
                            lang,
                            name=name,
                            card=cards(event.card),
                            chips=plural("michigan.chips", lang, event.chips),
                        )
                    )
                elif isinstance(event, Stop):
                    flush(event)
                elif isinstance(event, RoundOver):
                    flush()
                    lines.append(
                        t("michigan.out_first", lang, name=seat_name(snapshot, event.seat))
                    )
        flush()
        return "\n".join(lines + pay_cards)

    async def dealt(self, reply: Reply, snapshot: TableSnapshot) -> None:
        await _dealt(reply, snapshot)

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        game, seat = engine_of(snapshot), str(character_id)
        return (_seat_part(game, seat, lang) or None) if seat in game.seats else None

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        game = engine_of(snapshot)
        pay_cards = " · ".join(  # one line: the four boxes at a glance
            t(
                "michigan.pay_line",
                lang,
                card=_pay_card(code, lang),
                chips=plural("michigan.chips", lang, game.layout[code]),
            )
            for code in PAY_CARDS
        )
        fields = [(t("michigan.pay_cards", lang), pay_cards)]
        if game.phase == "over":
            fields.append(
                (
                    t("michigan.players_title", lang),
                    "\n".join(_seat_lines(snapshot, lang, all_seats=True)),
                )
            )
            fields.append((t("michigan.game_over", lang), _game_over(snapshot, lang, money)))
            return fields
        if game.in_hand() and game.dealer is not None:
            title = t(
                "michigan.round", lang, hand=game.hand, dealer=seat_name(snapshot, game.dealer)
            )
        else:
            title = t("michigan.players_title", lang)
        fields.append((title, "\n".join(_seat_lines(snapshot, lang)) or "—"))
        if game.in_hand():
            fields.append((t("michigan.this_round", lang), "\n".join(_round_lines(snapshot, lang))))
        elif game.last is not None:
            fields.append(
                (
                    t("michigan.last_round", lang, hand=game.hand),
                    _last_round(snapshot, game.last, lang, money),
                )
            )
        return fields

    # The phases the table message names (tests/tables/test_table_buttons.py): a round
    # waits for a lead most of its time (the runs follow by themselves), and for the GM's
    # deal between rounds.
    COMMON_PHASES = ("lead", "between rounds")

    def phase(self, snapshot: TableSnapshot) -> str:
        game = engine_of(snapshot)
        return {"idle": "between rounds", "over": "game over"}.get(game.phase, "lead")

    def hand_note(self, snapshot: TableSnapshot, seat: str, lang: Lang) -> str | None:
        game = engine_of(snapshot)
        if game.phase == "lead" and game.leader == seat:
            return t("michigan.note_lead", lang)
        return None


UI = MichiganUI()
