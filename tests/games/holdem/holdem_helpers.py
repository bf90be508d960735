"""Building hold'em tables and stacked packs for the tests, and booking chips as a table would."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bondbot.games.contract import Move, Option, Record
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.rules.shoe import Shoe


def table(
    stacks: dict[str, int | None],
    *,
    npc: str | None = None,
    blinds: Sequence[tuple[int, int]] = ((10, 20),),
    raise_every: int | None = None,
    chip: int = 1,
) -> Holdem:
    """A table seated in `stacks`' order (clockwise); the first seat gets the first button.
    Its chip is worth 1 (the amounts are chips) unless `chip` says what one is worth."""
    levels = tuple(BlindLevel(small=small, big=big) for small, big in blinds)
    return Holdem(
        shoe=Shoe.stacked([]),
        seats=list(stacks),
        npc=npc,
        stacks=dict(stacks),
        rules=HoldemOptions(levels=levels, raise_every=raise_every),
        chip=chip,
    )


def pack(holes: Sequence[str], board: str = "") -> Shoe:
    """A pack dealing `holes` (two cards each, in order of play: first left of the button,
    the button last) one card at a time twice around, then `board`."""
    pairs = [hole.split() for hole in holes]
    return Shoe.stacked([pair[0] for pair in pairs] + [pair[1] for pair in pairs] + board.split())


def deal(game: Holdem, holes: Sequence[str], board: str = "") -> list[Record]:
    """Deal a hand from a stacked pack; the records of the deal and any automatic steps."""
    game.replace_shoe(pack(holes, board))
    return [game.apply(Move(kind="deal")), *auto(game)]


def auto(game: Holdem) -> list[Record]:
    """Take the table's automatic steps until it waits for someone; book a hand's end."""
    records = []
    while (step := game.automation()) is not None:
        records.append(game.apply(step))
    for record in records:
        book(game, record)
    return records


def act(game: Holdem, seat: str, kind: str, amount: int | None = None) -> list[Record]:
    """One player's move (a call takes its amount from the options), then automatic steps."""
    if kind == "call" and amount is None:
        amount = game.to_call(seat)
    record = game.apply(Move(kind=kind, seat=seat, amount=amount))
    book(game, record)
    return [record, *auto(game)]


def book(game: Holdem, record: Record) -> None:
    """Move the record's chips between the seats' stacks, as the table's ledger does."""
    for transfer in record.transfers:
        for account, sign in ((transfer.src, -1), (transfer.dst, 1)):
            if account.startswith("seat:"):
                seat = account.removeprefix("seat:")
                if game.stacks[seat] is not None:
                    game.stacks[seat] += sign * transfer.amount


def kinds(game: Holdem, seat: str) -> set[str]:
    return {option.kind for option in game.options() if option.seat == seat} - {
        "sit_out",
        "sit_in",
    }


def option(game: Holdem, seat: str, kind: str) -> Option:
    return next(o for o in game.options() if o.seat == seat and o.kind == kind)


def events(records: Sequence[Record], kind: str) -> list[Any]:
    return [event for record in records for event in record.events if event.kind == kind]
