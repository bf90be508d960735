"""Seats, blinds, turns and legal bets against holdem.md, on stacked packs."""

from __future__ import annotations

import pytest
from holdem_helpers import act, auto, deal, events, kinds, option, pack, table

from bondbot.games.contract import Move
from bondbot.games.holdem.engine import MAX_SEATS, Holdem
from bondbot.games.holdem.hand import DuplicateCard, may_raise
from bondbot.rules.errors import IllegalAction

FOUR = ["2c 3d", "4c 5d", "6c 7d", "8c 9d"]
THREE = FOUR[:3]
TWO = FOUR[:2]
BOARD = "Ts Js Ks 2h 4h"


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop() -> None:
    game = table({"a": 1000, "b": 1000})
    records = deal(game, TWO, BOARD)
    assert game.button == "a" and game.players == ["b", "a"]
    blinds = {(e.seat, e.blind, e.amount) for e in events(records, "blind")}
    assert blinds == {("a", "small", 10), ("b", "big", 20)}
    assert game.turn() == ("a",)
    act(game, "a", "call")
    assert game.turn() == ("b",)  # the big blind acts last and may raise
    assert {"check", "raise"} <= kinds(game, "b")
    act(game, "b", "check")
    assert game.board == ("Ts", "Js", "Ks")
    assert game.turn() == ("b",)  # after the flop the button acts last
    act(game, "b", "check")
    assert game.turn() == ("a",)


def test_three_handed_order_before_and_after_the_flop() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    records = deal(game, THREE, BOARD)
    assert game.players == ["b", "c", "a"]
    blinds = {(e.seat, e.blind, e.amount) for e in events(records, "blind")}
    assert blinds == {("b", "small", 10), ("c", "big", 20)}
    order = []
    for seat in ("a", "b", "c"):
        order.append(game.turn())
        act(game, seat, "check" if seat == "c" else "call")
    assert order == [("a",), ("b",), ("c",)]
    assert game.turn() == ("b",)


def test_the_button_moves_to_the_next_seat_dealt_in_each_hand() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    buttons = []
    for _ in range(4):
        deal(game, THREE, BOARD)
        buttons.append(game.button)
        act(game, game.turn()[0], "fold")
        act(game, game.turn()[0], "fold")
    assert buttons == ["a", "b", "c", "a"]


def test_the_minimum_raise_is_the_big_blind_then_the_last_raise() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    first = option(game, "a", "raise")
    assert (first.min, first.max) == (40, 1000)
    act(game, "a", "raise", 60)  # a raise of 40
    assert option(game, "b", "raise").min == 100
    with pytest.raises(IllegalAction):
        game.apply(Move(kind="raise", seat="b", amount=99))
    act(game, "b", "raise", 150)  # a raise of 90
    assert option(game, "c", "raise").min == 240
    act(game, "c", "call")
    act(game, "a", "call")
    assert game.board == ("Ts", "Js", "Ks")
    bet = option(game, "b", "bet")
    assert (bet.min, bet.max) == (20, 850)


def test_a_short_all_in_before_the_flop_does_not_reopen_the_betting_for_a_limper() -> None:
    """The pokerkit 0.7.7 gap: blinds 10/20, stacks 1000/1000/1000/30."""
    game = table({"short": 30, "sb": 1000, "bb": 1000, "limper": 1000})
    deal(game, FOUR, BOARD)
    assert game.players == ["sb", "bb", "limper", "short"]
    act(game, "limper", "call")
    act(game, "short", "all_in")
    act(game, "sb", "fold")
    act(game, "bb", "call")
    assert game.turn() == ("limper",)
    assert kinds(game, "limper") == {"fold", "call"}
    assert option(game, "limper", "call").min == 10
    # pokerkit alone would let him raise: the adapter is what stops it.
    state = game._poker()
    assert state.can_complete_bet_or_raise_to()
    assert not may_raise(state, 2, 20)


def test_a_full_all_in_raise_before_the_flop_reopens_the_betting() -> None:
    game = table({"short": 40, "sb": 1000, "bb": 1000, "limper": 1000})
    deal(game, FOUR, BOARD)
    act(game, "limper", "call")
    act(game, "short", "all_in")  # to 40: a full raise of 20
    act(game, "sb", "fold")
    act(game, "bb", "call")
    assert kinds(game, "limper") == {"fold", "call", "raise", "all_in"}


def test_a_short_all_in_after_the_flop_does_not_reopen_the_betting() -> None:
    game = table({"a": 1000, "b": 1000, "c": 130})
    deal(game, THREE, BOARD)
    act(game, "a", "call")
    act(game, "b", "call")
    act(game, "c", "check")
    act(game, "b", "bet", 100)
    act(game, "c", "all_in")  # 110: a raise of 10, short of the 100 bet
    assert {"raise", "all_in"} <= kinds(game, "a")  # a had not acted: he may raise
    act(game, "a", "call")
    assert game.turn() == ("b",)
    assert kinds(game, "b") == {"fold", "call"}


def test_an_all_in_bet_smaller_than_the_big_blind_does_not_reopen_for_a_checker() -> None:
    game = table({"a": 1000, "b": 1000, "c": 30})
    deal(game, THREE, BOARD)
    act(game, "a", "call")
    act(game, "b", "call")
    act(game, "c", "check")
    act(game, "b", "check")
    act(game, "c", "all_in")  # a bet of 10 after b checked
    assert {"raise", "all_in"} <= kinds(game, "a")
    act(game, "a", "call")
    assert kinds(game, "b") == {"fold", "call"}


def test_fold_is_refused_when_checking_is_free() -> None:
    game = table({"a": 1000, "b": 1000})
    deal(game, TWO, BOARD)
    act(game, "a", "call")
    assert "fold" not in kinds(game, "b")
    with pytest.raises(IllegalAction):
        game.apply(Move(kind="fold", seat="b"))


def test_the_timeout_checks_when_it_can_else_folds() -> None:
    game = table({"a": 1000, "b": 1000})
    deal(game, TWO, BOARD)
    assert game.timeout_move("a") == Move(kind="fold", seat="a", auto="timeout")
    assert game.timeout_move("b") is None  # not his turn
    act(game, "a", "call")
    assert game.timeout_move("b") == Move(kind="check", seat="b", auto="timeout")


def test_everyone_folds_and_the_last_player_takes_the_pot_without_showing() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "raise", 100)
    act(game, "b", "fold")
    records = act(game, "c", "fold")
    assert records[0].hand_over and not game.in_hand()
    assert events(records, "shown") == [] and events(records, "showdown_hand") == []
    [pot] = events(records, "pot_awarded")
    assert (pot.amount, pot.winners, pot.shares, pot.shown) == (30, ("a",), (30,), False)
    moved = {(t.src, t.dst, t.amount) for t in records[0].transfers}
    assert moved == {("seat:b", "pot:0", 10), ("seat:c", "pot:0", 20), ("pot:0", "seat:a", 30)}
    assert game.stacks == {"a": 1030, "b": 990, "c": 980}
    assert records[0].lost == ()


def test_the_blind_schedule_raises_the_blinds_every_n_hands() -> None:
    game = table({"a": 10_000, "b": 10_000}, blinds=((10, 20), (20, 40), (50, 100)), raise_every=2)
    seen = []
    for _ in range(6):
        records = deal(game, TWO, BOARD)
        [started] = events(records, "hand_started")
        posted = sorted(e.amount for e in events(records, "blind"))
        seen.append((started.blinds.small, started.blinds.big, *posted))
        act(game, game.turn()[0], "fold")
    assert seen == [(10, 20, 10, 20)] * 2 + [(20, 40, 20, 40)] * 2 + [(50, 100, 50, 100)] * 2


def test_a_player_short_of_the_big_blind_posts_what_he_has() -> None:
    game = table({"a": 1000, "b": 1000, "c": 15})
    records = deal(game, THREE, BOARD)
    assert ("c", "big", 15) in {(e.seat, e.blind, e.amount) for e in events(records, "blind")}
    # Decision (pokerkit's): the bet to call is what the blind could post; a raise adds
    # at least a big blind to it.
    assert option(game, "a", "call").min == 15
    assert option(game, "a", "raise").min == 35


def test_sitting_out_twice_or_coming_back_twice_is_refused_by_name() -> None:
    """A second Sit out is not a way back in: each direction is its own move."""
    game = table({"a": 1000, "b": 1000})
    with pytest.raises(IllegalAction) as caught:
        game.apply(Move(kind="sit_in", seat="b"))
    assert caught.value.code == "holdem.already_in"
    game.apply(Move(kind="sit_out", seat="b"))
    with pytest.raises(IllegalAction) as caught:
        game.apply(Move(kind="sit_out", seat="b"))
    assert caught.value.code == "holdem.already_out"
    assert game.sitting_out == ["b"]


def test_sitting_out_skips_the_seat_until_it_comes_back() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    game.apply(Move(kind="sit_out", seat="b"))
    deal(game, TWO, BOARD)
    assert game.players == ["c", "a"]
    game.apply(Move(kind="sit_in", seat="b"))  # during the hand: from the next deal
    assert game.players == ["c", "a"]
    act(game, "a", "fold")
    deal(game, THREE, BOARD)
    assert sorted(game.players) == ["a", "b", "c"]


def test_a_seat_without_chips_is_not_dealt_in() -> None:
    game = table({"a": 1000, "b": 0, "c": 1000})
    deal(game, TWO, BOARD)
    assert sorted(game.players) == ["a", "c"]


def test_an_npc_with_an_unlimited_bankroll_covers_the_deepest_stack() -> None:
    game = table({"a": 700, "b": 2500, "npc": None}, npc="npc")
    records = deal(game, THREE, BOARD)
    [started] = events(records, "hand_started")
    assert dict(zip(started.players, started.stacks, strict=True)) == {
        "a": 700,
        "b": 2500,
        "npc": 2500,
    }


def test_no_deal_without_two_players_or_with_a_used_pack() -> None:
    game = table({"a": 1000, "b": 1000})
    game.replace_shoe(pack(TWO, BOARD))
    game.apply(Move(kind="sit_out", seat="b"))
    assert not game.can(Move(kind="deal"))
    game.apply(Move(kind="sit_in", seat="b"))
    game.apply(Move(kind="deal"))
    act(game, "a", "fold")
    assert game.needs_new_shoe and not game.can(Move(kind="deal"))


def test_a_card_dealt_twice_is_an_error_and_changes_nothing() -> None:
    game = table({"a": 1000, "b": 1000})
    with pytest.raises(DuplicateCard):
        deal(game, ["As Kd", "Qh As"], BOARD)
    assert game.hand == 0 and not game.in_hand() and game.shoe.position == 0

    game = table({"a": 1000, "b": 1000})
    deal(game, ["As Kd", "Qh Jc"], "Kd 2c 3c 4c 5c")
    act(game, "a", "call")
    game.apply(Move(kind="check", seat="b"))
    before = game.model_dump_json()
    with pytest.raises(DuplicateCard):
        game.apply(Move(kind="flop"))  # it would deal Kd again
    assert game.model_dump_json() == before and game.board == ()
    assert game.automation() == Move(kind="flop")


def test_a_table_seats_at_most_ten() -> None:
    game = table({str(n): 1000 for n in range(MAX_SEATS)})
    with pytest.raises(IllegalAction):
        game.sit("eleven")
    with pytest.raises(ValueError):
        table({str(n): 1000 for n in range(MAX_SEATS + 1)})


def test_a_seat_in_the_hand_cannot_stand_up_but_one_sitting_out_can() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    game.apply(Move(kind="sit_out", seat="c"))
    deal(game, TWO, BOARD)
    with pytest.raises(IllegalAction):
        game.stand_up("a")
    game.stand_up("c")
    assert game.seats == ["a", "b"]


def test_the_button_passes_on_when_its_seat_leaves() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "fold")
    act(game, "b", "fold")
    game.stand_up("a")
    deal(game, TWO, BOARD)
    assert game.button == "b"


def test_the_state_restores_mid_hand_and_plays_on_the_same() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "raise", 60)
    act(game, "b", "call")
    restored = Holdem.model_validate_json(game.model_dump_json())
    assert restored == game
    assert restored._kit.state is None  # rebuilt from the actions when first needed
    assert restored.options() == game.options()
    ours = act(game, "c", "call") + act(game, "b", "bet", 200)
    theirs = act(restored, "c", "call") + act(restored, "b", "bet", 200)
    assert ours == theirs and restored == game
    assert auto(restored) == []


def test_a_bank_that_owes_more_than_it_holds_is_not_dealt_in() -> None:
    game = table({"a": 1000, "b": 1000, "npc": -50}, npc="npc")
    game.replace_shoe(pack(["2c 3d", "4h 5s"], BOARD))
    game.apply(Move(kind="deal"))
    assert game.players == ["b", "a"]
