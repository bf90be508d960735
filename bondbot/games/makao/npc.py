"""Makao's automatic player: bid the tricks the hand is likely to take, then take exactly them.

Bidding: every card is worth the chance that no opponent holds a higher card of its suit,
(1 - q) ** higher, where q is the share of the unseen cards the opponents hold and
`higher` counts the unseen cards above it. A plain card (not trump) must also escape a
ruff: each opponent ruffs with the chance that his k cards miss its suit and hold a trump
(from the unseen cards' suits). The bid is the sum rounded to the nearest whole trick.
(Tried against a flat discount for plain cards and a count of guarded honours, it made
the most exact bids.)

Play: while short of the bid, win the trick if a legal card can (the cheapest winner when
last to play, else the strongest one), else shed the weakest card; once the bid is made,
play the strongest card that loses (shedding danger), and if every card wins, the weakest
one (someone after may still overtake it) or, when last, the strongest (the trick is
taken anyway). On lead: the highest card while short, the weakest once made.
It sees only its hand, the trump, the cards on the table and the tricks counted so far.
"""

from __future__ import annotations

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
