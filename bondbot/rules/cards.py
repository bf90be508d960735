"""Playing cards: the compact `As Td 7h` notation every game, test and log uses."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

RANKS = "23456789TJQKA"
SUITS = "shdc"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card of a standard pack; `rank` is one of RANKS, `suit` one of SUITS."""

    rank: str
    suit: str

    ALL: ClassVar[tuple[Card, ...]]

    def __post_init__(self) -> None:
        if self.rank not in RANKS or len(self.rank) != 1:
            raise ValueError(f"bad rank {self.rank!r}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise ValueError(f"bad suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse `As`, `Td`, `10h` (case-insensitive rank, lower-case suit accepted)."""
        known = _BY_CODE.get(text)  # the stored form: every table load reads many
        if known is not None:
            return known
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank, suit = text[:-1].upper(), text[-1].lower()
        if rank == "10":
            rank = "T"
        return cls(rank, suit)

    @property
    def code(self) -> str:
        """The compact form, `Td`."""
        return self.rank + self.suit

    @property
    def pretty(self) -> str:
        """The form shown to people, `10♦`."""
        return ("10" if self.rank == "T" else self.rank) + SUIT_SYMBOLS[self.suit]

    @property
    def index(self) -> int:
        """Position 0–51 in a new pack (by suit, then rank): a compact key."""
        return SUITS.index(self.suit) * 13 + RANKS.index(self.rank)

    @property
    def baccarat_value(self) -> int:
        """Ace 1, 2–9 face value, ten and faces 0 (baccarat, chemin de fer, Macao)."""
        if self.rank == "A":
            return 1
        if self.rank in "TJQK":
            return 0
        return int(self.rank)

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: a copied state shares its cards

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


Card.ALL = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
_BY_CODE: dict[str, Card] = {card.code: card for card in Card.ALL}


def parse_cards(text: str) -> list[Card]:
    """Parse a space- or comma-separated list of cards, `As Td 7h`."""
    return [Card.parse(part) for part in text.replace(",", " ").split()]


def cards_of(codes: Iterable[str]) -> tuple[Card, ...]:
    """The cards of codes as a game's state keeps them, one code a card (`["As", "Td"]`)."""
    return tuple(Card.parse(code) for code in codes)


def cards_code(cards: list[Card] | tuple[Card, ...]) -> str:
    """The compact form of several cards, `As Td 7h`; inverse of parse_cards."""
    return " ".join(card.code for card in cards)


def cards_pretty(cards: list[Card] | tuple[Card, ...]) -> str:
    """The shown form of several cards, `A♠ 10♦ 7♥`."""
    return " ".join(card.pretty for card in cards)
