"""What a deux tableaux table shows: the auction, the bank, each table's coup (those both
baccarat-bank games show alike are the core's, `games.baccarat_bank.events`)."""

from __future__ import annotations

from typing import Literal

from bondbot.games.baccarat_bank import events
from bondbot.games.baccarat_bank.coverage import Cover
from bondbot.games.baccarat_bank.events import StakeResult, Winner
from bondbot.games.contract import Event, Frozen, SeatKey

Table = Literal["right", "left"]
Side = Literal["right", "left", "banker"]


class AuctionOpened(Event):
    kind: Literal["auction_opened"] = "auction_opened"


class Bid(Event):
    kind: Literal["bid"] = "bid"
    seat: SeatKey
    amount: int


class AuctionClosed(Event):
    """`seat` None: nobody bid, the NPC banks by default."""

    kind: Literal["auction_closed"] = "auction_closed"
    seat: SeatKey | None = None
    amount: int = 0


class BankStarted(Event):
    kind: Literal["bank_started"] = "bank_started"
    seat: SeatKey
    amount: int


class BankEnded(Event):
    """`why`: the banker withdrew, the bank fell below the minimum, or an auction took it."""

    kind: Literal["bank_ended"] = "bank_ended"
    seat: SeatKey
    amount: int
    why: Literal["withdrawn", "spent", "auction"]


class Staked(events.Staked):
    table: Table


class BancoCalled(events.BancoCalled):
    """`again`: the bank won the last banco, and this one is its second."""

    again: bool = False


class TableCovered(Event):
    """One table's half of the bank and the stakes it covers, the hand-holder first."""

    kind: Literal["covered"] = "covered"
    table: Table
    half: int
    stakes: tuple[Cover, ...]
    holder: SeatKey
    banco: SeatKey | None = None


class Dealt(events.Dealt):
    """Two cards face down to each table in play, then to the banker."""

    tables: tuple[Table, ...]


class Abattage(Event):
    """A natural shown at once: a table's, or the banker's (who then shows to all)."""

    kind: Literal["abattage"] = "abattage"
    side: Side
    cards: tuple[str, ...]


class BankerAdvice(Event):
    """Seed 004's advice per table still in play; `conflict` when they pull opposite ways."""

    kind: Literal["banker_advice"] = "banker_advice"
    right: bool | None = None  # draw? (None: that table is not waiting on the banker)
    left: bool | None = None
    conflict: bool = False


class TableResult(Frozen):
    table: Table
    cards: tuple[str, ...]
    total: int
    natural: bool
    winner: Winner
    results: tuple[StakeResult, ...]


class CoupSettled(events.CoupSettled):
    """The banker's hand, each table's result against it, and the bank after the coup; the
    banker, and the coup's moves (who decided what, a timer's defaults)."""

    tables: tuple[TableResult, ...]


class HandPassed(Event):
    """The table lost: its hand goes to the next ponte on that table."""

    kind: Literal["hand_passed"] = "hand_passed"
    table: Table
    seat: SeatKey
