"""Stacked coups for the Macao tests: the cast, shoes in deal order, playing a coup through."""

from __future__ import annotations

import random

from bondbot.games.contract import Event, Move, Record
from bondbot.games.macao.engine import Macao, MacaoRules
from bondbot.rules.cards import parse_cards
from bondbot.rules.shoe import Shoe

NPC, BOND, MATHIS = "npc", "bond", "mathis"
CHIPS = 1_000_000
# Cards nobody should reach; they keep a stacked shoe long enough to deal a coup.
FILLER = ["Kc"] * 40
# A card of each value, to build hands of a given total.
OF_VALUE = {0: "K", 1: "A"} | {n: str(n) for n in range(2, 10)}


def card(value: int, suit: str = "d") -> str:
    return OF_VALUE[value] + suit


def coup_shoe(players: list[str], banker: str, thirds: str = "") -> Shoe:
    """A shoe dealing these two-card hands (players in seat order from the banker's left,
    then the banker, one card at a time), then `thirds` in the order they are drawn."""
    hands = [parse_cards(hand) for hand in players]
    bank = parse_cards(banker)
    order = [hand[0] for hand in hands] + [bank[0]] + [hand[1] for hand in hands] + [bank[1]]
    return Shoe.stacked([*order, *parse_cards(thirds), *FILLER])


def table(
    shoe: Shoe,
    players: tuple[str, ...] = (BOND,),
    rules: MacaoRules | None = None,
    stacks: dict[str, int | None] | None = None,
) -> Macao:
    """The NPC first in seat order, then the players; every PC with plenty of chips."""
    chips: dict[str, int | None] = {NPC: None} | dict.fromkeys(players, CHIPS)
    return Macao(
        shoe=shoe,
        seats=[NPC, *players],
        npc=NPC,
        rules=rules or MacaoRules(),
        stacks=chips | (stacks or {}),
    )


def settle_by_itself(game: Macao) -> list[Record]:
    """Apply the table's automations until it waits for someone (or the coup is over)."""
    records = []
    while (step := game.automation()) is not None:
        records.append(game.apply(step))
    return records


def act(game: Macao, *moves: Move) -> list[Record]:
    """Apply each move, with the automations that follow it."""
    records = []
    for move in moves:
        records.append(game.apply(move))
        records.extend(settle_by_itself(game))
    return records


def npc_plays(game: Macao) -> list[Record]:
    """Let the NPC make its automatic moves while the game waits for it."""
    records = []
    while game.npc in game.turn():
        move = game.npc_move(random.Random(0))
        assert move is not None
        records.extend(act(game, move))
    return records


def deal(game: Macao) -> list[Record]:
    return act(game, Move(kind="deal"))


def wager(seat: str, target: str, stake: int = 100) -> Move:
    return Move(kind="wager", seat=seat, amount=stake, target=target)


def draw(seat: str) -> Move:
    return Move(kind="draw", seat=seat)


def stand(seat: str) -> Move:
    return Move(kind="stand", seat=seat)


def events(records: list[Record], kind: str) -> list[Event]:
    return [event for record in records for event in record.events if event.kind == kind]


def nets(records: list[Record]) -> dict[str, int]:
    """Each seat's gain (+) or loss (−) in these records' transfers."""
    out: dict[str, int] = {}
    for record in records:
        for transfer in record.transfers:
            src, dst = transfer.src.removeprefix("seat:"), transfer.dst.removeprefix("seat:")
            out[src] = out.get(src, 0) - transfer.amount
            out[dst] = out.get(dst, 0) + transfer.amount
    return out
