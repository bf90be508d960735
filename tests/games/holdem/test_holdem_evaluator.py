"""The pure-Python evaluator that stands in for eval7 where eval7 has no wheel (ARM): the
same value as eval7 for every hand (so the same order, ties and category), and hold'em
names hands and settles showdowns on it when eval7 is missing."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from bondbot.games.holdem import evaluator
from bondbot.games.holdem.names import CATEGORIES, name_of
from bondbot.rules.cards import Card, cards_code, parse_cards

ROOT = Path(__file__).resolve().parents[3]
LABELS = [
    "HIGH_CARD",
    "ONE_PAIR",
    "TWO_PAIR",
    "THREE_OF_A_KIND",
    "STRAIGHT",
    "FLUSH",
    "FULL_HOUSE",
    "FOUR_OF_A_KIND",
    "STRAIGHT_FLUSH",
]


def _value(text: str) -> int:
    return evaluator.evaluate(evaluator.cards(parse_cards(text)))


@pytest.mark.parametrize("size", [5, 6, 7])
def test_the_stand_in_gives_eval7_s_value_for_every_hand(size: int) -> None:
    """Equal values: higher wins, equal ties and value >> 24 is the category, on both."""
    eval7 = pytest.importorskip("eval7")
    rng = random.Random(size)
    theirs = {card: eval7.Card(card.code) for card in Card.ALL}
    seen = set()
    for _ in range(40_000):
        hand = rng.sample(Card.ALL, size)
        value = evaluator.evaluate(evaluator.cards(hand))
        assert value == eval7.evaluate([theirs[card] for card in hand]), cards_code(hand)
        seen.add(value >> 24)
    assert seen >= set(range(len(CATEGORIES) - 1))  # straight flushes are rare: named below


@pytest.mark.parametrize(
    ("cards", "category", "ranks", "kickers"),
    [
        ("As Ks Qs Js Ts 2d 3c", "straight_flush", "A", ""),
        ("5d 4d 3d 2d Ad Kd Qc", "straight_flush", "5", ""),
        ("Ah Ad Ac As Kd Qd Jd", "four_of_a_kind", "A", "K"),
        ("Kh Kd Ks 7c 7d 7h 3c", "full_house", "K7", ""),
        ("2h 3h 7h 9h Jh Qh 4c", "flush", "Q", "J973"),
        ("As 2d 3c 4h 5s Kd Kc", "straight", "5", ""),
        ("9s Td Jc Qh Ks Ad 2c", "straight", "A", ""),
        ("Ah Ad Ac Kd Qh 2d 3c", "three_of_a_kind", "A", "KQ"),
        ("Kh Kd 7s 7c 2d 2h Qc", "two_pair", "K7", "Q"),
        ("Kh Kd 7s 7c 2d 2h 3c", "two_pair", "K7", "3"),
        ("Ah Ad Kc Jd Qh 9d 3c", "pair", "A", "KQJ"),
        ("Ah Jd Kc 8d Qh 9d 3c", "high_card", "A", "KQJ9"),
    ],
)
def test_the_stand_in_names_hands(cards: str, category: str, ranks: str, kickers: str) -> None:
    name = name_of(_value(cards))
    assert (name.category, name.ranks, name.kickers) == (category, tuple(ranks), tuple(kickers))


@settings(max_examples=300)
@given(cards=st.lists(st.sampled_from(Card.ALL), min_size=9, max_size=9, unique=True))
def test_the_stand_in_and_pokerkit_agree_without_eval7(cards: list[Card]) -> None:
    """Where eval7 is missing (the ARM CI) pokerkit's own evaluator is the reference: the
    same category and the same winner of two hands on one board."""
    board, mine, theirs = cards[:5], cards[5:7], cards[7:]
    ours = [evaluator.evaluate(evaluator.cards([*hole, *board])) for hole in (mine, theirs)]
    kits = [
        StandardHighHand.from_game(cards_code(hole).replace(" ", ""), cards_code(board))
        for hole in (mine, theirs)
    ]
    assert LABELS[ours[0] >> 24] == kits[0].entry.label.name
    assert (ours[0] > ours[1], ours[0] == ours[1]) == (kits[0] > kits[1], kits[0] == kits[1])


def test_hold_em_plays_on_the_stand_in_when_eval7_is_missing() -> None:
    """The hand names, the showdowns and the NPC's tests, in a Python that cannot import
    eval7 (as on a Raspberry Pi)."""
    script = (
        "import sys; sys.modules['eval7'] = None\n"
        "from bondbot.games.holdem import names\n"
        "assert names.EVALUATOR == 'python', names.EVALUATOR\n"
        "import pytest\n"
        "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', *sys.argv[1:]]))\n"
    )
    tests = ["test_holdem_names.py", "test_holdem_showdown.py", "test_holdem_npc.py"]
    done = subprocess.run(
        [sys.executable, "-c", script, *(str(Path(__file__).parent / name) for name in tests)],
        cwd=ROOT,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout
