"""Leave in the seat panel: `Engine.can_stand_up` asks the game's own `stand_up` on a copy
that shares the shoe, and leaves the engine, its wagers and its shoe as they were."""

from __future__ import annotations

from bondbot.games.contract import Move
from bondbot.games.punto_banco.engine import PuntoBanco
from bondbot.rules.cards import parse_cards
from bondbot.rules.shoe import Shoe

NPC, BOND = "1", "2"


def test_can_stand_up_changes_neither_the_wagers_nor_the_shoe() -> None:
    engine = PuntoBanco(
        shoe=Shoe.stacked(parse_cards("4s Ah 5s 2h 8c 8d Kc Kd")), npc=NPC, min_bet=10, max_bet=500
    )
    engine.sit(BOND)
    engine.stacks = {BOND: 1_000, NPC: None}
    engine.apply(Move(kind="wager", seat=BOND, target="banker", amount=100))
    before = engine.model_dump_json()

    assert engine.can_stand_up(BOND)  # between coups: he may go, taking his wager back
    assert engine.model_dump_json() == before  # the wager dropped on the copy only
    assert BOND in engine.wagers and BOND in engine.seats

    engine.apply(Move(kind="deal"))  # the copy's shoe was the engine's: the same cards
    assert [hand.cards for hand in engine.shown_hands()] == [
        tuple(parse_cards("4s 5s")),
        tuple(parse_cards("Ah 2h")),
    ]
