"""Makao's card order and trick rule, shared by the engine and the automatic player.

Cards are their codes (`"Td"`); a card's strength in a trick is its rank, and any trump
beats every card of another suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from bondbot.rules.cards import RANKS, SUITS

RANK = {rank: index for index, rank in enumerate(RANKS)}  # 2 lowest, Ace highest


def beats(card: str, best: str, led: str, trump: str | None) -> bool:
    """Does `card` beat `best`, the card winning a trick whose led suit is `led`?"""
    if card[1] == best[1]:
        return RANK[card[0]] > RANK[best[0]]
    return card[1] == trump or (card[1] == led and best[1] not in (led, trump))


def trick_winner(cards: Sequence[str], trump: str | None) -> int:
    """The index of the winning card: the highest trump, else the highest of the suit led."""
    best = 0
    for index in range(1, len(cards)):
        if beats(cards[index], cards[best], cards[0][1], trump):
            best = index
    return best


def legal_cards(hand: Sequence[str], led: str | None) -> list[str]:
    """Follow suit if you can; otherwise (or leading) any card."""
    if led is not None:
        following = [code for code in hand if code[1] == led]
        if following:
            return following
    return list(hand)


def lowness(code: str, trump: str | None) -> tuple[int, bool, int]:
    """Sort key from the lowest card up: rank, then a plain card before a trump, then suit."""
    return RANK[code[0]], code[1] == trump, SUITS.index(code[1])
