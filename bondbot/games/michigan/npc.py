"""Michigan's automatic leads: the lead that looks ahead (level 15, also the timeout's and
the panel's advice), the greedy lead it replaced (a baseline for bench/), a novice's (level
0). Each uses only what the leader may see: his hand, the cards known to be out of play
(played, or shown in the widow by a stop), how many widow cards are still unseen, the pay
cards' chips and how many cards the others hold.

The greedy lead (`best_lead`): a lead plays the leader's lowest card of the suit, then every
next higher card he holds follows by itself; if the card after his run is known to be out
of play or his run ends on an Ace, it is a stop and he leads again. So a suit is worth the
cards it sheds at once, plus one for keeping the lead. Ties go to the suit whose lowest
card is lowest (low cards leave only on a lead), then suit order.

The lead that looks ahead (`look_ahead_lead`) follows the run past his own cards: it goes
on through whoever holds the next card, and his higher cards of the suit follow when it
reaches them; it stops on an Ace, on a card out of play, or on an unseen card that is in
the widow (each unseen card is, with the share of unseen cards the widow still hides). Each
way a lead may end is weighed by its chance: the cards he sheds, the pay cards he takes,
going out first (paid a chip for each card the others hold) and, when the lead comes back,
his best next lead; else what is left: his cards, and those only a lead of his own can
start (the lowest of a run whose card below is out of play), which cost the most.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

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


# -- the lead that looks ahead (level 15) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class View:
    """What a leader sees: his hand, the cards out of play, how many widow cards are still
    unseen, and the chips on each pay card. The opponents' hands are only counted."""

    hand: frozenset[str]
    dead: frozenset[str]
    widow_hidden: int
    layout: Mapping[str, int]
    opponents_cards: int

    @property
    def in_widow(self) -> float:
        """The chance an unseen card lies in the widow (the deal is uniform)."""
        unseen = CARDS - len(self.hand) - len(self.dead)
        return self.widow_hidden / unseen if unseen else 0.0


CARDS = len(RANKS) * len(SUITS)
DEPTH = 2  # leads in a row looked at (3 and 4 won no more rounds, each 3x slower)
BLOCKED = 8.0  # what a card only my own lead can start costs, in cards left (tried 0-20)


class Outcome(NamedTuple):
    chance: float
    shed: tuple[str, ...]  # my cards played
    gone: tuple[str, ...]  # every card played, and the widow card shown if one stopped it
    shown: bool  # a widow card stopped the run
    mine: bool  # the lead comes back to me


def _outcomes(view: View, suit: str) -> list[Outcome]:
    """How a lead of `suit` may end, each way with its chance. The run goes up through
    every holder; it stops on an Ace, a card out of play, or an unseen card that is in the
    widow (chance `in_widow`)."""
    mine = sorted(RANKS.index(code[0]) for code in view.hand if code[1] == suit)
    held = set(mine)
    p = view.in_widow
    found = []
    chance, shed, gone = 1.0, [], []
    rank, me = mine[0], True
    while True:
        code = RANKS[rank] + suit
        gone.append(code)
        if me:
            shed.append(code)
        if rank == len(RANKS) - 1 or RANKS[rank + 1] + suit in view.dead:
            found.append(Outcome(chance, tuple(shed), tuple(gone), False, me))
            break
        rank += 1
        if rank in held:
            me = True
            continue
        if p > 0:  # the next card is unseen: in the widow, it stops the run and shows
            shown = (*gone, RANKS[rank] + suit)
            found.append(Outcome(chance * p, tuple(shed), shown, True, me))
        chance *= 1.0 - p
        me = False
        if chance < 1e-6:
            break
    return found


def _blocked(view: View) -> float:
    """Expected count of my cards that only my own lead can start: the lowest of a suit's
    run whose card below is out of play (or a 2), or an unseen one that is in the widow."""
    p = view.in_widow
    total = 0.0
    for code in view.hand:
        rank = RANKS.index(code[0])
        below = RANKS[rank - 1] + code[1] if rank else None
        if below is None or below in view.dead:
            total += 1.0
        elif below not in view.hand:
            total += p
    return total


def _leaf(view: View) -> float:
    return -len(view.hand) - BLOCKED * _blocked(view)


def _value(view: View, depth: int) -> tuple[float, str]:
    """The expected worth of leading now, in chips, and the suit that reaches it."""
    best: tuple[float, str] | None = None
    for suit in sorted({code[1] for code in view.hand}, key=SUITS.index):
        worth = 0.0
        for way in _outcomes(view, suit):
            won = sum(view.layout.get(code, 0) for code in way.shed)
            hand = view.hand - set(way.shed)
            theirs = view.opponents_cards - (len(way.gone) - len(way.shed) - way.shown)
            if not hand:  # out first: everyone pays me a chip a card
                worth += way.chance * (won + theirs)
                continue
            after = View(
                hand=hand,
                dead=view.dead | set(way.gone),
                widow_hidden=view.widow_hidden - way.shown,
                layout=view.layout,
                opponents_cards=theirs,
            )
            rest = _value(after, depth - 1)[0] if way.mine and depth > 1 else _leaf(after)
            worth += way.chance * (won + rest)
        if best is None or worth > best[0] + 1e-9:
            best = (worth, suit)
    assert best is not None
    return best


def look_ahead_lead(view: View) -> str:
    """The suit whose lead is worth most, looking `DEPTH` leads ahead while the lead stays
    mine: each way the run may end weighed by its chance, my cards shed, the pay cards I
    take, going out first, and what is left (cards, and those only my lead can start)."""
    if not view.hand:
        raise ValueError("an empty hand cannot lead")
    return _value(view, DEPTH)[1]


def novice_lead(hand: Iterable[str], rng: random.Random) -> str:
    """A novice leads any suit he holds, without a plan (level 0)."""
    suits = sorted({code[1] for code in hand}, key=SUITS.index)
    if not suits:
        raise ValueError("an empty hand cannot lead")
    return rng.choice(suits)
