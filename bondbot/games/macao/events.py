"""What a Macao coup shows the table: the public events of each move.

Nothing here carries a card before it is public: a hand's first two cards appear only in
`Revealed` (a natural shown, a bust proven, the showdown), third cards in `Drew` (they are
dealt face up, since the banker's restricted table depends on them).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import PlainSerializer, PlainValidator

from bondbot.games.contract import Event, SeatKey
from bondbot.games.macao.settlement import Target, Winner
from bondbot.rules.cards import Card


def _card_in(value: Any) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


# A card in a state or an event: stored as its code, `As`.
CardField = Annotated[Card, PlainValidator(_card_in), PlainSerializer(lambda card: card.code)]


class Dealt(Event):
    """Two cards each, face down: to the players in this order, then the banker."""

    kind: Literal["dealt"] = "dealt"
    coup: int
    banker: SeatKey
    players: tuple[SeatKey, ...]


class Wagered(Event):
    kind: Literal["wagered"] = "wagered"
    seat: SeatKey
    target: Target
    stake: int


class Passed(Event):
    """The player sits this coup out; his hand is never shown."""

    kind: Literal["passed"] = "passed"
    seat: SeatKey


class Revealed(Event):
    """A hand shown: a natural, a bust (under `bust`), or at the showdown."""

    kind: Literal["revealed"] = "revealed"
    seat: SeatKey
    cards: tuple[CardField, ...]
    total: int
    why: Literal["natural", "bust", "showdown"]


class Drew(Event):
    """A third card, face up. For a restricted banker: whose third card let him draw."""

    kind: Literal["drew"] = "drew"
    seat: SeatKey
    card: CardField
    allowed_by: SeatKey | None = None
    allowing: CardField | None = None


class Stood(Event):
    kind: Literal["stood"] = "stood"
    seat: SeatKey


class Settled(Event):
    """One wager paid: `net` is what the player won (+) or lost (−), against the banker."""

    kind: Literal["settled"] = "settled"
    seat: SeatKey
    target: Target
    stake: int
    winner: Winner
    multiple: int
    net: int


class CoupOver(Event):
    kind: Literal["coup_over"] = "coup_over"
    coup: int


class EveningOver(Event):
    """The GM's number of coups is played, or he ended the evening."""

    kind: Literal["evening_over"] = "evening_over"
    coups: int
