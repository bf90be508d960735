"""One package per game: its pure engine, its table adapter, its part of the table message.

`contract.py` is what every engine promises the table; each game's package holds
`engine.py` (pure: no discord, no database, no clock) and, once it is played at a table,
the pieces that connect it to the table service and to Discord.
"""
