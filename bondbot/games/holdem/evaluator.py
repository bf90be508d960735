"""A pure-Python hand evaluator that gives eval7's values, for hosts without eval7.

eval7 (C) has no wheel for ARM (a Raspberry Pi, an ARM server) and the slim image has no
compiler, so it is an optional speed-up (`pip install 'bondbot[fast]'`) and this module
stands in for it: the same integer for every hand of five to seven cards (the category in
bits 24 and up, then the deciding ranks one per nibble, 2 = 0 … ace = 12), so the hand
names, pokerkit's showdowns and the NPC decide alike on either. A test compares the two
on many random hands; the NPC's decision time on it is in docs/decisions.md.

A card is one bit, `1 << (16 * suit + rank)`: a hand's cards add up to four 13-bit rank
masks (one per suit), and bit operations on them find pairs, trips, flushes and straights
without sorting or counting cards one by one.
"""

from __future__ import annotations

from collections.abc import Iterable

from bondbot.rules.cards import RANKS, SUITS, Card

# eval7's categories (value >> 24).
PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = (
    n << 24 for n in range(1, 9)
)
_RANK_MASK = (1 << len(RANKS)) - 1
_WHEEL = 0b1_0000_0000_1111  # A 5 4 3 2: a straight whose top card is the five


def _top_five(mask: int) -> int:
    """The five highest ranks of `mask`, one per nibble, highest in bits 16–19."""
    value, shift = 0, 16
    for rank in range(len(RANKS) - 1, -1, -1):
        if mask >> rank & 1 and shift >= 0:
            value |= rank << shift
            shift -= 4
    return value


def _straight_top(mask: int) -> int:
    """The top rank of the highest straight in `mask`, or -1."""
    for top in range(len(RANKS) - 1, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top
    return 3 if mask & _WHEEL == _WHEEL else -1


TOP_FIVE = tuple(_top_five(mask) for mask in range(1 << len(RANKS)))
STRAIGHT_TOP = tuple(_straight_top(mask) for mask in range(1 << len(RANKS)))

CARDS = {card: 1 << (16 * SUITS.index(card.suit) + RANKS.index(card.rank)) for card in Card.ALL}


def cards(hand: Iterable[Card]) -> list[int]:
    """This evaluator's cards (one bit each), for `evaluate`."""
    return [CARDS[card] for card in hand]


def evaluate(hand: list[int]) -> int:
    """eval7's value of the best five of these five to seven distinct cards."""
    bits = sum(hand)
    s = bits & _RANK_MASK
    h = bits >> 16 & _RANK_MASK
    d = bits >> 32 & _RANK_MASK
    c = bits >> 48
    ranks = s | h | d | c
    for suit in (s, h, d, c):
        if suit.bit_count() >= 5:
            top = STRAIGHT_TOP[suit]
            if top >= 0:
                return STRAIGHT_FLUSH | top << 16
            flush = FLUSH | TOP_FIVE[suit]
            break
    else:
        flush = 0
    threes = s & h & (d | c) | d & c & (s | h)
    if threes:
        if s & h & d & c:
            quad = (s & h & d & c).bit_length() - 1
            rest = ranks & ~(1 << quad)
            return QUADS | quad << 16 | (rest.bit_length() - 1) << 12
        trip = threes.bit_length() - 1
        pairs = (s & (h | d | c) | h & (d | c) | d & c) & ~(1 << trip)
        if pairs:
            return FULL_HOUSE | trip << 16 | (pairs.bit_length() - 1) << 12
    if flush:
        return flush
    top = STRAIGHT_TOP[ranks]
    if top >= 0:
        return STRAIGHT | top << 16
    if threes:
        trip = threes.bit_length() - 1
        return TRIPS | trip << 16 | TOP_FIVE[ranks & ~(1 << trip)] >> 4 & 0xFF00
    pairs = s & (h | d | c) | h & (d | c) | d & c
    if pairs:
        high = pairs.bit_length() - 1
        second = pairs & ~(1 << high)
        if second:
            low = second.bit_length() - 1
            rest = ranks & ~(1 << high | 1 << low)
            return TWO_PAIR | high << 16 | low << 12 | (rest.bit_length() - 1) << 8
        return PAIR | high << 16 | TOP_FIVE[ranks & ~(1 << high)] >> 4 & 0xFFF0
    return TOP_FIVE[ranks]
