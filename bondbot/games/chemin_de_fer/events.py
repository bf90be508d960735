"""What a chemin de fer table shows: the bank's life, the pontes' calls, the coup (those
both baccarat-bank games show alike are the core's, `games.baccarat_bank.events`)."""

from __future__ import annotations

from typing import Literal

from bondbot.games.baccarat_bank import events
from bondbot.games.baccarat_bank.coverage import Cover
from bondbot.games.baccarat_bank.events import StakeResult, Winner
from bondbot.games.baccarat_bank.events import Stood as Stood  # named here as ever
from bondbot.games.baccarat_bank.events import ThirdCard as ThirdCard
from bondbot.games.contract import Event, SeatKey

Side = Literal["ponte", "banker"]


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


class BancoCalled(events.BancoCalled):
    """`suivi`: the caller lost a banco on the last coup and has priority."""

    suivi: bool = False


class CoupCovered(Event):
    """The stakes in the order they are covered (the hand-holder first) and the bank."""

    kind: Literal["covered"] = "covered"
    bank: int
    stakes: tuple[Cover, ...]
    holder: SeatKey
    banco: SeatKey | None = None


class Abattage(Event):
    """A natural is shown at once, and both hands with it."""

    kind: Literal["abattage"] = "abattage"
    ponte: tuple[str, ...]
    banker: tuple[str, ...]


class CoupSettled(events.CoupSettled):
    """The coup's cards, who won, each covered stake's result and the bank after it; its
    banker and hand-holder, and the coup's moves (who decided what, a timer's defaults)."""

    holder: SeatKey | None = None
    ponte: tuple[str, ...]
    ponte_total: int
    natural: bool
    winner: Winner
    results: tuple[StakeResult, ...]
    commission: int = 0
