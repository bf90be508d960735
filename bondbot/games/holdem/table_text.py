"""What the hold'em table message says, rebuilt from the engine's state after every action:
the hand in play (board, pots and who may win each, the NPC, whose turn), each player's
part in it for his seat line, the hand's log, and between hands the showdown with the
hands named in the reader's language. Everything here is public: hole cards appear only
once shown at the showdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bondbot.bot.tables.common import cards, names
from bondbot.bot.tables.glance import latest
from bondbot.games.contract import Move
from bondbot.games.holdem.engine import Holdem, PotAwarded, ShowdownHand, totals
from bondbot.games.holdem.names import HandName
from bondbot.i18n import Lang, plural, t
from bondbot.money import format_amount
from bondbot.tables.service import TableSnapshot

FIELD = 1024  # Discord's limit for an embed field's value
LOG = 700  # the hand's log: its last lines within this
LIST_NAMES = 200  # a pot's eligible players are counted, not named, beyond this length
STREETS = {"flop": slice(0, 3), "turn": slice(3, 4), "river": slice(4, 5)}


def engine_of(snapshot: TableSnapshot) -> Holdem:
    engine = snapshot.state.engine
    assert isinstance(engine, Holdem)
    return engine


def _when(deadline: str | None) -> str:
    """A Discord relative timestamp (`in 1 minute`), shown in each reader's own time."""
    if deadline is None:
        return "—"
    return f"<t:{int(datetime.fromisoformat(deadline).timestamp())}:R>"


def name_of(snapshot: TableSnapshot, seat: str) -> str:
    return names(snapshot).get(int(seat), "?")


def fit(lines: Sequence[str], limit: int = FIELD, *, keep_last: bool = False) -> str:
    """Lines joined within `limit` characters: the first ones kept (or the last, for a
    log), an ellipsis where lines were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines) if keep_last else lines:
        if size + len(line) + 1 > limit - 2:
            kept.append("…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept) if keep_last else kept)


# -- hand names ---------------------------------------------------------------------------


def hand_text(name: HandName, lang: Lang, *, kickers: bool = False) -> str:
    """A hand's name in words: "two pair, kings and sevens", "double paire, rois et sept";
    its kickers too when asked (to tell two hands of the same name apart)."""
    ranks = name.ranks
    if name.category == "straight_flush" and ranks == ("A",):
        text = t("holdem.hand.royal_flush", lang)
    else:
        first = ranks[0]
        params = {
            "rank": t(f"holdem.rank.{first}", lang),
            "ranks": t(f"holdem.ranks.{first}", lang),
            "of": t(f"holdem.of.{first}", lang),
            "high": t(f"holdem.high.{first}", lang),
            "ranks2": t(f"holdem.ranks.{ranks[-1]}", lang),
        }
        text = t(f"holdem.hand.{name.category}", lang, **params)
    if kickers and name.kickers:
        named = ", ".join(t(f"holdem.rank.{rank}", lang) for rank in name.kickers)
        text = t("holdem.kickers", lang, hand=text, kickers=named)
    return text


def in_hand(
    snapshot: TableSnapshot, seat: str, lang: Lang, money: str, *, behind: bool
) -> list[str]:
    """A player's part in the hand in play: dealer, bet, chips behind, his state, the cards
    he has shown."""
    engine = engine_of(snapshot)
    parts = []
    if seat == engine.button:
        parts.append(t("holdem.seat_button", lang))
    if bet := engine.bets.get(seat, 0):
        parts.append(t("holdem.seat_bet", lang, amount=format_amount(bet, money)))
    chips = engine.chips.get(seat, 0)
    if behind:
        parts.append(t("holdem.seat_behind", lang, amount=format_amount(chips, money)))
    if seat in engine.folded:
        parts.append(t("holdem.seat_folded", lang))
    elif chips == 0:
        parts.append(t("holdem.seat_all_in", lang))
    elif seat in engine.turn():
        parts.append(t("holdem.seat_to_act", lang))
    if seat in engine.shown:
        parts.append(t("holdem.seat_shows", lang, cards=cards(" ".join(engine.holes[seat]))))
    return parts


def _npc_line(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    """The NPC, who has no seat line: who plays it, its chips, its part in the hand."""
    state, engine = snapshot.state, engine_of(snapshot)
    npc = state.npc_key
    who = t("holdem.npc_auto" if state.npc_auto else "holdem.npc_gm", lang)
    playing = not engine.over and npc in engine.players
    if snapshot.bank is None and not playing:
        chips = t("holdem.npc_unlimited", lang)
    else:
        amount = engine.chips.get(npc, 0) if playing else snapshot.bank or 0
        chips = t("holdem.seat_behind", lang, amount=format_amount(amount, money))
    line = t("holdem.npc_line", lang, name=state.npc_name, who=who, chips=chips)
    if playing:
        line = " · ".join([line, *in_hand(snapshot, npc, lang, money, behind=False)])
    return line


def hand_lines(snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
    """The hand in play: the board, the pots and who may win each, the NPC, whose turn."""
    state, engine = snapshot.state, engine_of(snapshot)
    board = engine.board
    lines = [
        t("holdem.board", lang, cards=cards(" ".join(board)))
        if board
        else t("holdem.board_none", lang)
    ]
    for pot in engine.pots():
        amount = format_amount(pot.amount, money)
        who = ", ".join(name_of(snapshot, seat) for seat in pot.eligible)
        if len(who) > LIST_NAMES:
            who = plural("holdem.pot_players", lang, len(pot.eligible))
        if pot.pot == 0:
            lines.append(t("holdem.pot_main", lang, amount=amount, names=who))
        else:
            lines.append(t("holdem.pot_side", lang, number=pot.pot, amount=amount, names=who))
    lines.append(_npc_line(snapshot, lang, money))
    if turn := engine.turn():
        name, when = name_of(snapshot, turn[0]), _when(state.deadline)
        if call := engine.to_call(turn[0]):
            amount = format_amount(call, money)
            lines.append(t("holdem.to_act_call", lang, name=name, amount=amount, when=when))
        else:
            lines.append(t("holdem.to_act", lang, name=name, when=when))
    return lines


def between_lines(snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
    """Between hands: the NPC, the next hand's blinds (or who is missing), the schedule."""
    engine = engine_of(snapshot)
    lines = [_npc_line(snapshot, lang, money)]
    if len(ready(snapshot)) < 2:
        return [*lines, t("holdem.waiting", lang)]
    rules, hand = engine.rules, engine.hand + 1
    blinds = engine.level(hand)
    small, big = format_amount(blinds.small, money), format_amount(blinds.big, money)
    lines.append(t("holdem.next_hand", lang, hand=hand, small=small, big=big))
    every = rules.raise_every
    if every is not None and (level := (hand - 1) // every + 1) < len(rules.levels):
        first = level * every + 1
        upcoming = engine.level(first)
        lines.append(
            t(
                "holdem.next_level",
                lang,
                every=every,
                small=format_amount(upcoming.small, money),
                big=format_amount(upcoming.big, money),
                hand=first,
            )
        )
    return lines


def ready(snapshot: TableSnapshot) -> list[str]:
    """The seats the next deal would deal in: not sitting out, with chips at the table."""
    engine = engine_of(snapshot)
    chips = {str(character): amount for character, amount in snapshot.chips.items()}
    chips[snapshot.state.npc_key] = 1 if snapshot.bank is None else snapshot.bank
    return [s for s in engine.seats if s not in engine.sitting_out and chips.get(s, 0) > 0]


def _log(snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
    """What happened this hand, a line a move (timeouts said as such)."""
    engine = engine_of(snapshot)
    lines = []
    for move in engine.history:
        kind = move.kind
        if kind == "deal":
            lines.append(_deal_line(snapshot, lang, money))
        elif kind in STREETS:
            shown = cards(" ".join(engine.board[STREETS[kind]]))
            lines.append(t(f"holdem.log_{kind}", lang, cards=shown))
        elif kind == "show":
            hands = ", ".join(
                f"{name_of(snapshot, seat)} {cards(' '.join(engine.holes[seat]))}"
                for seat in engine.shown
            )
            lines.append(t("holdem.log_show", lang, hands=hands))
        elif move.seat is not None:
            name = name_of(snapshot, move.seat)
            if move.auto == "timeout":
                lines.append(t(f"holdem.log_timeout_{kind}", lang, name=name))
            else:
                amount = format_amount(move.amount or 0, money)
                lines.append(t(f"holdem.log_{kind}", lang, name=name, amount=amount))
    return lines


def street_log(snapshot: TableSnapshot, lang: Lang, money: str) -> list[str]:
    """The hand's log at a glance: its deal, one line counting the moves of the streets
    before, and the current street's latest moves."""
    lines = _log(snapshot, lang, money)
    kinds = [move.kind for move in engine_of(snapshot).history if _logged(move)]
    if len(kinds) != len(lines) or not lines:
        return latest(lines, lang)
    street = max((i for i, kind in enumerate(kinds) if kind in STREETS), default=0)
    first = lines[:1] if kinds[0] == "deal" else []
    before = street - len(first)
    summary = [plural("table.earlier_moves", lang, before)] if before > 0 else []
    return first + summary + latest(lines[max(street, len(first)) :], lang)


def _logged(move: Move) -> bool:
    """Whether `_log` says a line for this move."""
    return move.kind in ("deal", "show", *STREETS) or move.seat is not None


def _deal_line(snapshot: TableSnapshot, lang: Lang, money: str) -> str:
    engine = engine_of(snapshot)
    players, blinds = engine.players, engine.blinds
    assert blinds is not None and engine.button is not None
    # Heads-up the button posts the small blind; else the two seats after it.
    small, big = (players[1], players[0]) if len(players) == 2 else (players[0], players[1])
    starting = dict(zip(players, engine.starting, strict=True))
    return t(
        "holdem.log_deal",
        lang,
        hand=engine.hand,
        button=name_of(snapshot, engine.button),
        small=format_amount(min(blinds.small, starting[small]), money),
        small_name=name_of(snapshot, small),
        big=format_amount(min(blinds.big, starting[big]), money),
        big_name=name_of(snapshot, big),
    )


def result_lines(snapshot: TableSnapshot, lang: Lang, money: str) -> tuple[list[str], list[str]]:
    """The last hand: the board and the hands shown and named; who took each pot, and what
    Hero Points took back from the NPC."""
    engine = engine_of(snapshot)
    hands, pots = engine.last_hand()
    shown = [t("holdem.board", lang, cards=cards(" ".join(engine.board)))] if engine.board else []
    shown += [_shown(snapshot, hand, hands, lang) for hand in hands]
    paid = [_pot_result(snapshot, pot, lang, money) for pot in pots]
    for seat, amount in totals(engine.won_back).items():
        paid.append(
            t(
                "holdem.result_won_back",
                lang,
                name=name_of(snapshot, seat),
                amount=format_amount(amount, money),
                npc=snapshot.state.npc_name,
            )
        )
    return shown, paid


def _shown(
    snapshot: TableSnapshot, hand: ShowdownHand, hands: list[ShowdownHand], lang: Lang
) -> str:
    """A shown hand and its name; with its kickers when another hand has the same name."""
    same = [
        h.name
        for h in hands
        if (h.name.category, h.name.ranks) == (hand.name.category, hand.name.ranks)
    ]
    kickers = any(name.kickers != hand.name.kickers for name in same)
    return t(
        "holdem.result_hand",
        lang,
        name=name_of(snapshot, hand.seat),
        cards=cards(" ".join(hand.cards)),
        hand=hand_text(hand.name, lang, kickers=kickers),
    )


def _pot_result(snapshot: TableSnapshot, pot: PotAwarded, lang: Lang, money: str) -> str:
    amount = format_amount(pot.amount, money)
    if not pot.shown:
        winner = name_of(snapshot, pot.winners[0])
        return t("holdem.result_uncontested", lang, name=winner, amount=amount)
    if pot.pot == 0:
        name = t("holdem.pot_name_main", lang, amount=amount)
    else:
        name = t("holdem.pot_name_side", lang, number=pot.pot, amount=amount)
    winners = ", ".join(
        t(
            "holdem.result_share",
            lang,
            name=name_of(snapshot, seat),
            amount=format_amount(share, money),
        )
        for seat, share in zip(pot.winners, pot.shares, strict=True)
    )
    return t("holdem.result_pot", lang, pot=name, winners=winners)
