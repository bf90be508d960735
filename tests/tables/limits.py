"""The table message within Discord's limits, in the longer of the two languages."""

from __future__ import annotations

from datetime import datetime

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.money import Currency
from bondbot.tables.service import TableSnapshot

LONG_NAME = 64  # the longest character name


def long_name(prefix: str) -> str:
    return (prefix + " " + "x" * LONG_NAME)[:LONG_NAME]


def assert_within_limits(snapshot: TableSnapshot, now: datetime) -> None:
    """Every field whole (nothing cut at 1,024), the embed under 6,000, the buttons too."""
    for lang in ("fr", "en"):
        embed = table_embed(snapshot, lang, Currency("$", lang), now)
        for field in embed.fields:
            assert 0 < len(field.value or "") < 1024, (field.name, len(field.value or ""))
        assert len(embed) <= 6000
        view = table_view(snapshot, lang, now, Currency("$", lang))
        if view is not None:
            assert len(view.children) <= 25
            assert all(len(item.label or "") <= 80 for item in view.children)  # type: ignore[attr-defined]
