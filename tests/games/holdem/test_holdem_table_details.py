"""holdem.md's "Details the table settles this way" that no other test pins: short
all-ins do not add up to reopen the betting, and no raise when nobody could call it."""

from __future__ import annotations

from holdem_helpers import act, deal, kinds, table

FOUR = ["2c 3d", "4c 5d", "6c 7d", "8c 9d"]
BOARD = "Ts Js Ks 2h 4h"


def _to_the_flop(stacks: dict[str, int]):
    game = table(stacks)
    deal(game, FOUR[: len(stacks)], BOARD)
    while not game.board:
        seat = game.turn()[0]
        act(game, seat, "check" if "check" in kinds(game, seat) else "call")
    return game


def test_two_short_all_ins_do_not_add_up_to_reopen_the_betting() -> None:
    """Blinds 10/20; after the flop b bets 100, c goes all-in to 150 (a raise of 50) and d
    to 210 (60 more): together more than a full raise, but neither is one."""
    game = _to_the_flop({"a": 1000, "b": 1000, "c": 170, "d": 230})
    assert game.turn() == ("b",)
    act(game, "b", "bet", 100)
    act(game, "c", "all_in")
    act(game, "d", "all_in")
    assert {"raise", "all_in"} <= kinds(game, "a")  # a has not acted yet: he may raise
    act(game, "a", "call")
    assert game.turn() == ("b",)
    assert kinds(game, "b") == {"fold", "call"}


def test_a_full_raise_after_a_short_all_in_reopens_the_betting() -> None:
    game = _to_the_flop({"a": 1000, "b": 1000, "c": 170, "d": 1000})
    act(game, "b", "bet", 100)
    act(game, "c", "all_in")  # to 150, short
    act(game, "d", "raise", 250)  # a full raise of 100 over the all-in
    act(game, "a", "call")
    assert {"raise", "all_in"} <= kinds(game, "b")


def test_no_raise_is_offered_when_no_opponent_could_call_it() -> None:
    heads_up = table({"a": 1000, "b": 15})
    deal(heads_up, FOUR[:2], BOARD)
    assert heads_up.turn() == ("a",)
    assert kinds(heads_up, "a") == {"fold", "call"}  # b is all-in for his short blind

    game = _to_the_flop({"a": 1000, "b": 1000, "c": 120, "d": 240})
    act(game, "b", "bet", 100)
    act(game, "c", "all_in")
    act(game, "d", "all_in")  # to 220: a full raise, so b could raise but for the stacks
    act(game, "a", "fold")
    assert kinds(game, "b") == {"fold", "call"}  # the others folded or are all-in
