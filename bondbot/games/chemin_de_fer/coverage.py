"""Covering stakes with a bank, where it was first written: the baccarat bank's own
(`games.baccarat_bank.coverage`), which deux tableaux shares."""

from bondbot.games.baccarat_bank.coverage import Cover, cover, in_play

__all__ = ["Cover", "cover", "in_play"]
