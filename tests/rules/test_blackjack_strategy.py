"""Basic strategy: the chart's cells, the fallbacks, and agreement with the engine."""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bondbot.rules.blackjack import VALUES, Action, Blackjack, BlackjackRules, hand_total
from bondbot.rules.blackjack_strategy import (
    HARD,
    PAIRS,
    SOFT,
    SURRENDER,
    UP_CARDS,
    basic_strategy,
    decide,
)
from bondbot.rules.cards import RANKS, Card, parse_cards
from bondbot.rules.shoe import Shoe

H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER
ALL = [H, S, D, P, R]
TWO_CARDS = [H, S, D, R]  # first two cards, not a pair


@pytest.mark.parametrize(
    ("grid", "allowed"),
    [
        (HARD, {"H", "S", "D"}),
        (SOFT, {"H", "S", "D", "Ds"}),
        (PAIRS, {"P", "."}),
        (SURRENDER, {"R", "."}),
    ],
)
def test_grids_are_ten_known_cells_a_row(grid: dict, allowed: set[str]) -> None:
    for row in grid.values():
        cells = row.split()
        assert len(cells) == len(UP_CARDS)
        assert set(cells) <= allowed


def advice(hand: str, up: str, legal: list[Action] | None = None) -> Action:
    return basic_strategy(parse_cards(hand), Card.parse(up), legal or ALL)


@pytest.mark.parametrize(
    ("hand", "up", "legal", "expected"),
    [
        ("5s 3d", "6h", TWO_CARDS, H),  # hard 8
        ("5s 4d", "3h", TWO_CARDS, D),  # hard 9
        ("5s 4d", "2h", TWO_CARDS, H),
        ("6s 4d", "9h", TWO_CARDS, D),  # hard 10
        ("6s 4d", "Th", TWO_CARDS, H),
        ("6s 5d", "Th", TWO_CARDS, D),  # hard 11
        ("6s 5d", "Ah", TWO_CARDS, H),  # S17: hit 11 against an Ace
        ("Ts 2d", "3h", TWO_CARDS, H),  # hard 12
        ("Ts 2d", "4h", TWO_CARDS, S),
        ("Ts 3d", "2h", TWO_CARDS, S),
        ("Ts 6d", "6h", TWO_CARDS, S),
        ("Ts 6d", "7h", TWO_CARDS, H),
        ("Ts 6d", "9h", TWO_CARDS, R),  # surrender 16 against 9, T, A
        ("Ts 6d", "Kh", TWO_CARDS, R),
        ("Ts 6d", "Ah", TWO_CARDS, R),
        ("Ts 5d", "Th", TWO_CARDS, R),  # and 15 against T
        ("Ts 5d", "Ah", TWO_CARDS, H),  # but not 15 against an Ace (S17)
        ("Ts 7d", "Ah", TWO_CARDS, S),  # nor 17 (S17)
        ("As 2d", "5h", TWO_CARDS, D),  # soft 13
        ("As 2d", "4h", TWO_CARDS, H),
        ("As 4d", "4h", TWO_CARDS, D),  # soft 15
        ("As 6d", "2h", TWO_CARDS, H),  # soft 17
        ("As 6d", "3h", TWO_CARDS, D),
        ("As 7d", "2h", TWO_CARDS, S),  # soft 18
        ("As 7d", "6h", TWO_CARDS, D),
        ("As 7d", "8h", TWO_CARDS, S),
        ("As 7d", "9h", TWO_CARDS, H),
        ("As 8d", "6h", TWO_CARDS, S),  # soft 19 stands (S17)
        ("As As", "Th", ALL, P),
        ("8s 8d", "Ah", ALL, P),  # split 8s against an Ace (S17), not surrender
        ("8s 8d", "Th", ALL, P),
        ("9s 9d", "7h", ALL, S),
        ("9s 9d", "8h", ALL, P),
        ("9s 9d", "Ah", ALL, S),
        ("Ts Kd", "6h", ALL, S),  # never split tens
        ("5s 5d", "9h", ALL, D),  # fives are a 10
        ("4s 4d", "5h", ALL, P),
        ("4s 4d", "4h", ALL, H),
        ("2s 2d", "7h", ALL, P),
        ("2s 2d", "8h", ALL, H),
        ("6s 6d", "6h", ALL, P),
        ("6s 6d", "7h", ALL, H),
        ("7s 7d", "7h", ALL, P),
        ("7s 7d", "Th", ALL, H),
    ],
)
def test_chart_cells(hand: str, up: str, legal: list[Action], expected: Action) -> None:
    assert advice(hand, up, legal) == expected


@pytest.mark.parametrize(
    ("hand", "up", "legal", "expected"),
    [
        ("As 7d", "6h", [H, S], S),  # Ds without a double: stand
        ("As 6d", "5h", [H, S], H),  # D without a double: hit
        ("6s 5d", "9h", [H, S], H),
        ("Ts 6d", "Th", [H, S, D], H),  # no surrender (after a split): hit
        ("8s 8d", "Th", [H, S, D], H),  # at the most hands: 16
        ("8s 8d", "6h", [H, S, D], S),
        ("As Ad", "6h", [H, S, D], H),  # soft 12 when Aces cannot be split
        ("2s 3d 6c", "6h", [H, S], H),  # 11 in three cards
        ("2s 3d 4c 7h", "Th", [H, S], H),  # three-card 16: no surrender either
        ("2s 3d 4c 8h", "6h", [H, S], S),
        ("As 2d 4c", "5h", [H, S], H),  # soft 17 in three cards
        ("Ts 4d 3c", "Ah", [H, S], S),  # hard 17
        ("As Ad 9c", "Th", [H, S], S),  # soft 21
        ("5s 5d", "Th", [H, S, D, P], H),
    ],
)
def test_fallbacks(hand: str, up: str, legal: list[Action], expected: Action) -> None:
    assert advice(hand, up, legal) == expected


def test_hard_4_to_8_hit_and_17_up_stand_everywhere() -> None:
    for up in UP_CARDS:
        card = Card(up, "h")
        assert basic_strategy(parse_cards("2s 2d"), card, [H, S, D]) == H
        assert basic_strategy(parse_cards("3s 5d"), card, TWO_CARDS) == H
        for last in "56789":  # T 2 5 = hard 17 … T 2 9 = hard 21
            assert basic_strategy(parse_cards(f"Ts 2c {last}d"), card, [H, S]) == S


@given(
    ranks=st.lists(st.sampled_from(RANKS), min_size=2, max_size=6),
    up=st.sampled_from(RANKS),
    extras=st.sets(st.sampled_from([D, P, R])),
)
def test_advice_is_always_legal_and_matches_the_fast_path(
    ranks: list[str], up: str, extras: set[Action]
) -> None:
    hand = [Card(rank, "s") for rank in ranks]
    total, soft = hand_total(hand)
    if total > 21:
        return
    legal = [H, S, *sorted(extras)]
    action = basic_strategy(hand, Card(up, "d"), legal)
    assert action in legal
    pair = VALUES[ranks[0]] if len(ranks) == 2 and VALUES[ranks[0]] == VALUES[ranks[1]] else 0
    fast = decide(total, soft, pair, VALUES[up], D in legal, P in legal, R in legal)
    assert fast == action


def test_hint_from_the_engine_at_the_most_hands() -> None:
    game = Blackjack(Shoe.stacked(parse_cards("8s Td 8h 7c 8d 8c Ks Kd")))
    game.place_bet("a", 100)
    game.start_round()
    up = game.dealer_up
    assert up is not None
    assert basic_strategy(game.hands("a")[0].cards, up, game.legal_actions("a")) == P
    game.act("a", P)
    game.act("a", P)  # 8 8 | 8 | 8: no more splits
    legal = game.legal_actions("a")
    assert P not in legal and R not in legal
    assert basic_strategy(game.hands("a")[0].cards, up, legal) == H


def _bench_play():  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parents[2] / "bench" / "odds" / "blackjack_edge.py"
    spec = importlib.util.spec_from_file_location("blackjack_edge", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.play


def test_bench_play_is_reproducible_and_plays_every_round() -> None:
    play = _bench_play()
    first = play(b"seed", 300)
    assert first == play(b"seed", 300)
    assert first[0] == 300 and first[2] > 0
    assert first != play(b"other", 300)


@pytest.mark.slow
def test_house_edge_is_near_the_published_figure() -> None:
    rounds, total, squares = _bench_play()(b"slow-check", 400_000)
    mean = total / rounds / 100
    se = math.sqrt(squares / rounds / 100**2 - mean**2) / math.sqrt(rounds)
    assert 0.0030 - 4 * se <= -mean <= 0.0040 + 4 * se


# --- the published charts for the table's rules, as the oracle -------------------------
#
# Rows of cells against the dealer's 2 3 4 5 6 7 8 9 T A, as the charts print them:
# H hit, S stand, Dh double else hit, Ds double else stand, P split, Rh surrender else hit,
# Rs surrender else stand. A pair's cell where it is not split is the cell of its total.
#
# S17 and H17: Wikipedia, "Blackjack", § Basic strategy — the chart for 4 or more decks,
# dealer stands on soft 17, double after split, late surrender, and the cells that change
# when the dealer hits soft 17 ("double on 11 vs. A, surrender 15 or 17 vs. A, double on
# A,7 vs. 2, double on A,8 vs. 6").
# No hole card (European deal, doubles and splits lost to a dealer blackjack):
# red-dog-poker.info, "Blackjack basic strategy" — "For European Rules … do not split or
# double down against a dealer's ace, do not double down against a dealer 10, and do not
# split a pair of 8's against a dealer's 10."

S17_CHART = {
    "hard": {
        5: "H  H  H  H  H  H  H  H  H  H",
        6: "H  H  H  H  H  H  H  H  H  H",
        7: "H  H  H  H  H  H  H  H  H  H",
        8: "H  H  H  H  H  H  H  H  H  H",
        9: "H  Dh Dh Dh Dh H  H  H  H  H",
        10: "Dh Dh Dh Dh Dh Dh Dh Dh H  H",
        11: "Dh Dh Dh Dh Dh Dh Dh Dh Dh H",
        12: "H  H  S  S  S  H  H  H  H  H",
        13: "S  S  S  S  S  H  H  H  H  H",
        14: "S  S  S  S  S  H  H  H  H  H",
        15: "S  S  S  S  S  H  H  H  Rh H",
        16: "S  S  S  S  S  H  H  Rh Rh Rh",
        17: "S  S  S  S  S  S  S  S  S  S",
        18: "S  S  S  S  S  S  S  S  S  S",
        19: "S  S  S  S  S  S  S  S  S  S",
    },
    "soft": {
        2: "H  H  H  Dh Dh H  H  H  H  H",
        3: "H  H  H  Dh Dh H  H  H  H  H",
        4: "H  H  Dh Dh Dh H  H  H  H  H",
        5: "H  H  Dh Dh Dh H  H  H  H  H",
        6: "H  Dh Dh Dh Dh H  H  H  H  H",
        7: "S  Ds Ds Ds Ds S  S  H  H  H",
        8: "S  S  S  S  S  S  S  S  S  S",
        9: "S  S  S  S  S  S  S  S  S  S",
    },
    "pairs": {
        "A": "P  P  P  P  P  P  P  P  P  P",
        "T": "S  S  S  S  S  S  S  S  S  S",
        "9": "P  P  P  P  P  S  P  P  S  S",
        "8": "P  P  P  P  P  P  P  P  P  P",
        "7": "P  P  P  P  P  P  H  H  H  H",
        "6": "P  P  P  P  P  H  H  H  H  H",
        "5": "Dh Dh Dh Dh Dh Dh Dh Dh H  H",
        "4": "H  H  H  P  P  H  H  H  H  H",
        "3": "P  P  P  P  P  P  H  H  H  H",
        "2": "P  P  P  P  P  P  H  H  H  H",
    },
}
H17_CHART = {
    "hard": {
        **S17_CHART["hard"],
        11: "Dh Dh Dh Dh Dh Dh Dh Dh Dh Dh",
        15: "S  S  S  S  S  H  H  H  Rh Rh",
        17: "S  S  S  S  S  S  S  S  S  Rs",
    },
    "soft": {
        **S17_CHART["soft"],
        7: "Ds Ds Ds Ds Ds S  S  H  H  H",
        8: "S  S  S  S  Ds S  S  S  S  S",
    },
    "pairs": S17_CHART["pairs"],
}
NO_HOLE_CARD_CHART = {
    "hard": {**S17_CHART["hard"], 11: "Dh Dh Dh Dh Dh Dh Dh Dh H  H"},
    "soft": S17_CHART["soft"],
    "pairs": {
        **S17_CHART["pairs"],
        "A": "P  P  P  P  P  P  P  P  P  H",
        "8": "P  P  P  P  P  P  P  P  Rh Rh",
    },
}
NO_HOLE_CARD_H17_CHART = {
    "hard": {**H17_CHART["hard"], 11: "Dh Dh Dh Dh Dh Dh Dh Dh H  H"},
    "soft": H17_CHART["soft"],
    "pairs": NO_HOLE_CARD_CHART["pairs"],
}
CHART_RULES = {
    "S17": BlackjackRules(),
    "H17": BlackjackRules(hit_soft_17=True),
    "no hole card": BlackjackRules(deal="european"),
    "no hole card, H17": BlackjackRules(deal="european", hit_soft_17=True),
}
CHARTS = {
    "S17": S17_CHART,
    "H17": H17_CHART,
    "no hole card": NO_HOLE_CARD_CHART,
    "no hole card, H17": NO_HOLE_CARD_H17_CHART,
}
FIRST_CHOICE = {"H": H, "S": S, "Dh": D, "Ds": D, "P": P, "Rh": R, "Rs": R}
WITHOUT_DOUBLE_OR_SURRENDER = {"H": H, "S": S, "Dh": H, "Ds": S, "P": P, "Rh": H, "Rs": S}
# A two-card hand (never a pair) for each hard total.
HARD_HANDS = {5: "2s 3d", 6: "2s 4d", 7: "2s 5d", 8: "3s 5d", 9: "2s 7d", 10: "3s 7d", 11: "2s 9d"}
HARD_HANDS |= {total: f"Ts {total - 10}d" for total in range(12, 20)}


def _chart_cells() -> Iterator[tuple[str, str, str, str]]:
    for name, published in CHARTS.items():
        for grid, rows in published.items():
            for key, row in rows.items():
                for up, cell in zip(UP_CARDS, row.split(), strict=True):
                    if grid == "hard":
                        hand = HARD_HANDS[key]
                    elif grid == "soft":
                        hand = f"As {'T' if key == 10 else key}d"
                    else:
                        hand = f"{key}s {key}d"
                    yield name, hand, up, cell


@pytest.mark.parametrize(("rules", "hand", "up", "cell"), list(_chart_cells()))
def test_the_published_chart_of_the_tables_rules(rules: str, hand: str, up: str, cell: str) -> None:
    cards, dealer = parse_cards(hand), Card(up, "h")
    table = CHART_RULES[rules]
    pair = cards[0].rank == cards[1].rank
    legal = [H, S, D, *([P] if pair else []), R]
    assert basic_strategy(cards, dealer, legal, table) == FIRST_CHOICE[cell]
    plain = [H, S, *([P] if pair else [])]
    assert basic_strategy(cards, dealer, plain, table) == WITHOUT_DOUBLE_OR_SURRENDER[cell]


def test_european_with_only_the_original_bet_at_risk_plays_the_american_chart() -> None:
    original_only = BlackjackRules(deal="european", european_lose_all=False)
    for hand, up in (("6s 5d", "Th"), ("8s 8d", "Ah"), ("As Ad", "Ah")):
        legal = [H, S, D, P, R]
        cards, dealer = parse_cards(hand), Card.parse(up)
        assert basic_strategy(cards, dealer, legal, original_only) == basic_strategy(
            cards, dealer, legal
        )
