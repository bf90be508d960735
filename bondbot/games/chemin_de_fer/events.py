"""What a chemin de fer table shows: the bank's life, the pontes' calls, the coup."""

from __future__ import annotations

from typing import Literal

from bondbot.games.chemin_de_fer.coverage import Cover
from bondbot.games.contract import Event, Frozen, Move, SeatKey

Side = Literal["ponte", "banker"]
Winner = Literal["ponte", "banker", "tie"]


class BankOffered(Event):
    """The bank comes to `seat`; `required` is what he must put up (a withdrawn bank)."""

    kind: Literal["bank_offered"] = "bank_offered"
    seat: SeatKey
    required: int | None = None


class BankPut(Event):
    kind: Literal["bank_put"] = "bank_put"
    seat: SeatKey
    amount: int


class BankKept(Event):
    kind: Literal["bank_kept"] = "bank_kept"
    seat: SeatKey
    amount: int


class BankWithdrawn(Event):
    kind: Literal["bank_withdrawn"] = "bank_withdrawn"
    seat: SeatKey
    amount: int


class BankRefused(Event):
    """`forced`: the seat could not put up the bank (too few chips), so it passed on."""

    kind: Literal["bank_refused"] = "bank_refused"
    seat: SeatKey
    forced: bool = False


class Staked(Event):
    kind: Literal["staked"] = "staked"
    seat: SeatKey
    amount: int


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: SeatKey


class BancoCalled(Event):
    """`suivi`: the caller lost a banco on the last coup and has priority."""

    kind: Literal["banco"] = "banco"
    seat: SeatKey
    suivi: bool = False


class NoPlay(Event):
    """Every ponte passed: no coup, the bank stays as it is."""

    kind: Literal["no_play"] = "no_play"


class CoupCovered(Event):
    """The stakes in the order they are covered (the hand-holder first) and the bank."""

    kind: Literal["covered"] = "covered"
    bank: int
    stakes: tuple[Cover, ...]
    holder: SeatKey
    banco: SeatKey | None = None


class Dealt(Event):
    """Two cards each, face down."""

    kind: Literal["dealt"] = "dealt"


class Abattage(Event):
    """A natural is shown at once, and both hands with it."""

    kind: Literal["abattage"] = "abattage"
    ponte: tuple[str, ...]
    banker: tuple[str, ...]


class ThirdCard(Event):
    """A third card, dealt face up."""

    kind: Literal["third_card"] = "third_card"
    side: Side
    card: str


class Stood(Event):
    kind: Literal["stood"] = "stood"
    side: Side


class StakeResult(Frozen):
    """A covered stake after the coup; `net` is what the ponte won (+) or lost (−)."""

    seat: SeatKey
    covered: int
    net: int


class CoupSettled(Event):
    """The coup's cards, who won, each covered stake's result and the bank after it; its
    banker and hand-holder, and the coup's moves (who decided what, a timer's defaults)."""

    kind: Literal["settled"] = "settled"
    seat: SeatKey | None = None  # the banker
    holder: SeatKey | None = None
    moves: tuple[Move, ...] = ()
    ponte: tuple[str, ...]
    banker: tuple[str, ...]
    ponte_total: int
    banker_total: int
    natural: bool
    winner: Winner
    results: tuple[StakeResult, ...]
    commission: int = 0
    bank: int  # the bank after the coup (what the banker keeps or withdraws)
