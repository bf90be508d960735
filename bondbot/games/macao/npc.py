"""The NPC's automatic play at a Macao table (macao.md, step 5).

Drawing needs nothing here: the NPC banker and an NPC player both play the recommended
draws of `drawing`. Wagering, which macao.md leaves open, is the one choice: an NPC player
(at a rotating bank) stakes the table minimum on the target worth most for the two cards
it holds, by the exact odds; the cards of the others are unknown to it, as to anyone.
"""

from __future__ import annotations

from collections.abc import Sequence

from bondbot.games.macao.counting import Counting, card_value
from bondbot.games.macao.odds import best_wager
from bondbot.games.macao.settlement import Target
from bondbot.rules.cards import Card


def npc_target(cards: Sequence[Card], counting: Counting, packs: int, tie_pays: int) -> Target:
    """What an NPC player holding `cards` (its first two) wagers on."""
    first, second = (card_value(card) for card in cards[:2])
    return best_wager(counting, packs, first, second, tie_pays)[0]
