"""Chemin de fer's drawing rules, where they were first written: the baccarat bank's own
(`games.baccarat_bank.tableau`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.tableau import (
    BANKER_DRAWS_UP_TO,
    PONTE_DRAWS_AT_FIVE,
    Drawing,
    PonteRule,
    banker_draws_fixed,
    is_natural,
    ponte_draws_fixed,
    ponte_recommendation,
    ponte_rule,
    recommendation,
)

__all__ = [
    "BANKER_DRAWS_UP_TO",
    "PONTE_DRAWS_AT_FIVE",
    "Drawing",
    "PonteRule",
    "banker_draws_fixed",
    "is_natural",
    "ponte_draws_fixed",
    "ponte_recommendation",
    "ponte_rule",
    "recommendation",
]
