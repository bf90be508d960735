"""Hand names (eval7), and eval7 against pokerkit's own evaluator, which it replaces."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Label, StandardHighHand

from bondbot.games.holdem.hand import Eval7Hand
from bondbot.games.holdem.names import CATEGORIES, HandName, hand_name, strength
from bondbot.rules.cards import Card, cards_code, parse_cards

NAMES = [
    ("As Ks Qs Js Ts 2d 3c", HandName(category="straight_flush", ranks=("A",))),  # royal
    ("5d 4d 3d 2d Ad Kd Qc", HandName(category="straight_flush", ranks=("5",))),
    ("As 2d 3c 4h 5s Kd Kc", HandName(category="straight", ranks=("5",))),
    ("As Ad Ac Ah 2d 3c 4c", HandName(category="four_of_a_kind", ranks=("A",), kickers=("4",))),
    ("2h 3h 7h 9h Jh Qh 4c", HandName(category="flush", ranks=("Q",), kickers=tuple("J973"))),
    ("Kh Kd Ks 7c 7d 7h 3c", HandName(category="full_house", ranks=("K", "7"))),
    ("Kh Kd 7s 7c 2d 2h Qc", HandName(category="two_pair", ranks=("K", "7"), kickers=("Q",))),
]


@pytest.mark.parametrize(("cards", "name"), NAMES)
def test_hands_are_named_by_category_ranks_and_kickers(cards: str, name: HandName) -> None:
    assert hand_name(parse_cards(cards)) == name


LABELS = {
    Label.HIGH_CARD: "high_card",
    Label.ONE_PAIR: "pair",
    Label.TWO_PAIR: "two_pair",
    Label.THREE_OF_A_KIND: "three_of_a_kind",
    Label.STRAIGHT: "straight",
    Label.FLUSH: "flush",
    Label.FULL_HOUSE: "full_house",
    Label.FOUR_OF_A_KIND: "four_of_a_kind",
    Label.STRAIGHT_FLUSH: "straight_flush",
}
nine_cards = st.lists(st.sampled_from(Card.ALL), min_size=9, max_size=9, unique=True)


@settings(max_examples=300)
@given(cards=nine_cards)
def test_eval7_and_pokerkit_agree_on_categories_and_on_who_wins(cards: list[Card]) -> None:
    """Two hands on one board: pokerkit's own evaluator (StandardHighHand) gives the same
    category and the same winner as eval7, and so as our hand type at the showdown."""
    board, mine, theirs = cards[:5], cards[5:7], cards[7:]
    ours = [strength([*mine, *board]), strength([*theirs, *board])]
    plugged = [
        Eval7Hand.from_game(cards_code(h).replace(" ", ""), cards_code(board))
        for h in (mine, theirs)
    ]
    kits = [
        StandardHighHand.from_game(cards_code(hole).replace(" ", ""), cards_code(board))
        for hole in (mine, theirs)
    ]
    assert hand_name([*mine, *board]).category == LABELS[kits[0].entry.label]
    assert (ours[0] > ours[1], ours[0] == ours[1]) == (kits[0] > kits[1], kits[0] == kits[1])
    assert (plugged[0] > plugged[1], plugged[0] == plugged[1]) == (
        ours[0] > ours[1],
        ours[0] == ours[1],
    )


def test_categories_are_holdem_md_s_in_order() -> None:
    assert tuple(LABELS.values()) == CATEGORIES
