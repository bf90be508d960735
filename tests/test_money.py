"""Amounts as each language writes them; ambiguous, malformed and huge texts refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bondbot.errors import Refusal
from bondbot.i18n import t
from bondbot.money import (
    EXAMPLES,
    MAX_AMOUNT,
    AmountError,
    Cents,
    Currency,
    amount_or_refuse,
    format_amount,
    parse_amount,
)

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(
    ("text", "lang", "cents"),
    [
        ("1,000", "en", 100_000),
        ("1,000.50", "en", 100_050),
        ("1,000,000", "en", 100_000_000),
        ("12.5", "en", 1250),
        ("12,50", "en", 1250),  # a comma before two digits can only start the cents
        ("1 500,50", "en", 150_050),
        ("1000", "en", 100_000),
        ("1 000,50", "fr", 100_050),
        ("1000,50", "fr", 100_050),
        (f"1{NNBSP}000,50", "fr", 100_050),
        (f"1{NBSP}000{NBSP}000", "fr", 100_000_000),
        ("1 000", "fr", 100_000),
        ("12,5", "fr", 1250),
        ("12.50", "fr", 1250),
        ("1.000,50", "fr", 100_050),  # both marks: the last one starts the cents
        ("1,000.50", "fr", 100_050),
        ("1.000.000", "fr", 100_000_000),
        ("  7 ", "en", 700),
        (",50", "fr", 50),
        ("100000000000", "en", MAX_AMOUNT),
    ],
)
def test_amounts_as_each_language_writes_them(text: str, lang: str, cents: int) -> None:
    assert parse_amount(text, lang) == cents  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "lang", "code"),
    [
        ("1,000", "fr", "ambiguous"),  # one to three decimals, or a thousand?
        ("1.000", "fr", "ambiguous"),
        ("1.000", "en", "ambiguous"),
        ("1.001", "en", "ambiguous"),
        ("1,000.005", "en", "cents"),
        ("12,345", "fr", "ambiguous"),
        ("0", "en", "positive"),
        ("0,00", "fr", "positive"),
        ("-5", "en", "positive"),
        ("abc", "en", "format"),
        ("", "en", "format"),
        ("12.", "en", "format"),
        ("1 00", "en", "format"),
        ("1,00,000", "en", "format"),
        ("1 000,000.50", "en", "format"),
        ("5.5.5", "en", "format"),
        ("1_000", "en", "format"),
        ("$500", "en", "format"),
        ("1e26", "en", "format"),
        ("1e400", "en", "format"),
        ("1E3", "fr", "format"),
        ("NaN", "en", "format"),
        ("nan", "fr", "format"),
        ("Infinity", "en", "format"),
        ("-Infinity", "en", "format"),
        ("- 5", "en", "positive"),
        ("-", "en", "format"),
        ("inf", "en", "format"),
        ("0x10", "en", "format"),
        ("١٢", "en", "format"),  # other scripts' digits
        ("9" * 26, "en", "too_big"),
        ("9" * 400, "fr", "too_big"),
        ("100000000000.01", "en", "too_big"),
        ("100,000,000,001", "en", "too_big"),
    ],
)
def test_ambiguous_malformed_and_huge_amounts_are_refused(text: str, lang: str, code: str) -> None:
    with pytest.raises(AmountError) as error:
        parse_amount(text, lang)  # type: ignore[arg-type]
    assert error.value.code == code


@given(st.integers(min_value=1, max_value=MAX_AMOUNT))
def test_the_bots_own_display_reads_back_in_english(cents: int) -> None:
    assert parse_amount(format_amount(cents, ""), "en") == cents


@pytest.mark.parametrize(
    ("cents", "symbol", "lang", "shown"),
    [
        (2_000, "$", "en", "$20"),
        (100_050, "$", "en", "$1,000.50"),
        (-3_100, "€", "en", "-€31"),
        (5, "$", "en", "$0.05"),
        (2_000, "$", "fr", f"20{NBSP}$"),
        (100_050, "$", "fr", f"1{NNBSP}000,50{NBSP}$"),
        (-3_100, "€", "fr", f"-31{NBSP}€"),
        (5, "$", "fr", f"0,05{NBSP}$"),
        (99_900, "£", "fr", f"999{NBSP}£"),
        (123_456_789, "gp", "fr", f"1{NNBSP}234{NNBSP}567,89{NBSP}gp"),
    ],
)
def test_amounts_are_written_as_each_language_writes_them(
    cents: int, symbol: str, lang: str, shown: str
) -> None:
    assert format_amount(cents, symbol, lang) == shown  # type: ignore[arg-type]
    assert format_amount(cents, Currency(symbol, lang)) == shown  # type: ignore[arg-type]


def test_a_currency_is_its_symbol_and_carries_its_language() -> None:
    euro = Currency("€", "fr")
    assert euro == "€" and str(euro) == "€" and f"{euro}" == "€" and euro.lang == "fr"
    assert Currency("€").lang == "en"
    assert format_amount(2_000, "€") == "€20"  # a bare symbol: English
    assert format_amount(2_000, euro, "en") == "€20"  # the language given wins
    assert format_amount(2_000) == "$20"


@given(st.integers(min_value=1, max_value=MAX_AMOUNT))
def test_the_bots_own_french_display_reads_back_in_french(cents: int) -> None:
    shown = format_amount(cents, Currency("$", "fr"))
    assert shown.endswith(f"{NBSP}$")
    assert parse_amount(shown.removesuffix(f"{NBSP}$"), "fr") == cents


@given(st.integers(min_value=1, max_value=MAX_AMOUNT), st.sampled_from([" ", NBSP, NNBSP]))
def test_the_french_form_reads_back_in_french(cents: int, space: str) -> None:
    whole, frac = divmod(cents, 100)
    text = f"{whole:,}".replace(",", space) + (f",{frac:02d}" if frac else "")
    assert parse_amount(text, "fr") == cents


@given(st.text(max_size=40))
def test_any_text_is_an_amount_or_a_clear_refusal(text: str) -> None:
    for lang in ("en", "fr"):
        try:
            cents = parse_amount(text, lang)  # type: ignore[arg-type]
        except AmountError as error:
            assert t(f"errors.amount.{error.code}", lang) != f"errors.amount.{error.code}"
        else:
            assert 0 < cents <= MAX_AMOUNT


def test_the_refusal_shows_the_languages_own_form() -> None:
    with pytest.raises(Refusal) as refusal:
        amount_or_refuse("1,000", "fr")
    assert refusal.value.key == "errors.amount.ambiguous"
    assert refusal.value.params["example"] == EXAMPLES["fr"] == f"1{NNBSP}000,50"
    assert parse_amount(EXAMPLES["fr"], "fr") == parse_amount(EXAMPLES["en"], "en") == 100_050
    with pytest.raises(Refusal) as refusal:
        amount_or_refuse("1e26", "en")
    assert refusal.value.params["max"] == MAX_AMOUNT
    assert isinstance(refusal.value.params["max"], Cents)
