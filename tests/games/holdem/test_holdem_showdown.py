"""Showdowns on stacked packs: every category, kickers, split pots, odd chips, side pots."""

from __future__ import annotations

import pytest
from holdem_helpers import act, deal, events, table

from bondbot.games.holdem.engine import Holdem
from bondbot.games.holdem.names import HandName


def check_down(game: Holdem) -> list:
    """Everyone checks (or calls the big blind) to the end of the hand; its records."""
    records = []
    while game.in_hand():
        seat = game.turn()[0]
        records += act(game, seat, "call" if game.to_call(seat) else "check")
    return records


# (board, winner's cards and hand, loser's cards and hand): each category beats the one below.
LADDER = [
    (
        "9s Ts Js 9h 9d",
        ("Qs Ks", HandName(category="straight_flush", ranks=("K",))),
        ("9c 2c", HandName(category="four_of_a_kind", ranks=("9",), kickers=("J",))),
    ),
    (
        "9s 9h Kd Kc 2s",
        ("9d 9c", HandName(category="four_of_a_kind", ranks=("9",), kickers=("K",))),
        ("Ks 3h", HandName(category="full_house", ranks=("K", "9"))),
    ),
    (
        "Kh 7h 7d 2h 3c",
        ("Kd Kc", HandName(category="full_house", ranks=("K", "7"))),
        ("Ah 9h", HandName(category="flush", ranks=("A",), kickers=("K", "9", "7", "2"))),
    ),
    (
        "2h 5h Jh Qd Kc",
        ("Ah 8h", HandName(category="flush", ranks=("A",), kickers=("J", "8", "5", "2"))),
        ("Ts 9d", HandName(category="straight", ranks=("K",))),
    ),
    (
        "Tc Jh Qd 4s 4c",
        ("Ks 9d", HandName(category="straight", ranks=("K",))),
        ("4h 2d", HandName(category="three_of_a_kind", ranks=("4",), kickers=("Q", "J"))),
    ),
    (
        "3c 4h 5s Kd Kc",  # the ace-low straight beats three of a kind
        ("As 2d", HandName(category="straight", ranks=("5",))),
        ("Ks Qh", HandName(category="three_of_a_kind", ranks=("K",), kickers=("Q", "5"))),
    ),
    (
        "3c 4h 5s Kd 9c",  # and is the lowest straight
        ("6d 2c", HandName(category="straight", ranks=("6",))),
        ("As 2d", HandName(category="straight", ranks=("5",))),
    ),
    (
        "7d Kc 2h 9s 4d",
        ("7s 7h", HandName(category="three_of_a_kind", ranks=("7",), kickers=("K", "9"))),
        ("Ks 9h", HandName(category="two_pair", ranks=("K", "9"), kickers=("7",))),
    ),
    (
        "Kd 7c Qd 2h 3s",
        ("Ks 7h", HandName(category="two_pair", ranks=("K", "7"), kickers=("Q",))),
        ("Qs Jc", HandName(category="pair", ranks=("Q",), kickers=("K", "J", "7"))),
    ),
    (
        "Ad 8c 6d 4h 2s",
        ("As 3h", HandName(category="pair", ranks=("A",), kickers=("8", "6", "4"))),
        ("Kc Qh", HandName(category="high_card", ranks=("A",), kickers=("K", "Q", "8", "6"))),
    ),
    (
        "Ah 9c 7d 4s 2c",  # the kicker decides
        ("As Kd", HandName(category="pair", ranks=("A",), kickers=("K", "9", "7"))),
        ("Ac Qd", HandName(category="pair", ranks=("A",), kickers=("Q", "9", "7"))),
    ),
]


@pytest.mark.parametrize(("board", "winner", "loser"), LADDER)
@pytest.mark.parametrize("winner_seat", ["a", "b"])
def test_the_better_hand_wins_and_both_are_named(
    board: str, winner: tuple[str, HandName], loser: tuple[str, HandName], winner_seat: str
) -> None:
    game = table({"a": 1000, "b": 1000})
    loser_seat = "b" if winner_seat == "a" else "a"
    holes = {winner_seat: winner[0], loser_seat: loser[0]}
    records = deal(game, [holes["b"], holes["a"]], board) + check_down(game)
    names = {e.seat: e.name for e in events(records, "showdown_hand")}
    assert names == {winner_seat: winner[1], loser_seat: loser[1]}
    [pot] = events(records, "pot_awarded")
    assert (pot.amount, pot.winners, pot.shown) == (40, (winner_seat,), True)
    assert {e.seat for e in events(records, "shown")} == {"a", "b"}
    assert game.stacks == {winner_seat: 1020, loser_seat: 980}


def test_a_kicker_that_does_not_play_splits_the_pot() -> None:
    game = table({"a": 1000, "b": 1000})
    records = deal(game, ["As 2d", "Ad 3c"], "Ah Kc Qd Js 9c") + check_down(game)
    [pot] = events(records, "pot_awarded")
    assert (pot.winners, pot.shares) == (("b", "a"), (20, 20))
    assert game.stacks == {"a": 1000, "b": 1000}


def test_the_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000}, blinds=((5, 20),))
    deal(game, ["2c 3d", "4c 5d", "6c 7d"], "Ts Js Qs Ks As")  # the board plays: a split
    act(game, "a", "call")
    act(game, "b", "fold")
    records = act(game, "c", "check") + check_down(game)
    [pot] = events(records, "pot_awarded")
    assert (pot.amount, pot.winners, pot.shares) == (45, ("c", "a"), (23, 22))


def test_two_odd_chips_of_a_three_way_split_go_one_each_to_the_first_two() -> None:
    """pokerkit would give both to the first winner (25, 23, 23)."""
    game = table({"a": 1000, "b": 1000, "c": 1000, "d": 1000}, blinds=((11, 20),))
    deal(game, ["2c 3d", "4c 5d", "6c 7d", "8c 9d"], "Ts Js Qs Ks As")
    assert game.players == ["b", "c", "d", "a"]
    act(game, "d", "call")
    act(game, "a", "call")
    act(game, "b", "fold")
    records = act(game, "c", "check") + check_down(game)
    [pot] = events(records, "pot_awarded")
    assert (pot.amount, pot.winners, pot.shares) == (71, ("c", "d", "a"), (24, 24, 23))
    assert game.stacks == {"a": 1003, "b": 989, "c": 1004, "d": 1004}


def test_a_three_way_all_in_with_three_stacks_makes_a_main_pot_and_two_side_pots() -> None:
    game = table({"a": 100, "b": 300, "c": 600, "d": 1000})
    deal(game, ["Ks Kd", "Qs Qd", "Js Jd", "As Ad"], "2c 5h 8d 9c 3s")
    act(game, "d", "raise", 40)
    act(game, "a", "all_in")
    act(game, "b", "all_in")
    act(game, "c", "all_in")
    records = act(game, "d", "call")
    assert not game.in_hand()
    pots = [(e.pot, e.amount, e.eligible, e.winners) for e in events(records, "pot_awarded")]
    assert pots == [
        (0, 400, ("b", "c", "d", "a"), ("a",)),
        (1, 600, ("b", "c", "d"), ("b",)),
        (2, 600, ("c", "d"), ("c",)),
    ]
    into = {(t.src, t.dst): t.amount for t in records[-1].transfers if t.dst.startswith("pot:")}
    assert into == {
        ("seat:b", "pot:0"): 100,
        ("seat:c", "pot:0"): 100,
        ("seat:d", "pot:0"): 100,
        ("seat:a", "pot:0"): 100,
        ("seat:b", "pot:1"): 200,
        ("seat:c", "pot:1"): 200,
        ("seat:d", "pot:1"): 200,
        ("seat:c", "pot:2"): 300,
        ("seat:d", "pot:2"): 300,
    }
    assert game.stacks == {"a": 400, "b": 600, "c": 600, "d": 400}
    shown = [e.seat for e in events(records, "shown")]
    assert sorted(shown) == ["a", "b", "c", "d"]  # all-ins are shown before the board


def test_the_pots_during_the_hand_say_who_is_eligible() -> None:
    game = table({"a": 100, "b": 1000, "c": 1000})
    deal(game, ["2c 3d", "4c 5d", "6c 7d"], "Ts Js Qs 8h 8d")
    act(game, "a", "all_in")
    act(game, "b", "call")
    act(game, "c", "call")
    assert [(p.pot, p.amount, p.eligible) for p in game.pots()] == [(0, 300, ("b", "c", "a"))]
    act(game, "b", "bet", 200)
    act(game, "c", "call")
    assert [(p.amount, p.eligible) for p in game.pots()] == [
        (300, ("b", "c", "a")),
        (400, ("b", "c")),
    ]
    assert game.bets == {"b": 0, "c": 0, "a": 0}
