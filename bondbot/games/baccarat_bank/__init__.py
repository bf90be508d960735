"""The baccarat bank: what chemin de fer and baccara à deux tableaux share (not a game).

Both are baccarat against a bank that one seat holds in his own stack: the pontes answer
together (stake, banco or pass), the bank covers their stakes in order, the hands draw by
the same tableau, and every covered stake is settled seat to seat. Each game specialises
this core: chemin de fer has one tableau and a bank that passes round the table by the
players' own decisions; deux tableaux has two tableaux, each covered by half the bank,
and a bank that the NPC holds unless the GM auctions it.

`tableau.py` holds the drawing rules and seed 004's advice, `coverage.py` how stakes are
covered, `expectation.py` the exact expectations the NPC plays by, `events.py` the events
both games show alike, `engine.py` the engine both games' engines extend, `ui.py` the
Discord part both games' UIs extend.
"""
