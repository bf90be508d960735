"""Macao coups for the table tests: the engine a live table would make, and seeds whose
deal gives the scene a test needs, found by playing it first on the pure engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from bondbot.games.contract import Move
from bondbot.games.macao import GAME
from bondbot.games.macao.engine import Macao, MacaoRules, Phase
from bondbot.games.registry import NewTable

MIN_BET, MAX_BET = 1_000, 50_000  # table_helpers.open_table's limits
# What a seat does when the game waits for it (None: nothing, the timer will).
Decide = Callable[[Macao, str], Move | None]


def live_engine(seed: bytes, npc: str, players: list[str], **options: object) -> Macao:
    """The engine a table opened with these options makes, with these PCs seated."""
    rules = MacaoRules.model_validate(options)
    table = NewTable(npc=npc, packs=1, min_bet=MIN_BET, max_bet=MAX_BET, options=rules)
    engine = GAME.new_engine(table, GAME.live_shoe(table, seed))
    assert isinstance(engine, Macao)
    for seat in players:
        engine.sit(seat)
    engine.stacks = {seat: 10**9 for seat in engine.seats} | {npc: None}
    return engine


def advance(engine: Macao, move: Move) -> None:
    """Apply a move and what the table does by itself after it (the NPC on automatic)."""
    engine.apply(move)
    while True:
        step = engine.automation()
        if step is None and engine.npc in engine.turn():
            step = engine.npc_move(random.Random(0))
        if step is None:
            return
        engine.apply(step)


def play_coup(engine: Macao, decide: Decide) -> None:
    """Deal a coup and play it to its end, every decision by `decide` (the timer's
    recommended move where it says None)."""
    advance(engine, Move(kind="deal"))
    while engine.in_hand():
        seat = engine.turn()[0]
        advance(engine, decide(engine, seat) or engine.timeout_move(seat))  # type: ignore[arg-type]


def seeds(predicate: Callable[[bytes], bool], limit: int = 20_000) -> Iterator[bytes]:
    for n in range(limit):
        seed = n.to_bytes(32, "big")
        if predicate(seed):
            yield seed


def own_hand(stake: int = MIN_BET) -> Decide:
    """Every player wagers on his own hand and draws as advised."""

    def decide(engine: Macao, seat: str) -> Move | None:
        if engine.phase is Phase.WAGERS:
            return Move(kind="wager", seat=seat, amount=stake, target="own")
        return None

    return decide
