"""No-limit Texas hold'em (the Casino Royale table): a thin engine over pokerkit.

`engine.py` is the game on the contract, `hand.py` drives pokerkit's hand state and adds
what holdem.md says differently, `names.py` names hands (eval7), `npc.py` is the NPC's
automatic play.
"""
