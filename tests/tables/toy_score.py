"""A toy score game for the framework's tests: the NPC sits in the game and decides.

Everyone stakes into a pot at the first deal. Each deal, every seat in turn calls 0 or 1;
whoever calls what the NPC calls scores 10, and a PC who missed it lost the deal to the
NPC (a Hero Point scores it). After `DEALS` deals the table ends the game once the last
deal's offers have closed (`after_offers`): the best score takes the pot. Timeouts call 0,
the NPC's automatic play calls 1. The GM's `end` before that gives the stakes back.
"""

from __future__ import annotations

import random
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import TableActions
from bondbot.games.contract import (
    GAMBLING_MAX,
    Engine,
    LostHand,
    Move,
    Option,
    Record,
    SeatKey,
    ShoeField,
    Transfer,
    pot_account,
    seat_account,
)
from bondbot.games.registry import GameSpec
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

DEALS = 2
STAKE = 1_000
POT = pot_account("toy")


class ToyScore(Engine):
    key: ClassVar[str] = "toy_score"
    moves: ClassVar[frozenset[str]] = frozenset({"deal", "call", "end", "won_back"})

    shoe: ShoeField
    phase: Literal["idle", "calling", "done", "over"] = "idle"
    calls: dict[SeatKey, int] = Field(default_factory=dict)
    scores: dict[SeatKey, int] = Field(default_factory=dict)
    offers: list[SeatKey] = Field(default_factory=list)
    pot: int = 0

    def caller(self) -> SeatKey | None:
        return self.seats[len(self.calls)] if self.phase == "calling" else None

    def options(self) -> list[Option]:
        found = [Option(kind="end")] if self.phase != "over" else []
        if self.phase == "idle":
            found.append(Option(kind="deal"))
        if self.phase == "calling":
            found.append(Option(kind="call", seat=self.caller(), min=0, max=1))
        if self.offers:
            found.append(Option(kind="won_back", targets=tuple(self.offers)))
        return found

    def play(self, move: Move) -> Record:
        if move.kind == "deal":
            self.hand += 1
            self.begin_hand()
            self.phase, self.calls, self.offers = "calling", {}, []
            if self.hand > 1:
                return Record(move=move)
            self.pot = STAKE * len(self.seats)
            stakes = tuple(
                Transfer(src=seat_account(seat), dst=POT, amount=STAKE, reason="toy.stake")
                for seat in self.seats
            )
            return Record(move=move, transfers=stakes)
        if move.kind == "call":
            assert move.seat is not None and move.amount is not None
            self.calls[move.seat] = move.amount
            if len(self.calls) < len(self.seats):
                return Record(move=move)
            target = self.calls[str(self.npc)]
            lost = []
            for seat, call in self.calls.items():
                if call == target:
                    self.scores[seat] = self.scores.get(seat, 0) + 10
                elif seat != self.npc:
                    self.offers.append(seat)
                    lost.append(LostHand(seat=seat, label="missed", score=10))
            self.phase = "done" if self.hand == DEALS else "idle"
            return Record(move=move, lost=tuple(lost), hand_over=True)
        if move.kind == "won_back":
            assert move.target is not None
            self.offers.remove(move.target)
            self.scores[move.target] = self.scores.get(move.target, 0) + 10
            return Record(move=move)
        complete = self.phase == "done"
        self.phase, self.offers = "over", []
        best = max(self.seats, key=lambda seat: self.scores.get(seat, 0))
        paid = {best: self.pot} if complete else dict.fromkeys(self.seats, STAKE)
        pot, self.pot = self.pot, 0
        if not pot:
            return Record(move=move)
        return Record(
            move=move,
            transfers=tuple(
                Transfer(src=POT, dst=seat_account(seat), amount=cents, reason="toy.pot")
                for seat, cents in paid.items()
            ),
        )

    def in_hand(self) -> bool:
        return self.phase == "calling"

    def sit(self, seat: SeatKey) -> None:
        if self.in_hand():
            raise IllegalAction("games.in_hand", seat=seat)
        super().sit(seat)

    def turn(self) -> tuple[SeatKey, ...]:
        caller = self.caller()
        return () if caller is None else (caller,)

    def timeout_move(self, seat: SeatKey) -> Move | None:
        return Move(kind="call", seat=seat, amount=0)

    def npc_move(self, rng: random.Random, level: int = GAMBLING_MAX) -> Move | None:
        return Move(kind="call", seat=self.npc, amount=1)

    def after_offers(self) -> Move | None:
        return Move(kind="end") if self.phase == "done" else None


class ToyOptions(BaseModel):
    pass


SPEC = GameSpec(
    key=ToyScore.key,
    engine=ToyScore,
    options=ToyOptions,
    packs_allowed=(1,),
    default_packs=1,
    new_engine=lambda table, shoe: ToyScore(shoe=shoe, npc=table.npc, seats=[table.npc]),
    live_shoe=lambda table, seed: Shoe.shuffled(1, seed),
    ui=__name__,
)


class ToyUI:
    """No buttons or lines of its own: the table message shows only what every table has."""

    actions = TableActions()
    open_command = None

    def seat_extra(self, snapshot: object, character_id: int, lang: str, money: str) -> None:
        return None

    def public_fields(self, snapshot: object, lang: str, money: str) -> list[tuple[str, str]]:
        return []

    def buttons(self, snapshot: object, lang: str, money: str) -> list[ButtonSpec]:
        return []


UI = ToyUI()
