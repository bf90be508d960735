"""The base of the engines of games played in turns from private hands (Michigan, Makao).

Pure like every engine (games/contract.py). A hand is dealt from a one-pack shoe into
private hands of card codes; three to eight players play, the NPC among them; a hand
lost to the NPC leaves a Hero Point offer (`offers`) the table answers with `won_back`;
the GM may `end` the game at any time. Each game's refusals are its own words
(`<key>.players`, `<key>.no_npc`, `<key>.needs_new_shoe`, `<key>.full`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from pydantic import Field

from bondbot.games.contract import Engine, Move, Option, Record, SeatKey, ShoeField, Transfer
from bondbot.rules.cards import Card
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe


def card_order(code: str) -> int:
    """A hand's sort key: by suit, then rank (`rules.cards`' order)."""
    return Card.parse(code).index


class TrickTakingEngine(Engine):
    """The state and rules Michigan and Makao share; each game adds its own."""

    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8

    shoe: ShoeField
    phase: str = "idle"  # each game's own phases; the last is "over"
    hands: dict[SeatKey, list[str]] = Field(default_factory=dict)  # each sorted
    offers: dict[SeatKey, int] = Field(default_factory=dict)  # open won-back offers

    # -- the seats a deal needs ----------------------------------------------------------

    def seated_to_deal(self) -> bool:
        """Whether a deal may go ahead as far as the seats go (the NPC among them)."""
        count = len(self.seats)
        return self.min_players <= count <= self.max_players and self.npc in self.seats

    def check_table(self) -> None:
        """Refuse a deal, with the game's reason, while the seats or the pack cannot serve."""
        if not self.min_players <= len(self.seats) <= self.max_players:
            raise IllegalAction(f"{self.key}.players", count=len(self.seats))
        if self.npc not in self.seats:
            raise IllegalAction(f"{self.key}.no_npc")
        if self.needs_new_shoe:
            raise IllegalAction(f"{self.key}.needs_new_shoe")

    def closing_options(self) -> list[Option]:
        """The moves open outside the turns: the GM's end, the table's spends."""
        found: list[Option] = []
        if self.phase != "over":
            found.append(Option(kind="end"))
        if self.offers:
            found.append(Option(kind="won_back", targets=tuple(self.offers)))
        return found

    # -- doing it ------------------------------------------------------------------------

    def play(self, move: Move) -> Record:
        """A verified move, played by the game's method named after its kind: `_deal`,
        `_end`, `_won_back` and its own (Michigan's `_lead` and `_follow`, Makao's `_bid`
        and `_play`)."""
        method: Callable[[Move], Record] | None = getattr(self, f"_{move.kind}", None)
        if move.kind not in self.moves or method is None:
            raise IllegalAction("games.illegal_move", kind=move.kind, seat=move.seat)
        return method(move)

    def _transfer(self, src: str, dst: str, cents: int, reason: str) -> Transfer:
        """A transfer between two accounts, mirrored in the seats' `stacks` and in the
        game's own account of it (`_booked`).

        Mirroring the engine's own transfers keeps a replay from the hand's start exact; the
        table resets `stacks` from its ledger before every move anyway.
        """
        for account, sign in ((src, -1), (dst, 1)):
            if account.startswith("seat:"):
                seat = account.removeprefix("seat:")
                stack = self.stacks.get(seat)
                if stack is not None:
                    self.stacks[seat] = stack + sign * cents
            self._booked(account, sign * cents)
        return Transfer(src=src, dst=dst, amount=cents, reason=reason)

    def _booked(self, account: str, cents: int) -> None:
        """The game's own record of `cents` moved into (negative: out of) `account`."""

    # -- the shoe ------------------------------------------------------------------------

    def current_shoe(self) -> Shoe:
        return self.shoe

    def replace_shoe(self, shoe: Shoe) -> None:
        if self.in_hand():
            raise IllegalAction("games.in_hand")
        self.shoe = shoe

    # -- what each seat may see ----------------------------------------------------------

    def private_cards(self, seat: SeatKey) -> Sequence[Card]:
        return [Card.parse(code) for code in self.hands.get(seat, ())]

    def hidden_cards(self) -> set[Card]:
        return {Card.parse(code) for hand in self.hands.values() for code in hand}

    # -- seats ---------------------------------------------------------------------------

    def sit(self, seat: SeatKey) -> None:
        """A player past the most is told at once that the game is full, not by a refused
        deal."""
        if seat not in self.seats and len(self.seats) >= self.max_players:
            raise IllegalAction(f"{self.key}.full", seat=seat, seats=self.max_players)
        super().sit(seat)
