"""The picture of a coup's result: the player's hand above the banker's, with their totals."""

from __future__ import annotations

from bondbot.games.contract import Move, ShownHand
from bondbot.games.punto_banco.engine import PuntoBanco
from bondbot.rules.cards import parse_cards
from bondbot.rules.shoe import Shoe

NPC, BOND = "1", "2"


def table(cards: str) -> PuntoBanco:
    engine = PuntoBanco(shoe=Shoe.stacked(parse_cards(cards)), npc=NPC, min_bet=10, max_bet=500)
    engine.sit(BOND)
    engine.stacks = {BOND: 1_000, NPC: None}
    return engine


def test_a_coup_shows_both_hands_once_dealt() -> None:
    # Dealt player, banker, player, banker: player 4s 5s (9), banker Ah 2h (3): a natural.
    engine = table("4s Ah 5s 2h 8c 8d Kc Kd")
    assert engine.shown_hands() == ()
    engine.apply(Move(kind="wager", seat=BOND, target="banker", amount=100))
    assert engine.shown_hands() == ()  # a coup under way shows nothing yet
    record = engine.apply(Move(kind="deal"))
    assert record.hand_over
    assert engine.shown_hands() == (
        ShownHand("player", tuple(parse_cards("4s 5s")), 9),
        ShownHand("banker", tuple(parse_cards("Ah 2h")), 3),
    )
    engine.apply(Move(kind="wager", seat=BOND, target="tie", amount=10))  # the next coup
    assert engine.shown_hands()[0].total == 9  # still the last finished one
