"""The base Michigan and Makao share (games/trick_taking/): states saved before the base
restore and play on exactly as they did, the words the core draws exist, and a move with
nothing to choose is found from the engine's options.

`saved_states.json` was written by the engines as they stood before they shared a base
(main at c181498), with the driver below: a state in mid-game (`saved`), the moves the
driver made from it (`moves`) and the state they led to (`after`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bondbot.games.contract import Move
from bondbot.games.makao.engine import Makao, MakaoOptions
from bondbot.games.makao.ui import UI as MAKAO_UI
from bondbot.games.michigan.engine import Michigan, MichiganOptions
from bondbot.games.michigan.ui import UI as MICHIGAN_UI
from bondbot.games.trick_taking.engine import TrickTakingEngine
from bondbot.games.trick_taking.ui import only_move
from bondbot.i18n import catalog
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

SAVED = json.loads((Path(__file__).parent / "saved_states.json").read_text(encoding="utf-8"))
ENGINES: dict[str, type[TrickTakingEngine]] = {"michigan": Michigan, "makao": Makao}


def next_move(game: TrickTakingEngine) -> Move:
    """The driver: the table's own step, else the timer's move for whoever is to play,
    else a spend on an open offer (Makao) or the deal, its fresh pack put in first."""
    if (auto := game.automation()) is not None:
        return auto
    if turn := game.turn():
        move = game.timeout_move(turn[0])
        assert move is not None
        return move
    if isinstance(game, Makao) and game.offers:
        return Move(kind="won_back", target=next(iter(game.offers)))
    assert game.phase == "idle"
    if game.needs_new_shoe:
        game.replace_shoe(Shoe.shuffled(1, f"trick-taking-{game.key}-{game.hand}".encode()))
    return Move(kind="deal")


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_a_state_saved_before_the_base_restores_and_plays_on_the_same(key: str) -> None:
    saved: dict[str, Any] = SAVED[key]["saved"]
    game = ENGINES[key].model_validate_json(json.dumps(saved))
    assert json.loads(game.model_dump_json()) == saved  # the same keys, shape and values
    made = []
    for _ in SAVED[key]["moves"]:
        move = next_move(game)
        game.apply(move)
        made.append(move.model_dump(exclude_defaults=True))
    assert made == SAVED[key]["moves"]
    assert json.loads(game.model_dump_json()) == SAVED[key]["after"]


@pytest.mark.parametrize("ui", [MICHIGAN_UI, MAKAO_UI], ids=["michigan", "makao"])
def test_every_word_the_core_draws_is_in_both_catalogs(ui: Any) -> None:
    for lang in ("en", "fr"):
        words = catalog(lang)
        assert [key for key in ui.words.named() if key not in words] == []


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_the_bases_refusals_are_in_the_games_words(key: str) -> None:
    for lang in ("en", "fr"):
        words = catalog(lang)
        for reason in ("players", "no_npc", "needs_new_shoe", "full"):
            assert f"{key}.{reason}" in words, (lang, reason)


def test_a_ninth_player_is_refused_in_each_games_words() -> None:
    seats = [str(n) for n in range(8)]
    michigan = Michigan(shoe=Shoe.shuffled(1, b"m"), seats=seats, npc="0")
    makao = Makao(shoe=Shoe.shuffled(1, b"k"), seats=seats, npc="0")
    for game in (michigan, makao):
        with pytest.raises(IllegalAction) as refused:
            game.sit("9")
        assert refused.value.code == f"{game.key}.full"


def michigan_dealt(hands: dict[str, list[str]]) -> Michigan:
    game = Michigan(
        shoe=Shoe.shuffled(1, b"m"),
        seats=["x", "y", "npc"],
        npc="npc",
        settings=MichiganOptions(chip=100),
    )
    game.phase, game.leader, game.hands = "lead", "x", hands
    return game


def test_a_leader_holding_one_suit_has_nothing_to_choose() -> None:
    one = michigan_dealt({"x": ["2h", "5h"], "y": ["3s"], "npc": ["4d"]})
    assert only_move(one, "x") == ("lead", "h")
    assert only_move(one, "y") is None  # not his lead
    two = michigan_dealt({"x": ["2h", "5s"], "y": ["3s"], "npc": ["4d"]})
    assert only_move(two, "x") is None


def test_a_bid_is_always_a_choice_and_one_legal_card_is_not() -> None:
    game = Makao(shoe=Shoe.shuffled(1, b"makao"), seats=["x", "y", "npc"], npc="npc")
    game.settings = MakaoOptions()
    game.apply(Move(kind="deal", target="npc"))  # one card each: x bids and leads
    bidder = game.turn()[0]
    assert only_move(game, bidder) is None  # 0 or 1
    for _ in range(3):
        seat = game.turn()[0]
        game.apply(Move(kind="bid", seat=seat, amount=0))
    leader = game.turn()[0]
    assert only_move(game, leader) == ("play", game.hands[leader][0])
