"""The Macao banker's weighing of a wager against a brute force: every ordered deal of a
small shoe, card by card."""

from __future__ import annotations

from itertools import permutations

import pytest

from bondbot.games.macao import npc
from bondbot.games.macao.counting import Counting, count, is_bust, natural_of
from bondbot.games.macao.drawing import recommended_draw
from bondbot.games.macao.engine import PlayerHand, Wager
from bondbot.games.macao.settlement import Target, showdown_verdict, wager_net
from bondbot.rules.cards import parse_cards

SMALL = [3, 2, 2, 2, 2, 1, 1, 1, 1, 2]  # cards of each value the banker has not seen
OF_VALUE = {0: "K", 1: "A"} | {n: str(n) for n in range(2, 10)}


def brute(counts: list[int], own: int, third: int, target: Target, counting: Counting) -> float:
    """Drawing's worth to the banker over standing: the player's two cards, his third (this
    value) and the banker's card dealt every way, kept when they match what is public."""
    deck = [value for value, n in enumerate(counts) for _ in range(n)] + [third]
    total = gain = 0
    for a, b, t, x in (tuple(deck[i] for i in d) for d in permutations(range(len(deck)), 4)):
        two = count(a + b, counting)
        if t != third or natural_of(two, 2) is not None or is_bust(two):
            continue
        if not recommended_draw(two):
            continue
        final = count(a + b + t, counting)
        if is_bust(final):
            continue
        total += 1
        stand = -wager_net(target, 100, showdown_verdict(final, count(own, counting)), 8)
        drawn = -wager_net(target, 100, showdown_verdict(final, count(own + x, counting)), 8)
        gain += drawn - stand
    return gain / total


@pytest.mark.parametrize("counting", list(Counting))
@pytest.mark.parametrize(("own", "third"), [(4, 0), (5, 4), (6, 1), (3, 9)])
@pytest.mark.parametrize("target", [Target.OWN, Target.BANKER, Target.TIE])
def test_the_bankers_gain_on_a_wager_is_the_brute_forces(
    own: int, third: int, target: Target, counting: Counting
):
    counts = list(SMALL)
    counts[third] -= 1  # his face-up third card is out of the unseen cards
    hand = PlayerHand(
        seat="b",
        cards=list(parse_cards(f"Ks Qh {OF_VALUE[third]}d")),  # the first two are not read
        wager=Wager(target=target, stake=100),
    )
    exact = npc._wager_gain(hand, counts, own, counting, 8)
    assert exact == pytest.approx(brute(counts, own, third, target, counting), abs=1e-9)
