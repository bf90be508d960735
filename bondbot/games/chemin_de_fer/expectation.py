"""Classic drawing's exact expectations, where they were first written: the baccarat
bank's own (`games.baccarat_bank.expectation`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.expectation import (
    PER_PACK,
    Outlook,
    banker_outlook,
    composition,
    ponte_outlook,
)

__all__ = ["PER_PACK", "Outlook", "banker_outlook", "composition", "ponte_outlook"]
