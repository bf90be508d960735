"""Money is held as whole minor units (cents): exact sums, no float drift in the ledger."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

MAX_AMOUNT = 10**13  # a hundred billion in major units: beyond any campaign


def parse_amount(text: str) -> int:
    """Parse `12`, `12.5`, `12,50`, `1 000` into cents; ValueError if not a positive sum."""
    cleaned = text.strip().replace(" ", "").replace("_", "").replace(",", ".")
    try:
        value = Decimal(cleaned)
    except InvalidOperation as exc:
        raise ValueError(f"not an amount: {text!r}") from exc
    if not value.is_finite() or (value * 100) % 1 != 0:
        raise ValueError(f"not an amount: {text!r}")
    cents = int(value * 100)
    if cents <= 0 or cents > MAX_AMOUNT:
        raise ValueError(f"not an amount: {text!r}")
    return cents


def format_amount(cents: int, symbol: str = "$") -> str:
    """`$1,234` for whole sums, `$1,234.50` otherwise; a minus sign leads negatives."""
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    body = f"{whole:,}" if frac == 0 else f"{whole:,}.{frac:02d}"
    return f"{sign}{symbol}{body}"


class Cents(int):
    """An amount in a message's parameters: shown with the server's currency."""
