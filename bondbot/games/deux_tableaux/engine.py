"""Baccara à deux tableaux on the engine contract (rules/deux-tableaux.md; seed 004).

A hand runs from the first move after the last coup to the next coup's settlement. Phases:

- `auction` (opened by the GM, `open_auction`): seats `bid` for the bank or `pass`
  (`auction.py`: the bank's life, from the NPC's bank by default to its end).
- `stakes`: the NPC banks by itself when nobody does (`default_bank`); pontes `stake` on the
  right table, the left or `both`, call `banco` or `pass`; a PC banker may `withdraw`. When
  every ponte has answered the table deals (`deal`), or plays nothing (`no_play`).
- `hands`: a table's hand-holder at 5 chooses to `draw` or `stand` (right table first).
- `banker`: the banker's one decision, `draw` or `stand`, seeing both third cards.

Decisions where the rules are silent (also in docs/decisions.md):

- Seats: the seat after the banker in `seats` is on his right. The right table's stakes are
  covered from there onwards, the left table's from the seat on his left backwards; on each
  table the order starts at the seat that has the hand (first covered, first paid, as seed
  004 says), beginning with the seat nearest the banker. When the table loses, the hand
  moves to the next seat in that order; a seat without a stake on the table is skipped.
- Money: the bank stays in the banker's stack, stakes in the pontes'; the settlement moves
  each covered stake seat to seat. The bank is split right = the larger half (odd cent),
  left = the smaller. The bank and stakes are bounded by the stacks again at the deal.
- A table decided by a natural is shown and decided at once; its chips move with the rest of
  the coup's, in the settling move. A table nobody stakes on is not dealt.
- A banco stakes the two halves on the two tables and holds both hands; it wins for the
  bank when the caller's net is a loss. After a banco the bank won, its loser has priority
  for the second banco, then anyone in seat order; after the second banco a coup without
  banco must be played. The hand-holders' turn is kept through bancos.
- The banker's decision on a timer: follow the table with more money in play;
  when they pull opposite ways with equal money, draw. Measured over equal stakes (bench):
  drawing then gives the banker +0.3% of the money staked, standing −0.6%, even though
  seed 004's one example stands. The NPC weighs each table's exact expectation by its
  money instead, by its Gambling level (`npc.py`).
- A Hero Point: a PC's covered stake lost on a table to the NPC banker pays `2 × stake`, one
  lost hand per table; a PC banker who lost a table where the NPC ponte had a stake in play
  gets back that stake and the win he would have had. Nothing between two PCs.
- `hand` counts the coups dealt (it moves at the deal), so a Hero Point offer stays open
  through the next coup's stakes until its deal.
- A bank that grows past the table's maximum (`max_bank`) by a win keeps only the maximum
  in play (the rest stays in the banker's stack).
- A stacked shoe must hold every card the coup needs (a live shoe has its cut card).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from bondbot.games.baccarat_bank.coverage import Cover, cover
from bondbot.games.baccarat_bank.engine import COMMON_MOVES, BankSettings, Settlement, winner_of
from bondbot.games.baccarat_bank.events import Winner
from bondbot.games.baccarat_bank.tableau import (
    is_natural,
    ponte_recommendation,
    ponte_rule,
    recommendation,
)
from bondbot.games.contract import (
    Event,
    Move,
    Option,
    Record,
    SeatKey,
    ShownHand,
)
from bondbot.games.deux_tableaux import npc as npc_play
from bondbot.games.deux_tableaux.auction import AuctionedBank
from bondbot.games.deux_tableaux.events import (
    Abattage,
    BancoCalled,
    BankerAdvice,
    CoupSettled,
    Dealt,
    HandPassed,
    Staked,
    Table,
    TableCovered,
    TableResult,
)
from bondbot.rules.baccarat import codes_value
from bondbot.rules.cards import Card, cards_of
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

TABLES: tuple[Table, ...] = ("right", "left")
Phase = Literal["auction", "stakes", "hands", "banker"]
BancoRight = Literal["open", "again", "closed"]
CallKind = Literal["stake", "pass", "banco"]


class Settings(BankSettings):
    """A table's options (amounts in cents): each half of the bank covers a stake."""

    min_bank: int = Field(200, gt=0)
    packs: int = Field(3, ge=2, le=3)

    tableaux: ClassVar[int] = 2
    too_small: ClassVar[str] = "each half of the minimum bank must cover the minimum stake"


class TableHand(BaseModel):
    """One table in the coup: the stakes in play, its hand-holder, its cards."""

    model_config = ConfigDict(extra="forbid")

    covers: tuple[Cover, ...]
    holder: SeatKey
    cards: list[str] = Field(default_factory=list)
    winner: Winner | None = None  # decided at once by a natural
    done: bool = False  # the hand-holder has drawn or stood


class Coup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bank: int
    banco: SeatKey | None = None
    hands: dict[Table, TableHand]
    banker: list[str] = Field(default_factory=list)
    waiting: Table | None = None  # the table whose hand-holder is choosing at 5


def halves(bank: int) -> dict[Table, int]:
    """The bank split between the tables; the right takes the odd cent."""
    return {"right": bank - bank // 2, "left": bank // 2}


class DeuxTableaux(AuctionedBank):
    """A deux tableaux table: the banker and his bank, two tables of stakes, the coup."""

    key: ClassVar[str] = "deux_tableaux"
    moves: ClassVar[frozenset[str]] = COMMON_MOVES | {
        "open_auction",
        "bid",
        "close_auction",
        "default_bank",
        "bank",
        "withdraw",
        "keep",
        "refuse",
    }

    settings: Settings = Field(default_factory=Settings)
    phase: Phase = "stakes"
    stakes: dict[Table, dict[SeatKey, int]] = Field(
        default_factory=lambda: {"right": {}, "left": {}}
    )
    calls: dict[SeatKey, CallKind] = Field(default_factory=dict)
    banco_right: BancoRight = "open"
    banco_loser: SeatKey | None = None
    hand_at: dict[Table, SeatKey | None] = Field(
        default_factory=lambda: {"right": None, "left": None}
    )
    coup: Coup | None = None
    last: CoupSettled | None = None
    # Each table's hand-holder in `last`, while `last` is the hand over last (empty after a
    # hand without cards: a no-play, a withdrawal). A bank withdrawn or auctioned also ends
    # a round of the pontes' calls (`rounds_over`).
    last_holders: dict[Table, SeatKey] = Field(default_factory=dict)

    @classmethod
    def new(
        cls,
        shoe: Shoe,
        seats: Sequence[SeatKey],
        *,
        npc: SeatKey | None = None,
        settings: Settings | None = None,
    ) -> DeuxTableaux:
        """A table with `seats` in order; the NPC banks by itself unless the GM auctions."""
        if npc is not None and npc not in seats:
            raise IllegalAction("deux_tableaux.not_seated", npc=npc)
        if len(set(seats)) != len(seats):
            raise IllegalAction("deux_tableaux.seated_twice")
        return cls(shoe=shoe, seats=list(seats), npc=npc, settings=settings or Settings())

    # -- seats, stacks, order ------------------------------------------------------------

    def _nearest_first(self, table: Table) -> list[SeatKey]:
        pontes = self.pontes()
        return pontes if table == "right" else pontes[::-1]

    def table_order(self, table: Table) -> list[SeatKey]:
        """A table's order of covering and paying: from the seat that has the hand on it."""
        base = self._nearest_first(table)
        at = self.hand_at[table]
        if at not in base:
            return base
        start = base.index(at)
        return base[start:] + base[:start]

    def _free(self, seat: SeatKey) -> int | None:
        """A ponte's chips not yet staked this coup (None: unlimited)."""
        stack = self._stack(seat)
        if stack is None:
            return None
        return stack - sum(self.stakes[table].get(seat, 0) for table in TABLES)

    def _banco_open_to(self, seat: SeatKey) -> bool:
        return self.banco_right != "closed" and self._affords(seat, self.bank)

    # -- what is legal -------------------------------------------------------------------

    def _due(self) -> Move | None:
        if self.phase == "auction":
            return None if self._bidders() else Move(kind="close_auction")
        if self.phase != "stakes":
            return None
        return self._default_due() if self.banker is None else self._answers_due()

    def options(self) -> list[Option]:
        due = self._due()
        if due is not None:  # the GM may auction the bank instead of the NPC's banking it
            also = [Option(kind="open_auction")] if due.kind == "default_bank" else []
            return [Option(kind=due.kind), *also]
        if self.phase == "auction":
            return self._auction_options()
        if self.phase == "stakes":
            return self._stake_options()
        return self._draw_options()

    def _decider(self) -> SeatKey:
        """Who draws or stands now: the waiting table's hand-holder, else the banker."""
        assert self.coup is not None and self.banker is not None
        if self.coup.waiting is not None:
            return self.coup.hands[self.coup.waiting].holder
        return self.banker

    def _stake_options(self) -> list[Option]:
        if not self.seats:
            return []
        if self.banker is None:
            return [Option(kind="open_auction")]
        if self.banker == self.npc:
            found = [Option(kind="open_auction")]
        else:
            found = [Option(kind="withdraw", seat=self.banker)]
        low = self.settings.min_stake
        half = halves(self.bank)
        for seat in self._eligible():
            call = self.calls.get(seat)
            if call not in (None, "stake"):
                continue
            free = self._free(seat)
            for table in TABLES:
                if seat in self.stakes[table]:
                    continue
                high = half[table] if free is None else min(half[table], free)
                if high >= low:
                    found.append(
                        Option(kind="stake", seat=seat, min=low, max=high, targets=(table,))
                    )
            if call is None:
                both = min(half.values()) if free is None else min(*half.values(), free // 2)
                if both >= low:
                    found.append(
                        Option(kind="stake", seat=seat, min=low, max=both, targets=("both",))
                    )
                found.append(Option(kind="pass", seat=seat))
                if self._banco_open_to(seat):
                    found.append(Option(kind="banco", seat=seat))
        return found

    def turn(self) -> tuple[SeatKey, ...]:
        if self._due() is not None:
            return ()
        if self.phase == "auction":
            return tuple(self._bidders())
        if self.phase == "stakes":
            return self._unanswered()
        return (self._decider(),)

    def automation(self) -> Move | None:
        return self._due()

    def coverage(self, table: Table) -> tuple[Cover, ...]:
        """A table's stakes as they stand now, in its order, with the part its half covers."""
        if self.coup is not None:
            hand = self.coup.hands.get(table)
            return () if hand is None else hand.covers
        stakes = [
            (seat, self.stakes[table][seat])
            for seat in self.table_order(table)
            if seat in self.stakes[table]
        ]
        return cover(stakes, halves(self.bank)[table])

    def advice(self) -> BankerAdvice | None:
        """Seed 004's advice for the banker on each table still in play, once he decides."""
        if self.coup is None or self.phase != "banker":
            return None
        banker_total = codes_value(self.coup.banker)
        draw: dict[Table, bool] = {}
        for table, hand in self.coup.hands.items():
            if hand.winner is None:
                third = Card.parse(hand.cards[2]).baccarat_value if len(hand.cards) > 2 else None
                draw[table] = recommendation(banker_total, third)
        return BankerAdvice(
            right=draw.get("right"),
            left=draw.get("left"),
            conflict=len(set(draw.values())) > 1,
        )

    def weighed_draw(self) -> bool:
        """The banker's play that follows the table with more money in play (ties: draw)."""
        advice = self.advice()
        assert advice is not None and self.coup is not None
        if not advice.conflict:
            return bool(advice.right if advice.right is not None else advice.left)
        money = {
            table: sum(item.covered for item in hand.covers)
            for table, hand in self.coup.hands.items()
        }
        if money["right"] == money["left"]:
            return True
        heavier = "right" if money["right"] > money["left"] else "left"
        return bool(advice.right if heavier == "right" else advice.left)

    # -- playing -------------------------------------------------------------------------

    def _bank_opens(self) -> None:
        self.hand_at = {"right": None, "left": None}
        self.banco_right = "open"
        self.banco_loser = None

    def _clear_stakes(self) -> None:
        self.rounds_over += 1  # the pontes' calls are over, dealt or not
        self.stakes = {"right": {}, "left": {}}
        self.calls = {}

    def _play_withdraw(self, move: Move) -> Record:
        ended = self._end_bank("withdrawn")
        self.between_hands = True
        self.last_holders = {}  # no cards: `last` is a coup before this hand
        return Record(move=move, events=(ended,), hand_over=True)

    def _play_stake(self, move: Move) -> Record:
        assert move.seat is not None and move.amount is not None
        tables = TABLES if move.target == "both" else (cast(Table, move.target),)
        events = []
        for table in tables:
            self.stakes[table][move.seat] = move.amount
            events.append(Staked(seat=move.seat, table=table, amount=move.amount))
        self.calls[move.seat] = "stake"
        return Record(move=move, events=tuple(events))

    def call_kinds(self) -> dict[SeatKey, str]:
        return dict(self.calls)

    def _record_call(self, seat: SeatKey, kind: str, amount: int = 0) -> None:
        self.calls[seat] = kind  # type: ignore[assignment]

    def _banco_priority(self) -> SeatKey | None:
        return self.banco_loser if self.banco_right == "again" else None

    def _banco_called(self, seat: SeatKey) -> BancoCalled:
        return BancoCalled(seat=seat, again=self.banco_right == "again")

    def _play_no_play(self, move: Move) -> Record:
        self._clear_stakes()
        self.last_holders = {}  # no cards: `last` is a coup before this hand
        self.banco_right, self.banco_loser = "open", None
        self.between_hands = True
        return self._no_play(move)

    def _play_deal(self, move: Move) -> Record:
        assert self.banker is not None
        bank = self._capped(self.banker, self.bank)
        half = halves(bank)
        hands: dict[Table, TableHand] = {}
        caller = self._banco_caller(bank)
        if caller is not None:
            for table in TABLES:
                covers = (Cover(seat=caller, stake=half[table], covered=half[table]),)
                hands[table] = TableHand(covers=covers, holder=caller)
        else:
            # each ponte's stakes bounded by his chips again, the right table's first
            left = {seat: self._stack(seat) for seat in self.pontes()}
            for table in TABLES:
                stakes = []
                for seat in self.table_order(table):
                    if seat not in self.stakes[table]:
                        continue
                    amount, chips = self.stakes[table][seat], left[seat]
                    if chips is not None:
                        amount = min(amount, chips)
                        left[seat] = chips - amount
                    stakes.append((seat, amount))
                covers = cover(stakes, half[table])
                playing = [item.seat for item in covers if item.covered > 0]
                if playing:
                    hands[table] = TableHand(covers=covers, holder=playing[0])
        if not hands:
            return self._play_no_play(move)
        self.coup = Coup(bank=bank, banco=caller, hands=hands)
        self.hand += 1
        events: list[Event] = [
            TableCovered(
                table=table, half=half[table], stakes=hand.covers, holder=hand.holder, banco=caller
            )
            for table, hand in hands.items()
        ]
        self._deal_two([hand.cards for hand in hands.values()], self.coup.banker)
        events.append(Dealt(tables=tuple(hands)))
        banker_total = codes_value(self.coup.banker)
        if is_natural(banker_total, 2):
            events.append(Abattage(side="banker", cards=tuple(self.coup.banker)))
        for table, hand in hands.items():
            total = codes_value(hand.cards)
            if is_natural(total, 2) or is_natural(banker_total, 2):
                if is_natural(total, 2):
                    events.append(Abattage(side=table, cards=tuple(hand.cards)))
                hand.winner = winner_of(total, banker_total)
        return self._proceed(move, events)

    def _proceed(self, move: Move, events: list[Event]) -> Record:
        """Play the hand-holders' forced draws in table order; stop at a choice or the banker."""
        assert self.coup is not None
        for table, hand in self.coup.hands.items():
            if hand.winner is not None or hand.done:
                continue
            rule = ponte_rule(codes_value(hand.cards))
            if rule == "choose":
                self.coup.waiting = table
                self.phase = "hands"
                return Record(move=move, events=tuple(events))
            self._draw_or_stand(table, rule == "draw", events)
        self.coup.waiting = None
        if all(hand.winner is not None for hand in self.coup.hands.values()):
            return self._settle(move, events)
        self.phase = "banker"
        advice = self.advice()
        assert advice is not None
        events.append(advice)
        return Record(move=move, events=tuple(events))

    def _hand_cards(self, side: str) -> list[str]:
        assert self.coup is not None
        return self.coup.banker if side == "banker" else self.coup.hands[cast(Table, side)].cards

    def _draw_or_stand(self, side: str, draw: bool, events: list[Event]) -> None:
        super()._draw_or_stand(side, draw, events)
        if side != "banker":
            assert self.coup is not None
            self.coup.hands[cast(Table, side)].done = True

    def _decided(self, move: Move, *, draw: bool) -> Record:
        assert self.coup is not None
        events: list[Event] = []
        if self.phase == "hands":
            assert self.coup.waiting is not None
            self._draw_or_stand(self.coup.waiting, draw, events)
            return self._proceed(move, events)
        self._draw_or_stand("banker", draw, events)
        return self._settle(move, events)

    def _settle(self, move: Move, events: list[Event]) -> Record:
        coup, banker = self.coup, self.banker
        assert coup is not None and banker is not None
        banker_total = codes_value(coup.banker)
        results: list[TableResult] = []
        money = Settlement()
        for table, hand in coup.hands.items():
            total = codes_value(hand.cards)
            winner = hand.winner or winner_of(total, banker_total)
            stakes = self._settle_covers(hand.covers, winner, table, money)
            natural = is_natural(total, len(hand.cards)) or is_natural(
                banker_total, len(coup.banker)
            )
            results.append(
                TableResult(
                    table=table,
                    cards=tuple(hand.cards),
                    total=total,
                    natural=natural,
                    winner=winner,
                    results=tuple(stakes),
                )
            )
        bank_after = self.settings.limited(
            coup.bank - sum(r.net for result in results for r in result.results)
        )
        self.last = CoupSettled(
            seat=banker,
            moves=(*self.history, move),
            banker=tuple(coup.banker),
            banker_total=banker_total,
            tables=tuple(results),
            bank=bank_after,
        )
        self.last_holders = {table: hand.holder for table, hand in coup.hands.items()}
        events.append(self.last)
        self.bank = bank_after
        self._next_turns(coup, results, events)
        self.coup = None
        self._clear_stakes()
        self.phase = "stakes"
        self.between_hands = True
        if self.bank < self.settings.min_bank:
            events.append(self._end_bank("spent"))
        return self._coup_over(move, events, money)

    def _next_turns(self, coup: Coup, results: list[TableResult], events: list[Event]) -> None:
        """The hand passes on a table that lost; the banco rights move on."""
        if coup.banco is not None:
            net = sum(r.net for result in results for r in result.results)
            if self.banco_right == "open" and net < 0:
                self.banco_right, self.banco_loser = "again", coup.banco
            else:
                second = self.banco_right == "again"
                self.banco_right, self.banco_loser = ("closed" if second else "open"), None
            return
        self.banco_right, self.banco_loser = "open", None
        for result in results:
            holder = coup.hands[result.table].holder
            if result.winner != "banker":
                self.hand_at[result.table] = holder
                continue
            base = self._nearest_first(result.table)
            successor = base[(base.index(holder) + 1) % len(base)]
            self.hand_at[result.table] = successor
            events.append(HandPassed(table=result.table, seat=successor))

    # -- defaults and the NPC ------------------------------------------------------------

    def _timer_default(self, seat: SeatKey) -> Move:
        if self.phase in ("auction", "stakes"):
            return Move(kind="pass", seat=seat)
        if self.phase == "hands":
            assert self.coup is not None and self.coup.waiting is not None
            draw = ponte_recommendation(codes_value(self.coup.hands[self.coup.waiting].cards))
            return Move(kind="draw" if draw else "stand", seat=seat)
        return Move(kind="draw" if self.weighed_draw() else "stand", seat=seat)

    def _npc_decides(self, seat: SeatKey, rng: random.Random, level: int) -> Move:
        return npc_play.decide(self, seat, rng, level)

    # -- what each seat may see ----------------------------------------------------------

    def _face_down(self) -> list[tuple[SeatKey, list[str]]]:
        """Each table's hand but one shown at once (a natural), then the banker's."""
        if self.coup is None or self.banker is None:
            return []
        held = [(hand.holder, hand.cards) for hand in self.coup.hands.values() if not hand.winner]
        return [*held, (self.banker, self.coup.banker)]

    def shown_hands(self) -> tuple[ShownHand, ...]:
        """The last coup's hands as the table message tells them: the bank's, then each table
        dealt (right, then left), under the seat that held its hand. Once a coup is settled
        every hand is face up."""
        last = self.last
        if last is None or not self.last_holders:
            return ()
        bank = cards_of(last.banker)
        rows = [ShownHand(last.seat or "banker", bank, last.banker_total, "banker")]
        for result in last.tables:
            holder = self.last_holders.get(result.table, result.table)
            rows.append(ShownHand(holder, cards_of(result.cards), result.total, result.table))
        return tuple(rows)

    # -- seats and the shoe between hands ------------------------------------------------

    def _leaving(self, seat: SeatKey) -> None:
        for table in TABLES:
            if self.hand_at[table] == seat:  # the hand goes on to the next seat, if any
                base = self._nearest_first(table)
                after = base[(base.index(seat) + 1) % len(base)] if seat in base else seat
                self.hand_at[table] = None if after == seat else after
        if seat == self.banker:
            self.banker = None
            self.bank = 0
        if self.banco_loser == seat:
            self.banco_loser = None

    def replace_shoe(self, shoe: Shoe) -> None:
        if self.coup is not None:
            raise IllegalAction("deux_tableaux.coup_in_play")
        self.shoe = shoe
