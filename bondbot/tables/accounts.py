"""Ledger account names: one place that spells them."""

from __future__ import annotations

from bondbot.storage.ledger import sheet_account as sheet

__all__ = ["bank", "chips", "layout", "pot", "sheet", "table_prefixes"]


def chips(table_id: int, character_id: int) -> str:
    """A PC's chips at a table."""
    return f"chips:{table_id}:{character_id}"


def bank(table_id: int) -> str:
    """The NPC's bankroll at a table (his stack of chips)."""
    return f"bank:{table_id}"


def pot(table_id: int, name: str) -> str:
    """Chips in the middle of a table (a pot, a side pot)."""
    return f"pot:{table_id}:{name}"


def layout(table_id: int, name: str) -> str:
    """Chips lying on a spot of the table (Michigan's pay cards)."""
    return f"layout:{table_id}:{name}"


def table_prefixes(table_id: int) -> list[str]:
    """The prefixes of a table's pots and layout, whose names only the game knows."""
    return [f"pot:{table_id}:", f"layout:{table_id}:"]
