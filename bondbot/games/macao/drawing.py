"""Who may take the one extra card, and what the bot recommends (macao.md, step 4 and 5).

Totals are already counted (`counting.count`). A player: 0–4 may draw (recommended), 5 is a
free choice, 6 and above may not (two-card 7–9 are naturals, settled before anyone draws).
The banker follows the same rule unless his first two cards make 3–6 and a player drew:
then only a player's third card in the restricted table lets him draw, and with several
players who drew one such card is enough.
"""

from __future__ import annotations

from collections.abc import Sequence

FREE_CHOICE = 5  # the highest total that may draw; the recommended play stands on it
RECOMMENDED_DRAW_MAX = 4

# Banker's two-card total → the player's third-card values that let him draw.
RESTRICTED: dict[int, frozenset[int]] = {
    3: frozenset({6, 7}),
    4: frozenset(range(10)) - {8},
    5: frozenset(range(2, 8)),
    6: frozenset(range(4, 8)),
}


def player_may_draw(total: int) -> bool:
    return total <= FREE_CHOICE


def recommended_draw(total: int) -> bool:
    """The bot's advice (and the timeout's play) for a player who may draw."""
    return total <= RECOMMENDED_DRAW_MAX


def allowing_third(banker_total: int, thirds: Sequence[int]) -> int | None:
    """Index of the first player's third card (values, seat order) that lets a restricted
    banker draw; None when the table does not apply or no card allows it."""
    allowed = RESTRICTED.get(banker_total)
    if allowed is None or not thirds:
        return None
    return next((i for i, value in enumerate(thirds) if value in allowed), None)


def banker_may_draw(banker_total: int, thirds: Sequence[int]) -> bool:
    """May the banker draw on his two-card total, given the third cards players drew?"""
    if thirds and banker_total in RESTRICTED:
        return allowing_third(banker_total, thirds) is not None
    return player_may_draw(banker_total)


def recommended_banker_draw(banker_total: int, thirds: Sequence[int]) -> bool:
    """The recommended banker play (macao.md; a timer's, and the NPC's before Gambling
    levels): draws on 0–2, on 3 and 4 unless the table forbids it, stands on 5 and 6; the
    same advice the players get, within the banker's rule."""
    return banker_total <= RECOMMENDED_DRAW_MAX and banker_may_draw(banker_total, thirds)
