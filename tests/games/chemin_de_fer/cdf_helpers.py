"""Building stacked chemin de fer coups, and a desk that books an engine's chips like a table."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Generic, TypeVar

from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.chemin_de_fer.events import CoupSettled
from bondbot.games.contract import Engine, Move, Record, Transfer
from bondbot.rules.shoe import Shoe

# A card of each baccarat value (the spec: ace 1, 2–9 face value, ten and faces 0).
OF_VALUE = {0: "K", 1: "A"} | {n: str(n) for n in range(2, 10)}


def card(value: int, suit: str = "s") -> str:
    return OF_VALUE[value] + suit


def two(total: int, suit: str) -> list[str]:
    """Two cards worth `total` (units digit)."""
    first = 9 if total != 9 else 4
    return [card(first, suit), card((total - first) % 10, suit)]


def coup(ponte: list[str], banker: list[str], *rest: str) -> list[str]:
    """The shoe's order for a coup: ponte, banker, ponte, banker, then the third cards."""
    return [ponte[0], banker[0], ponte[1], banker[1], *rest]


def settled(record: Record) -> CoupSettled:
    """The coup's result among a record's events."""
    (found,) = [event for event in record.events if isinstance(event, CoupSettled)]
    return found


def game(
    cards: Iterable[str],
    seats: Iterable[str] = ("npc", "a", "b"),
    banker: str = "npc",
    **settings: object,
) -> ChemindeFer:
    seated = list(seats)
    return ChemindeFer.new(
        Shoe.stacked(cards),
        seated,
        banker,
        npc="npc" if "npc" in seated else None,
        settings=Settings(**settings),  # type: ignore[arg-type]
    )


E = TypeVar("E", bound=Engine)


class Desk(Generic[E]):
    """Plays an engine the way a table does: books its transfers and keeps `stacks` current.

    The NPC's bankroll is unlimited (None); its result is kept in `npc_net`. Booking a
    transfer that overdraws a stack fails the test.
    """

    def __init__(self, engine: E, stacks: dict[str, int | None]) -> None:
        self.engine = engine
        self.stacks = dict(stacks)
        self.pots: dict[str, int] = {}
        self.npc_net = 0
        engine.stacks = dict(stacks)

    def apply(self, move: Move) -> Record:
        self.engine.stacks = dict(self.stacks)
        record = self.engine.apply(move)
        for transfer in record.transfers:
            self._book(transfer)
        self.engine.stacks = dict(self.stacks)
        return record

    def do(self, kind: str, seat: str | None = None, amount: int | None = None) -> Record:
        return self.apply(Move(kind=kind, seat=seat, amount=amount))

    def auto(self) -> list[Record]:
        """Apply the table's own steps until none is due."""
        records = []
        self.engine.stacks = dict(self.stacks)
        while (move := self.engine.automation()) is not None:
            records.append(self.apply(move))
        return records

    def npc(self, rng: random.Random | None = None) -> Record:
        self.engine.stacks = dict(self.stacks)
        move = self.engine.npc_move(rng or random.Random(0))
        assert move is not None, "the NPC had nothing to decide"
        return self.apply(move)

    def _book(self, transfer: Transfer) -> None:
        for account, sign in ((transfer.src, -1), (transfer.dst, 1)):
            kind, name = account.split(":", 1)
            if kind != "seat":
                self.pots[name] = self.pots.get(name, 0) + sign * transfer.amount
            elif self.stacks[name] is None:
                self.npc_net += sign * transfer.amount
            else:
                balance = self.stacks[name]
                assert balance is not None
                assert balance + sign * transfer.amount >= 0, f"{name} overdrawn by {transfer}"
                self.stacks[name] = balance + sign * transfer.amount
