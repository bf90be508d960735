"""Money is held as whole minor units (cents): exact sums, no float drift in the ledger.

Amounts are typed the way the user's language writes them: English `1,000.50` (comma
for thousands, point for cents), French `1 000,50` or `1000,50` (a space, a no-break
space or a narrow no-break space for thousands, comma for cents). A text is read only
when one reading fits: `1,000` is a thousand in English but could be one (to three
decimals) or a thousand in French, so it is refused there with an example of the
French form. Separators that can only mean one thing are read whatever the language:
`12,50` and `12.50` both have cents, `1,000.50` and `1.000,50` both say where the
cents start.

Amounts are written as the language writes them (`format_amount`): English `$1,000.50`,
French `1 000,50 $` (a narrow no-break space between thousands, a comma before the cents,
the symbol after a no-break space), for the server's symbol. The Discord layer passes
that symbol as a `Currency`, a `str` that also carries the language its amounts are
written in, so the code between the caller who knows the language (a table's, a
clicker's) and `format_amount` passes one value, as it did when it was the bare symbol.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from bondbot.errors import Refusal

if TYPE_CHECKING:
    from bondbot.i18n import Lang

MAX_AMOUNT = 10**13  # a hundred billion in major units: beyond any campaign
MAX_DIGITS = len(str(MAX_AMOUNT))  # more digits than this is too big without reading it
NBSP, NNBSP = "\u00a0", "\u202f"  # no-break space, narrow no-break space
SPACES = " \u00a0\u202f\u2009"  # space, no-break, narrow no-break, thin space
EXAMPLES: dict[str, str] = {"en": "1,000.50", "fr": "1\u202f000,50"}
GROUPING: dict[str, str] = {"en": ",", "fr": " "}  # the language's own thousands mark
_DIGITS = re.compile(r"[0-9]+")
_NUMBER = re.compile(r"[0-9][0-9., ]*|[.,][0-9]+")  # what an amount may be made of


class AmountError(ValueError):
    """Why a text is not an amount; `code` names the message (`errors.amount.<code>`)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text!r}")
        self.code = code
        self.text = text


def _grouped(whole: str, mark: str) -> str | None:
    """`1 000 000` (groups of three after the first) → `1000000`; None if not grouped so."""
    groups = whole.split(mark)
    if not 1 <= len(groups[0]) <= 3 or any(len(group) != 3 for group in groups[1:]):
        return None
    return "".join(groups) if all(_DIGITS.fullmatch(group) for group in groups) else None


def _cents_mark(text: str, lang: Lang) -> str | None:
    """Which mark starts the cents: the last of `.` and `,` when both are there; a lone
    mark unless three digits follow it (then it groups thousands if the language groups
    with it, and is ambiguous otherwise); none when a mark repeats."""
    points, commas = text.count("."), text.count(",")
    if points and commas:
        mark = "." if text.rfind(".") > text.rfind(",") else ","
        if text.count(mark) > 1:
            raise AmountError("format", text)
        return mark
    if points + commas != 1:
        return None
    mark = "." if points else ","
    if _DIGITS.fullmatch(after := text.rpartition(mark)[2]) and len(after) == 3:
        if mark == GROUPING[lang]:
            return None
        raise AmountError("ambiguous", text)
    return mark


def parse_amount(text: str, lang: Lang = "en") -> int:
    """Read a positive amount in cents as `lang` writes it; AmountError says what is wrong."""
    cleaned = text.strip()
    for space in SPACES:
        cleaned = cleaned.replace(space, " ")
    if not _NUMBER.fullmatch(cleaned.removeprefix("-").lstrip()):
        raise AmountError("format", text)
    if cleaned.startswith("-"):
        raise AmountError("positive", text)
    if sum(char.isdigit() for char in cleaned) > MAX_DIGITS + 2:
        raise AmountError("too_big", text)
    mark = _cents_mark(cleaned, lang)
    whole, _, cents = cleaned.rpartition(mark) if mark else (cleaned, "", "")
    separators = set(whole) - set("0123456789")
    if len(separators) > 1:
        raise AmountError("format", text)
    plain = _grouped(whole, separators.pop()) if separators else whole or "0"
    if plain is None or (mark and not _DIGITS.fullmatch(cents)):
        raise AmountError("format", text)
    if len(cents) > 2:
        raise AmountError("cents", text)
    value = int(plain) * 100 + int(cents.ljust(2, "0"))
    if value == 0:
        raise AmountError("positive", text)
    if value > MAX_AMOUNT:
        raise AmountError("too_big", text)
    return value


class Currency(str):
    """A currency symbol that knows the language its amounts are written in.

    It is the symbol itself (`"$"`, compares and prints as it), so every function that
    took the bare symbol takes it; `format_amount` reads its `lang`."""

    lang: Lang

    def __new__(cls, symbol: str, lang: Lang = "en") -> Currency:
        made = super().__new__(cls, symbol)
        made.lang = lang
        return made

    def __repr__(self) -> str:
        return f"Currency({str(self)!r}, {self.lang!r})"


def format_amount(cents: int, symbol: str = "$", lang: Lang | None = None) -> str:
    """An amount as `lang` writes it (by default the language `symbol` carries, if it is a
    `Currency`, else English): `$1,234` and `$1,234.50` in English, `1 234 $` and
    `1 234,50 $` in French; a minus sign leads negatives."""
    lang = lang or getattr(symbol, "lang", "en")
    sign = "-" if cents < 0 else ""
    whole, frac = divmod(abs(cents), 100)
    if lang == "fr":
        body = f"{whole:,}".replace(",", NNBSP) + ("" if frac == 0 else f",{frac:02d}")
        return f"{sign}{body}{NBSP}{symbol}"
    body = f"{whole:,}" if frac == 0 else f"{whole:,}.{frac:02d}"
    return f"{sign}{symbol}{body}"


class Cents(int):
    """An amount in a message's parameters: shown with the server's currency."""


def amount_or_refuse(text: str, lang: Lang) -> int:
    """`parse_amount`, or a Refusal that quotes the text and shows the language's form."""
    try:
        return parse_amount(text, lang)
    except AmountError as error:
        raise Refusal(
            f"errors.amount.{error.code}",
            text=text.strip(),
            example=EXAMPLES[lang],
            max=Cents(MAX_AMOUNT),
        ) from None
