"""Baccara à deux tableaux: one banker against two tables of pontes (rules/deux-tableaux.md).

`engine.py` is the game on the engine contract, `npc.py` the NPC's automatic play; the
drawing advice and the covering of stakes are chemin de fer's (`games.chemin_de_fer`).
"""
