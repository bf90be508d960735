"""Punto banco on the engine contract: PCs wager against the NPC's bank, the table deals.

The drawing rules are `bondbot.rules.baccarat` (shared with chemin de fer); this module
adds the table's side: wagers within the limits and the seat's chips, the coup settled
as transfers between each PC and the NPC, and a lost wager reported as a lost hand that
one Hero Point wins back at its odds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bondbot.games.contract import (
    Engine,
    Event,
    Frozen,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShoeField,
    ShownHand,
    Transfer,
    seat_account,
)
from bondbot.money import Cents
from bondbot.rules import baccarat
from bondbot.rules.baccarat import Bet
from bondbot.rules.cards import cards_code, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

BETS = tuple(str(bet) for bet in Bet)


class PuntoBancoOptions(BaseModel):
    tie_pays: Literal[8, 9] = 8
    auto_deal_s: int | None = Field(default=None, ge=5, le=600)


class Wager(Frozen):
    bet: Bet
    amount: int


class WagerResult(Frozen):
    seat: SeatKey
    bet: Bet
    amount: int
    net: int


class WagerPlaced(Event):
    kind: Literal["wager"] = "wager"
    seat: SeatKey
    bet: Bet
    amount: int


class Coup(Event):
    kind: Literal["coup"] = "coup"
    hand: int
    player: str
    banker: str
    player_total: int
    banker_total: int
    winner: Bet
    natural: bool
    results: tuple[WagerResult, ...]


def max_win(wager: Wager, tie_pays: int) -> int:
    """The most the bank can owe on a wager: what it pays when it wins."""
    return baccarat.win_amount(wager.bet, wager.amount, tie_pays)


class PuntoBanco(Engine):
    key = "punto_banco"
    moves = frozenset({"wager", "again", "deal"})

    shoe: ShoeField
    min_bet: int
    max_bet: int
    tie_pays: Literal[8, 9] = 8
    auto_deal_s: int | None = None
    wagers: dict[SeatKey, Wager] = Field(default_factory=dict)
    last: Coup | None = None

    # -- what is legal -------------------------------------------------------------------

    def options(self) -> list[Option]:
        found = []
        for seat in self.seats:
            top = min(self.max_bet, self._chips(seat))
            if top >= self.min_bet:
                found.append(
                    Option(kind="wager", seat=seat, min=self.min_bet, max=top, targets=BETS)
                )
            if self.previous(seat) is not None:
                found.append(Option(kind="again", seat=seat))
        if self.wagers:
            found.append(Option(kind="deal"))
        return found

    def check(self, move: Move) -> None:
        if move.kind == "wager":
            if move.target not in BETS:
                raise IllegalAction("baccarat.unknown_bet")
            self._check_stake(move.seat, move.amount or 0)
            self._check_cover(move.seat, Wager(bet=Bet(move.target), amount=move.amount or 0))
        elif move.kind == "again":
            previous = self.previous(move.seat)
            if previous is None:
                raise IllegalAction("baccarat.no_previous_wager")
            # Already placed: Same again clicked twice is one wager, not a second save.
            if self.wagers.get(move.seat) == Wager(bet=previous.bet, amount=previous.amount):
                raise IllegalAction("baccarat.again_placed")
            self._check_stake(move.seat, previous.amount)
            self._check_cover(move.seat, Wager(bet=previous.bet, amount=previous.amount))
        elif move.kind == "deal" and not self.wagers:
            raise IllegalAction("baccarat.no_wagers")

    def _check_stake(self, seat: SeatKey | None, amount: int) -> None:
        if seat not in self.seats:
            raise IllegalAction("table.not_seated")
        if not self.min_bet <= amount <= self.max_bet:
            raise IllegalAction(
                "table.outside_limits", min=Cents(self.min_bet), max=Cents(self.max_bet)
            )
        if amount > self._chips(seat):
            raise IllegalAction("table.wager_over_chips")

    def _check_cover(self, seat: SeatKey | None, wager: Wager) -> None:
        """A limited bank takes a wager only if it could pay it beside the others."""
        bank = self.stacks.get(str(self.npc))
        if bank is None:
            return
        others = sum(max_win(w, self.tie_pays) for key, w in self.wagers.items() if key != seat)
        if others + max_win(wager, self.tie_pays) > bank:
            raise IllegalAction("table.bank_cannot_cover", available=Cents(max(bank - others, 0)))

    def _chips(self, seat: SeatKey) -> int:
        return self.stacks.get(seat) or 0

    def previous(self, seat: SeatKey | None) -> WagerResult | None:
        results = self.last.results if self.last else ()
        return next((r for r in results if r.seat == seat), None)

    # -- doing it ------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        if move.kind in ("wager", "again"):
            assert move.seat is not None
            if not self.wagers:  # a coup's first wager
                self.begin_hand()
            if move.kind == "again":
                previous = self.previous(move.seat)
                assert previous is not None
                wager = Wager(bet=previous.bet, amount=previous.amount)
            else:
                wager = Wager(bet=Bet(str(move.target)), amount=int(move.amount or 0))
            self.wagers[move.seat] = wager
            event = WagerPlaced(seat=move.seat, bet=wager.bet, amount=wager.amount)
            return Record(move=move, events=(event,))
        return self._deal(move)

    def _deal(self, move: Move) -> Record:
        if self.shoe.past_cut:
            raise IllegalAction("baccarat.shoe_finished")
        start = self.shoe.position
        try:
            coup = baccarat.deal_coup(self.shoe)
        except baccarat.ShoeEmpty:
            self.shoe.position = start
            raise IllegalAction("baccarat.shoe_empty") from None
        self.hand += 1
        npc = seat_account(str(self.npc))
        results, transfers, lost = [], [], []
        for seat, wager in self.wagers.items():
            net = baccarat.net_result(wager.bet, wager.amount, coup.winner, self.tie_pays)
            results.append(WagerResult(seat=seat, bet=wager.bet, amount=wager.amount, net=net))
            if net > 0:
                transfers.append(
                    Transfer(src=npc, dst=seat_account(seat), amount=net, reason="baccarat.win")
                )
            elif net < 0:
                transfers.append(
                    Transfer(src=seat_account(seat), dst=npc, amount=-net, reason="baccarat.loss")
                )
                settled = baccarat.Settlement(seat, wager.bet, wager.amount, net)
                won = baccarat.won_back(settled, self.tie_pays)
                label = f"{wager.bet}:{wager.amount}"
                lost.append(LostHand(seat=seat, label=label, pay=wager.amount + won.net))
        self.wagers = {}
        self.last = Coup(
            hand=self.hand,
            player=cards_code(coup.player),
            banker=cards_code(coup.banker),
            player_total=coup.player_total,
            banker_total=coup.banker_total,
            winner=coup.winner,
            natural=coup.natural,
            results=tuple(results),
        )
        return Record(
            move=move,
            events=(self.last,),
            transfers=tuple(transfers),
            lost=tuple(lost),
            hand_over=True,
        )

    def shown_hands(self) -> tuple[ShownHand, ...]:
        if self.last is None:
            return ()
        coup = self.last
        return (
            ShownHand("player", tuple(parse_cards(coup.player)), coup.player_total),
            ShownHand("banker", tuple(parse_cards(coup.banker)), coup.banker_total),
        )

    # -- the table's checks and timers ---------------------------------------------------

    def least_stack(self) -> int:
        return self.min_bet

    def committed(self, seat: SeatKey) -> int:
        wager = self.wagers.get(seat)
        return 0 if wager is None else wager.amount

    def exposure(self) -> int:
        return sum(max_win(wager, self.tie_pays) for wager in self.wagers.values())

    def scheduled(self) -> tuple[float, Move] | None:
        if self.auto_deal_s and self.wagers:
            return float(self.auto_deal_s), Move(kind="deal", auto="timer")
        return None

    def current_shoe(self) -> Shoe:
        return self.shoe

    @property
    def needs_new_shoe(self) -> bool:
        return self.shoe.past_cut

    def replace_shoe(self, shoe: Shoe) -> None:
        self.shoe = shoe

    def stand_up(self, seat: SeatKey) -> None:
        """A PC who leaves takes back his wager for the next coup."""
        self.wagers.pop(seat, None)
        super().stand_up(seat)
