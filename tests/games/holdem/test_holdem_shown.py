"""The picture of a hold'em hand's result (`shown_hands`): the board, then the hands shown
at the showdown in the order shown; never a hole card folded or won without a showdown."""

from __future__ import annotations

from holdem_helpers import act, deal, events, table

from bondbot.games.contract import Move, ShownHand
from bondbot.games.holdem.engine import Holdem
from bondbot.rules.cards import parse_cards

THREE = ["2c 3d", "4c 5d", "6c 7d"]  # b, c, a: the order of play, the button (a) last
BOARD = "Ts Js Ks 2h 4h"


def row(whose: str, cards: str) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(cards)))


def check_down(game: Holdem) -> list:
    """Everyone checks (or calls the big blind) to the end of the hand; its records."""
    records = []
    while game.in_hand():
        seat = game.turn()[0]
        records += act(game, seat, "call" if game.to_call(seat) else "check")
    return records


def assert_public(game: Holdem) -> None:
    """Every shown card was dealt, none twice, and none is hidden."""
    shown = [card for hand in game.shown_hands() for card in hand.cards]
    assert len(set(shown)) == len(shown)
    assert set(shown) <= set(game.shoe.dealt)
    assert not set(shown) & game.hidden_cards()
    for hand in game.shown_hands():
        if hand.whose != "board":
            assert hand.cards == tuple(game.private_cards(hand.whose))


def test_nothing_is_shown_before_a_hand_ends() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    assert game.shown_hands() == ()
    deal(game, THREE, BOARD)
    assert game.shown_hands() == ()
    act(game, "a", "call")
    act(game, "b", "call")
    act(game, "c", "check")
    assert game.board == ("Ts", "Js", "Ks")  # the flop is out, the hand goes on
    assert game.shown_hands() == ()


def test_a_showdown_shows_the_board_then_the_hands_in_the_order_shown() -> None:
    game = table({"a": 1000, "b": 1000})
    deal(game, ["As Kd", "7c 7d"], "7s 2h 9c Qd 3s")  # b, then a (the button)
    records = check_down(game)
    assert records[-1].hand_over
    order = [event.seat for event in events(records, "shown")]
    assert sorted(order) == ["a", "b"]
    holes = {"b": "As Kd", "a": "7c 7d"}
    assert game.shown_hands() == (
        row("board", "7s 2h 9c Qd 3s"),
        *(row(seat, holes[seat]) for seat in order),
    )
    assert game.hidden_cards() == set()
    assert all(hand.total is None for hand in game.shown_hands())
    assert_public(game)


def test_a_folded_hand_is_never_shown_at_the_showdown() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "call")
    act(game, "b", "fold")
    records = act(game, "c", "check") + check_down(game)
    order = [event.seat for event in events(records, "shown")]
    assert sorted(order) == ["a", "c"]
    holes = {"c": "4c 5d", "a": "6c 7d"}
    assert game.shown_hands() == (row("board", BOARD), *(row(s, holes[s]) for s in order))
    assert game.hidden_cards() == set(parse_cards("2c 3d"))  # b's folded cards
    assert_public(game)


def test_all_ins_shown_before_the_board_come_after_the_whole_board() -> None:
    game = table({"a": 100, "b": 300, "c": 600, "d": 1000})
    deal(game, ["Ks Kd", "Qs Qd", "Js Jd", "As Ad"], "2c 5h 8d 9c 3s")  # b, c, d, a
    act(game, "d", "raise", 40)
    act(game, "a", "all_in")
    act(game, "b", "all_in")
    act(game, "c", "all_in")
    records = act(game, "d", "call")
    order = [event.seat for event in events(records, "shown")]
    assert order == ["c", "d", "a", "b"]  # pokerkit's showdown order
    assert game.shown_hands() == (
        row("board", "2c 5h 8d 9c 3s"),
        row("c", "Qs Qd"),
        row("d", "Js Jd"),
        row("a", "As Ad"),
        row("b", "Ks Kd"),
    )
    assert_public(game)


def test_a_hand_won_by_folds_before_the_flop_shows_nothing() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "raise", 100)
    act(game, "b", "fold")
    records = act(game, "c", "fold")
    assert records[0].hand_over
    assert game.shown_hands() == ()
    assert game.hidden_cards() == set(parse_cards(" ".join(THREE)))


def test_a_hand_won_by_folds_after_the_flop_shows_the_board_only() -> None:
    game = table({"a": 1000, "b": 1000, "c": 1000})
    deal(game, THREE, BOARD)
    act(game, "a", "call")
    act(game, "b", "call")
    act(game, "c", "check")
    act(game, "b", "check")
    act(game, "c", "check")
    act(game, "a", "check")  # the turn is dealt
    act(game, "b", "bet", 100)
    act(game, "c", "fold")
    records = act(game, "a", "fold")
    assert records[0].hand_over and events(records, "shown") == []
    assert game.shown_hands() == (row("board", "Ts Js Ks 2h"),)
    assert game.hidden_cards() == set(parse_cards(" ".join(THREE)))
    assert_public(game)


def test_the_picture_stays_until_the_next_deal_and_survives_a_restart() -> None:
    game = table({"a": 1000, "b": 1000}, npc="a")
    deal(game, ["As Kd", "7c 7d"], "7s 2h 9c Qd 3s")
    check_down(game)  # a (the NPC) wins with three sevens: b lost the hand to it
    shown = game.shown_hands()
    assert len(shown) == 3
    game.apply(Move(kind="won_back", target="b"))
    assert game.shown_hands() == shown
    assert Holdem.model_validate_json(game.model_dump_json()).shown_hands() == shown
    deal(game, ["2c 3d", "4c 5d"], BOARD)
    assert game.shown_hands() == ()
