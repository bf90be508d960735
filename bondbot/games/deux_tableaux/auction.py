"""The bank's life at deux tableaux: the NPC's bank by default, the GM's auction, its end.

- The NPC banks its `npc_bank` by itself when nobody banks (`default_bank`), if it has the
  chips; the GM may open an auction instead of its first default bank (the table plays it
  before any other move), or between coups while the NPC banks.
- At an auction (`open_auction`) seats `bid` for the bank or `pass`; the largest bid wins
  when nobody can outbid it any more, or when the GM closes it (`close_auction`). A
  table's maximum (`max_bank`) bounds the NPC's bank and every offer.
- The bank lasts until the banker withdraws (between coups, a PC banker only: the GM opens
  an auction to replace the NPC) or it falls below the minimum bank.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bondbot.games.baccarat_bank.engine import BankGame
from bondbot.games.baccarat_bank.events import Passed
from bondbot.games.contract import Event, Move, Option, Record, SeatKey
from bondbot.games.deux_tableaux.events import (
    AuctionClosed,
    AuctionOpened,
    BankEnded,
    BankStarted,
    Bid,
)


class Auction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    best: SeatKey | None = None
    amount: int = 0
    passed: list[SeatKey] = Field(default_factory=list)


class AuctionedBank(BankGame):
    """A bank game whose bank the NPC holds by default, or a seat wins at an auction."""

    auction: Auction | None = None

    def _clear_stakes(self) -> None:
        """The pontes' calls are over (the game's own stakes go with them)."""
        raise NotImplementedError

    def _bank_opens(self) -> None:
        """A new bank starts: the game's rights and turns start afresh."""

    def _bidders(self) -> list[SeatKey]:
        assert self.auction is not None
        low = self._lowest_bid()
        if self.settings.limited(low) < low:
            return []  # the best offer is the table's maximum: nobody can outbid it
        return [
            seat
            for seat in self.seats
            if seat not in self.auction.passed
            and seat != self.auction.best
            and self._affords(seat, low)
        ]

    def _lowest_bid(self) -> int:
        assert self.auction is not None
        return max(self.settings.min_bank, self.auction.amount + 1)

    def _default_due(self) -> Move | None:
        """The NPC's bank by default, when nobody banks and it has the chips."""
        npc = self.npc
        if npc is not None and npc in self.seats and self._affords(npc, self.settings.min_bank):
            return Move(kind="default_bank")
        return None

    def _auction_options(self) -> list[Option]:
        found = [Option(kind="close_auction")]
        low = self._lowest_bid()
        for seat in self._bidders():
            stack = self._stack(seat)
            high = self.settings.max_bank if stack is None else self.settings.limited(stack)
            found.append(Option(kind="bid", seat=seat, min=low, max=high))
            found.append(Option(kind="pass", seat=seat))
        return found

    def _start_bank(self, seat: SeatKey, amount: int) -> BankStarted:
        self.banker = seat
        self.bank = amount
        self._bank_opens()
        return BankStarted(seat=seat, amount=amount)

    def _end_bank(self, why: Literal["withdrawn", "spent", "auction"]) -> BankEnded:
        assert self.banker is not None
        ended = BankEnded(seat=self.banker, amount=self.bank, why=why)
        self.banker = None
        self.bank = 0
        self._clear_stakes()
        return ended

    def _play_default_bank(self, move: Move) -> Record:
        assert self.npc is not None
        amount = max(self.settings.min_bank, self._capped(self.npc, self.settings.npc_bank))
        amount = self.settings.limited(amount)
        return Record(move=move, events=(self._start_bank(self.npc, amount),))

    def _play_open_auction(self, move: Move) -> Record:
        events: list[Event] = []
        if self.banker is not None:
            events.append(self._end_bank("auction"))
        self._clear_stakes()
        self.auction = Auction()
        self.phase = "auction"
        events.append(AuctionOpened())
        return Record(move=move, events=tuple(events))

    def _play_bid(self, move: Move) -> Record:
        assert self.auction is not None and move.seat is not None and move.amount is not None
        self.auction.best = move.seat
        self.auction.amount = move.amount
        return Record(move=move, events=(Bid(seat=move.seat, amount=move.amount),))

    def _play_pass(self, move: Move) -> Record:
        if self.auction is None:
            return super()._play_pass(move)
        assert move.seat is not None
        self.auction.passed.append(move.seat)  # no bid
        return Record(move=move, events=(Passed(seat=move.seat),))

    def _play_close_auction(self, move: Move) -> Record:
        assert self.auction is not None
        auction, self.auction = self.auction, None
        self.phase = "stakes"
        events: list[Event] = [AuctionClosed(seat=auction.best, amount=auction.amount)]
        if auction.best is not None:
            events.append(self._start_bank(auction.best, auction.amount))
        return Record(move=move, events=tuple(events))
