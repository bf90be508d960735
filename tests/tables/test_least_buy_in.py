"""What a buy-in must cover at each game (issue 20, item 4): one smallest wager at the bank
games, a player's ante at Michigan, the stake at Makao; hold'em bounds the buy-in itself."""

from __future__ import annotations

from typing import Any

import pytest

from bondbot.games.registry import NewTable, spec_for
from bondbot.rules.shoe import Shoe

MIN, MAX = 1_000, 50_000
OPTIONS: dict[str, dict[str, Any]] = {
    "holdem": {"levels": [{"small": 50, "big": 100}]},
    "michigan": {"chip": 250},
    "makao": {"stake": 2_500},
}
LEAST = {
    "punto_banco": MIN,
    "blackjack": MIN,
    "chemin_de_fer": MIN,
    "deux_tableaux": MIN,
    "macao": MIN,
    "holdem": 100,  # one whole chip; the table's minimum and maximum bound the buy-in
    "michigan": 4 * 250,  # a chip on each of the four pay cards
    "makao": 2_500,
}


@pytest.mark.parametrize("game", sorted(LEAST))
def test_each_game_says_what_a_seat_needs_to_play_a_hand(game: str) -> None:
    spec = spec_for(game)
    options = spec.options.model_validate(OPTIONS.get(game, {}))
    table = NewTable(npc="1", packs=spec.default_packs, min_bet=MIN, max_bet=MAX, options=options)
    engine = spec.new_engine(table, Shoe.stacked([]))
    assert engine.least_stack() == LEAST[game]
    assert spec.buy_in_limits == (game == "holdem")
