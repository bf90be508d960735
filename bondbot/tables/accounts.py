"""Ledger account names: one place that spells them."""

from __future__ import annotations

from bondbot.storage.ledger import sheet_account as sheet

__all__ = ["bank", "chips", "sheet"]


def chips(table_id: int, character_id: int) -> str:
    """A PC's chips at a table."""
    return f"chips:{table_id}:{character_id}"


def bank(table_id: int) -> str:
    """The NPC's bankroll at a table."""
    return f"bank:{table_id}"
