"""The alternative rule's data against rules/alternative-rule.md."""

from __future__ import annotations

import pytest

from bondbot.rules.alternative import (
    DEFAULT_AWARDS,
    AwardRange,
    format_award_table,
    hero_points_for,
    parse_award_table,
    require_simulation,
    simulation_allowed,
)
from bondbot.rules.errors import IllegalAction

# The seed's table, level by level.
SEED_POINTS = [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4]


@pytest.mark.parametrize("level", range(16))
def test_default_awards_follow_the_seed(level: int):
    assert hero_points_for(level) == SEED_POINTS[level]


@pytest.mark.parametrize("level", [-1, 16, 99])
def test_levels_outside_the_table_are_refused(level: int):
    with pytest.raises(IllegalAction) as info:
        hero_points_for(level)
    assert info.value.code == "alternative.bad_level"


def test_default_table_reads_and_writes_as_one_string():
    text = "0:0 1-5:1 6-10:2 11-14:3 15:4"
    assert format_award_table(DEFAULT_AWARDS) == text
    assert parse_award_table(text) == DEFAULT_AWARDS


def test_a_custom_table_applies():
    table = parse_award_table("0-2:0, 3-15:20")
    assert table == (AwardRange(0, 2, 0), AwardRange(3, 15, 20))
    assert [hero_points_for(level, table) for level in (0, 2, 3, 15)] == [0, 0, 20, 20]
    assert format_award_table(table) == "0-2:0 3-15:20"


def test_entries_may_come_in_any_order_and_single_levels():
    table = parse_award_table("15:9 1-14:2 0:1")
    assert format_award_table(table) == "0:1 1-14:2 15:9"
    assert hero_points_for(15, table) == 9


def test_one_range_may_cover_everything():
    assert parse_award_table("0-15:3") == (AwardRange(0, 15, 3),)


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "alternative.awards_empty", {}),
        ("   ", "alternative.awards_empty", {}),
        ("0:0 1-5:1 6-10:2 11-14:3", "alternative.awards_gap", {"level": 15}),
        ("0:0 2-15:1", "alternative.awards_gap", {"level": 1}),
        ("1-15:1", "alternative.awards_gap", {"level": 0}),
        ("0-5:1 5-15:2", "alternative.awards_overlap", {"level": 5}),
        ("0-15:1 3:2", "alternative.awards_overlap", {"level": 3}),
        ("0-16:1", "alternative.awards_bad_range", {"low": 0, "high": 16}),
        ("0:0 6-1:1 2-15:1", "alternative.awards_bad_range", {"low": 6, "high": 1}),
        ("0-15:21", "alternative.awards_bad_points", {"points": 21}),
        ("0-15:-1", "alternative.awards_syntax", {"token": "0-15:-1"}),
        ("0-15", "alternative.awards_syntax", {"token": "0-15"}),
        ("a:1", "alternative.awards_syntax", {"token": "a:1"}),
        ("0:0 1-5:1x", "alternative.awards_syntax", {"token": "1-5:1x"}),
    ],
)
def test_bad_tables_are_refused(text: str, code: str, params: dict[str, int]):
    with pytest.raises(IllegalAction) as info:
        parse_award_table(text)
    assert info.value.code == code
    assert info.value.params == params


def test_points_bounds_are_inclusive():
    assert hero_points_for(7, parse_award_table("0-15:20")) == 20
    assert hero_points_for(7, parse_award_table("0-15:0")) == 0


@pytest.mark.parametrize(("npcs", "allowed"), [(0, False), (1, True), (2, False), (5, False)])
def test_simulation_needs_exactly_one_npc(npcs: int, allowed: bool):
    assert simulation_allowed(npcs) is allowed


@pytest.mark.parametrize(
    ("npcs", "code"), [(0, "alternative.no_npc"), (2, "alternative.several_npcs")]
)
def test_require_simulation_says_why(npcs: int, code: str):
    with pytest.raises(IllegalAction) as info:
        require_simulation(npcs)
    assert info.value.code == code


def test_require_simulation_passes_with_one_npc():
    assert require_simulation(1) is None
