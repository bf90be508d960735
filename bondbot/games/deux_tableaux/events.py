"""What a deux tableaux table shows: the auction, the bank, each table's coup."""

from __future__ import annotations

from typing import Literal

from bondbot.games.chemin_de_fer.coverage import Cover
from bondbot.games.chemin_de_fer.events import StakeResult, Winner
from bondbot.games.contract import Event, Frozen, Move, SeatKey

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


class Staked(Event):
    kind: Literal["staked"] = "staked"
    seat: SeatKey
    table: Table
    amount: int


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: SeatKey


class BancoCalled(Event):
    """`again`: the bank won the last banco, and this one is its second."""

    kind: Literal["banco"] = "banco"
    seat: SeatKey
    again: bool = False


class NoPlay(Event):
    kind: Literal["no_play"] = "no_play"


class TableCovered(Event):
    """One table's half of the bank and the stakes it covers, the hand-holder first."""

    kind: Literal["covered"] = "covered"
    table: Table
    half: int
    stakes: tuple[Cover, ...]
    holder: SeatKey
    banco: SeatKey | None = None


class Dealt(Event):
    """Two cards face down to each table in play, then to the banker."""

    kind: Literal["dealt"] = "dealt"
    tables: tuple[Table, ...]


class Abattage(Event):
    """A natural shown at once: a table's, or the banker's (who then shows to all)."""

    kind: Literal["abattage"] = "abattage"
    side: Side
    cards: tuple[str, ...]


class ThirdCard(Event):
    kind: Literal["third_card"] = "third_card"
    side: Side
    card: str


class Stood(Event):
    kind: Literal["stood"] = "stood"
    side: Side


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


class CoupSettled(Event):
    """The banker's hand, each table's result against it, and the bank after the coup; the
    banker, and the coup's moves (who decided what, a timer's defaults)."""

    kind: Literal["settled"] = "settled"
    seat: SeatKey | None = None  # the banker
    moves: tuple[Move, ...] = ()
    banker: tuple[str, ...]
    banker_total: int
    tables: tuple[TableResult, ...]
    bank: int


class HandPassed(Event):
    """The table lost: its hand goes to the next ponte on that table."""

    kind: Literal["hand_passed"] = "hand_passed"
    table: Table
    seat: SeatKey
