"""The Macao NPC's play by its Gambling level: the banker weighs the wagers on the table,
the player his own, the novice plays loose, nobody's hidden cards are read, and the table's
generator decides a replay."""

from __future__ import annotations

import random

import pytest
from macao_helpers import BOND, CHIPS, MATHIS, NPC, act, coup_shoe, deal, draw, stand, table, wager

from bondbot.games.contract import GAMBLING_MAX, Move
from bondbot.games.macao.engine import Bank, Macao, MacaoRules, Phase
from bondbot.rules.cards import parse_cards

SEEDS = range(40)
DRAW, STAND = Move(kind="draw", seat=NPC), Move(kind="stand", seat=NPC)


def decisions(game: Macao, level: int) -> list[Move | None]:
    """The NPC's move now, for each of the generators `SEEDS` (the state left as it is)."""
    return [game.npc_move(random.Random(seed), level) for seed in SEEDS]


def banker_on_4(*wagers: tuple[str, str, int]) -> Macao:
    """The NPC banks 4; Bond (and Mathis) drew a ten on 2: each holds 0–4 to everyone."""
    players = tuple(seat for seat, _, _ in wagers)
    game = table(coup_shoe(["2s Kh", "2c Kd"][: len(players)], "Kc 4c", "Ks Qs"), players)
    deal(game)
    act(game, *(wager(seat, target, stake) for seat, target, stake in wagers))
    for seat in players:
        act(game, draw(seat))
    assert game.phase is Phase.BANKER and game.turn() == (NPC,)
    return game


def test_the_strong_banker_stands_on_4_against_0_to_4_and_the_advice_draws():
    game = banker_on_4((BOND, "own", 100))
    assert game.timeout_move(NPC) == DRAW
    assert set(decisions(game, GAMBLING_MAX)) == {STAND}


def test_the_strong_banker_would_rather_lose_a_hand_the_money_is_on():
    # a wager on the banker's hand wins when his hand wins: standing on 4 never loses to
    # 0–4, so with the money there he draws
    assert set(decisions(banker_on_4((BOND, "banker", 100)), GAMBLING_MAX)) == {DRAW}
    both = banker_on_4((BOND, "own", 100), (MATHIS, "banker", 500))
    assert set(decisions(both, GAMBLING_MAX)) == {DRAW}
    both = banker_on_4((BOND, "own", 500), (MATHIS, "banker", 100))
    assert set(decisions(both, GAMBLING_MAX)) == {STAND}


def test_the_novice_banker_draws_by_feel_whatever_the_stakes():
    own, banker = banker_on_4((BOND, "own", 100)), banker_on_4((BOND, "banker", 100))
    assert set(decisions(own, 0)) == {DRAW, STAND}  # a threshold from 0 to 7
    assert decisions(own, 0) == decisions(banker, 0)


@pytest.mark.parametrize("hidden", ["3s Ah", "Qs Jh", "4s Kh"])
@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
def test_the_banker_never_reads_a_players_hidden_cards(hidden: str, level: int):
    for target in ("own", "banker"):
        game = banker_on_4((BOND, target, 100))
        before = decisions(game, level)
        game.players[0].cards[:2] = parse_cards(hidden)
        assert decisions(game, level) == before


def npc_player_on_0() -> Macao:
    """Bond banks; the NPC holds two tens and wagers on what is worth most; Mathis stood."""
    game = Macao(
        shoe=coup_shoe(["2s 3h", "Ks Kh"], "Kd 6c", "4d 4c"),
        seats=[NPC, BOND, MATHIS],
        npc=NPC,
        rules=MacaoRules(bank=Bank.ROTATE),
        stacks={NPC: None, BOND: CHIPS, MATHIS: CHIPS},
    )
    game.banker = NPC  # Bond banks: Mathis, then the NPC
    deal(game)
    act(game, game.npc_move(random.Random(0)), wager(MATHIS, "own"))  # type: ignore[arg-type]
    act(game, stand(MATHIS))
    assert game.phase is Phase.DRAWS and game.turn() == (NPC,)
    return game


def test_the_strong_player_on_a_bankers_hand_wager_keeps_his_0():
    game = npc_player_on_0()
    hand = next(hand for hand in game.players if hand.seat == NPC)
    assert hand.wager is not None and hand.wager.target == "banker"
    assert game.timeout_move(NPC) == DRAW  # the advice draws on 0–4
    assert set(decisions(game, GAMBLING_MAX)) == {STAND}  # his own hand should lose
    assert set(decisions(game, 0)) == {DRAW}


@pytest.mark.parametrize("hidden", ["Qd 5c", "2d 2c", "Ad Kc"])
@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
def test_the_player_never_reads_the_bankers_hidden_cards(hidden: str, level: int):
    game = npc_player_on_0()
    before = decisions(game, level)
    game.bank_cards[:2] = parse_cards(hidden)
    assert decisions(game, level) == before


@pytest.mark.parametrize("level", [0, 5, 10, GAMBLING_MAX])
def test_the_same_generator_decides_the_same(level: int):
    game = banker_on_4((BOND, "own", 100))
    assert decisions(game, level) == decisions(game, level)
    rng = random.Random(7)
    game.npc_move(rng, GAMBLING_MAX)
    assert rng.random() == random.Random(7).random()  # the strong play draws nothing
