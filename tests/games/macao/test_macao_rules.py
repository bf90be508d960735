"""Macao's pure rules against rules/macao.md: counting, who may draw, settling a wager.

Expectations are copied from the spec (and the seed's examples), not computed by the code.
"""

from __future__ import annotations

import pytest

from bondbot.games.macao.counting import Counting, card_value, hand_total, is_bust, natural_of
from bondbot.games.macao.drawing import (
    allowing_third,
    banker_may_draw,
    player_may_draw,
    recommended_banker_draw,
    recommended_draw,
)
from bondbot.games.macao.settlement import (
    Target,
    Verdict,
    Winner,
    natural_verdict,
    showdown_verdict,
    wager_net,
    won_back,
)
from bondbot.rules.cards import Card, parse_cards

M9, M10, BUST = Counting.MINUS9, Counting.MODULO10, Counting.BUST

# The seed's and macao.md's examples, with the same hands under the other two schemes:
# (cards, minus9, modulo10, bust: the plain sum, above 9 a bust).
EXAMPLES = [
    ("4s 7h", 2, 1, 11),  # 4+7 = 11 → 2
    ("9s 5h", 5, 4, 14),  # 14 → 5
    ("4s 6h", 1, 0, 10),  # 10 → 1
    ("Qs Kh", 0, 0, 0),  # queen and king are worth nothing
    ("As Ah", 2, 2, 2),  # a pair of aces counts 2
    ("9s 9h", 9, 8, 18),  # 18 → 9
    ("5s 5h 9d", 1, 9, 19),  # 19 loses 9 twice
    ("9s 9h 9d", 9, 7, 27),
]


@pytest.mark.parametrize(("cards", "minus9", "modulo10", "bust"), EXAMPLES)
def test_the_examples_under_each_counting(cards: str, minus9: int, modulo10: int, bust: int):
    hand = parse_cards(cards)
    assert hand_total(hand, M9) == minus9
    assert hand_total(hand, M10) == modulo10
    assert hand_total(hand, BUST) == bust
    assert is_bust(hand_total(hand, BUST)) == (bust > 9)
    assert not is_bust(hand_total(hand, M9)) and not is_bust(hand_total(hand, M10))


def test_card_values_ace_one_tens_and_faces_nothing():
    expected = {"A": 1, "T": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}
    assert {card.rank: card_value(card) for card in Card.ALL} == expected


@pytest.mark.parametrize(
    ("total", "cards", "natural"),
    [(7, 2, 7), (8, 2, 8), (9, 2, 9), (6, 2, None), (0, 2, None), (9, 3, None), (18, 2, None)],
)
def test_a_natural_is_a_two_card_seven_eight_or_nine(total: int, cards: int, natural: int | None):
    assert natural_of(total, cards) == natural


def test_player_drawing_rule():
    assert [player_may_draw(total) for total in range(10)] == [True] * 6 + [False] * 4
    assert [recommended_draw(total) for total in range(10)] == [True] * 5 + [False] * 5


# macao.md's restricted table: the player's third-card values that let the banker draw.
RESTRICTED = {
    3: {6, 7},
    4: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    5: {2, 3, 4, 5, 6, 7},
    6: {4, 5, 6, 7},
}


@pytest.mark.parametrize("banker", [3, 4, 5, 6])
@pytest.mark.parametrize("third", range(10))
def test_restricted_table_with_one_player(banker: int, third: int):
    assert banker_may_draw(banker, [third]) == (third in RESTRICTED[banker])


@pytest.mark.parametrize("banker", [3, 4, 5, 6])
def test_restricted_table_one_allowing_card_among_several_is_enough(banker: int):
    allowing = min(RESTRICTED[banker])
    forbidding = next(v for v in range(10) if v not in RESTRICTED[banker])
    assert not banker_may_draw(banker, [forbidding, forbidding])
    assert banker_may_draw(banker, [forbidding, allowing, forbidding])
    assert allowing_third(banker, [forbidding, allowing, allowing]) == 1
    assert allowing_third(banker, [forbidding]) is None


def test_banker_outside_the_restricted_table_follows_the_players_rule():
    for total in (0, 1, 2):
        assert all(banker_may_draw(total, [third]) for third in range(10))
        assert allowing_third(total, [5]) is None
    # Nobody drew: 0–5 may draw, 6 may not (7 and more are naturals).
    assert [banker_may_draw(total, []) for total in range(7)] == [True] * 6 + [False]
    assert not banker_may_draw(12, [6])  # a bust banker (under `bust`) never draws


def test_npc_banker_draws_on_0_to_2_on_3_and_4_unless_forbidden_stands_on_5_and_6():
    for third in range(10):
        assert all(recommended_banker_draw(total, [third]) for total in (0, 1, 2))
        assert recommended_banker_draw(3, [third]) == (third in (6, 7))
        assert recommended_banker_draw(4, [third]) == (third != 8)
        assert not recommended_banker_draw(5, [third]) and not recommended_banker_draw(6, [third])
    assert recommended_banker_draw(3, []) and recommended_banker_draw(4, [])
    assert not recommended_banker_draw(5, [])


MULTIPLE = {7: 1, 8: 2, 9: 3}


@pytest.mark.parametrize("player", [None, 7, 8, 9])
@pytest.mark.parametrize("banker", [None, 7, 8, 9])
def test_each_natural_against_each_banker_natural(player: int | None, banker: int | None):
    verdict = natural_verdict(player, banker)
    if player is None and banker is None:
        assert verdict is None
    elif (player or 0) > (banker or 0):
        assert verdict == Verdict(Winner.PLAYER, MULTIPLE[player])
    elif (banker or 0) > (player or 0):
        assert verdict == Verdict(Winner.BANKER, MULTIPLE[banker])
    else:
        assert verdict == Verdict(Winner.TIE)


def test_showdown_nearer_to_nine_wins_and_busts():
    assert showdown_verdict(6, 5).winner is Winner.PLAYER
    assert showdown_verdict(2, 5).winner is Winner.BANKER
    assert showdown_verdict(4, 4).winner is Winner.TIE
    assert showdown_verdict(12, 5).winner is Winner.BANKER  # the player busts
    assert showdown_verdict(3, 11).winner is Winner.PLAYER  # the banker busts
    assert showdown_verdict(10, 13).winner is Winner.BANKER  # both: the player busted first


# Each wager kind against each outcome, stake 100, tie 8:1 (and 9:1 for the tie wager).
@pytest.mark.parametrize(
    ("target", "winner", "net"),
    [
        (Target.OWN, Winner.PLAYER, 100),
        (Target.OWN, Winner.BANKER, -100),
        (Target.OWN, Winner.TIE, 0),
        (Target.BANKER, Winner.PLAYER, -100),
        (Target.BANKER, Winner.BANKER, 100),
        (Target.BANKER, Winner.TIE, 0),
        (Target.TIE, Winner.PLAYER, -100),
        (Target.TIE, Winner.BANKER, -100),
        (Target.TIE, Winner.TIE, 800),
    ],
)
def test_each_wager_against_each_outcome(target: Target, winner: Winner, net: int):
    assert wager_net(target, 100, Verdict(winner), 8) == net


def test_tie_odds_are_the_tables():
    assert wager_net(Target.TIE, 100, Verdict(Winner.TIE), 9) == 900


@pytest.mark.parametrize("multiple", [1, 2, 3])
@pytest.mark.parametrize("winner", [Winner.PLAYER, Winner.BANKER])
def test_the_banker_hand_wager_mirrors_the_own_hand_wager_multiples_included(
    multiple: int, winner: Winner
):
    verdict = Verdict(winner, multiple)
    own = wager_net(Target.OWN, 300, verdict, 8)
    assert abs(own) == 300 * multiple
    assert wager_net(Target.BANKER, 300, verdict, 8) == -own
    assert wager_net(Target.TIE, 300, verdict, 8) == -300  # the tie wager knows no multiple


@pytest.mark.parametrize(
    ("target", "net", "natural", "pay"),
    [
        (Target.OWN, -100, None, 200),  # lost 1:1, won back at 1:1
        (Target.BANKER, -100, None, 200),
        (Target.TIE, -100, None, 900),  # the stake back and the tie odds
        (Target.OWN, -300, None, 400),  # lost to a banker's natural 9: three stakes back
        (Target.OWN, -300, 8, 500),  # his own 8 lost to a 9: paid at his 8's double
        (Target.BANKER, -300, 9, 600),  # his own 9 beat his banker's-hand wager
    ],
)
def test_won_back_pays_what_was_lost_plus_the_win(
    target: Target, net: int, natural: int | None, pay: int
):
    assert won_back(target, 100, net, natural, 8) == pay


def test_won_back_only_for_a_lost_wager():
    with pytest.raises(ValueError):
        won_back(Target.OWN, 100, 0, None, 8)
