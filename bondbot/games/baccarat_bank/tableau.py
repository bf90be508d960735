"""Who draws a third card: the fixed punto banco tableau, and seed 004's classic advice.

In classic drawing the ponte's play is a rule except at 5, and the banker's is a choice made
seeing the ponte's third card; the table below (chemin-de-fer.md, from seed 004) is what the
bot shows him and what a timed-out banker plays (the NPC weighs the exact expectation
instead, by its Gambling level: `npc.py`).
"""

from __future__ import annotations

from typing import Literal

from bondbot.rules.baccarat import banker_draws

Drawing = Literal["fixed", "classic"]
PonteRule = Literal["draw", "stand", "choose"]

# The highest two-card total on which the banker is advised to draw, by the ponte's third
# card value (None: the ponte stood). Seed 004's table, row by row.
BANKER_DRAWS_UP_TO: dict[int | None, int] = {
    None: 5,
    0: 2,
    1: 3,
    2: 4,
    3: 4,
    4: 5,
    5: 5,  # "many draw on 6 too": the table keeps 0–5
    6: 6,
    7: 6,
    8: 2,  # "the seed allows standing on 3 or 4": standing from 3 is the table's advice
    9: 2,
}

# The better play for a ponte at 5 against a banker following the table (chemin-de-fer.md:
# the banker's edge is 0.917% when the ponte draws at 5, 1.455% when he stands).
PONTE_DRAWS_AT_FIVE = True


def is_natural(total: int, cards: int) -> bool:
    """8 or 9 in two cards: shown at once (abattage)."""
    return cards == 2 and total >= 8


def ponte_rule(total: int) -> PonteRule:
    """Classic drawing for the ponte's two-card total: draw 0–4, choose at 5, stand 6–7."""
    if not 0 <= total <= 7:
        raise ValueError(f"a ponte's total {total} never reaches the draw")
    if total <= 4:
        return "draw"
    return "choose" if total == 5 else "stand"


def ponte_recommendation(total: int) -> bool:
    """Should the ponte draw? The rule, and at 5 the better play (draw)."""
    rule = ponte_rule(total)
    return rule == "draw" or (rule == "choose" and PONTE_DRAWS_AT_FIVE)


def recommendation(banker_total: int, ponte_third: int | None) -> bool:
    """Seed 004's advice: should the banker draw on `banker_total` (0–7)?

    `ponte_third` is the value (0–9) of the ponte's face-up third card, None if he stood.
    """
    if not 0 <= banker_total <= 7:
        raise ValueError(f"a banker's total {banker_total} never reaches the draw")
    if ponte_third is not None and not 0 <= ponte_third <= 9:
        raise ValueError(f"not a card value: {ponte_third}")
    return banker_total <= BANKER_DRAWS_UP_TO[ponte_third]


def ponte_draws_fixed(total: int) -> bool:
    """The punto banco tableau for the ponte's hand: draw on 0–5."""
    return total <= 5


def banker_draws_fixed(banker_total: int, ponte_third: int | None) -> bool:
    """The punto banco tableau for the banker's hand (baccarat.md)."""
    return banker_draws(banker_total, ponte_third)
