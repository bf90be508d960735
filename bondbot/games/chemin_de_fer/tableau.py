"""Chemin de fer's drawing rules, named where they were first written: they are the baccarat
bank's (`games.baccarat_bank.tableau`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.tableau import *  # noqa: F403
