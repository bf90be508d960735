"""Blackjack engine: every rule of blackjack.md from stacked shoes, plus random-play properties.

Stacked shoes hold exactly the cards a round needs (top first): a dealer or player taking
one card too many raises ShoeEmpty, and `shoe.remaining == 0` checks nobody took too few.
American deal order for seats a, b: a1 b1 up a2 b2 hole; European: a1 b1 up a2 b2.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bondbot.rules.blackjack import (
    Action,
    Blackjack,
    BlackjackRules,
    HandResult,
    HandView,
    Outcome,
    Phase,
    hand_total,
)
from bondbot.rules.cards import Card, parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe, ShoeEmpty

AMERICAN = BlackjackRules()
EUROPEAN = BlackjackRules(deal="european")
EUROPEAN_ORIGINAL_ONLY = BlackjackRules(deal="european", european_lose_all=False)
H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER


def table(
    cards: str,
    bets: dict[str, int] | None = None,
    rules: BlackjackRules = AMERICAN,
    order: list[str] | None = None,
) -> Blackjack:
    """A dealt round from a stacked shoe."""
    game = Blackjack(Shoe.stacked(cards.split()), rules)
    for seat, amount in (bets or {"a": 1000}).items():
        game.place_bet(seat, amount)
    game.start_round(order)
    return game


def result(game: Blackjack, seat: str = "a", index: int = 0) -> HandResult:
    found = [r for r in game.results if (r.seat, r.hand_index) == (seat, index)]
    assert len(found) == 1, game.results
    return found[0]


def outcome(game: Blackjack, seat: str = "a", index: int = 0) -> tuple[Outcome, int]:
    found = result(game, seat, index)
    return found.outcome, found.net


def refused(code: str, call: Callable[..., Any], *args: Any, game: Blackjack) -> None:
    """The call raises IllegalAction(code) and leaves the game exactly as it was."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as caught:
        call(*args)
    assert caught.value.code == code
    assert game.to_dict() == before


def codes(cards: tuple[Card, ...]) -> str:
    return " ".join(card.code for card in cards)


# -- values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("As 6d", (17, True)),
        ("As 6d Th", (17, False)),
        ("As Ad", (12, True)),
        ("As Ad 9c", (21, True)),
        ("As Kd", (21, True)),
        ("Kd Qs 2c", (22, False)),
        ("Js Qd", (20, False)),
        ("As Ad As Ad 7c", (21, True)),
        ("5s 6d", (11, False)),
    ],
)
def test_hand_total_soft_and_hard(cards: str, expected: tuple[int, bool]) -> None:
    assert hand_total(parse_cards(cards)) == expected


@pytest.mark.parametrize(
    "bad",
    [
        {"packs": 0},
        {"packs": 9},
        {"max_hands": 1},
        {"max_hands": 5},
        {"deal": "asian"},
        {"split_by": "suit"},
        {"penetration": 0},
        {"blackjack_pays": (0, 1)},
    ],
)
def test_rules_refuse_bad_options(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        BlackjackRules(**bad)


def test_rules_defaults_and_round_trip() -> None:
    rules = BlackjackRules()
    assert (rules.packs, rules.penetration, rules.deal, rules.max_hands) == (6, 0.75, "american", 3)
    assert (rules.hit_soft_17, rules.surrender, rules.split_by) == (False, True, "value")
    assert rules.blackjack_pays == (3, 2) and rules.european_lose_all
    odd = BlackjackRules(deal="european", max_hands=4, blackjack_pays=(6, 5), split_by="rank")
    assert BlackjackRules.from_dict(json.loads(json.dumps(odd.to_dict()))) == odd


# -- deals -----------------------------------------------------------------------------


def test_american_deal_order_and_hidden_hole_card() -> None:
    game = table("2s 3s 4s 5s 6s 7s 8s 9s", {"a": 100, "b": 200})
    assert codes(game.hands("a")[0].cards) == "2s 5s"
    assert codes(game.hands("b")[0].cards) == "3s 6s"
    assert codes(game.dealer_cards) == "4s 7s"
    assert codes(game.dealer_visible) == "4s"
    assert game.dealer_up == Card.parse("4s")
    assert game.phase is Phase.PLAYING and game.current() == ("a", 0)
    game.act("a", S)
    assert game.current() == ("b", 0)
    game.act("b", S)  # dealer 11 draws 8s (19)
    assert codes(game.dealer_visible) == "4s 7s 8s"
    assert game.shoe.remaining == 1


def test_european_deal_gives_the_dealer_one_card() -> None:
    game = table("2s 3s 4s 5s 6s 7s 8s", {"a": 100, "b": 200}, EUROPEAN)
    assert codes(game.dealer_cards) == "4s"
    assert codes(game.hands("a")[0].cards) == "2s 5s"
    assert codes(game.hands("b")[0].cards) == "3s 6s"
    game.act("a", S)
    game.act("b", S)  # dealer 4 7 8 = 19
    assert codes(game.dealer_cards) == "4s 7s 8s"
    assert game.shoe.remaining == 0


def test_explicit_seat_order() -> None:
    game = table("2s 3s 4s 5s 6s 7s", {"a": 100, "b": 200}, order=["b", "a"])
    assert game.seats == ("b", "a")
    assert codes(game.hands("b")[0].cards) == "2s 5s"
    assert game.current() == ("b", 0)


# -- settlement table, one test per row ------------------------------------------------


def test_row_bust_loses_whatever_the_dealer_does() -> None:
    # a: T 6 hits K (bust); b: T 7 stands; dealer 6 T draws 9 and busts too.
    game = table("Ts Th 6s 6h 7h Td Ks 9s", {"a": 1000, "b": 1000})
    game.act("a", H)
    assert game.current() == ("b", 0)
    game.act("b", S)
    assert outcome(game, "a") == (Outcome.BUST, -1000)
    assert outcome(game, "b") == (Outcome.WIN, 1000)
    assert game.shoe.remaining == 0


def test_row_blackjack_against_no_blackjack_pays_3_to_2() -> None:
    game = table("As 9s Kd 7c", {"a": 1000})
    assert game.phase is Phase.SETTLED  # a blackjack stands, the dealer needs no card
    assert outcome(game) == (Outcome.BLACKJACK, 1500)
    assert game.dealer_net == -1500


def test_blackjack_on_odd_cents_rounds_for_the_house() -> None:
    game = table("As 9s Kd 7c", {"a": 1001})
    assert outcome(game) == (Outcome.BLACKJACK, 1501)


def test_row_blackjack_beats_the_dealers_21_in_three_cards() -> None:
    game = table("As Ts 6s Kd 8h 5c Td", {"a": 1000, "b": 1000})
    game.act("b", S)  # dealer 6 5 T = 21
    assert hand_total(game.dealer_cards) == (21, False)
    assert outcome(game, "a") == (Outcome.BLACKJACK, 1500)
    assert outcome(game, "b") == (Outcome.LOSE, -1000)


def test_row_blackjack_against_blackjack_pushes_ten_up() -> None:
    game = table("As Kh Kd Ac")
    assert game.phase is Phase.SETTLED
    assert outcome(game) == (Outcome.PUSH, 0)


def test_row_blackjack_against_blackjack_pushes_ace_up() -> None:
    game = table("As Ah Kd Kc")
    assert game.insurance_open
    game.insure("a", False)
    assert outcome(game) == (Outcome.PUSH, 0)


def test_row_dealer_blackjack_beats_any_other_hand_at_the_peek() -> None:
    game = table("Ts Kh Qd Ac", {"a": 1000})
    assert game.phase is Phase.SETTLED  # settled at the peek, before anyone acts
    assert outcome(game) == (Outcome.LOSE, -1000)
    assert len(result(game).cards) == 2


def test_row_dealer_blackjack_beats_21_in_three_cards_european() -> None:
    game = table("5s Tc 6d Th Ac", rules=EUROPEAN)
    game.act("a", H)  # 21 stands by itself
    assert game.phase is Phase.SETTLED
    assert outcome(game) == (Outcome.LOSE, -1000)


def test_row_dealer_blackjack_beats_two_21s_from_split_aces_european() -> None:
    game = table("As Tc Ad Kh Qd Ac", rules=EUROPEAN)
    game.act("a", P)
    assert [h.total for h in game.hands("a")] == [21, 21]
    assert not any(h.blackjack for h in game.hands("a"))
    assert outcome(game, "a", 0) == (Outcome.LOSE, -1000)
    assert outcome(game, "a", 1) == (Outcome.LOSE, -1000)


def test_row_total_against_dealer_bust_wins_even_money() -> None:
    game = table("Ts Td 7s 6h 8c")
    game.act("a", S)
    assert outcome(game) == (Outcome.WIN, 1000)


@pytest.mark.parametrize(
    ("player", "dealer", "expected"),
    [
        ("Ts Kd", "Th 9c", (Outcome.WIN, 1000)),
        ("Ts 8d", "Th 8c", (Outcome.PUSH, 0)),
        ("Ts 7d", "Th Kc", (Outcome.LOSE, -1000)),
    ],
)
def test_row_totals_higher_wins_equal_pushes(
    player: str, dealer: str, expected: tuple[Outcome, int]
) -> None:
    p1, p2 = player.split()
    d1, d2 = dealer.split()
    game = table(f"{p1} {d1} {p2} {d2}")
    game.act("a", S)
    assert outcome(game) == expected


# -- dealer ----------------------------------------------------------------------------


def test_dealer_draws_to_16_and_stands_on_17() -> None:
    game = table("Ts 9d 8s 7h Ad 2c")  # dealer 16, +A = 17 soft? 9 7 A = 17 hard
    game.act("a", S)
    assert codes(game.dealer_cards) == "9d 7h Ad"
    assert outcome(game) == (Outcome.WIN, 1000)
    assert game.shoe.remaining == 1


def test_dealer_stands_on_soft_17_by_default() -> None:
    game = table("Ts 6d 8s Ah 4c")
    game.act("a", S)
    assert codes(game.dealer_cards) == "6d Ah"
    assert outcome(game) == (Outcome.WIN, 1000)


def test_dealer_hits_soft_17_when_the_table_says_so() -> None:
    game = table("Ts 6d 8s Ah 4c", rules=BlackjackRules(hit_soft_17=True))
    game.act("a", S)
    assert codes(game.dealer_cards) == "6d Ah 4c"
    assert outcome(game) == (Outcome.LOSE, -1000)


def test_dealer_hitting_soft_17_still_stands_on_hard_17() -> None:
    game = table("Ts Td 8s 7h 4c", rules=BlackjackRules(hit_soft_17=True))
    game.act("a", S)
    assert codes(game.dealer_cards) == "Td 7h"


def test_peek_on_ten_value_up_card_without_blackjack_goes_on() -> None:
    game = table("9s Qh 8d 7c")
    assert game.phase is Phase.PLAYING and not game.insurance_open
    assert codes(game.dealer_visible) == "Qh"
    game.act("a", S)
    assert outcome(game) == (Outcome.PUSH, 0)


def test_dealer_takes_no_card_when_every_hand_is_bust_european() -> None:
    game = table("Ts 5d 6s Kh", rules=EUROPEAN)
    game.act("a", H)
    assert codes(game.dealer_cards) == "5d"
    assert outcome(game) == (Outcome.BUST, -1000)
    assert game.shoe.remaining == 0


# -- hit, stand, double ----------------------------------------------------------------


def test_hand_reaching_21_stands_by_itself() -> None:
    game = table("5s 9d 6s 8h Td", {"a": 1000})
    game.act("a", H)
    assert game.phase is Phase.SETTLED
    assert outcome(game) == (Outcome.WIN, 1000)


def test_double_takes_exactly_one_card_on_a_doubled_stake() -> None:
    game = table("5s 9d 6s 7h 2c Td")
    assert game.action_cost("a", D) == 1000
    game.act("a", D)
    hand = game.hands("a")[0]
    assert (codes(hand.cards), hand.stake, hand.doubled, hand.done) == (
        "5s 6s 2c",
        2000,
        True,
        True,
    )
    assert outcome(game) == (Outcome.WIN, 2000)  # dealer 9 7 T busts
    assert result(game).stake == 2000


@pytest.mark.parametrize("cards", ["As 8d", "Ts 7d", "Ts Kd", "2s 3d", "As 9d"])
def test_double_on_any_two_cards(cards: str) -> None:
    c1, c2 = cards.split()
    game = table(f"{c1} 9h {c2} 7c 5d 5h 5c")
    assert D in game.legal_actions("a")


def test_cannot_double_after_a_hit() -> None:
    game = table("2s 9d 3s 7h 4c Td")
    game.act("a", H)
    assert game.legal_actions("a") == [H, S]
    refused("blackjack.cannot_double", game.act, "a", D, game=game)
    refused("blackjack.cannot_surrender", game.act, "a", R, game=game)
    refused("blackjack.cannot_split", game.act, "a", P, game=game)


# -- splits ----------------------------------------------------------------------------


def test_split_deals_the_second_hand_when_it_is_reached_and_doubles_after() -> None:
    game = table("8s 9d 8h 7c 3d Th 9s 2c")
    game.act("a", P)
    first, second = game.hands("a")
    assert codes(first.cards) == "8s 3d" and codes(second.cards) == "8h"
    assert first.split and second.split
    assert game.current() == ("a", 0)
    assert game.legal_actions("a") == [H, S, D]  # no surrender after a split
    game.act("a", D)  # 8 3 T = 21
    assert codes(game.hands("a")[1].cards) == "8h 9s"
    assert game.current() == ("a", 1)
    game.act("a", S)  # dealer 9 7 2 = 18
    assert outcome(game, "a", 0) == (Outcome.WIN, 2000)
    assert outcome(game, "a", 1) == (Outcome.LOSE, -1000)
    assert game.shoe.remaining == 0


def test_ten_values_pair_by_value_by_default_and_by_rank_per_table() -> None:
    assert P in table("Ks 9d Qh 7c").legal_actions("a")
    by_rank = BlackjackRules(split_by="rank")
    assert P not in table("Ks 9d Qh 7c", rules=by_rank).legal_actions("a")
    refused(
        "blackjack.cannot_split",
        (game := table("Ks 9d Qh 7c", rules=by_rank)).act,
        "a",
        P,
        game=game,
    )
    assert P in table("Ks 9d Kh 7c", rules=by_rank).legal_actions("a")


def test_resplit_up_to_three_hands_by_default() -> None:
    # dealer 6 T; a: 8 8 → split → 8 8 → split → 8 T | 8 8 | 8 2
    game = table("8s 6d 8h Tc 8d Td 8c 2s Kh", {"a": 1000})
    game.act("a", P)
    assert P in game.legal_actions("a")
    game.act("a", P)
    assert [codes(h.cards) for h in game.hands("a")] == ["8s Td", "8d", "8h"]
    game.act("a", S)
    assert codes(game.hands("a")[1].cards) == "8d 8c"
    assert P not in game.legal_actions("a")
    refused("blackjack.cannot_split", game.act, "a", P, game=game)
    game.act("a", S)
    game.act("a", S)  # 8 2: dealer 16 draws K and busts
    assert [r.net for r in game.results] == [1000, 1000, 1000]


def test_resplit_to_four_hands_when_the_table_allows() -> None:
    game = table("8s 6d 8h Tc 8d 8c Td 9s 9h 9d Kh", rules=BlackjackRules(max_hands=4))
    game.act("a", P)
    game.act("a", P)
    game.act("a", P)
    assert len(game.hands("a")) == 4
    for _ in range(4):
        assert P not in game.legal_actions("a")
        game.act("a", S)
    assert [r.outcome for r in game.results] == [Outcome.WIN] * 4
    assert sum(r.stake for r in game.results) == 4000


def test_no_resplit_with_two_hands_maximum() -> None:
    game = table("8s 6d 8h Tc 8d", rules=BlackjackRules(max_hands=2))
    game.act("a", P)
    assert codes(game.hands("a")[0].cards) == "8s 8d"
    assert P not in game.legal_actions("a")


def test_split_aces_take_one_card_each_and_cannot_resplit() -> None:
    game = table("As Ts 9d Ah 7c 9h Kh Ac 2d", {"a": 1000, "b": 1000})
    game.act("a", P)
    first, second = game.hands("a")
    assert codes(first.cards) == "As Kh" and codes(second.cards) == "Ah Ac"
    assert first.done and second.done
    assert game.current() == ("b", 0)  # no resplit of A A, no more card
    game.act("b", S)  # dealer 9 7 2 = 18
    assert outcome(game, "a", 0) == (Outcome.WIN, 1000)  # 21 on split aces pays 1:1
    assert result(game, "a", 0).outcome is not Outcome.BLACKJACK
    assert outcome(game, "a", 1) == (Outcome.LOSE, -1000)  # soft 12


# -- surrender -------------------------------------------------------------------------


def test_late_surrender_gives_up_half_after_the_peek() -> None:
    game = table("Ts Td 6s 7h")
    assert R in game.legal_actions("a")
    game.act("a", R)
    assert outcome(game) == (Outcome.SURRENDER, -500)
    assert codes(game.dealer_cards) == "Td 7h"  # nothing live: the dealer draws nothing
    assert game.shoe.remaining == 0


def test_surrender_of_an_odd_stake_rounds_for_the_house() -> None:
    game = table("Ts Td 6s 7h", {"a": 1001})
    game.act("a", R)
    assert outcome(game) == (Outcome.SURRENDER, -501)


def test_no_surrender_before_the_peek_nor_against_a_dealer_blackjack() -> None:
    game = table("Ts As 6s Kh")
    assert game.insurance_open and game.legal_actions("a") == []
    refused("blackjack.not_playing", game.act, "a", R, game=game)
    game.insure("a", False)
    assert outcome(game) == (Outcome.LOSE, -1000)  # the whole wager, not half


def test_surrender_only_on_the_first_two_cards_and_per_table() -> None:
    game = table("2s 9d 3s 7h 4c")
    game.act("a", H)
    assert R not in game.legal_actions("a")
    no_surrender = table("Ts 9d 6s 7h", rules=BlackjackRules(surrender=False))
    assert no_surrender.legal_actions("a") == [H, S, D]
    refused("blackjack.cannot_surrender", no_surrender.act, "a", R, game=no_surrender)


def test_european_surrender_loses_half_even_against_a_dealer_blackjack() -> None:
    game = table("Ts 9c Td 6s 9h Ac", {"a": 1000, "b": 1000}, EUROPEAN)
    game.act("a", R)
    game.act("b", S)  # dealer T then A
    assert outcome(game, "a") == (Outcome.SURRENDER, -500)
    assert outcome(game, "b") == (Outcome.LOSE, -1000)


# -- insurance -------------------------------------------------------------------------


def test_insurance_pays_2_to_1_at_the_american_peek() -> None:
    game = table("Ts Ah 9d Kc")
    assert game.insurance_open and game.insurance_pending == ("a",)
    assert game.insurance_cost("a") == 500
    game.insure("a", True)
    assert game.phase is Phase.SETTLED
    assert outcome(game) == (Outcome.LOSE, -1000)
    assert game.insurance_results == {"a": 1000}
    assert game.seat_net("a") == 0 and game.dealer_net == 0


def test_insurance_is_lost_at_the_american_peek_then_play_goes_on() -> None:
    game = table("Ts Ah 9d 7c")
    game.insure("a", True)
    assert game.phase is Phase.PLAYING
    assert game.insurance_results == {"a": -500}
    game.act("a", S)  # 19 against soft 18
    assert outcome(game) == (Outcome.WIN, 1000)
    assert game.seat_net("a") == 500
    assert game.dealer_net == -500


def test_insurance_waits_for_every_seat() -> None:
    game = table("Ts 9s Ah 9d 8d 7c", {"a": 1000, "b": 400})
    game.insure("b", True)
    assert game.insurance_pending == ("a",) and game.current() is None
    refused("blackjack.already_answered", game.insure, "b", False, game=game)
    refused("blackjack.not_seated", game.insure, "z", False, game=game)
    game.insure("a", False)
    assert game.current() == ("a", 0)
    assert game.insurance_results == {"b": -200}
    refused("blackjack.no_insurance", game.insure, "a", True, game=game)


def test_no_insurance_without_an_ace_up_and_none_too_small() -> None:
    game = table("Ts Kh 9d 7c")
    refused("blackjack.no_insurance", game.insure, "a", True, game=game)
    tiny = table("Ts Ah 9d 7c", {"a": 1})
    refused("blackjack.insurance_too_small", tiny.insure, "a", True, game=tiny)
    tiny.insure("a", False)
    assert tiny.phase is Phase.PLAYING


def test_european_insurance_stays_open_until_the_second_card() -> None:
    game = table("Ts Ah 9d Kc", rules=EUROPEAN)
    game.insure("a", True)
    assert game.phase is Phase.PLAYING and game.insurance_results == {}
    game.act("a", S)
    assert outcome(game) == (Outcome.LOSE, -1000)
    assert game.insurance_results == {"a": 1000}
    assert game.seat_net("a") == 0


def test_european_insurance_lost_when_the_second_card_is_no_blackjack() -> None:
    game = table("Ts Ah 9d 7c", rules=EUROPEAN)
    game.insure("a", True)
    game.act("a", S)
    assert game.insurance_results == {"a": -500}
    assert outcome(game) == (Outcome.WIN, 1000)


def test_european_insured_double_insures_the_added_wager() -> None:
    game = table("6s Ah 5d 9c Kc", rules=EUROPEAN)
    game.insure("a", True)
    assert game.action_cost("a", D) == 1500
    game.act("a", D)
    assert game.insurance("a") == 1000
    assert outcome(game) == (Outcome.LOSE, -2000)
    assert game.insurance_results == {"a": 2000}
    assert game.seat_net("a") == 0


def test_european_insured_split_insures_the_added_wager() -> None:
    game = table("8s Ah 8d 2c Kd Tc Kc", rules=EUROPEAN)
    game.insure("a", True)
    assert game.action_cost("a", P) == 1500
    game.act("a", P)
    assert game.insurance("a") == 1000
    game.act("a", S)
    game.act("a", S)
    assert [r.net for r in game.results] == [-1000, -1000]
    assert game.insurance_results == {"a": 2000} and game.seat_net("a") == 0


def test_european_original_only_does_not_insure_the_added_wager() -> None:
    game = table("6s Ah 5d 9c Kc", rules=EUROPEAN_ORIGINAL_ONLY)
    game.insure("a", True)
    assert game.action_cost("a", D) == 1000
    game.act("a", D)
    assert game.insurance("a") == 500
    assert outcome(game) == (Outcome.LOSE, -1000)
    assert game.insurance_results == {"a": 1000} and game.seat_net("a") == 0


def test_uninsured_double_costs_only_the_stake_european() -> None:
    game = table("6s Ah 5d 9c Kc", rules=EUROPEAN)
    game.insure("a", False)
    assert game.action_cost("a", D) == 1000
    assert game.action_cost("a", H) == 0 and game.action_cost("b", D) == 0


# -- European losses to a dealer blackjack ---------------------------------------------


@pytest.mark.parametrize(("rules", "net"), [(EUROPEAN, -2000), (EUROPEAN_ORIGINAL_ONLY, -1000)])
def test_european_dealer_blackjack_and_a_double(rules: BlackjackRules, net: int) -> None:
    game = table("6s Td 5d 9c Ac", rules=rules)
    game.act("a", D)
    assert outcome(game) == (Outcome.LOSE, net)
    assert result(game).stake == 2000


@pytest.mark.parametrize(
    ("rules", "nets"),
    [(EUROPEAN, [-2000, -1000]), (EUROPEAN_ORIGINAL_ONLY, [-1000, 0])],
)
def test_european_dealer_blackjack_and_a_split(rules: BlackjackRules, nets: list[int]) -> None:
    # 8 8 split: 8 3 doubled (T), 8 9 stands; dealer T then A.
    game = table("8s Td 8h 3c Th 9s Ac", rules=rules)
    game.act("a", P)
    game.act("a", D)
    game.act("a", S)
    assert [r.net for r in game.results] == nets
    assert game.seat_net("a") == sum(nets)


def test_european_original_only_busts_stay_lost() -> None:
    game = table("8s Td 8h 6c Kh 9s Ac", rules=EUROPEAN_ORIGINAL_ONLY)
    game.act("a", P)
    game.act("a", H)  # 8 6 K bust
    game.act("a", S)  # 8 9
    assert outcome(game, "a", 0) == (Outcome.BUST, -1000)
    assert outcome(game, "a", 1) == (Outcome.LOSE, -1000)


def test_european_player_blackjack_pushes_a_dealer_blackjack() -> None:
    game = table("As Th Td Kd 9s Ac", {"a": 1000, "b": 1000}, EUROPEAN)
    assert game.current() == ("b", 0)
    game.act("b", S)
    assert outcome(game, "a") == (Outcome.PUSH, 0)
    assert outcome(game, "b") == (Outcome.LOSE, -1000)


# -- refusals --------------------------------------------------------------------------


def test_betting_refusals() -> None:
    game = Blackjack(Shoe.stacked(parse_cards("Ts 9d 8s 7h")))
    refused("blackjack.no_bets", game.start_round, game=game)
    for bad in (0, -5, 1.5, True, "10"):
        refused("blackjack.bad_amount", game.place_bet, "a", bad, game=game)
    game.place_bet("a", 1000)
    refused("blackjack.already_bet", game.place_bet, "a", 500, game=game)
    refused("blackjack.bad_seat_order", game.start_round, ["a", "b"], game=game)
    refused("blackjack.not_seated", game.cancel_bet, "b", game=game)
    refused("blackjack.not_playing", game.act, "a", S, game=game)
    refused("blackjack.not_settled", game.next_round, game=game)
    game.cancel_bet("a")
    assert game.seats == ()
    game.place_bet("a", 1000)
    game.start_round()
    refused("blackjack.not_betting", game.place_bet, "b", 100, game=game)
    refused("blackjack.not_betting", game.start_round, game=game)


def test_turn_refusals() -> None:
    game = table("Ts 9s 9d 8d 7h 7c", {"a": 1000, "b": 1000})
    refused("blackjack.not_your_turn", game.act, "b", S, game=game)
    refused("blackjack.not_your_turn", game.act, "z", S, game=game)
    refused("blackjack.unknown_action", game.act, "a", "fold", game=game)
    refused("blackjack.cannot_split", game.act, "a", P, game=game)
    assert game.legal_actions("b") == []
    game.act("a", "stand")  # plain strings are accepted
    assert game.current() == ("b", 0)


def test_replace_shoe_only_between_rounds() -> None:
    game = table("Ts 9s 8s 7s")
    refused("blackjack.mid_round", game.replace_shoe, Shoe.stacked(["2s"]), game=game)


def test_never_reshuffles_mid_round_and_refuses_a_round_past_the_cut() -> None:
    shoe = Shoe(parse_cards("Ts 9d 8s 7h 4c 3s 2d 5h 6h"), cut=2)
    game = Blackjack(shoe)
    game.place_bet("a", 1000)
    game.start_round()
    assert game.needs_shuffle  # past the cut, but the round goes on from the same shoe
    game.act("a", H)  # 18 + 4 = 22
    assert game.shoe is shoe and shoe.position == 5
    game.next_round()
    game.place_bet("a", 1000)
    refused("blackjack.shoe_past_cut", game.start_round, game=game)
    game.replace_shoe(Shoe.stacked(parse_cards("Ts 9d 8s 7h")))
    assert not game.needs_shuffle
    game.start_round()
    assert codes(game.hands("a")[0].cards) == "Ts 8s"


def test_a_stacked_shoe_too_short_raises() -> None:
    game = table("Ts 9d 6s 7h")
    with pytest.raises(ShoeEmpty):
        game.act("a", H)


# -- Hero Point: winning back a lost hand ----------------------------------------------


def test_won_back_turns_a_lost_hand_into_an_even_money_win() -> None:
    game = table("Ts Td 7s 9h")
    game.act("a", S)
    lost = result(game)
    assert lost.outcome is Outcome.LOSE and game.lost_hands("a") == [lost]
    won = game.won_back(lost)
    assert (won.outcome, won.net, won.won_back) == (Outcome.WIN, 1000, True)
    assert result(game) == won and game.lost_hands("a") == []
    assert game.seat_net("a") == 1000 and game.dealer_net == -1000
    refused("blackjack.already_won_back", game.won_back, lost, game=game)
    refused("blackjack.already_won_back", game.won_back, won, game=game)


def test_won_back_pays_a_doubled_hand_on_its_double_stake() -> None:
    game = table("5s Td 6s 9h 2c")
    game.act("a", D)  # 13 against 19
    assert game.won_back(result(game)).net == 2000


def test_won_back_a_bust() -> None:
    game = table("Ts Td 6s 9h Kc")
    game.act("a", H)
    assert game.won_back(result(game)).net == 1000


def test_won_back_each_split_hand_on_its_own() -> None:
    game = table("8s Td 8h 9h 2c 3d")
    game.act("a", P)
    game.act("a", S)  # 8 2
    game.act("a", S)  # 8 3
    assert len(game.lost_hands("a")) == 2
    game.won_back(result(game, "a", 1))
    assert game.lost_hands("a") == [result(game, "a", 0)]
    assert [r.net for r in game.results] == [-1000, 1000]


def test_won_back_refusals() -> None:
    game = table("Ts Td 6s 9h", {"a": 1000})
    refused(
        "blackjack.not_settled",
        game.won_back,
        HandResult("a", 0, (), 1, Outcome.LOSE, -1),
        game=game,
    )
    game.act("a", R)
    refused("blackjack.cannot_win_back_surrender", game.won_back, result(game), game=game)
    assert game.lost_hands("a") == []
    winner = table("Ts 9d Ks 8h")
    winner.act("a", S)
    refused("blackjack.not_lost", winner.won_back, result(winner), game=winner)
    stranger = HandResult("a", 1, result(winner).cards, 1000, Outcome.LOSE, -1000)
    refused("blackjack.unknown_hand", winner.won_back, stranger, game=winner)


def test_insurance_is_not_a_hand_to_win_back() -> None:
    game = table("Ts Ah 9d 7c")
    game.insure("a", True)
    game.act("a", S)
    assert game.insurance_results == {"a": -500}
    assert game.lost_hands("a") == []


def test_original_only_pushed_split_hand_cannot_be_won_back() -> None:
    game = table("8s Td 8h 3c Th 9s Ac", rules=EUROPEAN_ORIGINAL_ONLY)
    game.act("a", P)
    game.act("a", D)
    game.act("a", S)
    refused("blackjack.not_lost", game.won_back, result(game, "a", 1), game=game)
    assert game.won_back(result(game, "a", 0)).net == 2000


# -- serialisation ---------------------------------------------------------------------


def assert_round_trip(game: Blackjack) -> None:
    data = game.to_dict()
    copy = Blackjack.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data
    assert copy.phase == game.phase and copy.current() == game.current()


def test_round_trip_at_every_phase() -> None:
    game = Blackjack(Shoe.stacked(parse_cards("8s 9s Ah 8h 9d Kc 3d 8c 2c 4d 5h")), EUROPEAN)
    assert_round_trip(game)
    game.place_bet("a", 1000)
    game.place_bet("b", 500)
    assert_round_trip(game)
    game.start_round()
    assert game.insurance_open
    assert_round_trip(game)
    game.insure("a", True)
    assert_round_trip(game)
    game.insure("b", False)
    game.act("a", P)
    assert_round_trip(game)
    game.act("a", S)
    game.act("a", S)
    game.act("b", S)
    assert game.phase is Phase.SETTLED
    assert_round_trip(game)
    lost = game.lost_hands("a")
    game.won_back(lost[0])
    assert_round_trip(game)


def test_round_trip_of_a_shuffled_shoe_keeps_the_seed_secret_in_the_dict() -> None:
    game = Blackjack(Shoe.shuffled(6, b"k" * 32, 0.75))
    game.place_bet("a", 1000)
    game.start_round()
    data = game.to_dict()
    assert "cards" not in data["shoe"]
    assert_round_trip(game)


def test_hand_view() -> None:
    view = HandView(tuple(parse_cards("As Kd")), 10, False, False, False, True)
    assert view.blackjack and view.total == 21 and view.soft
    assert not HandView(tuple(parse_cards("As Kd")), 10, True, False, False, True).blackjack


# -- properties from random play -------------------------------------------------------

SEATS = ("a", "b", "c")


def must_hit(rules: BlackjackRules, cards: list[Card]) -> bool:
    total, soft = hand_total(cards)
    return total < 17 or (total == 17 and soft and rules.hit_soft_17)


def expected_nets(
    rules: BlackjackRules, bet: int, hands: tuple[HandView, ...], dealer: list[Card]
) -> list[int]:
    """The settlement table, written from blackjack.md without the engine's code."""
    dealer_total = hand_total(dealer)[0]
    dealer_bj = len(dealer) == 2 and dealer_total == 21
    nets: list[int] = []
    original_lost = False
    for hand in hands:
        if hand.surrendered:
            nets.append(-((hand.stake + 1) // 2))
        elif hand.total > 21:
            nets.append(-hand.stake)
        elif hand.blackjack:
            nets.append(0 if dealer_bj else hand.stake + hand.stake // 2)
        elif dealer_bj and rules.deal == "european" and not rules.european_lose_all:
            nets.append(0 if original_lost else -bet)
            original_lost = True
        elif dealer_bj:
            nets.append(-hand.stake)
        elif dealer_total > 21:
            nets.append(hand.stake)
        else:
            nets.append((hand.total > dealer_total) - (hand.total < dealer_total))
            nets[-1] *= hand.stake
    return nets


class Ledger:
    """Money each seat put on the table this round, counted from the actions taken."""

    def __init__(self) -> None:
        self.put_in: dict[str, int] = {}
        self.round_start = 0
        self.checked = False


def step(game: Blackjack, choice: int, ledger: Ledger | None = None) -> None:
    """One engine call, chosen from the state and `choice` only (so it can be replayed)."""
    rules = game.rules
    if game.phase is Phase.BETTING:
        if game.needs_shuffle:
            seed = hashlib.sha256(game.shoe.seed or b"").digest()
            game.replace_shoe(Shoe.shuffled(rules.packs, seed, game.shoe.cut / (52 * rules.packs)))
        elif game.seats and (choice % 3 == 0 or len(game.seats) == max_seats(rules)):
            if ledger:
                ledger.round_start = game.shoe.position
                ledger.checked = False
            game.start_round(list(reversed(game.seats)) if choice % 2 else None)
            if ledger:
                ledger.put_in = {seat: game.bet(seat) for seat in game.seats}
        else:
            game.place_bet(SEATS[len(game.seats)], 1 + choice % 5000)
    elif game.phase is Phase.INSURANCE:
        seat = game.insurance_pending[choice % len(game.insurance_pending)]
        take = choice % 2 == 0 and game.insurance_cost(seat) > 0
        game.insure(seat, take)
        if ledger and take:
            ledger.put_in[seat] += game.bet(seat) // 2
    elif game.phase is Phase.PLAYING:
        turn = game.current()
        assert turn is not None
        seat, index = turn
        legal = game.legal_actions(seat)
        assert legal[:2] == [H, S]
        action = legal[choice % len(legal)]
        if ledger and action in (D, P):
            stake = game.hands(seat)[index].stake
            ledger.put_in[seat] += stake
            if rules.deal == "european" and rules.european_lose_all and game.insurance(seat):
                ledger.put_in[seat] += stake // 2
        game.act(seat, action)
    else:
        lost = [r for seat in game.seats for r in game.lost_hands(seat)]
        if lost and choice % 2:
            game.won_back(lost[choice % len(lost)])
        else:
            game.next_round()


def max_seats(rules: BlackjackRules) -> int:
    return 1 if rules.packs == 1 else len(SEATS)


def check_settled(game: Blackjack, ledger: Ledger) -> None:
    rules = game.rules
    dealer = list(game.dealer_cards)
    on_table = list(dealer)
    for seat in game.seats:
        hands = game.hands(seat)
        assert 1 <= len(hands) <= rules.max_hands
        for hand in hands:
            on_table += hand.cards
            assert len(hand.cards) >= 2
            assert hand.stake == game.bet(seat) * (2 if hand.doubled else 1)
            if hand.doubled:
                assert len(hand.cards) == 3
            if hand.surrendered:
                assert len(hand.cards) == 2 and len(hands) == 1
            if hand.split and hand.cards[0].rank == "A":
                assert len(hand.cards) == 2
        results = [r for r in game.results if r.seat == seat]
        assert [r.cards for r in results] == [h.cards for h in hands]
        if not ledger.checked:
            expected = expected_nets(rules, game.bet(seat), hands, dealer)
            assert [r.net for r in results] == expected
        assert ledger.put_in[seat] == sum(h.stake for h in hands) + game.insurance(seat)
    dealt = game.shoe.dealt[ledger.round_start :]
    assert Counter(on_table) == Counter(dealt) and len(on_table) == len(dealt)
    if rules.packs == 1:
        assert len(set(on_table)) == len(on_table)
    for drawn in range(2, len(dealer)):
        assert must_hit(rules, dealer[:drawn])
    live = any(
        not h.surrendered and h.total <= 21 and not h.blackjack
        for seat in game.seats
        for h in game.hands(seat)
    )
    if live and not (len(dealer) == 2 and hand_total(dealer)[0] == 21):
        assert not must_hit(rules, dealer)
    paid_out = sum(r.stake + r.net for r in game.results)
    paid_out += sum(game.insurance(s) + net for s, net in game.insurance_results.items())
    assert game.dealer_net == sum(ledger.put_in.values()) - paid_out
    assert game.dealer_net == -sum(game.seat_net(seat) for seat in game.seats)
    ledger.checked = True


def test_random_play_checker_can_fail() -> None:
    """The checker catches a wrong payout (guards against a vacuous property)."""
    game = table("As 9s Kd 7c", {"a": 1000})
    ledger = Ledger()
    ledger.put_in = {"a": 1000}
    game._results[0] = HandResult("a", 0, game.results[0].cards, 1000, Outcome.BLACKJACK, 1000)
    with pytest.raises(AssertionError):
        check_settled(game, ledger)


rules_strategy = st.builds(
    BlackjackRules,
    packs=st.integers(1, 8),
    deal=st.sampled_from(["american", "european"]),
    european_lose_all=st.booleans(),
    hit_soft_17=st.booleans(),
    split_by=st.sampled_from(["value", "rank"]),
    max_hands=st.integers(2, 4),
    surrender=st.booleans(),
)


def random_choices(steps: int, seed: int) -> list[int]:
    """Many decisions per example, cheaply (Hypothesis draws the seed, not each choice)."""
    rng = random.Random(seed)
    return [rng.randrange(10**6) for _ in range(steps)]


def new_game(rules: BlackjackRules, seed: bytes) -> Blackjack:
    # leave at least 39 cards behind the cut (a 1-pack table seats one player): no shoe
    # runs dry in a round
    penetration = 0.25 if rules.packs == 1 else min(0.75, 1 - 60 / (52 * rules.packs))
    return Blackjack(Shoe.shuffled(rules.packs, seed, penetration), rules)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_strategy,
    seed=st.binary(min_size=16, max_size=16),
    steps=st.integers(50, 400),
    choice_seed=st.integers(0, 2**32),
)
def test_random_play_keeps_cards_and_money_straight(
    rules: BlackjackRules, seed: bytes, steps: int, choice_seed: int
) -> None:
    choices = random_choices(steps, choice_seed)
    game = new_game(rules, seed)
    ledger = Ledger()
    for choice in choices:
        step(game, choice, ledger)
        if game.phase is Phase.SETTLED:
            check_settled(game, ledger)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rules_strategy,
    seed=st.binary(min_size=16, max_size=16),
    steps=st.integers(1, 300),
    choice_seed=st.integers(0, 2**32),
    resume=st.integers(0, 10**6),
)
def test_serialising_at_any_step_gives_the_same_continuation(
    rules: BlackjackRules, seed: bytes, steps: int, choice_seed: int, resume: int
) -> None:
    choices = random_choices(steps, choice_seed)
    game = new_game(rules, seed)
    resume_at = resume % len(choices)
    snapshots = []
    for choice in choices:
        snapshots.append(game.to_dict())
        step(game, choice)
    resumed = Blackjack.from_dict(json.loads(json.dumps(snapshots[resume_at])))
    assert resumed.to_dict() == snapshots[resume_at]
    for index, choice in enumerate(choices[resume_at:], start=resume_at):
        assert resumed.to_dict() == snapshots[index]
        step(resumed, choice)
    assert resumed.to_dict() == game.to_dict()
