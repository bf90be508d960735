"""What both baccarat-bank games show alike: the pontes' answers, the cards dealt and drawn,
each covered stake's result, the common part of a settled coup.

A game extends an event where its own has more to say (a stake's tableau, a banco's
priority, the tableaux dealt); the events it alone has (the bank's life, an auction)
stay in its own `events.py`.
"""

from __future__ import annotations

from typing import Literal

from bondbot.games.contract import Event, Frozen, Move, SeatKey

Winner = Literal["ponte", "banker", "tie"]


class Staked(Event):
    kind: Literal["staked"] = "staked"
    seat: SeatKey
    amount: int


class Passed(Event):
    kind: Literal["passed"] = "passed"
    seat: SeatKey


class BancoCalled(Event):
    """A ponte plays the whole bank alone (the game says whether he had priority)."""

    kind: Literal["banco"] = "banco"
    seat: SeatKey


class NoPlay(Event):
    """Every ponte passed: no coup, the bank stays as it is."""

    kind: Literal["no_play"] = "no_play"


class Dealt(Event):
    """Two cards each, face down."""

    kind: Literal["dealt"] = "dealt"


class ThirdCard(Event):
    """A third card, dealt face up; `side` is a hand the game names ("ponte", "banker",
    a tableau)."""

    kind: Literal["third_card"] = "third_card"
    side: str
    card: str


class Stood(Event):
    kind: Literal["stood"] = "stood"
    side: str


class StakeResult(Frozen):
    """A covered stake after the coup; `net` is what the ponte won (+) or lost (−)."""

    seat: SeatKey
    covered: int
    net: int


class CoupSettled(Event):
    """The coup over: its banker, its moves (who decided what, a timer's defaults), the
    banker's hand and the bank after it; each game adds the hands played against it."""

    kind: Literal["settled"] = "settled"
    seat: SeatKey | None = None  # the banker
    moves: tuple[Move, ...] = ()
    banker: tuple[str, ...]
    banker_total: int
    bank: int  # the bank after the coup (what the banker keeps, or withdraws)
