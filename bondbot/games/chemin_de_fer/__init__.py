"""Chemin de fer: baccarat in which the bank passes from player to player (rules/chemin-de-fer.md).

`tableau.py` holds the drawing rules and seed 004's recommendations (shared with baccara à
deux tableaux), `coverage.py` how stakes are covered by a bank, `npc.py` the NPC's automatic
play, `engine.py` the game on the engine contract.
"""
