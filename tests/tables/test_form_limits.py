"""The limits a form states are whole units, rounded so that the amounts it states are
allowed (issue 34): Macao's "between $10 and $66.66" is "between $10 and $66"."""

from __future__ import annotations

import pytest

from bondbot.bot.tables.modals import limits_hint, most_hint, whole_limits
from bondbot.money import Currency


@pytest.mark.parametrize(
    ("low", "high", "stated"),
    [
        (1_000, 6_666, (1_000, 6_600)),  # the most rounded down
        (1_050, 50_000, (1_100, 50_000)),  # the least rounded up
        (1_050, None, (1_100, None)),
        (1_000, 1_000, (1_000, 1_000)),
        (1_050, 1_080, (1_050, 1_080)),  # no whole unit between: exact
        (1, 99, (1, 99)),
    ],
)
def test_stated_limits_are_whole_units_within_the_allowed_ones(
    low: int, high: int | None, stated: tuple[int, int | None]
) -> None:
    assert whole_limits(low, high) == stated
    least, most = stated
    assert low <= least and (high is None or (most is not None and least <= most <= high))


def test_a_form_states_whole_units_in_either_language() -> None:
    assert limits_hint("en", Currency("$", "en"), 1_000, 6_666) == "Between $10 and $66"
    assert limits_hint("fr", Currency("$", "fr"), 1_000, 6_666) == "Entre 10\u00a0$ et 66\u00a0$"
    assert limits_hint("en", Currency("$", "en"), 1_050) == "At least $11"
    assert most_hint("en", Currency("$", "en"), 6_666) == "At most $66 (your chips)"
    assert most_hint("fr", Currency("$", "fr"), 50) == "Au plus 0,50\u00a0$ (vos jetons)"
