"""Makao's automatic players: the exact bidder (level 15), the player before levels (a
baseline for bench/, whose card rules the exact one keeps once the bid is made), and a
novice (level 0). Each sees only its hand, the trump, the cards played and the tricks
counted so far.

Each card is worth the chance that no opponent holds a higher card of its suit,
(1 - q) ** higher, where q is the share of the unseen cards the opponents hold and
`higher` counts the unseen cards above it. A plain card (not trump) must also escape a
ruff: each opponent ruffs with the chance that his k cards miss its suit and hold a trump
(from the unseen cards' suits).

Before levels (`choose_bid`, `choose_card`): the bid is the sum of those chances rounded
(tried against a flat discount for plain cards and a count of guarded honours, it made the
most exact bids). Play: while short of the bid, win the trick if a legal card can (the
cheapest winner when last to play, else the strongest one), else shed the weakest card;
once the bid is made, play the strongest card that loses (shedding danger), and if every
card wins, the weakest one (someone after may still overtake it) or, when last, the
strongest (the trick is taken anyway). On lead: the highest card while short, the weakest
once made.

Level 15 (`strong_bid`, `exact_card`): the cards' chances give the chance of each trick
count (their sum's law); he bids the likeliest. In play he counts his sure winners (the
trumps above which every trump is his own or played): while they cover what he still
needs, no other card of his should win; while they do not, his other cards try to win and
the sure ones wait. Level 0 (`novice_bid`, `novice_card`): bids by feel, plays his highest
card while short and his lowest once made.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bondbot.games.makao.cards import RANK, beats, trick_winner
from bondbot.rules.cards import RANKS, SUITS

PACK = 52


def choose_bid(hand: Sequence[str], trump_card: str | None, players: int) -> int:
    """The bid for `hand` (card codes) with the turned card `trump_card` (None: no trump)."""
    size = len(hand)
    seen = set(hand) | ({trump_card} if trump_card else set())
    unseen = PACK - len(seen)
    q = min(1.0, (players - 1) * size / unseen) if unseen else 1.0
    unseen_by_suit = {suit: sum(rank + suit not in seen for rank in RANKS) for suit in SUITS}
    trump = trump_card[1] if trump_card else None
    expected = 0.0
    for code in hand:
        rank, suit = RANK[code[0]], code[1]
        higher = sum(other + suit not in seen for other in RANKS[rank + 1 :])
        chance = (1.0 - q) ** higher
        if trump is not None and suit != trump and unseen:
            void = (1.0 - unseen_by_suit[suit] / unseen) ** size
            has_trump = 1.0 - (1.0 - unseen_by_suit[trump] / unseen) ** size
            chance *= (1.0 - void * has_trump) ** (players - 1)
        expected += chance
    return max(0, min(size, int(expected + 0.5)))


def _strength(code: str, trump: str | None) -> tuple[bool, int]:
    return code[1] == trump, RANK[code[0]]


def choose_card(
    legal: Sequence[str],
    trick: Sequence[str],
    trump: str | None,
    need: int,
    last: bool,
) -> str:
    """The card to play: `trick` is the cards already on the table (led first), `need` the
    tricks still wanted (0 or less: the bid is made), `last` whether this card closes it."""
    weakest = min(legal, key=lambda code: _strength(code, trump))
    strongest = max(legal, key=lambda code: _strength(code, trump))
    if not trick:
        if need > 0:
            return max(legal, key=lambda code: (RANK[code[0]], code[1] == trump))
        return weakest
    best = trick[trick_winner(trick, trump)]
    led = trick[0][1]
    winners = [code for code in legal if beats(code, best, led, trump)]
    if need > 0:
        if not winners:
            return weakest
        pick = min if last else max
        return pick(winners, key=lambda code: _strength(code, trump))
    losers = [code for code in legal if code not in winners]
    if losers:
        return max(losers, key=lambda code: _strength(code, trump))
    return strongest if last else weakest


# -- level 15: the bid from each trick count's chance, the play that makes it exactly ------


def _chances(hand: Sequence[str], trump_card: str | None, players: int) -> list[float]:
    """Each card's chance of taking a trick, as `choose_bid` weighs it."""
    size = len(hand)
    seen = set(hand) | ({trump_card} if trump_card else set())
    unseen = PACK - len(seen)
    q = min(1.0, (players - 1) * size / unseen) if unseen else 1.0
    unseen_by_suit = {suit: sum(rank + suit not in seen for rank in RANKS) for suit in SUITS}
    trump = trump_card[1] if trump_card else None
    found = []
    for code in hand:
        rank, suit = RANK[code[0]], code[1]
        higher = sum(other + suit not in seen for other in RANKS[rank + 1 :])
        chance = (1.0 - q) ** higher
        if trump is not None and suit != trump and unseen:
            void = (1.0 - unseen_by_suit[suit] / unseen) ** size
            has_trump = 1.0 - (1.0 - unseen_by_suit[trump] / unseen) ** size
            chance *= (1.0 - void * has_trump) ** (players - 1)
        found.append(chance)
    return found


def trick_counts(hand: Sequence[str], trump_card: str | None, players: int) -> list[float]:
    """The chance of taking exactly 0, 1, … len(hand) tricks: the cards' chances taken as
    independent (the Poisson-binomial law of their sum)."""
    law = [1.0]
    for p in _chances(hand, trump_card, players):
        law = [
            (law[k] if k < len(law) else 0.0) * (1.0 - p) + (law[k - 1] * p if k else 0.0)
            for k in range(len(law) + 1)
        ]
    return law


def strong_bid(hand: Sequence[str], trump_card: str | None, players: int) -> int:
    """The most likely trick count (the lower on a tie); a sure count, whose chance is 1,
    is bid for sure. (Bidding the count whose chance times its k + 10 is highest made
    fewer bids and scored less in bench/npc/michigan_makao.py.)"""
    law = trick_counts(hand, trump_card, players)
    return max(range(len(law)), key=lambda k: (law[k], -k))


def sure_winners(hand: Sequence[str], trump: str | None, seen: set[str]) -> list[str]:
    """The cards of `hand` that take any trick they are played to: the trumps above which
    every trump is his own or already played (a card not seen may be in a hand)."""
    if trump is None:
        return []
    found = []
    for rank in reversed(RANKS):
        code = rank + trump
        if code in hand:
            found.append(code)
        elif code not in seen:
            break
    return found


def exact_card(
    legal: Sequence[str],
    trick: Sequence[str],
    trump: str | None,
    need: int,
    last: bool,
    hand: Sequence[str],
    seen: set[str],
) -> str:
    """The card that makes the bid exactly. `seen`: every card he knows is not in another
    hand (his own, the turned card, the cards played this deal). His sure winners take a
    trick each whatever happens: while they are enough for what he still needs, no other
    card should win (he leads a sure one, or loses with the strongest card he can, and wins
    with a sure one when every card wins); while they are not, he wins with his other cards
    and keeps the sure ones; once the bid is made, he loses as `choose_card` does."""
    if need <= 0:
        return choose_card(legal, trick, trump, need, last)
    sure = sure_winners(hand, trump, seen)
    weak = [code for code in legal if code not in sure]

    def strength(code: str) -> tuple[bool, int]:
        return _strength(code, trump)

    if not trick:
        if need <= len(sure) and (mine := [c for c in legal if c in sure]):
            return min(mine, key=strength)
        return max(weak or legal, key=lambda code: (RANK[code[0]], code[1] == trump))
    best = trick[trick_winner(trick, trump)]
    led = trick[0][1]
    winners = [code for code in legal if beats(code, best, led, trump)]
    losers = [code for code in legal if code not in winners]
    if need <= len(sure):
        if losers:
            return max(losers, key=strength)
        mine = [code for code in legal if code in sure]
        return min(mine, key=strength) if mine else min(legal, key=strength)
    if not winners:
        return min(legal, key=strength)
    others = [code for code in winners if code not in sure] or winners
    return (min if last else max)(others, key=strength)


# -- level 0: a novice bids by feel and plays his high cards while short -------------------


def novice_bid(hand: Sequence[str], trump_card: str | None, rng: random.Random) -> int:
    """Aces, kings and trumps from the jack up, give or take one on a hunch."""
    trump = trump_card[1] if trump_card else None
    feel = sum(code[0] in "AK" or (code[1] == trump and code[0] in "JQKA") for code in hand)
    return max(0, min(len(hand), feel + rng.choice((-1, 0, 1))))


def novice_card(legal: Sequence[str], trump: str | None, need: int) -> str:
    """His highest card while short of his bid, his lowest once it is made, whatever the
    trick holds."""
    pick = max if need > 0 else min
    return pick(legal, key=lambda code: _strength(code, trump))
