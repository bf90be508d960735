"""The evening's story, from a table's ledger rows alone: what each PC won or lost, his Hero
Points, the hands he won back, the biggest hand, and each PC's result hand after hand.

Pure: it reads rows (`storage.ledger.table_entries`) and knows the ledger's accounts and
reasons, nothing of games, Discord or the clock. So it works for every game, today's and
later ones, and for a table closed long ago.

How rows are read:
- A PC's result is every cash row between his own accounts (`sheet:{pc}`, `chips:{t}:{pc}`)
  and anything else: buying in and cashing out move money between his own two accounts,
  so they cancel, and a pot won after he left (paid to his sheet) still counts.
- Rows of one action share its time (to the millisecond) and actor, and come one after
  another (a table runs one action at a time); an action whose rows settle something (a
  game's reason, paying chips somewhere other than a pot or the layout) ends a hand. Bets
  that only feed a pot (hold'em) belong to the hand that pays the pot. The ledger holds
  no hand numbers, so "hands" here are the hands that moved chips, in order: a push or a
  coup nobody bet on is not one, and a game that pays during a hand (Michigan's pay
  cards) shows each payment as one. The table knows how many hands it dealt
  (`evening_text`'s `hands_played`).
- Reasons starting `table.`, `spend.` and `award.` are the table's own bookkeeping (buy-in,
  bankroll, Hero Points), never a hand's result; `pot.stake`/`pot.npc_stake` are stakes.
- A Hero Point spend wins back the hand just played (offers close at the next deal), so
  what it pays is shown at that hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby

from bondbot.i18n import Lang, t
from bondbot.storage.ledger import LedgerEntry

WON_BACK = "spend.win_hand"
BOOKKEEPING = ("table.", "spend.", "award.")
STAKES = frozenset({"pot.stake", "pot.npc_stake"})
TEXT_MAX = 4096  # an embed's description
LINES_MAX = 20  # PCs listed by name; the others are counted


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


@dataclass
class Evening:
    pcs: list[PcEvening]  # the biggest winner first
    hands: int  # hands that moved chips
    biggest: BiggestHand | None
    # Each PC's result after each hand that moved chips, from 0 (before the first): a PC
    # appears from the hand he sat down after, and leaves the series once he cashed out.
    series: list[tuple[int, dict[int, int]]] = field(default_factory=list)

    def chart_points(self, names: Mapping[int, str]) -> list[tuple[int, dict[str, int]]]:
        """The series by name, for `pictures.chart.chips_chart`."""
        return [
            (hand, {_name(names, pc): value for pc, value in values.items()})
            for hand, values in self.series
        ]


def evening(rows: Iterable[LedgerEntry], table_id: int) -> Evening:
    """The evening of table `table_id` from its ledger rows, oldest first."""
    chips_prefix = f"chips:{table_id}:"
    pcs: dict[int, PcEvening] = {}
    chips: dict[int, int] = {}  # each PC's stack, to see when he has left
    at_table: set[int] = set()
    in_hand: dict[int, int] = {}  # each PC's result in the hand under way
    series: list[tuple[int, dict[int, int]]] = [(0, {})]
    hands = 0
    biggest: BiggestHand | None = None

    def pc_of(account: str | None) -> int | None:
        if account is None:
            return None
        if account.startswith("sheet:"):
            return int(account[6:])
        if account.startswith(chips_prefix):
            return int(account[len(chips_prefix) :])
        return None

    def pc(character_id: int) -> PcEvening:
        return pcs.setdefault(character_id, PcEvening(character_id))

    for _, action in groupby(rows, key=lambda row: (row.created_at, row.actor_id)):
        settles = False
        for row in action:
            src, dst = pc_of(row.src), pc_of(row.dst)
            if row.kind == "hero":
                if dst is not None:
                    pc(dst).hero_earned += row.amount
                if src is not None:
                    pc(src).hero_spent += row.amount
                    pc(src).hands_won_back += row.reason == WON_BACK
                continue
            for end, sign in ((src, -1), (dst, 1)):
                if end is None:
                    continue
                account = row.src if sign < 0 else row.dst
                if account is not None and account.startswith(chips_prefix):
                    chips[end] = chips.get(end, 0) + sign * row.amount
                    at_table.add(end)
            if src is not None and src == dst:  # buy-in, cash-out: his own money moves
                if chips.get(src, 0) == 0:
                    at_table.discard(src)
                continue
            for end, sign in ((src, -1), (dst, 1)):
                if end is None:
                    continue
                pc(end).net += sign * row.amount
                if row.reason == WON_BACK:
                    pc(end).won_back += sign * row.amount
                elif not row.reason.startswith(BOOKKEEPING):
                    in_hand[end] = in_hand.get(end, 0) + sign * row.amount
            settles |= _settles(row)
        if settles:
            hands += 1
            for character_id, won in in_hand.items():
                if won > 0 and (biggest is None or won > biggest.won):
                    biggest = BiggestHand(character_id, won)
            in_hand = {}
            series.append((hands, {}))
        point = series[-1][1]  # results up to the last hand settled, and what was won back
        for character_id in at_table | point.keys():
            point[character_id] = pc(character_id).net - in_hand.get(character_id, 0)
    ranked = sorted(pcs.values(), key=lambda p: (-p.net, p.character_id))
    return Evening(ranked, hands, biggest, series)


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
        found.append((hand, moved))
    return found


def _settles(row: LedgerEntry) -> bool:
    """A row that pays a hand's result (not a stake into a pot, not bookkeeping)."""
    if row.kind != "cash" or row.reason.startswith(BOOKKEEPING) or row.reason in STAKES:
        return False
    return row.dst is None or not row.dst.startswith(("pot:", "layout:"))


def evening_text(
    summary: Evening,
    names: Mapping[int, str],
    lang: Lang,
    money: Callable[[int], str],
    *,
    hands_played: int | None = None,
) -> str:
    """The evening in a few lines for an embed's description (at most TEXT_MAX characters);
    `hands_played` is the table's count of hands dealt (None: not shown)."""
    lines = [
        t(
            "summary.pc",
            lang,
            name=_name(names, p.character_id),
            net=_signed(p.net, money, lang),
            earned=p.hero_earned,
            spent=p.hero_spent,
            won_back=p.hands_won_back,
        )
        for p in summary.pcs[:LINES_MAX]
    ]
    if len(summary.pcs) > LINES_MAX:
        lines.append(t("summary.more", lang, count=len(summary.pcs) - LINES_MAX))
    if not summary.pcs:
        lines.append(t("summary.nobody", lang))
    biggest = summary.biggest
    lines.append(
        t("summary.no_biggest", lang)
        if biggest is None
        else t(
            "summary.biggest",
            lang,
            name=_name(names, biggest.character_id),
            amount=money(biggest.won),
        )
    )
    if hands_played is not None:
        lines.append(t("summary.hands", lang, count=hands_played))
    text = "\n".join(lines)
    return text if len(text) <= TEXT_MAX else text[: TEXT_MAX - 1] + "…"


def _signed(cents: int, money: Callable[[int], str], lang: Lang) -> str:
    if cents == 0:
        return t("summary.even", lang)
    return money(cents) if cents < 0 else "+" + money(cents)


def _name(names: Mapping[int, str], character_id: int) -> str:
    return names.get(character_id) or f"#{character_id}"
