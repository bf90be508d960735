"""The cards a deux tableaux coup shows when it ends (`shown_hands`): the bank's hand under
the banker's seat, then each table dealt (right, then left) under its hand-holder's seat,
each with its total."""

from __future__ import annotations

import json

from deux_helpers import CHIPS, SEATS, Desk, deal, game, npc_banks, pc_bank, settled, two

from bondbot.games.contract import ShownHand
from bondbot.games.deux_tableaux.engine import DeuxTableaux
from bondbot.rules.cards import parse_cards


def row(role: str, whose: str, codes: list[str] | str, total: int) -> ShownHand:
    text = codes if isinstance(codes, str) else " ".join(codes)
    return ShownHand(whose, tuple(parse_cards(text)), total, role)


def bank(whose: str, codes: list[str] | str, total: int) -> ShownHand:
    return row("banker", whose, codes, total)


def right(whose: str, codes: list[str] | str, total: int) -> ShownHand:
    return row("right", whose, codes, total)


def left(whose: str, codes: list[str] | str, total: int) -> ShownHand:
    return row("left", whose, codes, total)


def shown_set(desk: Desk) -> set:
    return {card for hand in desk.engine.shown_hands() for card in hand.cards}


def test_nothing_is_shown_before_a_coup_ends():
    # right 5 (b chooses), left 5 (c chooses); banker 6
    cards = deal(two(5, "h"), two(5, "c"), two(6, "d"), "4h", "Kd")
    stacks = {seat: (None if seat == "npc" else CHIPS) for seat in SEATS}
    desk = Desk(game(cards, SEATS, npc_bank=1_000), stacks)
    assert desk.engine.shown_hands() == ()
    desk.auto()
    desk.do("stake", "b", 400, "right")  # a passes: b holds the right table
    desk.do("pass", "a")
    desk.do("stake", "c", 400, "left")
    assert desk.engine.shown_hands() == ()
    desk.auto()
    assert desk.engine.phase == "hands"
    assert desk.engine.shown_hands() == ()  # dealt face down: nothing is over
    desk.do("draw", "b")
    desk.do("stand", "c")
    assert desk.engine.phase == "banker" and desk.engine.shown_hands() == ()
    record = desk.do("stand", "npc")
    assert record.hand_over
    assert desk.engine.shown_hands() == (
        bank("npc", two(6, "d"), 6),
        right("b", [*two(5, "h"), "4h"], 9),
        left("c", two(5, "c"), 5),
    )
    assert desk.engine.hidden_cards() == set()


def test_the_rows_follow_the_table_message_bank_then_right_then_left():
    # right 4 draws a ten (4), left 3 draws a 7 (0); the bank's 5 draws a 2 (7)
    cards = deal(two(4, "h"), two(3, "c"), two(5, "d"), "Kh", "7c", "2s")
    desk = npc_banks(cards)
    desk.do("stake", "a", 300, "right")
    desk.do("stake", "c", 300, "left")
    desk.do("pass", "b")
    desk.auto()
    record = desk.do("draw", "npc")
    assert record.hand_over
    result = settled(record)
    assert [t.table for t in result.tables] == ["right", "left"]
    assert desk.engine.shown_hands() == (
        bank("npc", [*two(5, "d"), "2s"], 7),
        right("a", [*two(4, "h"), "Kh"], 4),
        left("c", [*two(3, "c"), "7c"], 0),
    )
    assert not shown_set(desk) & desk.engine.hidden_cards()


def test_naturals_decided_at_once_are_shown_with_the_rest():
    # right: natural 8; left: 4 draws a 7; the bank's 6 draws a 3 (9)
    cards = deal(two(8, "h"), two(4, "c"), two(6, "d"), "7c", "3d")
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("stake", "c", 400, "left")
    desk.do("pass", "b")
    desk.auto()
    assert desk.engine.shown_hands() == ()
    desk.do("draw", "npc")
    assert desk.engine.shown_hands() == (
        bank("npc", [*two(6, "d"), "3d"], 9),
        right("a", two(8, "h"), 8),
        left("c", [*two(4, "c"), "7c"], 1),
    )


def test_a_table_not_dealt_has_no_row():
    cards = deal(two(9, "h"), None, two(3, "d"))
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    (record,) = desk.auto()
    assert record.hand_over
    assert desk.engine.shown_hands() == (bank("npc", two(3, "d"), 3), right("a", two(9, "h"), 9))


def test_a_pc_banker_shows_under_his_seat_and_the_npc_ponte_under_its_own():
    desk = pc_bank(deal(two(9, "h"), two(9, "c"), two(3, "d")))
    (record,) = desk.auto()
    assert record.hand_over
    assert desk.engine.shown_hands() == (
        bank("b", two(3, "d"), 3),
        right("npc", two(9, "h"), 9),
        left("a", two(9, "c"), 9),
    )
    assert not shown_set(desk) & desk.engine.hidden_cards()


def test_a_banco_shows_both_tables_under_its_caller():
    cards = deal(two(3, "h"), two(2, "c"), two(9, "d"))
    desk = npc_banks(cards, seats=("npc", "a", "b"))
    desk.do("stake", "a", 300, "right")
    desk.do("banco", "b")
    desk.auto()
    assert [hand.whose for hand in desk.engine.shown_hands()] == ["npc", "b", "b"]


def test_a_banco_table_its_half_left_uncovered_still_shows_under_its_caller():
    cards = deal(two(3, "h"), two(2, "c"), two(9, "d"))
    stacks: dict[str, int | None] = {"npc": 1_000, "a": CHIPS, "b": CHIPS}
    desk = Desk(game(cards, ("npc", "a", "b"), npc_bank=1_000), stacks)
    desk.auto()
    desk.do("pass", "a")
    desk.do("banco", "b")
    desk.stacks["npc"] = 1  # a Hero Point paid meanwhile: the bank in play is 1 cent
    (record,) = desk.auto()
    left = [result for result in settled(record).tables if result.table == "left"]
    assert left[0].results == ()  # nothing of b's stake was covered on the left
    assert [hand.whose for hand in desk.engine.shown_hands()] == ["npc", "b", "b"]


def test_only_the_last_coup_and_nothing_after_a_hand_without_cards():
    first = deal(two(9, "h"), None, two(3, "d"))
    second = deal(None, two(8, "c"), two(8, "d"))
    desk = npc_banks(first + second)
    desk.do("stake", "a", 400, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    desk.auto()
    after_first = (bank("npc", two(3, "d"), 3), right("a", two(9, "h"), 9))
    assert desk.engine.shown_hands() == after_first
    desk.do("stake", "c", 300, "left")
    assert desk.engine.shown_hands() == after_first  # still the last coup that ended
    desk.do("pass", "a")
    desk.do("pass", "b")
    desk.auto()
    assert desk.engine.shown_hands() == (bank("npc", two(8, "d"), 8), left("c", two(8, "c"), 8))
    for seat in ("a", "b", "c"):
        desk.do("pass", seat)
    (nothing,) = desk.auto()
    assert nothing.move.kind == "no_play" and nothing.hand_over
    assert desk.engine.shown_hands() == ()
    assert desk.engine.last is not None  # the table message still tells the last coup


def test_nothing_after_a_pc_banker_withdraws():
    desk = pc_bank(deal(two(9, "h"), two(9, "c"), two(3, "d")))
    desk.auto()
    assert desk.engine.shown_hands() != ()
    withdrawn = desk.do("withdraw", "b")
    assert withdrawn.hand_over and desk.engine.shown_hands() == ()


def test_a_saved_state_from_before_the_hook_still_loads():
    desk = npc_banks(deal(two(9, "h"), None, two(3, "d")))
    desk.do("stake", "a", 400, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    desk.auto()
    data = json.loads(desk.engine.model_dump_json())
    del data["last_holders"]
    old = DeuxTableaux.model_validate(data)
    assert old.last == desk.engine.last
    assert old.shown_hands() == ()  # not known to be the hand just over: nothing shown
