"""The engine both baccarat-bank games extend: a banker whose bank stays in his stack, the
pontes in seat order from his right answering together, the cards dealt and drawn, every
covered stake settled seat to seat, seats that come and go between coups, the shoe.

A game says what is its own: its settings and phases, how a ponte's answer is kept
(`_record_call`, `call_kinds`), who has priority for a banco (`_banco_priority`), where a
third card goes (`_hand_cards`), who decides now (`_decider`) and what a timer plays
(`_timer_default`), which hands are face down (`_face_down`), what leaving does to its bank
(`_leaving`), and how the NPC plays (`_npc_decides`).

Decisions both games share (also in docs/decisions.md): the bank and every stake are
bounded by the stacks again at the deal, since a Hero Point paid by the NPC in between
can lower a stack; a Hero Point is a PC's covered stake lost to the NPC banker (it pays
`2 × stake`), or a PC banker's loss to the NPC ponte (the stake back and the win he would
have had, less the table's commission); `hand` counts the coups dealt.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pydantic import BaseModel, Field, model_validator

from bondbot.games.baccarat_bank.coverage import Cover
from bondbot.games.baccarat_bank.events import (
    BancoCalled,
    CoupSettled,
    NoPlay,
    Passed,
    StakeResult,
    Stood,
    ThirdCard,
    Winner,
)
from bondbot.games.contract import (
    GAMBLING_MAX,
    Engine,
    Event,
    Frozen,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShoeField,
    Transfer,
    seat_account,
)
from bondbot.rules.cards import Card, cards_of
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

# The moves both games know: the pontes' answers, the table's deal, the draw-or-stand.
COMMON_MOVES = frozenset({"stake", "banco", "pass", "deal", "no_play", "draw", "stand"})


class BankSettings(Frozen):
    """A table's options both games have (amounts in cents); a game adds its own and says
    how many stakes its smallest bank must cover (one on each of its tableaux)."""

    min_stake: int = Field(100, gt=0)
    min_bank: int = Field(100, gt=0)
    npc_bank: int = Field(100_000, gt=0)  # the NPC's bank, and the most it risks as a ponte
    max_bank: int | None = Field(None, gt=0)  # the largest bank in play (None: no limit)

    tableaux: ClassVar[int] = 1
    too_small: ClassVar[str] = "the minimum bank must cover the minimum stake"

    @model_validator(mode="after")
    def _a_bank_covers_its_stakes(self) -> BankSettings:
        if self.min_bank < self.tableaux * self.min_stake:
            raise ValueError(self.too_small)
        if self.max_bank is not None and self.max_bank < self.min_bank:
            raise ValueError("the maximum bank is below the minimum bank")
        return self

    def limited(self, bank: int) -> int:
        """A bank as far as the table's maximum lets it play."""
        return bank if self.max_bank is None else min(bank, self.max_bank)


def winner_of(ponte_total: int, banker_total: int) -> Winner:
    if ponte_total > banker_total:
        return "ponte"
    return "banker" if banker_total > ponte_total else "tie"


def lost_label(table: str | None, amount: int) -> str:
    """A PC ponte's lost stake, as his Hero Point offer names it (`stake:500`, `right:500`)."""
    return f"{table or 'stake'}:{amount}"


def bank_label(table: str | None, amount: int) -> str:
    """A PC banker's loss to the NPC ponte, as his offer names it (`bank:500`,
    `bank:right:500`)."""
    return f"bank:{amount}" if table is None else f"bank:{table}:{amount}"


@dataclass
class Settlement:
    """What a coup's settlement moves: chips between accounts, Hero Points it opens."""

    transfers: list[Transfer] = field(default_factory=list)
    lost: list[LostHand] = field(default_factory=list)

    def pay(self, src: SeatKey, dst: SeatKey, amount: int, reason: str) -> None:
        """Chips from one seat to another."""
        self.transfers.append(
            Transfer(src=seat_account(src), dst=seat_account(dst), amount=amount, reason=reason)
        )


class BankGame(Engine):
    """A baccarat bank's table: seats, the banker and his bank, the pontes' calls, a coup."""

    moves: ClassVar[frozenset[str]] = COMMON_MOVES
    # Moves made between coups (about the bank): the seats stay free until another comes.
    between_moves: ClassVar[frozenset[str]] = frozenset()

    settings: BankSettings = Field(default_factory=BankSettings)
    shoe: ShoeField
    banker: SeatKey | None = None
    bank: int = 0  # held in the banker's stack
    phase: str = "stakes"  # each game names its phases
    coup: BaseModel | None = None  # the coup in play (each game's own)
    between_hands: bool = True
    # Rounds of the pontes' calls that are over: a round nobody played ends without a hand
    # dealt, so the hand's number alone cannot tell a stake or pass button drawn for it
    # from one drawn for the next (`answer_round`).
    rounds_over: int = 0
    last: CoupSettled | None = None  # the last coup settled (each game's own)

    @property
    def answer_round(self) -> int:
        return self.rounds_over

    # -- seats, stacks, order ------------------------------------------------------------

    def _stack(self, seat: SeatKey) -> int | None:
        return self.stacks.get(seat, 0)

    def _affords(self, seat: SeatKey, amount: int) -> bool:
        stack = self._stack(seat)
        return stack is None or stack >= amount

    def _capped(self, seat: SeatKey, amount: int) -> int:
        stack = self._stack(seat)
        return amount if stack is None else min(amount, stack)

    def pontes(self) -> list[SeatKey]:
        """The other seats in seat order from the banker's right."""
        if self.banker is None:
            return []
        at = self.seats.index(self.banker)
        return self.seats[at + 1 :] + self.seats[:at]

    def _eligible(self) -> list[SeatKey]:
        """Pontes who have the chips for a stake."""
        return [seat for seat in self.pontes() if self._affords(seat, self.settings.min_stake)]

    # -- the pontes' answers -------------------------------------------------------------

    def call_kinds(self) -> dict[SeatKey, str]:
        """The pontes' answers this coup so far ("stake", "banco", "pass"), in their order."""
        raise NotImplementedError

    def _record_call(self, seat: SeatKey, kind: str, amount: int = 0) -> None:
        raise NotImplementedError

    def _unanswered(self) -> tuple[SeatKey, ...]:
        """The pontes with chips for a stake who have not answered yet."""
        calls = self.call_kinds()
        return tuple(seat for seat in self._eligible() if seat not in calls)

    def _answers_due(self) -> Move | None:
        """Once every ponte has answered: the deal, or nothing played if all passed."""
        if not self._eligible() or self._unanswered():
            return None
        if all(kind == "pass" for kind in self.call_kinds().values()):
            return Move(kind="no_play")
        return None if self.needs_new_shoe else Move(kind="deal")

    def _banco_priority(self) -> SeatKey | None:
        """The caller who wins a banco called by several (else the first in seat order)."""
        return None

    def _banco_caller(self, bank: int) -> SeatKey | None:
        """Who plays the whole bank: a ponte who called banco and can still cover it."""
        calls = self.call_kinds()
        bancos = [
            seat
            for seat in self.pontes()
            if calls.get(seat) == "banco" and self._affords(seat, bank)
        ]
        if not bancos:
            return None
        first = self._banco_priority()
        return first if first in bancos else bancos[0]

    def _banco_called(self, seat: SeatKey) -> BancoCalled:
        raise NotImplementedError

    # -- what is legal -------------------------------------------------------------------

    def _decider(self) -> SeatKey:
        """Who draws or stands now."""
        raise NotImplementedError

    def _draw_options(self) -> list[Option]:
        seat = self._decider()
        return [Option(kind="draw", seat=seat), Option(kind="stand", seat=seat)]

    # -- playing -------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        if self.between_hands:
            self.begin_hand()
            # The bank's own decisions come between coups: until another move, players may
            # still sit down or leave.
            self.between_hands = move.kind in self.between_moves
        handler = getattr(self, f"_play_{move.kind}")
        return handler(move)

    def _play_pass(self, move: Move) -> Record:
        assert move.seat is not None
        self._record_call(move.seat, "pass")
        return Record(move=move, events=(Passed(seat=move.seat),))

    def _play_banco(self, move: Move) -> Record:
        assert move.seat is not None
        event = self._banco_called(move.seat)  # before the call: whose priority it is
        self._record_call(move.seat, "banco", self.bank)
        return Record(move=move, events=(event,))

    def _no_play(self, move: Move) -> Record:
        return Record(move=move, events=(NoPlay(),), hand_over=True)

    def _deal_two(self, hands: Sequence[list[str]], banker: list[str]) -> None:
        """Two cards face down to each hand, then the banker, one round after the other."""
        for _ in range(2):
            for cards in hands:
                cards.append(self.shoe.deal().code)
            banker.append(self.shoe.deal().code)

    def _hand_cards(self, side: str) -> list[str]:
        """The cards of one hand in the coup (a side: "banker", "ponte", a tableau)."""
        raise NotImplementedError

    def _draw_or_stand(self, side: str, draw: bool, events: list[Event]) -> None:
        if draw:
            card = self.shoe.deal().code
            self._hand_cards(side).append(card)
            events.append(ThirdCard(side=side, card=card))
        else:
            events.append(Stood(side=side))

    def _play_draw(self, move: Move) -> Record:
        return self._decided(move, draw=True)

    def _play_stand(self, move: Move) -> Record:
        return self._decided(move, draw=False)

    def _decided(self, move: Move, *, draw: bool) -> Record:
        raise NotImplementedError

    def _coup_over(self, move: Move, events: list[Event], money: Settlement) -> Record:
        """The settling move's record: the coup is over, its offers open."""
        return Record(
            move=move,
            events=tuple(events),
            transfers=tuple(money.transfers),
            lost=tuple(money.lost),
            hand_over=True,
        )

    def commission_percent(self) -> int:
        """The house's cut of the banker's win, in percent."""
        return 0

    def _settle_covers(
        self, covers: Sequence[Cover], winner: Winner, table: str | None, money: Settlement
    ) -> list[StakeResult]:
        """One hand's covered stakes against the bank: each result; the chips each moves
        seat to seat and the Hero Points they open against the NPC go to `money`."""
        banker = self.banker
        assert banker is not None
        results: list[StakeResult] = []
        percent = self.commission_percent()
        for item in covers:
            if item.covered == 0:
                continue
            amount = item.covered
            net = {"ponte": amount, "banker": -amount, "tie": 0}[winner]
            results.append(StakeResult(seat=item.seat, covered=amount, net=net))
            if winner == "banker":
                src, dst, reason = item.seat, banker, f"{self.key}.stake_lost"
                if banker == self.npc:
                    label = lost_label(table, amount)
                    money.lost.append(LostHand(seat=item.seat, label=label, pay=2 * amount))
            elif winner == "ponte":
                src, dst, reason = banker, item.seat, f"{self.key}.stake_won"
                if item.seat == self.npc and banker != self.npc:
                    pay = 2 * amount - amount * percent // 100
                    label = bank_label(table, amount)
                    money.lost.append(LostHand(seat=banker, label=label, pay=pay))
            else:
                continue
            money.pay(src, dst, amount, reason)
        return results

    # -- the timer's default and the NPC -------------------------------------------------

    def timeout_move(self, seat: SeatKey) -> Move | None:
        return self._timer_default(seat) if seat in self.turn() else None

    def _timer_default(self, seat: SeatKey) -> Move:
        """The move a timer makes for `seat` when his turn runs out (the recommended play)."""
        raise NotImplementedError

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        if self.npc is None or self.npc not in self.turn():
            return None
        return self._npc_decides(self.npc, rng, level)

    def _npc_decides(self, seat: SeatKey, rng: random.Random, level: int) -> Move:
        raise NotImplementedError

    # -- what each seat may see ----------------------------------------------------------

    def _face_down(self) -> list[tuple[SeatKey, list[str]]]:
        """Each hand of the coup whose first two cards are still face down, with the seat
        that holds it (the banker's last)."""
        raise NotImplementedError

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        mine = (cards[:2] for who, cards in self._face_down() if who == seat)
        return cards_of(code for cards in mine for code in cards)

    def hidden_cards(self) -> set[Card]:
        return {Card.parse(code) for _, cards in self._face_down() for code in cards[:2]}

    # -- seats and the shoe between hands ------------------------------------------------

    def in_hand(self) -> bool:
        return not self.between_hands

    def sit(self, seat: SeatKey) -> None:
        if self.in_hand():
            raise IllegalAction("games.in_hand", seat=seat)
        super().sit(seat)

    def stand_up(self, seat: SeatKey) -> None:
        if self.in_hand() and seat in self.seats:
            raise IllegalAction("games.in_hand", seat=seat)
        if seat not in self.seats:
            return
        self._leaving(seat)
        super().stand_up(seat)

    def _leaving(self, seat: SeatKey) -> None:
        """What a seat leaving between coups changes (the hand, the bank, a priority)."""

    def least_stack(self) -> int:
        return self.settings.min_stake  # a ponte's smallest stake

    @property
    def coup_in_play(self) -> bool:
        return self.coup is not None

    def current_shoe(self) -> Shoe:
        return self.shoe

    @property
    def needs_new_shoe(self) -> bool:
        return not self.coup_in_play and self.shoe.past_cut
