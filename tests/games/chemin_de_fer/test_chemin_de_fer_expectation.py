"""`expectation` against a brute force: every ordered deal of a small shoe, card by card."""

from __future__ import annotations

from itertools import permutations

import pytest

from bondbot.games.chemin_de_fer.expectation import banker_outlook, ponte_outlook
from bondbot.games.chemin_de_fer.tableau import recommendation

# A small shoe (17 cards: values 0–9, some twice) the brute force can deal every way.
SMALL = [3, 2, 2, 2, 2, 1, 1, 1, 1, 2]


def cards_of(counts: list[int]) -> list[int]:
    return [value for value, n in enumerate(counts) for _ in range(n)]


def score(mine: int, theirs: int) -> tuple[int, int]:
    return (int(mine > theirs), int(theirs > mine))


def brute_banker(counts: list[int], banker: int, third: int | None) -> dict[bool, tuple]:
    """Deal the ponte's two cards, his third (if he drew) and the banker's card, every way;
    keep the deals that match what the banker saw (the ponte draws on 0–5, stands 6–7)."""
    deck = cards_of(counts) + ([] if third is None else [third])
    seen = {False: [0, 0], True: [0, 0]}
    total = 0
    length = 3 if third is None else 4
    for deal in permutations(range(len(deck)), length):
        a, b = deck[deal[0]], deck[deal[1]]
        ponte = (a + b) % 10
        if ponte >= 8:
            continue
        if third is None:
            if ponte <= 5:
                continue
            final, x = ponte, deck[deal[2]]
        else:
            if ponte > 5 or deck[deal[2]] != third:
                continue
            final, x = (ponte + third) % 10, deck[deal[3]]
        total += 1
        for draw, mine in ((False, banker), (True, (banker + x) % 10)):
            win, lose = score(mine, final)
            seen[draw][0] += win
            seen[draw][1] += lose
    return {draw: (seen[draw][0] / total, seen[draw][1] / total) for draw in seen}


def brute_ponte(counts: list[int], ponte: int) -> dict[bool, tuple]:
    """Deal the banker's two cards, the ponte's third, the banker's third, every way; the
    banker follows seed 004's table."""
    deck = cards_of(counts)
    seen = {False: [0, 0], True: [0, 0]}
    total = 0
    for deal in permutations(range(len(deck)), 4):
        a, b, x, y = (deck[i] for i in deal)
        banker = (a + b) % 10
        if banker >= 8:
            continue
        total += 1
        for draw in (False, True):
            mine = (ponte + x) % 10 if draw else ponte
            shown = x if draw else None
            theirs = (banker + y) % 10 if recommendation(banker, shown) else banker
            win, lose = score(mine, theirs)
            seen[draw][0] += win
            seen[draw][1] += lose
    return {draw: (seen[draw][0] / total, seen[draw][1] / total) for draw in seen}


@pytest.mark.parametrize(("banker", "third"), [(3, None), (6, None), (3, 9), (5, 4), (4, 1)])
def test_the_bankers_outlook_is_the_brute_forces(banker: int, third: int | None):
    counts = list(SMALL)
    if third is not None:
        counts[third] -= 1  # the third card is out of the cards he has not seen
    exact = banker_outlook(counts, banker, third)
    brute = brute_banker(counts, banker, third)
    for draw in (False, True):
        assert (exact[draw].win, exact[draw].lose) == pytest.approx(brute[draw], abs=1e-12)


@pytest.mark.parametrize("ponte", [5, 3])
def test_the_pontes_outlook_is_the_brute_forces(ponte: int):
    exact = ponte_outlook(SMALL, ponte)
    brute = brute_ponte(SMALL, ponte)
    for draw in (False, True):
        assert (exact[draw].win, exact[draw].lose) == pytest.approx(brute[draw], abs=1e-12)
