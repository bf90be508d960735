"""What Michigan and Makao share: games played in turns from private hands of cards.

Not a game (no `GAME`, not in `registry.BUILTIN`): `engine.py` is the base of both
engines (the pack, the hands, the seats a deal needs, the Hero Point offers, the GM's
end), `ui.py` the base of both Discord parts (the table's button for whoever is to move,
the seat panels and the GM's, the deal and the end).
"""
