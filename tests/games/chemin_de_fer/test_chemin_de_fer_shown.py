"""The cards a chemin de fer coup shows when it ends (`shown_hands`): the ponte's hand under
the seat that held it, then the bank's under the banker's seat, each with its total."""

from __future__ import annotations

import json

from cdf_helpers import Desk, coup, game, two

from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.contract import ShownHand
from bondbot.rules.cards import parse_cards

CHIPS = 100_000


def ponte(whose: str, codes: str, total: int) -> ShownHand:
    """The row of the hand played against the bank (its holder's seat, or "player")."""
    return ShownHand(whose, tuple(parse_cards(codes)), total, "player")


def bank(whose: str, codes: str, total: int) -> ShownHand:
    return ShownHand(whose, tuple(parse_cards(codes)), total, "banker")


def desk_of(cards: list[str], seats: tuple[str, ...], banker: str, **settings: object) -> Desk:
    stacks = {seat: (None if seat == "npc" else CHIPS) for seat in seats}
    return Desk(game(cards, seats, banker, **settings), stacks)


def test_nothing_is_shown_before_a_coup_ends():
    cards = [*coup(["5h", "Kh"], ["3d", "3c"]), "4c", "Kc"]
    desk = desk_of(cards, ("npc", "a", "b"), "npc", drawing="classic")
    assert desk.engine.shown_hands() == ()
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 400)
    desk.do("pass", "b")
    assert desk.engine.shown_hands() == ()
    (dealt,) = desk.auto()
    assert not dealt.hand_over and desk.engine.phase == "ponte"
    assert desk.engine.shown_hands() == ()  # the cards are face down: nothing is over
    desk.do("draw", "a")
    assert desk.engine.shown_hands() == ()
    record = desk.do("draw", "npc")
    assert record.hand_over
    # ponte 5 draws a 4: 9; the bank's 6 draws a ten: 6
    assert desk.engine.shown_hands() == (
        ponte("a", "5h Kh 4c", 9),
        bank("npc", "3d 3c Kc", 6),
    )
    assert desk.engine.hidden_cards() == set()


def test_a_fixed_coup_shows_both_hands_with_their_third_cards():
    # ponte 4 draws a 2 (6); the bank's 3, the ponte's third a 2: draws a 3 (6), a tie
    cards = [*coup(["Ah", "3h"], ["Kd", "3d"]), "2c", "3s"]
    desk = desk_of(cards, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("pass", "a")  # a, first to the banker's right, passes: b holds the hand
    desk.do("stake", "b", 300)
    (record,) = desk.auto()
    assert record.hand_over
    assert desk.engine.shown_hands() == (
        ponte("b", "Ah 3h 2c", 6),
        bank("npc", "Kd 3d 3s", 6),
    )


def test_an_abattage_shows_the_two_hands_of_two_cards():
    cards = coup(two(3, "h"), two(9, "d"))
    desk = desk_of(cards, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 1_000)
    (record,) = desk.auto()
    assert record.hand_over
    assert desk.engine.shown_hands() == (
        ShownHand("a", tuple(parse_cards(" ".join(two(3, "h")))), 3, "player"),
        ShownHand("npc", tuple(parse_cards(" ".join(two(9, "d")))), 9, "banker"),
    )
    shown = {card for hand in desk.engine.shown_hands() for card in hand.cards}
    assert not shown & desk.engine.hidden_cards()


def test_a_pc_banker_shows_under_his_own_seat_and_the_npc_ponte_under_its_own():
    cards = [*coup(["5h", "Kh"], ["4d", "2d"]), "4c", "Kc"]
    desk = desk_of(cards, ("a", "npc"), "a", drawing="classic")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "npc", 500)
    desk.auto()
    desk.npc()  # the NPC holds the hand and draws at 5
    assert desk.engine.shown_hands() == ()
    record = desk.do("stand", "a")  # the PC banker stands on 6 after a 4
    assert record.hand_over
    assert desk.engine.shown_hands() == (
        ponte("npc", "5h Kh 4c", 9),
        bank("a", "4d 2d", 6),
    )
    shown = {card for hand in desk.engine.shown_hands() for card in hand.cards}
    assert not shown & desk.engine.hidden_cards()


def test_the_hand_holder_is_the_banco_caller():
    cards = coup(two(9, "h"), two(3, "d"))
    desk = desk_of(cards, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 500)
    desk.do("banco", "b")
    desk.auto()
    assert [hand.whose for hand in desk.engine.shown_hands()] == ["b", "npc"]


def test_the_banker_is_who_held_the_bank_during_the_coup_not_after_it_passed():
    cards = coup(two(9, "h"), two(3, "d"))  # the ponte wins: the bank passes to a
    desk = desk_of(cards, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 500)
    desk.do("pass", "b")
    desk.auto()
    assert desk.engine.banker == "a"
    assert [hand.whose for hand in desk.engine.shown_hands()] == ["a", "npc"]


def test_only_the_last_coup_until_another_ends_and_nothing_after_a_coup_nobody_played():
    first = coup(["9h", "Kh"], ["3d", "Kd"])  # ponte 9, bank 3
    second = coup(["8h", "Kh"], ["8d", "Kd"])  # 8 and 8: a tie
    desk = desk_of(first + second, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 500)
    desk.do("pass", "b")
    desk.auto()
    after_first = (ponte("a", "9h Kh", 9), bank("npc", "3d Kd", 3))
    assert desk.engine.shown_hands() == after_first
    desk.do("bank", "a", 1_000)  # the bank passed to a
    desk.do("stake", "b", 400)
    assert desk.engine.shown_hands() == after_first  # still the last coup that ended
    desk.do("stake", "npc", 300)
    (record,) = desk.auto()
    assert record.hand_over
    assert desk.engine.shown_hands() == (ponte("b", "8h Kh", 8), bank("a", "8d Kd", 8))
    desk.do("keep", "a")
    desk.do("pass", "b")
    desk.do("pass", "npc")
    (nothing,) = desk.auto()
    assert nothing.move.kind == "no_play" and nothing.hand_over
    assert desk.engine.shown_hands() == ()  # the hand just over dealt no card
    assert desk.engine.last is not None  # the table message still tells the last coup


def test_a_saved_state_from_before_the_hook_still_loads():
    cards = coup(two(9, "h"), two(3, "d"))
    desk = desk_of(cards, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 500)
    desk.auto()
    data = json.loads(desk.engine.model_dump_json())
    del data["last_shown"]
    old = ChemindeFer.model_validate(data)
    assert old.last == desk.engine.last
    assert old.shown_hands() == ()  # not known to be the hand just over: nothing shown
