"""Punto banco (rules/baccarat.md): fixed drawing rules, each PC wagering alone against the house.

The engine is pure: it deals from the shoe it is given, settles wagers in integer cents and
never checks table limits or chips (the table service does). Replacing a finished shoe is the
service's job too, with a seed it generated (`new_shoe`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from bondbot.rules.cards import Card, cards_code, cards_of, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe, ShoeEmpty

PACK_CHOICES = (6, 8)
TIE_PAYS_CHOICES = (8, 9)
CARDS_PER_COUP_MAX = 6
# The cut card sits this many cards from the end of a live shoe: never fewer than a coup needs.
CUT_CARDS_FROM_END = 16

_BANKER_COMMISSION_PERCENT = 5

# banker_draws as a table: _DRAWS[banker_total][p3] for p3 in 0–9, index 10 = player stood.
_DRAW_VALUES: dict[int, frozenset[int]] = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}
_STOOD = 10
_DRAWS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        (total <= 5) if p3 == _STOOD else (total <= 2 or p3 in _DRAW_VALUES.get(total, ()))
        for p3 in range(11)
    )
    for total in range(10)
)
# Card values by rank: the hot path looks ranks up here rather than through the property.
_RANK_VALUE: dict[str, int] = {card.rank: card.baccarat_value for card in Card.ALL}


class Bet(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def hand_value(cards: Iterable[Card]) -> int:
    """A hand's value: the units digit of the sum of its cards' values."""
    return sum(_RANK_VALUE[card.rank] for card in cards) % 10


def codes_value(codes: Iterable[str]) -> int:
    """The value of a hand kept as card codes in a table's state (`["Kh", "7s"]`: 7)."""
    return hand_value(cards_of(codes))


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """The tableau: does the Banker's two-card total draw? `player_third` None = Player stood.

    Only meaningful when neither hand is a natural (totals 8–9 never reach it).
    """
    if not 0 <= banker_total <= 7:
        raise ValueError(f"banker total {banker_total} never consults the tableau")
    if player_third is not None and not 0 <= player_third <= 9:
        raise ValueError(f"not a card value: {player_third}")
    return _DRAWS[banker_total][_STOOD if player_third is None else player_third]


@dataclass(frozen=True, slots=True)
class Coup:
    """One coup's cards and outcome; everything but the cards is derived from them."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    player_total: int
    banker_total: int
    winner: Bet
    natural: bool

    @classmethod
    def from_cards(cls, player: Iterable[Card], banker: Iterable[Card]) -> Coup:
        player, banker = tuple(player), tuple(banker)
        return cls._of(player, banker, hand_value(player), hand_value(banker))

    @classmethod
    def _of(
        cls, player: tuple[Card, ...], banker: tuple[Card, ...], p_total: int, b_total: int
    ) -> Coup:
        if p_total > b_total:
            winner = Bet.PLAYER
        elif b_total > p_total:
            winner = Bet.BANKER
        else:
            winner = Bet.TIE
        natural = len(player) == len(banker) == 2 and max(p_total, b_total) >= 8
        return cls(player, banker, p_total, b_total, winner, natural)

    def to_dict(self) -> dict[str, Any]:
        return {"player": cards_code(self.player), "banker": cards_code(self.banker)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Coup:
        return cls.from_cards(parse_cards(data["player"]), parse_cards(data["banker"]))


def deal_coup(shoe: Shoe) -> Coup:
    """Deal one coup: Player, Banker, Player, Banker, then the third cards the rules require.

    Raises ShoeEmpty if the shoe runs out part-way (the shoe is then partly consumed).
    """
    deal = shoe.deal
    p1, b1, p2, b2 = deal(), deal(), deal(), deal()
    p_total = (_RANK_VALUE[p1.rank] + _RANK_VALUE[p2.rank]) % 10
    b_total = (_RANK_VALUE[b1.rank] + _RANK_VALUE[b2.rank]) % 10
    player: tuple[Card, ...] = (p1, p2)
    banker: tuple[Card, ...] = (b1, b2)
    if p_total < 8 and b_total < 8:
        p3 = _STOOD
        if p_total <= 5:
            card = deal()
            player += (card,)
            p3 = _RANK_VALUE[card.rank]
            p_total = (p_total + p3) % 10
        if _DRAWS[b_total][p3]:
            card = deal()
            banker += (card,)
            b_total = (b_total + _RANK_VALUE[card.rank]) % 10
    return Coup._of(player, banker, p_total, b_total)


def win_amount(bet: Bet, amount: int, tie_pays: int = 8) -> int:
    """Profit of a winning wager in cents: Player 1:1, Banker 0.95:1 rounded down, Tie n:1."""
    if bet == Bet.PLAYER:  # == rather than `is`: a plain "player" string must work too
        return amount
    if bet == Bet.BANKER:
        return amount * (100 - _BANKER_COMMISSION_PERCENT) // 100
    return amount * tie_pays


def net_result(bet: Bet, amount: int, winner: Bet, tie_pays: int = 8) -> int:
    """What the bettor gains (+) or loses (−); Player and Banker wagers push on a tie."""
    if bet == winner:
        return win_amount(bet, amount, tie_pays)
    if winner == Bet.TIE:
        return 0
    return -amount


@dataclass(frozen=True, slots=True)
class Wager:
    bet: Bet
    amount: int


@dataclass(frozen=True, slots=True)
class Settlement:
    """One seat's wager after the coup; `net` is what the house pays (+) or takes (−)."""

    seat: str
    bet: Bet
    amount: int
    net: int

    @property
    def lost(self) -> bool:
        return self.net < 0

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "bet": str(self.bet), "amount": self.amount, "net": self.net}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settlement:
        return cls(data["seat"], Bet(data["bet"]), data["amount"], data["net"])


@dataclass(frozen=True, slots=True)
class CoupResult:
    """A dealt coup and every wager it settled, in the order the seats were placed."""

    coup: Coup
    settlements: tuple[Settlement, ...]

    @property
    def house_net(self) -> int:
        """What the house (the NPC) gained on the coup: the opposite of the bettors' sum."""
        return -sum(settlement.net for settlement in self.settlements)

    def to_dict(self) -> dict[str, Any]:
        return {
            "coup": self.coup.to_dict(),
            "settlements": [settlement.to_dict() for settlement in self.settlements],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CoupResult:
        return cls(
            Coup.from_dict(data["coup"]),
            tuple(Settlement.from_dict(item) for item in data["settlements"]),
        )


def won_back(settlement: Settlement, tie_pays: int = 8) -> Settlement:
    """A lost wager settled as won, for a Hero Point spend: the house pays it at its odds."""
    if not settlement.lost:
        raise IllegalAction("baccarat.not_lost", seat=settlement.seat)
    net = win_amount(settlement.bet, settlement.amount, tie_pays)
    return Settlement(settlement.seat, settlement.bet, settlement.amount, net)


def new_shoe(packs: int, seed: bytes, cut_from_end: int = CUT_CARDS_FROM_END) -> Shoe:
    """A live shoe from `seed` whose cut card leaves `cut_from_end` cards undealt."""
    if cut_from_end < CARDS_PER_COUP_MAX:
        raise ValueError("the cut card must leave room for a whole coup")
    shoe = Shoe.shuffled(packs, seed)
    shoe.cut = shoe.remaining - cut_from_end
    return shoe


class PuntoBanco:
    """A punto banco table's state: configuration, shoe, pending wagers and the last coup."""

    def __init__(self, shoe: Shoe, *, packs: int = 8, tie_pays: int = 8) -> None:
        if packs not in PACK_CHOICES:
            raise IllegalAction("baccarat.bad_packs", packs=packs)
        if tie_pays not in TIE_PAYS_CHOICES:
            raise IllegalAction("baccarat.bad_tie_pays", tie_pays=tie_pays)
        self.packs = packs
        self.tie_pays = tie_pays
        self.shoe = shoe
        self.wagers: dict[str, Wager] = {}
        self.last: CoupResult | None = None

    @property
    def shoe_finished(self) -> bool:
        """The cut card is out: the service must `replace_shoe` before the next coup."""
        return self.shoe.past_cut

    def replace_shoe(self, shoe: Shoe) -> None:
        self.shoe = shoe

    def place_wager(self, seat: str, bet: Bet | str, amount: int) -> Wager:
        """Set a seat's wager for the next coup, replacing any it had."""
        if not isinstance(seat, str) or not seat:
            raise IllegalAction("baccarat.bad_seat", seat=seat)
        try:
            bet = Bet(bet)
        except ValueError:
            raise IllegalAction("baccarat.unknown_bet", bet=str(bet)) from None
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise IllegalAction("baccarat.bad_amount", amount=amount)
        wager = Wager(bet, amount)
        self.wagers[seat] = wager
        return wager

    def clear_wager(self, seat: str) -> None:
        if self.wagers.pop(seat, None) is None:
            raise IllegalAction("baccarat.no_wager", seat=seat)

    def deal(self) -> CoupResult:
        """Play a coup and settle every wager; on IllegalAction nothing has changed."""
        if not self.wagers:
            raise IllegalAction("baccarat.no_wagers")
        if self.shoe.past_cut:
            raise IllegalAction("baccarat.shoe_finished")
        start = self.shoe.position
        try:
            coup = deal_coup(self.shoe)
        except ShoeEmpty:
            self.shoe.position = start
            raise IllegalAction("baccarat.shoe_empty") from None
        settlements = tuple(
            Settlement(
                seat,
                wager.bet,
                wager.amount,
                net_result(wager.bet, wager.amount, coup.winner, self.tie_pays),
            )
            for seat, wager in self.wagers.items()
        )
        self.wagers = {}
        self.last = CoupResult(coup, settlements)
        return self.last

    def to_dict(self) -> dict[str, Any]:
        return {
            "packs": self.packs,
            "tie_pays": self.tie_pays,
            "shoe": self.shoe.to_dict(),
            "wagers": {
                seat: {"bet": str(wager.bet), "amount": wager.amount}
                for seat, wager in self.wagers.items()
            },
            "last": None if self.last is None else self.last.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PuntoBanco:
        game = cls(Shoe.from_dict(data["shoe"]), packs=data["packs"], tie_pays=data["tie_pays"])
        game.wagers = {
            seat: Wager(Bet(item["bet"]), item["amount"]) for seat, item in data["wagers"].items()
        }
        game.last = None if data["last"] is None else CoupResult.from_dict(data["last"])
        return game
