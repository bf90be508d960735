"""Persistence: one SQLite file, one connection, every write in a serialised transaction."""
