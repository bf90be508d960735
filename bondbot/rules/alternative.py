"""The alternative card-game rule's data (rules/alternative-rule.md): when a table may be
simulated, and the Hero Points a PC earns for choosing to simulate.

A server's award table is stored and edited as one string, `0:0 1-5:1 6-10:2 11-14:3 15:4`,
so a GM can set it in a single command and read it back the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from bondbot.rules.errors import IllegalAction

MIN_LEVEL, MAX_LEVEL = 0, 15
MIN_POINTS, MAX_POINTS = 0, 20
DEFAULT_SPEND_WINDOW_SECONDS = 60

_TOKEN = re.compile(r"(\d+)(?:-(\d+))?:(\d+)")


class AwardRange(NamedTuple):
    """Gambling levels `low`..`high` (inclusive) earn `points` Hero Points."""

    low: int
    high: int
    points: int


AwardTable = tuple[AwardRange, ...]

DEFAULT_AWARDS: AwardTable = (
    AwardRange(0, 0, 0),
    AwardRange(1, 5, 1),
    AwardRange(6, 10, 2),
    AwardRange(11, 14, 3),
    AwardRange(15, 15, 4),
)


def hero_points_for(level: int, awards: AwardTable = DEFAULT_AWARDS) -> int:
    """Hero Points a PC with this Gambling level earns for choosing to simulate."""
    for award in awards:
        if award.low <= level <= award.high:
            return award.points
    raise IllegalAction("alternative.bad_level", level=level)


def validate_award_table(awards: Iterable[AwardRange]) -> AwardTable:
    """The table sorted by level, or IllegalAction unless it covers 0..15 exactly once."""
    ordered = tuple(sorted(AwardRange(*award) for award in awards))
    if not ordered:
        raise IllegalAction("alternative.awards_empty")
    for award in ordered:
        if not MIN_LEVEL <= award.low <= award.high <= MAX_LEVEL:
            raise IllegalAction("alternative.awards_bad_range", low=award.low, high=award.high)
        if not MIN_POINTS <= award.points <= MAX_POINTS:
            raise IllegalAction("alternative.awards_bad_points", points=award.points)
    expected = MIN_LEVEL
    for award in ordered:
        if award.low < expected:
            raise IllegalAction("alternative.awards_overlap", level=award.low)
        if award.low > expected:
            raise IllegalAction("alternative.awards_gap", level=expected)
        expected = award.high + 1
    if expected <= MAX_LEVEL:
        raise IllegalAction("alternative.awards_gap", level=expected)
    return ordered


def parse_award_table(text: str) -> AwardTable:
    """Parse `0:0 1-5:1 …` (spaces or commas between entries) into a validated table."""
    awards = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.fullmatch(token)
        if match is None:
            raise IllegalAction("alternative.awards_syntax", token=token)
        low, high, points = match.groups()
        awards.append(AwardRange(int(low), int(high if high is not None else low), int(points)))
    return validate_award_table(awards)


def format_award_table(awards: AwardTable = DEFAULT_AWARDS) -> str:
    """The one-string form parse_award_table reads: `0:0 1-5:1 6-10:2 11-14:3 15:4`."""
    return " ".join(
        f"{a.low}:{a.points}" if a.low == a.high else f"{a.low}-{a.high}:{a.points}" for a in awards
    )


def simulation_allowed(npc_count: int) -> bool:
    """A table may be simulated only with exactly one NPC; otherwise the rulebook applies."""
    return npc_count == 1


def require_simulation(npc_count: int) -> None:
    """IllegalAction saying why a table with this many NPCs cannot be simulated."""
    if npc_count < 1:
        raise IllegalAction("alternative.no_npc")
    if npc_count > 1:
        raise IllegalAction("alternative.several_npcs", npcs=npc_count)
