"""Stacked deux tableaux coups, and a desk that books the engine's chips like a table."""

from __future__ import annotations

import random
from collections.abc import Iterable

from bondbot.games.contract import Move, Record, Transfer
from bondbot.games.deux_tableaux.engine import DeuxTableaux, Settings
from bondbot.games.deux_tableaux.events import BankStarted, CoupSettled, TableResult
from bondbot.rules.shoe import Shoe

# A card of each baccarat value (the spec: ace 1, 2–9 face value, ten and faces 0).
OF_VALUE = {0: "K", 1: "A"} | {n: str(n) for n in range(2, 10)}


def card(value: int, suit: str = "s") -> str:
    return OF_VALUE[value] + suit


def two(total: int, suit: str) -> list[str]:
    """Two cards worth `total` (units digit)."""
    first = 9 if total != 9 else 4
    return [card(first, suit), card((total - first) % 10, suit)]


def deal(
    right: list[str] | None, left: list[str] | None, banker: list[str], *rest: str
) -> list[str]:
    """The shoe's order: right, left, banker, twice (tables not in play skipped), then thirds."""
    order = []
    for i in range(2):
        order += [hand[i] for hand in (right, left) if hand is not None] + [banker[i]]
    return order + list(rest)


def game(
    cards: Iterable[str], seats: Iterable[str] = ("npc", "a", "b", "c"), **settings: object
) -> DeuxTableaux:
    seated = list(seats)
    return DeuxTableaux.new(
        Shoe.stacked(cards),
        seated,
        npc="npc" if "npc" in seated else None,
        settings=Settings(**settings),  # type: ignore[arg-type]
    )


def settled(record: Record) -> CoupSettled:
    (found,) = [event for event in record.events if isinstance(event, CoupSettled)]
    return found


def table(record: Record, name: str) -> TableResult:
    (found,) = [result for result in settled(record).tables if result.table == name]
    return found


class Desk:
    """Plays the engine the way a table does: books its transfers and keeps `stacks` current.

    The NPC's bankroll may be unlimited (None): its result is kept in `npc_net`. Booking a
    transfer that overdraws a stack fails the test.
    """

    def __init__(self, engine: DeuxTableaux, stacks: dict[str, int | None]) -> None:
        self.engine = engine
        self.stacks = dict(stacks)
        self.npc_net = 0
        engine.stacks = dict(stacks)

    def apply(self, move: Move) -> Record:
        self.engine.stacks = dict(self.stacks)
        record = self.engine.apply(move)
        for transfer in record.transfers:
            self._book(transfer)
        self.engine.stacks = dict(self.stacks)
        return record

    def do(
        self,
        kind: str,
        seat: str | None = None,
        amount: int | None = None,
        target: str | None = None,
    ) -> Record:
        return self.apply(Move(kind=kind, seat=seat, amount=amount, target=target))

    def auto(self) -> list[Record]:
        """Apply the table's own steps until none is due."""
        records = []
        while (move := self.engine.automation()) is not None:
            records.append(self.apply(move))
        return records

    def npc(self, rng: random.Random | None = None) -> Record:
        move = self.engine.npc_move(rng or random.Random(0))
        assert move is not None, "the NPC had nothing to decide"
        return self.apply(move)

    def _book(self, transfer: Transfer) -> None:
        for account, sign in ((transfer.src, -1), (transfer.dst, 1)):
            kind, name = account.split(":", 1)
            assert kind == "seat", f"chips left the seats: {transfer}"
            balance = self.stacks[name]
            if balance is None:
                self.npc_net += sign * transfer.amount
                continue
            assert balance + sign * transfer.amount >= 0, f"{name} overdrawn by {transfer}"
            self.stacks[name] = balance + sign * transfer.amount


CHIPS = 100_000
SEATS = ("npc", "a", "b", "c")  # the NPC banks: a, b, c to its right; c, b, a to its left


def npc_banks(cards: list[str], bank: int = 1_000, seats: tuple[str, ...] = SEATS) -> Desk:
    stacks = {seat: (None if seat == "npc" else CHIPS) for seat in seats}
    desk = Desk(game(cards, seats, npc_bank=bank), stacks)
    (started,) = desk.auto()
    assert started.events == (BankStarted(seat="npc", amount=bank),)
    return desk


def pc_bank(cards: list[str]) -> Desk:
    """b banks 6,000 (won at auction); the NPC stakes 1,000 right, a 1,000 left."""
    stacks: dict[str, int | None] = {"npc": None, "a": CHIPS, "b": CHIPS, "c": CHIPS}
    desk = Desk(game(cards, SEATS, npc_bank=1_000), stacks)
    desk.auto()
    desk.do("open_auction")
    desk.do("bid", "b", 6_000)
    for seat in ("npc", "a", "c"):
        desk.do("pass", seat)
    desk.auto()
    desk.do("stake", "npc", 1_000, "right")
    desk.do("stake", "a", 1_000, "left")
    desk.do("pass", "c")
    return desk
