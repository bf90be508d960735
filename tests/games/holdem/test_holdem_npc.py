"""The NPC's automatic play at Gambling 15 in constructed spots: equity, pot odds, balanced
bluffs, and nothing it may not see."""

from __future__ import annotations

import dataclasses
import random

import pytest
from holdem_helpers import act, deal, table

from bondbot.games.contract import Move, Option
from bondbot.games.holdem.npc import Situation, decide, equity
from bondbot.rules.cards import parse_cards


def cards(text: str) -> tuple:
    return tuple(parse_cards(text))


@pytest.mark.parametrize(
    ("hole", "board", "opponents", "low", "high"),
    [
        ("As Ah", "", 1, 0.82, 0.88),  # 85.2% against one random hand
        ("7c 2d", "", 1, 0.31, 0.38),  # 34.6%
        ("As Ah", "", 4, 0.52, 0.60),  # 55.9% against four
        ("As Ks", "Qs Js Ts 2d 3c", 3, 1.0, 1.0),  # the nuts
        ("2c 3d", "As Ks Qs Js Ts", 2, 1 / 3, 1 / 3),  # the board plays: a three-way split
    ],
)
def test_equity_against_random_hands(
    hole: str, board: str, opponents: int, low: float, high: float
) -> None:
    share = equity(cards(hole), cards(board), opponents, 2000, random.Random(1))
    assert low - 1e-9 <= share <= high + 1e-9


def spot(
    hole: str,
    board: str,
    *,
    to_call: int = 0,
    pot: int = 400,
    chips: int = 10_000,
    in_position: bool = False,
) -> Situation:
    """The NPC alone against one player, its bet so far 0, with the options that fit."""
    options = (
        [Option(kind="check", seat="npc")]
        if to_call == 0
        else [
            Option(kind="fold", seat="npc"),
            Option(kind="call", seat="npc", min=to_call, max=to_call),
        ]
    )
    kind = "bet" if to_call == 0 else "raise"
    options += [
        Option(kind=kind, seat="npc", min=max(2 * to_call, 100), max=chips),
        Option(kind="all_in", seat="npc"),
    ]
    return Situation(
        hole=cards(hole),  # type: ignore[arg-type]
        board=cards(board),
        opponents=1,
        pot=pot,
        to_call=to_call,
        chips=chips,
        in_position=in_position,
        options=tuple(options),
    )


def test_a_strong_hand_bets_for_value_and_raises_a_bet() -> None:
    move = decide(spot("Ks Kd", "Kh 7c 2d"), random.Random(1))
    assert move.kind == "bet" and move.amount is not None and move.amount >= 200
    move = decide(spot("Ks Kd", "Kh 7c 2d", to_call=300, pot=700), random.Random(1))
    assert move.kind == "raise" and move.amount is not None and move.amount > 300


def test_its_bets_are_whole_small_blinds() -> None:
    strong = spot("As Ad", "Ac Ah 2d", pot=410)  # four aces: it bets the pot
    assert decide(strong, random.Random(1)).amount == 410
    chips_of_25 = dataclasses.replace(strong, chip=25)
    assert decide(chips_of_25, random.Random(1)).amount == 400


def test_a_weak_hand_folds_to_a_big_bet_and_calls_a_small_one() -> None:
    # Ace high on a dry river: about a third of the pot against one random hand.
    weak = ("Ah 3c", "Kd 9s 6h 4c 2s")
    assert decide(spot(*weak, to_call=1000, pot=1100), random.Random(2)).kind == "fold"
    assert decide(spot(*weak, to_call=20, pot=1000), random.Random(2)).kind == "call"


def test_a_bet_of_most_of_its_chips_goes_all_in() -> None:
    assert decide(spot("As Ks", "Qs Js Ts", pot=900, chips=1000), random.Random(3)).kind == (
        "all_in"
    )


def test_it_bluffs_at_the_balanced_frequency_and_more_often_in_position() -> None:
    """Air on the river, checked to: a bet of two thirds of the pot is balanced with
    0.4 bluffs per value bet; the NPC bets 0.6 · 0.4 = 24% of such hands in position, two
    thirds of that (16%) out of position. Of 300: 72 and 48 expected."""
    nothing = ("7c 2d", "Ks Qh 9s 4h 3c")
    bluffs = {}
    for in_position in (False, True):
        moves = [
            decide(spot(*nothing, in_position=in_position), random.Random(seed))
            for seed in range(300)
        ]
        assert {move.kind for move in moves} == {"check", "bet"}
        bets = [move for move in moves if move.kind == "bet"]
        assert {move.amount for move in bets} == {266}  # two thirds of 400, whole chips
        bluffs[in_position] = len(bets)
    assert 30 <= bluffs[False] <= 66 and 50 <= bluffs[True] <= 95
    assert bluffs[False] < bluffs[True]


def test_the_same_generator_decides_the_same() -> None:
    situation = spot("Jh Th", "9h 8c 2h", to_call=150, pot=450)
    assert decide(situation, random.Random(9)) == decide(situation, random.Random(9))


def test_it_decides_only_from_what_it_may_see() -> None:
    """Two tables alike but for the other players' cards and the cards still to come."""
    moves = []
    for other, rest in (("Ks Kd", "2c 3c 4c 5c 6c"), ("8h 3s", "Ad Qd Jd 9c 7c")):
        game = table({"npc": 10_000, "bond": 10_000}, npc="npc")
        deal(game, [other, "Ts 9s"], rest)  # bond (big blind), then the npc (button)
        act(game, "npc", "call")
        act(game, "bond", "raise", 600)
        moves.append(game.npc_move(random.Random(5)))
    assert moves[0] == moves[1] and moves[0] is not None


def test_no_move_when_it_is_not_the_npcs_turn() -> None:
    game = table({"npc": 10_000, "bond": 10_000}, npc="npc")
    deal(game, ["Ks Kd", "Ts 9s"], "2c 3c 4c 5c 6c")
    act(game, "npc", "call")
    assert game.turn() == ("bond",)
    assert game.npc_move(random.Random(1)) is None
    assert game.can(Move(kind="check", seat="bond"))
