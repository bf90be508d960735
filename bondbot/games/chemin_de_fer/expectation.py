"""Classic drawing's exact expectations, named where they were first written: they are the
baccarat bank's (`games.baccarat_bank.expectation`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.expectation import *  # noqa: F403
