"""Blackjack's terms (`blackjack.md`), shared by the engine (`rules.blackjack`) and the
basic strategy (`rules.blackjack_strategy`): what a card counts and a hand totals, a table's
rules, the actions, phases and outcomes, a settled hand and a hand as the table shows it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Literal

from bondbot.rules.cards import Card, cards_code, parse_cards

VALUES: dict[str, int] = {r: min(i + 2, 10) for i, r in enumerate("23456789TJQK")} | {"A": 1}


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """Best total and whether it is soft (an Ace counted as 11)."""
    total = 0
    ace = False
    for card in cards:
        value = VALUES[card.rank]
        total += value
        ace = ace or value == 1
    if ace and total <= 11:
        return total + 10, True
    return total, False


@dataclass(frozen=True)
class BlackjackRules:
    """Per-table options; the defaults are the American game of the reference figure."""

    packs: int = 6
    penetration: float = 0.75
    deal: Literal["american", "european"] = "american"
    european_lose_all: bool = True
    hit_soft_17: bool = False
    split_by: Literal["value", "rank"] = "value"
    max_hands: int = 3
    surrender: bool = True
    blackjack_pays: tuple[int, int] = (3, 2)

    def __post_init__(self) -> None:
        if not 1 <= self.packs <= 8:
            raise ValueError("packs must be 1 to 8")
        if not 0 < self.penetration <= 1:
            raise ValueError("penetration must be in (0, 1]")
        if self.deal not in ("american", "european"):
            raise ValueError(f"bad deal {self.deal!r}")
        if self.split_by not in ("value", "rank"):
            raise ValueError(f"bad split_by {self.split_by!r}")
        if not 2 <= self.max_hands <= 4:
            raise ValueError("max_hands must be 2 to 4")
        num, den = self.blackjack_pays
        if num <= 0 or den <= 0:
            raise ValueError("blackjack_pays must be positive")

    @property
    def european(self) -> bool:
        return self.deal == "european"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["blackjack_pays"] = list(self.blackjack_pays)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BlackjackRules:
        return cls(**{**data, "blackjack_pays": tuple(data["blackjack_pays"])})


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


class Phase(StrEnum):
    BETTING = "betting"
    INSURANCE = "insurance"
    PLAYING = "playing"
    SETTLED = "settled"


class Outcome(StrEnum):
    WIN = "win"
    BLACKJACK = "blackjack"
    PUSH = "push"
    LOSE = "lose"
    BUST = "bust"
    SURRENDER = "surrender"


LOST = (Outcome.LOSE, Outcome.BUST)


@dataclass(frozen=True)
class HandResult:
    """One settled hand; `net` is what the player gained (negative: lost) on it."""

    seat: str
    hand_index: int
    cards: tuple[Card, ...]
    stake: int
    outcome: Outcome
    net: int
    won_back: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand_index": self.hand_index,
            "cards": cards_code(self.cards),
            "stake": self.stake,
            "outcome": self.outcome.value,
            "net": self.net,
            "won_back": self.won_back,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandResult:
        return cls(
            data["seat"],
            data["hand_index"],
            tuple(parse_cards(data["cards"])),
            data["stake"],
            Outcome(data["outcome"]),
            data["net"],
            data["won_back"],
        )


@dataclass(frozen=True)
class HandView:
    """A read-only picture of a player's hand. American: a doubled hand's last card is
    dealt face down, so the table hides it until settlement."""

    cards: tuple[Card, ...]
    stake: int
    split: bool
    doubled: bool
    surrendered: bool
    done: bool

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return hand_total(self.cards)[1]

    @property
    def blackjack(self) -> bool:
        return not self.split and len(self.cards) == 2 and self.total == 21
