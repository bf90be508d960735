"""The exact odds of a coup: macao.md's published figures, and the enumeration's consistency."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bondbot.games.macao.counting import Counting
from bondbot.games.macao.odds import (
    bank_expectation,
    best_wager,
    coup_odds,
    hand_odds,
    pack_counts,
)
from bondbot.games.macao.settlement import Target

# macao.md, step 5: minus9, one player drawing on 0–4 against the NPC banker.
PUBLISHED = {
    1: {"banker": "0.448436", "player": "0.459692", "tie": "0.091872", "edge": "1.13"},
    2: {"banker": "0.447618", "player": "0.459161", "tie": "0.093220", "edge": "1.15"},
}


@pytest.mark.parametrize("packs", [1, 2])
def test_minus9_reproduces_macao_md(packs: int):
    odds = coup_odds(Counting.MINUS9, packs)
    published = PUBLISHED[packs]
    assert f"{float(odds.banker):.6f}" == published["banker"]
    assert f"{float(odds.player):.6f}" == published["player"]
    assert f"{float(odds.tie):.6f}" == published["tie"]
    assert f"{float(odds.own) * 100:.2f}" == published["edge"]


@pytest.mark.parametrize("counting", list(Counting))
def test_outcomes_add_up_and_wagers_mirror(counting: Counting):
    odds = coup_odds(counting, 1)
    assert odds.player + odds.banker + odds.tie == 1
    assert odds.edge(Target.BANKER, 8) == -odds.edge(Target.OWN, 8)
    assert odds.edge(Target.TIE, 8) == odds.tie * 9 - 1
    expectation = bank_expectation(counting, 1, 8)
    assert expectation.per_target == {t: -odds.edge(t, 8) for t in Target}
    # A player who picks his wager after looking at his cards does at least as well.
    assert expectation.informed <= min(expectation.per_target.values())


@pytest.mark.parametrize("counting", list(Counting))
def test_the_coup_is_the_average_of_every_two_card_start(counting: Counting):
    """Two ways through the enumeration: all at once, or hand by hand then weighted."""
    counts = pack_counts(1)
    whole = coup_odds(counting, 1)
    average = Fraction(0)
    ways_total = 0
    for first in range(10):
        for second in range(10):
            ways = counts[first] * (counts[second] - (first == second))
            ways_total += ways
            average += ways * hand_odds(counting, 1, min(first, second), max(first, second)).own
    assert average / ways_total == whole.own


def test_drawing_on_five_changes_the_figures():
    assert coup_odds(Counting.MINUS9, 1, player_draws_to=5) != coup_odds(Counting.MINUS9, 1)


@pytest.mark.parametrize(
    ("counting", "first", "second", "target"),
    [
        (Counting.MINUS9, 9, 0, Target.OWN),  # a natural 9
        (Counting.MINUS9, 0, 0, Target.BANKER),  # a hand of nothing
        (Counting.BUST, 9, 9, Target.BANKER),  # 18 is a bust under `bust`
        (Counting.MINUS9, 9, 9, Target.OWN),  # … and a natural 9 under minus9
    ],
)
def test_best_wager(counting: Counting, first: int, second: int, target: Target):
    assert best_wager(counting, 1, first, second, 8)[0] is target
