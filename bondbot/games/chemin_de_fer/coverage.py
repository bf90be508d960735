"""Covering stakes with a bank, named where it was first written: it is the baccarat bank's
(`games.baccarat_bank.coverage`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.coverage import *  # noqa: F403
