"""The evening's story, from a table's ledger rows alone: what each PC won or lost, his Hero
Points, the hands he won back (and which), the NPC's result, the biggest hand, and each
one's result hand after hand.

Pure: it reads rows (`storage.ledger.table_entries`) and knows the ledger's accounts and
reasons, nothing of games, Discord or the clock. So it works for every game, today's and
later ones, and for a table closed long ago.

How rows are read:
- A PC's result is every cash row between his own accounts (`sheet:{pc}`, `chips:{t}:{pc}`)
  and anything else: buying in and cashing out move money between his own two accounts,
  so they cancel, and a pot won after he left (paid to his sheet) still counts.
- Hands: a table's row carries the hand it belongs to in its note ("hand 7",
  `tables.money.hand_note`): the hand its move was played in, the hand a Hero Point
  spend won back. So the story counts hands as the table does: a push is a hand, and a
  Michigan round whose pay cards were paid one lead at a time is one hand. Rows written
  before notes existed (and a table that never dealt, where only rulebook contests move
  chips) are grouped the old way: rows of one action share its time and actor, and an
  action whose rows settle something (a game's reason, paying chips somewhere other than
  a pot or the layout) ends a hand; bets that only feed a pot belong to the hand that
  pays it.
- The NPC's result is what its bank (`bank:{t}`) gained or lost, bookkeeping aside; a
  rulebook pot's NPC stakes and winnings (rows to and from outside the game with a `pot.`
  reason) are the NPC's own.
- Reasons starting `table.`, `spend.` and `award.` are the table's own bookkeeping (buy-in,
  bankroll, Hero Points), never a hand's result; `pot.stake`/`pot.npc_stake` are stakes.
- A Hero Point spend wins back the hand just played (offers close at the next deal), so
  what it pays is shown at that hand.

Who won is read once, from those results (`leaders`): the winner, the podium and the
moments never disagree. Hands are named with the game's own word (`hand_phrase`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby

from bondbot.i18n import Lang, has, plural, t
from bondbot.pictures.chart import ChartSpec, LineStyle, line_styles, npc_style
from bondbot.storage.ledger import LedgerEntry

WON_BACK = "spend.win_hand"
BOOKKEEPING = ("table.", "spend.", "award.")
STAKES = frozenset({"pot.stake", "pot.npc_stake"})
TEXT_MAX = 4096  # an embed's description
LINES_MAX = 20  # PCs listed by name; the others are counted
MOMENTS_MAX = 12  # Hero Points told one by one; the others are counted
MEDALS = ("🥇", "🥈", "🥉")
_HAND = re.compile(r"hand (\d+)")


@dataclass
class PcEvening:
    """One PC's evening at a table (amounts in cents)."""

    character_id: int
    net: int = 0  # chips won (positive) or lost, what Hero Points won back included
    hero_earned: int = 0
    hero_spent: int = 0
    hands_won_back: int = 0
    won_back: int = 0  # what those hands paid him


@dataclass(frozen=True)
class BiggestHand:
    character_id: int
    won: int  # what he won on it (net of his stakes)
    hand: int | None = field(default=None, compare=False)  # which hand (None: not known)


@dataclass(frozen=True)
class WonBack:
    """A Hero Point that won a hand back: whose, which hand, what it paid him."""

    character_id: int
    hand: int
    pay: int


@dataclass
class Evening:
    pcs: list[PcEvening]  # the biggest winner first
    hands: int  # hands counted: the table's hands (the x axis of the chart runs 0..hands)
    biggest: BiggestHand | None
    # Each PC's result after each hand, from 0 (before the first): a PC appears from the
    # hand he sat down in (or after), and leaves the series once he cashed out.
    series: list[tuple[int, dict[int, int]]] = field(default_factory=list)
    npc_net: int = 0  # what the NPC won (positive) or lost
    npc_series: list[int] = field(default_factory=list)  # its result at each point of `series`
    won_backs: list[WonBack] = field(default_factory=list)  # in the order they were spent

    def chart_points(self, names: Mapping[int, str]) -> list[tuple[int, dict[str, int]]]:
        """The series by name, for `pictures.chart.chips_chart`."""
        return [
            (hand, {_name(names, pc): value for pc, value in values.items()})
            for hand, values in self.series
        ]

    def chart(self, names: Mapping[int, str], npc: str | None = None) -> ChartSpec:
        """What the evening's chart draws: a line per PC (each its own colour, marker and
        dash, so lines that coincide stay visible), the NPC's line, and a mark where a
        Hero Point won a hand back."""
        points = self.chart_points(names)
        pcs = list(dict.fromkeys(name for _, values in points for name in values))
        series = {name: [v.get(name) for _, v in points] for name in pcs}
        styles: dict[str, LineStyle] = line_styles(pcs, series)
        if npc is not None and self.npc_series:
            for (_, values), value in zip(points, self.npc_series, strict=True):
                values[npc] = value
            styles[npc] = npc_style()
        marks = [(_name(names, w.character_id), w.hand) for w in self.won_backs]
        return ChartSpec(points=points, styles=styles, marks=marks)


def hand_of(row: LedgerEntry) -> int | None:
    """The table's hand a row belongs to, from its note (None: not noted)."""
    found = _HAND.fullmatch(row.note or "")
    return int(found.group(1)) if found else None


class _Book:
    """Each PC's and the NPC's accounts, row by row (shared by both ways of counting)."""

    def __init__(self, table_id: int) -> None:
        self.chips_prefix = f"chips:{table_id}:"
        self.bank = f"bank:{table_id}"
        self.pcs: dict[int, PcEvening] = {}
        self.chips: dict[int, int] = {}  # each PC's stack, to see when he has left
        self.at_table: set[int] = set()
        self.in_hand: dict[int, int] = {}  # each PC's result in the hand under way
        self.pot_prefix = f"pot:{table_id}:"
        self.pots: dict[str, int] = {}  # what each pot holds
        self.staked: dict[int, int] = {}  # each PC's stakes in pots not paid out yet
        self.npc = 0
        self.biggest: BiggestHand | None = None
        self.won_backs: list[WonBack] = []

    def pc_of(self, account: str | None) -> int | None:
        if account is None:
            return None
        if account.startswith("sheet:"):
            return int(account[6:])
        if account.startswith(self.chips_prefix):
            return int(account[len(self.chips_prefix) :])
        return None

    def pc(self, character_id: int) -> PcEvening:
        return self.pcs.setdefault(character_id, PcEvening(character_id))

    def _npc_side(self, account: str | None, reason: str) -> bool:
        return account == self.bank or (account is None and reason.startswith("pot."))

    def read(self, row: LedgerEntry, hand: int) -> None:
        """Book one row of hand `hand`."""
        src, dst = self.pc_of(row.src), self.pc_of(row.dst)
        if row.kind == "hero":
            if dst is not None:
                self.pc(dst).hero_earned += row.amount
            if src is not None:
                self.pc(src).hero_spent += row.amount
                if row.reason == WON_BACK:
                    self.pc(src).hands_won_back += 1
                    self.won_backs.append(WonBack(src, hand, 0))
            return
        for account, sign in ((row.src, -1), (row.dst, 1)):
            if account is not None and account.startswith(self.pot_prefix):
                self.pots[account] = self.pots.get(account, 0) + sign * row.amount
                if sign > 0 and src is not None:
                    self.staked[src] = self.staked.get(src, 0) + row.amount
        if not row.reason.startswith("table."):
            into, out = self._npc_side(row.dst, row.reason), self._npc_side(row.src, row.reason)
            self.npc += row.amount * (into - out)
        for end, sign in ((src, -1), (dst, 1)):
            account = row.src if sign < 0 else row.dst
            if end is not None and account is not None and account.startswith(self.chips_prefix):
                self.chips[end] = self.chips.get(end, 0) + sign * row.amount
                self.at_table.add(end)
        if src is not None and src == dst:  # buy-in, cash-out: his own money moves
            if self.chips.get(src, 0) == 0:
                self.at_table.discard(src)
            return
        for end, sign in ((src, -1), (dst, 1)):
            if end is None:
                continue
            self.pc(end).net += sign * row.amount
            if row.reason == WON_BACK:
                self.pc(end).won_back += sign * row.amount
                if sign > 0:
                    self._paid_back(end, hand, row.amount)
            elif not row.reason.startswith(BOOKKEEPING):
                self.in_hand[end] = self.in_hand.get(end, 0) + sign * row.amount

    def _paid_back(self, character_id: int, hand: int, amount: int) -> None:
        """What the spend on that hand paid him (its Hero Point row comes first)."""
        for index in range(len(self.won_backs) - 1, -1, -1):
            spend = self.won_backs[index]
            if spend.character_id == character_id and spend.hand == hand:
                self.won_backs[index] = WonBack(character_id, hand, spend.pay + amount)
                return

    def end_hand(self, hand: int) -> None:
        """Close hand `hand`; 0 is before the first deal (a duel): no hand to name.

        Stakes in a pot still holding chips (Makao's cycle pot) belong to the hand that
        pays it out: a stake given back is no win, and a pot won is won net of them."""
        carried: dict[int, int] = {}
        if any(held > 0 for held in self.pots.values()):
            for character_id, stake in self.staked.items():
                self.in_hand[character_id] = self.in_hand.get(character_id, 0) + stake
                carried[character_id] = -stake
        else:
            self.staked = {}
        for character_id, won in self.in_hand.items():
            if won > 0 and (self.biggest is None or won > self.biggest.won):
                self.biggest = BiggestHand(character_id, won, hand if hand > 0 else None)
        self.in_hand = carried

    def point(self, values: dict[int, int], *, unsettled: bool) -> None:
        """Bring a point of the series up to date: each PC at the table (or already on it)."""
        for character_id in self.at_table | values.keys():
            pending = self.in_hand.get(character_id, 0) if unsettled else 0
            values[character_id] = self.pc(character_id).net - pending

    def evening(
        self, hands: int, series: list[tuple[int, dict[int, int]]], npc: list[int]
    ) -> Evening:
        ranked = sorted(self.pcs.values(), key=lambda p: (-p.net, p.character_id))
        return Evening(ranked, hands, self.biggest, series, self.npc, npc, list(self.won_backs))


def evening(
    rows: Iterable[LedgerEntry], table_id: int, *, hands_played: int | None = None
) -> Evening:
    """The evening of table `table_id` from its ledger rows, oldest first; `hands_played`
    (the table's count) extends the series over hands at its end that moved nothing."""
    rows = list(rows)
    if any((hand_of(row) or 0) > 0 for row in rows):
        return _by_hand(rows, table_id, hands_played)
    return _by_action(rows, table_id)


def _by_hand(rows: list[LedgerEntry], table_id: int, hands_played: int | None) -> Evening:
    """Rows noted with their hand: a point of the series for every hand of the table."""
    book = _Book(table_id)
    series: list[tuple[int, dict[int, int]]] = [(0, {})]
    npc = [0]
    current = 0
    for row in rows:
        hand = hand_of(row)
        if hand is not None and hand > current:
            book.end_hand(current)
            for passed in range(current + 1, hand + 1):  # hands that moved nothing too
                series.append((passed, {}))
                npc.append(book.npc)
                book.point(series[-1][1], unsettled=False)
            current = hand
        book.read(row, current if hand is None else min(hand, current))
        book.point(series[-1][1], unsettled=False)
        npc[-1] = book.npc
    book.end_hand(current)
    for passed in range(current + 1, (hands_played or 0) + 1):
        series.append((passed, dict(series[-1][1])))
        npc.append(book.npc)
    return book.evening(series[-1][0], series, npc)


def _by_action(rows: list[LedgerEntry], table_id: int) -> Evening:
    """Rows without hands: an action that settles something ends a hand."""
    book = _Book(table_id)
    series: list[tuple[int, dict[int, int]]] = [(0, {})]
    npc = [0]
    hands = 0
    for _, action in groupby(rows, key=lambda row: (row.created_at, row.actor_id)):
        settles = False
        npc_before = book.npc
        for row in action:
            # A Hero Point spend wins back the hand just played (offers close at the next
            # deal), so it counts there.
            spend = row.reason.startswith("spend.")
            book.read(row, max(hands, 1) if spend else hands + 1)
            settles |= _settles(row)
        if settles:
            hands += 1
            book.end_hand(hands)
            series.append((hands, {}))
            npc.append(book.npc)
        elif book.npc != npc_before and not book.in_hand:
            npc[-1] = book.npc  # what a spend won back shows at its hand
        book.point(series[-1][1], unsettled=True)
    return book.evening(hands, series, npc)


def hand_results(summary: Evening) -> list[tuple[int, dict[int, int]]]:
    """What each PC won (+) or lost (−) on each hand that moved chips, oldest first: the
    steps of the series (for `/table history`)."""
    found = []
    for (hand, after), (_, before) in zip(summary.series[1:], summary.series, strict=False):
        moved = {
            pc: value - before.get(pc, 0)
            for pc, value in after.items()
            if value != before.get(pc, 0)
        }
        if moved:
            found.append((hand, moved))
    return found


def _settles(row: LedgerEntry) -> bool:
    """A row that pays a hand's result (not a stake into a pot, not bookkeeping)."""
    if row.kind != "cash" or row.reason.startswith(BOOKKEEPING) or row.reason in STAKES:
        return False
    return row.dst is None or not row.dst.startswith(("pot:", "layout:"))


def hand_word(game: str | None, lang: Lang) -> str:
    """The phrase set naming the game's hands in `lang` (`games.hand_word.<game>`: "hand",
    "coup", "round", "deal", named in English in both languages: French `deal` says
    "donne"), whose phrases are `summary.by.<word>.*`; "hand" for a game that names none,
    or names one without phrases."""
    key = f"games.hand_word.{game}"
    word = t(key, lang) if game is not None and has(key, lang) else ""
    return word if has(f"summary.by.{word}.played", lang) else t("summary.hand_word", lang)


def hand_title(game: str | None, lang: Lang, hand: int) -> str:
    """The table's own name for one hand, as its result picture heads it ("Coup 3",
    "Round 3", "Donne 3"; `games.result_heading.<game>`), "Hand 3" for a game without."""
    key = f"games.result_heading.{game}"
    return t(key if game is not None and has(key, lang) else "table.shown_title", lang, hand=hand)


def hand_phrase(name: str, game: str | None, lang: Lang, /, **params: object) -> str:
    """A phrase of the summary that names the game's hands (`summary.by.<word>.<name>`):
    "Coups played: 6.", "won back coup 2", "Chips won or lost, round after round"."""
    return t(f"summary.by.{hand_word(game, lang)}.{name}", lang, **params)


def leaders(summary: Evening, npc: int | None = None) -> list[int]:
    """Those sharing the best result, when it is a gain (none when nobody came out
    ahead): the one reading of who won, for the winner line and the podium alike. The
    PCs, and the NPC (`npc`, his character id) where he plays for the win himself."""
    results = [(p.character_id, p.net) for p in summary.pcs]
    if npc is not None:
        results.append((npc, summary.npc_net))
    best = max((net for _, net in results), default=0)
    return [who for who, net in results if net == best] if best > 0 else []


def winner_line(
    summary: Evening, names: Mapping[int, str], lang: Lang, npc: int | None = None
) -> str | None:
    """ "Winner: **Bond**", "Winners (tied): **Bond**, **Mathis**", or None (nobody won);
    `npc` as in `leaders`."""
    first = leaders(summary, npc)
    if not first:
        return None
    shown = ", ".join(f"**{_name(names, who)}**" for who in first)
    return t("summary.winner" if len(first) == 1 else "summary.winners_tied", lang, names=shown)


def evening_text(
    summary: Evening,
    names: Mapping[int, str],
    lang: Lang,
    money: Callable[[int], str],
    *,
    hands_played: int | None = None,
    npc: str | None = None,
    winner: bool = False,
    npc_id: int | None = None,
    game: str | None = None,
) -> str:
    """The evening as a recap, for an embed's description (at most TEXT_MAX characters):
    the winner (`winner`: the game names one; the best result, `leaders`, the NPC
    `npc_id` among them where given), the podium with each PC's result and Hero Points,
    the NPC's result, the night's moments, the hands played (`hands_played`, the table's
    count; None: not shown), each hand named with `game`'s word."""
    lines = []
    said = winner_line(summary, names, lang, npc_id) if winner else None
    if said is not None:
        lines.append(said)
    lines += podium(summary, names, lang, money)
    if npc is not None:
        lines.append(npc_result(summary.npc_net, npc, lang, money))
    moments = _moments(summary, names, lang, money, game)
    if moments:
        lines += ["", t("summary.moments", lang), *moments]
    if hands_played is not None:
        lines += ["", hand_phrase("played", game, lang, count=hands_played)]
    text = "\n".join(lines)
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"


def podium(
    summary: Evening, names: Mapping[int, str], lang: Lang, money: Callable[[int], str]
) -> list[str]:
    """A line per PC, best first: his place (a medal for the first three results, ties
    share one; no place at all when nobody won or lost anything), his result and his Hero
    Points when he earned or spent any."""
    lines = []
    moved = any(p.net for p in summary.pcs)
    place, last_net = 0, None
    for index, p in enumerate(summary.pcs[:LINES_MAX]):
        if p.net != last_net:
            place, last_net = index + 1, p.net
        name, net = _name(names, p.character_id), _signed(p.net, money, lang)
        if moved:
            rank = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
            line = t("summary.place", lang, rank=rank, name=name, net=net)
        else:
            line = t("summary.unplaced", lang, name=name, net=net)
        if p.hero_earned or p.hero_spent:
            line += " · " + hero_points(p, lang)
        lines.append(line)
    if len(summary.pcs) > LINES_MAX:
        lines.append(t("summary.more", lang, count=len(summary.pcs) - LINES_MAX))
    if not summary.pcs:
        lines.append(t("summary.nobody", lang))
    return lines


def hero_points(p: PcEvening, lang: Lang) -> str:
    """ "Hero Points: 2 earned, 1 spent", each count agreeing with its word."""
    earned = plural("summary.hero_earned", lang, p.hero_earned)
    spent = plural("summary.hero_spent", lang, p.hero_spent)
    return t("summary.hero_points", lang, earned=earned, spent=spent)


def npc_result(net: int, npc: str, lang: Lang, money: Callable[[int], str]) -> str:
    """ "Le Chiffre leaves $200 lighter" (or richer, or even)."""
    if net == 0:
        return t("summary.npc_even", lang, npc=npc)
    key = "summary.npc_richer" if net > 0 else "summary.npc_lighter"
    return t(key, lang, npc=npc, amount=money(abs(net)))


def _moments(
    summary: Evening,
    names: Mapping[int, str],
    lang: Lang,
    money: Callable[[int], str],
    game: str | None,
) -> list[str]:
    """The biggest win (at its hand, when it was one of the table's) and each Hero Point
    that won a hand back (with what it paid, when it paid something)."""
    lines = []
    biggest = summary.biggest
    if biggest is not None:
        who, amount = _name(names, biggest.character_id), money(biggest.won)
        if biggest.hand:
            lines.append(
                hand_phrase("biggest", game, lang, name=who, amount=amount, hand=biggest.hand)
            )
        else:
            lines.append(t("summary.biggest", lang, name=who, amount=amount))
    for spend in summary.won_backs[:MOMENTS_MAX]:
        key = "won_back" if spend.pay else "won_back_free"
        who = _name(names, spend.character_id)
        lines.append(hand_phrase(key, game, lang, name=who, hand=spend.hand, pay=money(spend.pay)))
    if len(summary.won_backs) > MOMENTS_MAX:
        lines.append(t("summary.more", lang, count=len(summary.won_backs) - MOMENTS_MAX))
    return lines


def _signed(cents: int, money: Callable[[int], str], lang: Lang) -> str:
    if cents == 0:
        return t("summary.even", lang)
    return money(cents) if cents < 0 else "+" + money(cents)


def _name(names: Mapping[int, str], character_id: int) -> str:
    return names.get(character_id) or f"#{character_id}"
