"""`/table open holdem`'s blinds: the GM's text read into the engine's blind schedule."""

from __future__ import annotations

import pytest

from bondbot.errors import Refusal
from bondbot.games.holdem.engine import BlindLevel, HoldemOptions
from bondbot.games.holdem.ui import blind_options


def levels(options: dict) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    rules = HoldemOptions.model_validate(options)
    return [(level.small, level.big) for level in rules.levels]


def test_the_small_blind_is_half_the_big_one_unless_given() -> None:
    assert blind_options("10", None, None, None, "en") == {
        "levels": [{"small": 500, "big": 1_000}],
        "raise_every": None,
    }
    assert levels(blind_options("10", "4", None, None, "en")) == [(400, 1_000)]
    # Whole chips (holdem.md): half of $3 is $1 (rounded down), never less than $1.
    assert levels(blind_options("3", None, None, None, "en")) == [(100, 300)]
    assert levels(blind_options("1", None, None, None, "en")) == [(100, 100)]


def test_a_schedule_in_either_language() -> None:
    options = blind_options("10", None, "20/40; 50/100", 8, "en")
    assert levels(options) == [(500, 1_000), (2_000, 4_000), (5_000, 10_000)]
    rules = HoldemOptions.model_validate(options)
    assert [rules.blinds(hand) for hand in (8, 9, 17, 99)] == [
        BlindLevel(small=500, big=1_000),
        BlindLevel(small=2_000, big=4_000),
        BlindLevel(small=5_000, big=10_000),
        BlindLevel(small=5_000, big=10_000),
    ]
    french = blind_options("1 000", None, "1 000/2 000 ; 2 500/5 001", 5, "fr")
    assert levels(french)[1:] == [(100_000, 200_000), (250_000, 500_100)]


def test_raising_without_a_schedule_doubles_the_blinds() -> None:
    assert levels(blind_options("10", None, None, 20, "en"))[:3] == [
        (500, 1_000),
        (1_000, 2_000),
        (2_000, 4_000),
    ]


@pytest.mark.parametrize(
    ("small", "schedule", "every", "code"),
    [
        (None, "20/40", None, "holdem.schedule_needs_every"),
        (None, "20-40", 5, "holdem.bad_blinds"),
        ("20", None, None, "holdem.bad_blinds"),
        (None, "40/20", 5, "holdem.bad_blinds"),
        (None, "; ".join(["20/40"] * 60), 5, "holdem.bad_blinds"),
        (None, "x/40", 5, "errors.amount.format"),
        ("2.50", None, None, "holdem.blinds_whole"),  # a chip is a whole unit
        (None, "20/40; 25,50/51", 5, "holdem.blinds_whole"),
    ],
)
def test_blinds_that_make_no_sense_are_refused(
    small: str | None, schedule: str | None, every: int | None, code: str
) -> None:
    with pytest.raises(Refusal) as refused:
        blind_options("10", small, schedule, every, "en")
    assert refused.value.key == code
