"""Exact odds of a Macao coup by enumeration: one player against the banker, fresh packs.

Every way the cards can fall is weighed by how many ordered deals give it (cards leave the
pack as they are dealt), with integers only, so the results are exact fractions. The rules
come from the same functions the engine plays by (`counting`, `drawing`, `settlement`).

With several players the banker's restricted table looks at every player's third card, so
these figures (like macao.md's) are those of a table with one player.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import prod

from bondbot.games.macao.counting import Counting, count, is_bust, natural_of
from bondbot.games.macao.drawing import RECOMMENDED_DRAW_MAX, banker_may_draw
from bondbot.games.macao.settlement import (
    Target,
    Verdict,
    Winner,
    natural_verdict,
    showdown_verdict,
)

CARDS_PER_VALUE = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)  # one pack: tens and faces count 0
_DEPTH = 6  # the most cards a one-player coup deals


@dataclass(frozen=True, slots=True)
class Odds:
    """A coup's exact outcome: each side's chance and the own-hand wager's value per stake
    (naturals' multiples included); equal naturals count as ties."""

    player: Fraction
    banker: Fraction
    tie: Fraction
    own: Fraction

    def edge(self, target: Target, tie_pays: int) -> Fraction:
        """What a one-stake wager on `target` is worth to the player, per coup."""
        if target is Target.OWN:
            return self.own
        if target is Target.BANKER:
            return -self.own
        return self.tie * (tie_pays + 1) - 1


def pack_counts(packs: int) -> tuple[int, ...]:
    """How many cards of each value 0–9 `packs` packs hold."""
    return tuple(n * packs for n in CARDS_PER_VALUE)


@lru_cache(maxsize=64)
def coup_odds(
    counting: Counting,
    packs: int = 1,
    player_draws_to: int = RECOMMENDED_DRAW_MAX,
    banker_draws_to: int = RECOMMENDED_DRAW_MAX,
) -> Odds:
    """The odds from fresh packs, the player drawing on totals up to `player_draws_to` and
    the banker on totals up to `banker_draws_to` when his rule lets him (4 and 4: the
    recommended play against the NPC banker)."""
    return _enumerate(list(pack_counts(packs)), counting, player_draws_to, banker_draws_to)


@lru_cache(maxsize=512)
def hand_odds(
    counting: Counting,
    packs: int,
    first: int,
    second: int,
    player_draws_to: int = RECOMMENDED_DRAW_MAX,
    banker_draws_to: int = RECOMMENDED_DRAW_MAX,
) -> Odds:
    """The odds for a player who holds two cards of values `first` and `second`."""
    counts = list(pack_counts(packs))
    counts[first] -= 1
    counts[second] -= 1
    return _enumerate(counts, counting, player_draws_to, banker_draws_to, (first, second))


def best_wager(
    counting: Counting, packs: int, first: int, second: int, tie_pays: int
) -> tuple[Target, Fraction]:
    """The wager worth most to a player holding cards of values `first` and `second`, and
    its value per stake (on equal values: own hand, then banker's hand, then tie)."""
    odds = hand_odds(counting, packs, min(first, second), max(first, second))
    return max(((t, odds.edge(t, tie_pays)) for t in Target), key=lambda item: item[1])


@dataclass(frozen=True, slots=True)
class BankExpectation:
    """What the NPC bank may expect per stake and per coup (negative: it loses).

    `per_target`: a wager on each target whatever the cards (macao.md's figure for the own
    hand); `informed`: a player who looks at his two cards and takes `best_wager`.
    """

    per_target: dict[Target, Fraction]
    informed: Fraction


@lru_cache(maxsize=32)
def bank_expectation(counting: Counting, packs: int, tie_pays: int) -> BankExpectation:
    """The bank's outlook against one player playing as recommended: what the table tells
    the GM at open."""
    odds = coup_odds(counting, packs)
    counts = pack_counts(packs)
    left = sum(counts)
    informed = Fraction(0)
    for first in range(10):
        for second in range(10):
            ways = counts[first] * (counts[second] - (first == second))
            informed += ways * best_wager(counting, packs, first, second, tie_pays)[1]
    return BankExpectation(
        per_target={target: -odds.edge(target, tie_pays) for target in Target},
        informed=-informed / (left * (left - 1)),
    )


def _enumerate(
    counts: list[int],
    counting: Counting,
    player_draws_to: int,
    banker_draws_to: int,
    player: tuple[int, int] | None = None,
) -> Odds:
    left = sum(counts)
    depth = _DEPTH if player is None else _DEPTH - 2
    # A deal stopping after k cards stands for tail[k] deals of `depth` cards.
    tail = [prod(left - i for i in range(k, depth)) for k in range(depth + 1)]
    totals = dict.fromkeys(Winner, 0)
    own = 0

    def settle(weight: int, verdict: Verdict) -> None:
        nonlocal own
        totals[verdict.winner] += weight
        if verdict.winner is Winner.PLAYER:
            own += weight * verdict.multiple
        elif verdict.winner is Winner.BANKER:
            own -= weight * verdict.multiple

    def one_card(points: int, w: int, dealt: int, then: Callable[[int, int, int], None]) -> None:
        """Deal each value still in the pack: `then(points + value, weight, cards dealt)`."""
        for value in range(10):
            if counts[value]:
                weight = w * counts[value]
                counts[value] -= 1
                then(points + value, weight, dealt + 1)
                counts[value] += 1

    def two_cards(w: int, dealt: int, then: Callable[[int, int, int], None]) -> None:
        """Deal each pair of values still in the pack, in either order (only the sum
        counts): `then(sum, weight, cards dealt)`."""
        for first in range(10):
            if not counts[first]:
                continue
            w1 = w * counts[first]
            counts[first] -= 1
            for second in range(first, 10):
                if counts[second]:
                    weight = w1 * counts[second] * (1 if second == first else 2)
                    counts[second] -= 1
                    then(first + second, weight, dealt + 2)
                    counts[second] += 1
            counts[first] += 1

    def banker_plays(p_points: int, third: int | None, b_points: int, w: int, dealt: int) -> None:
        p_total, b_total = count(p_points, counting), count(b_points, counting)
        if is_bust(p_total):
            settle(w * tail[dealt], showdown_verdict(p_total, b_total))
        elif b_total <= banker_draws_to and banker_may_draw(
            b_total, [] if third is None else [third]
        ):
            one_card(
                b_points,
                w,
                dealt,
                lambda b3, w3, d3: settle(
                    w3 * tail[d3], showdown_verdict(p_total, count(b3, counting))
                ),
            )
        else:
            settle(w * tail[dealt], showdown_verdict(p_total, b_total))

    def after_deal(p_points: int, b_points: int, w: int, dealt: int) -> None:
        p_total, b_total = count(p_points, counting), count(b_points, counting)
        verdict = natural_verdict(natural_of(p_total, 2), natural_of(b_total, 2))
        if verdict is not None or is_bust(p_total):
            settle(w * tail[dealt], verdict or showdown_verdict(p_total, b_total))
        elif p_total <= player_draws_to:
            one_card(
                p_points,
                w,
                dealt,
                lambda p3, w3, d3: banker_plays(p3, p3 - p_points, b_points, w3, d3),
            )
        else:
            banker_plays(p_points, None, b_points, w, dealt)

    def banker_pair(p_points: int, w: int, dealt: int) -> None:
        two_cards(w, dealt, lambda b_points, w2, d2: after_deal(p_points, b_points, w2, d2))

    if player is None:
        two_cards(1, 0, banker_pair)
    else:
        banker_pair(sum(player), 1, 0)
    whole = tail[0]
    return Odds(
        player=Fraction(totals[Winner.PLAYER], whole),
        banker=Fraction(totals[Winner.BANKER], whole),
        tie=Fraction(totals[Winner.TIE], whole),
        own=Fraction(own, whole),
    )
