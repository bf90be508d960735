"""Exact expectations of classic drawing's two choices (chemin de fer, deux tableaux), from
what the one deciding may see.

The cards: the shoe's packs less the cards he sees in the coup (his own two, third cards
dealt face up, a natural shown on another table). Cards of earlier coups are not counted
(the engine keeps only the coup in play), so this is the exact expectation against a
full shoe less the cards seen. The hidden cards of the others are never read: every pair
they could hold is enumerated, weighed by how many ways the cards left can give it, and
conditioned on what is public (no natural was shown, the hand drew this card or stood).

The other side's play at 5 is a free choice nobody sees; the model is that a ponte at 5
draws as the bot advises him (`tableau.PONTE_DRAWS_AT_FIVE`) and a banker follows seed
004's table (`tableau.recommendation`): the best reply to players who take the advice the
table shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from bondbot.games.baccarat_bank.tableau import PONTE_DRAWS_AT_FIVE, recommendation

PER_PACK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)  # cards of each baccarat value 0–9 in a pack


@dataclass(frozen=True, slots=True)
class Outlook:
    """One choice's chances for the one who takes it: he wins, he loses (else a tie)."""

    win: float
    lose: float

    def value(self, win_pays: float = 1.0) -> float:
        """What one unit at stake is worth when a win pays `win_pays` (after commission)."""
        return self.win * win_pays - self.lose


def composition(packs: int, seen: Iterable[int]) -> list[int]:
    """How many cards of each value the decider can still meet: `packs` packs less `seen`."""
    counts = [n * packs for n in PER_PACK]
    for value in seen:
        if counts[value] > 0:
            counts[value] -= 1
    return counts


def _score(mine: int, theirs: int) -> tuple[int, int]:
    return (1, 0) if mine > theirs else (0, 1) if theirs > mine else (0, 0)


def _hidden_pairs(left: list[int]) -> Iterator[tuple[int, int]]:
    """Each two cards the other side may hold face down, a natural excepted (it would have
    been shown): their total and in how many ways, both cards taken out of `left` while the
    caller weighs them (put back after)."""
    for a in range(10):
        ways_a = left[a]
        if not ways_a:
            continue
        left[a] -= 1
        for b in range(10):
            ways_b = left[b]
            if not ways_b or (a + b) % 10 >= 8:
                continue
            left[b] -= 1
            yield (a + b) % 10, ways_a * ways_b
            left[b] += 1
        left[a] += 1


def banker_outlook(
    counts: Sequence[int], banker_total: int, third: int | None
) -> dict[bool, Outlook]:
    """The banker's chances on one hand if he draws (True) or stands (False), knowing his
    two-card total, the ponte's face-up third card (None: the ponte stood) and `counts`,
    the cards he has not seen (his own and the third card taken out: the ponte's two were
    dealt before it, which this puts back for them)."""
    left = list(counts)
    if third is not None:
        left[third] += 1  # the ponte's two cards came before his third: it was still there
    acc = {False: [0.0, 0.0], True: [0.0, 0.0]}
    whole = 0.0
    at_five = 1.0 if PONTE_DRAWS_AT_FIVE else 0.0
    for total, ways in _hidden_pairs(left):
        if third is None:
            weight = 1.0 if total in (6, 7) else (1.0 - at_five) if total == 5 else 0.0
            final = total
        else:
            weight = 1.0 if total <= 4 else at_five if total == 5 else 0.0
            # the third card came after this pair: one of the cards of its value left
            weight *= left[third]
            final = (total + third) % 10
        if not weight:
            continue
        weight *= ways
        if third is not None:
            left[third] -= 1
        whole += weight
        win, lose = _score(banker_total, final)
        acc[False][0] += weight * win
        acc[False][1] += weight * lose
        rest = sum(left)
        for x in range(10):
            if left[x]:
                win, lose = _score((banker_total + x) % 10, final)
                share = weight * left[x] / rest
                acc[True][0] += share * win
                acc[True][1] += share * lose
        if third is not None:
            left[third] += 1
    if not whole:
        return {draw: Outlook(0.0, 0.0) for draw in (False, True)}
    return {draw: Outlook(acc[draw][0] / whole, acc[draw][1] / whole) for draw in acc}


def ponte_outlook(counts: Sequence[int], ponte_total: int) -> dict[bool, Outlook]:
    """The ponte's chances if he draws (True) or stands (False) at `ponte_total`, against a
    banker whose two cards he cannot see and who follows seed 004's table; `counts`: the
    cards he has not seen (his own taken out)."""
    left = list(counts)
    acc = {False: [0.0, 0.0], True: [0.0, 0.0]}
    whole = 0.0

    def banker_plays(weight: float, ponte: int, banker: int, third: int | None) -> list[float]:
        """Win and lose weights for the ponte once the banker has played."""
        if not recommendation(banker, third):
            win, lose = _score(ponte, banker)
            return [weight * win, weight * lose]
        rest = sum(left)
        out = [0.0, 0.0]
        for y in range(10):
            if left[y]:
                win, lose = _score(ponte, (banker + y) % 10)
                out[0] += weight * left[y] / rest * win
                out[1] += weight * left[y] / rest * lose
        return out

    for banker, ways in _hidden_pairs(left):
        weight = float(ways)
        whole += weight
        stand = banker_plays(weight, ponte_total, banker, None)
        acc[False][0] += stand[0]
        acc[False][1] += stand[1]
        rest = sum(left)
        for x in range(10):
            if left[x]:
                share = weight * left[x] / rest
                left[x] -= 1
                drawn = banker_plays(share, (ponte_total + x) % 10, banker, x)
                left[x] += 1
                acc[True][0] += drawn[0]
                acc[True][1] += drawn[1]
    return {draw: Outlook(acc[draw][0] / whole, acc[draw][1] / whole) for draw in acc}
