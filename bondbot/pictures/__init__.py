"""Pictures the bot sends (cards, the evening's chart): small PNGs made in memory with Pillow.

Pure functions of their input, no Discord and no database, so the table can attach them
wherever it answers and tests can read their pixels back.
"""
