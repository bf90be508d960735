"""Michigan's automatic lead: the suit that best empties the hand (also the timeout's choice).

A lead plays the leader's lowest card of the suit, then every next higher card he holds
follows by itself; if the card after his run is known to be out of play (played, or shown to
be in the widow by an earlier stop) or his run ends on an Ace, it is a stop and he leads
again. So a suit is worth the cards it sheds at once, plus one for keeping the lead. Ties go
to the suit whose lowest card is lowest (low cards leave only on a lead), then suit order.
It uses only what the leader may see: his hand and the cards known to be out of play.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from bondbot.rules.cards import RANKS, SUITS


def lead_value(hand: Collection[str], suit: str, dead: Collection[str]) -> tuple[int, int]:
    """(cards shed at once + 1 if the lead surely comes back, minus the lowest rank's index)."""
    ranks = sorted(RANKS.index(code[0]) for code in hand if code[1] == suit)
    if not ranks:
        raise ValueError(f"no card of suit {suit!r} to lead")
    run = 1
    while ranks[run - 1] + 1 in ranks:
        run += 1
    top = ranks[0] + run - 1
    keeps_lead = top == len(RANKS) - 1 or RANKS[top + 1] + suit in dead
    return run + keeps_lead, -ranks[0]


def best_lead(hand: Iterable[str], dead: Collection[str]) -> str:
    """The suit to lead from `hand` (card codes), knowing the cards in `dead` are out of play."""
    held = set(hand)
    suits = [suit for suit in SUITS if any(code[1] == suit for code in held)]
    if not suits:
        raise ValueError("an empty hand cannot lead")
    return max(suits, key=lambda suit: (lead_value(held, suit, dead), -SUITS.index(suit)))
