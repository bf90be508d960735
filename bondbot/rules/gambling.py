"""The rulebook's gambling resolution (rules/rulebook.md): skill rolls and the contest.

Ease Factors are `fractions.Fraction` in steps of ½ from ½ to 10: exact arithmetic, so a
Success Chance like 15 × 1½ floors the same way everywhere, and ½ needs no special case.
Quality Results are 1 (Excellent) … 4 (Acceptable); None is a failure. Dice are injected:
a d100 result as an int, or a `random.Random` to draw one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from math import floor
from typing import Any

from bondbot.rules.errors import IllegalAction

MIN_EASE, MAX_EASE, DEFAULT_EASE = Fraction(1, 2), Fraction(10), Fraction(5)
NO_SKILL_EASE_PENALTY = 3
MAX_CHARACTERISTIC = 20
MAX_LEVEL = 15
WORST_QUALITY = 4

QRFractions = tuple[Fraction, Fraction, Fraction, Fraction]
DEFAULT_QR_FRACTIONS: QRFractions = (Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(1))


def ease_factor(value: Fraction | int | float | str) -> Fraction:
    """An Ease Factor from `5`, `2.5`, `"1/2"`, `"½"`: a multiple of ½ from ½ to 10."""
    try:
        ease = Fraction(value.replace("½", "1/2")) if isinstance(value, str) else Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise IllegalAction("gambling.bad_ease", ease=str(value)) from None
    if not MIN_EASE <= ease <= MAX_EASE or (ease * 2).denominator != 1:
        raise IllegalAction("gambling.bad_ease", ease=str(value))
    return ease


def effective_ease(ease: Fraction | int, skilled: bool) -> Fraction:
    """The Ease Factor actually rolled against: 3 lower without the skill, never below ½."""
    ease = ease_factor(ease)
    return ease if skilled else max(ease - NO_SKILL_EASE_PENALTY, MIN_EASE)


def _check_character(characteristic: int, level: int) -> None:
    if not 1 <= characteristic <= MAX_CHARACTERISTIC:
        raise IllegalAction("gambling.bad_characteristic", value=characteristic)
    if not 0 <= level <= MAX_LEVEL:
        raise IllegalAction("gambling.bad_level", level=level)


def primary_chance(characteristic: int, level: int) -> int:
    """Characteristic + skill level (level 0 = without the skill: the characteristic alone)."""
    _check_character(characteristic, level)
    return characteristic + level


def success_chance(characteristic: int, level: int, ease: Fraction | int) -> int:
    """Primary Chance × effective Ease Factor, rounded down; may exceed 100."""
    return floor(primary_chance(characteristic, level) * effective_ease(ease, level > 0))


def qr_fractions(values: Sequence[Fraction | float | str]) -> QRFractions:
    """Validate a server's QR fractions: four, increasing, above 0, the last exactly 1.

    Floats go through their decimal text so `0.1` means exactly one tenth.
    """
    try:
        parsed = tuple(Fraction(str(v)) if isinstance(v, float) else Fraction(v) for v in values)
    except (ValueError, ZeroDivisionError):
        raise IllegalAction("gambling.bad_qr_fractions") from None
    if len(parsed) != 4 or parsed[0] <= 0 or parsed[3] != 1:
        raise IllegalAction("gambling.bad_qr_fractions")
    if any(low > high for low, high in pairwise(parsed)):
        raise IllegalAction("gambling.bad_qr_fractions")
    return parsed  # type: ignore[return-value]


def qr_thresholds(sc: int, fractions: QRFractions = DEFAULT_QR_FRACTIONS) -> tuple[int, ...]:
    """The highest roll giving QR 1, 2, 3, 4: SC × fraction, rounded down, at least 1."""
    return tuple(max(1, floor(sc * fraction)) for fraction in fractions)


def quality_for(roll: int, sc: int, fractions: QRFractions = DEFAULT_QR_FRACTIONS) -> int | None:
    """The Quality Result of a d100 roll against SC; None when it fails (100 always fails)."""
    if not 1 <= roll <= 100:
        raise IllegalAction("gambling.bad_roll", roll=roll)
    if roll == 100 or roll > sc:
        return None
    for quality, limit in enumerate(qr_thresholds(sc, fractions), start=1):
        if roll <= limit:
            return quality
    return WORST_QUALITY  # a roll within SC succeeds, whatever the last fraction says


@dataclass(frozen=True, slots=True)
class RollResult:
    primary_chance: int
    ease_factor: Fraction  # effective: already lowered when rolled without the skill
    success_chance: int
    roll: int
    quality: int | None

    @property
    def succeeded(self) -> bool:
        return self.quality is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "primary_chance": self.primary_chance,
            "ease_factor": str(self.ease_factor),
            "success_chance": self.success_chance,
            "roll": self.roll,
            "quality": self.quality,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollResult:
        return cls(
            data["primary_chance"],
            Fraction(data["ease_factor"]),
            data["success_chance"],
            data["roll"],
            data["quality"],
        )


def roll_d100(rng: random.Random) -> int:
    return rng.randint(1, 100)


def skill_roll(
    characteristic: int,
    level: int,
    ease: Fraction | int,
    d100: int,
    fractions: QRFractions = DEFAULT_QR_FRACTIONS,
) -> RollResult:
    """Resolve a skill roll (for Gambling: PER and the Gambling level) with a given d100."""
    sc = success_chance(characteristic, level, ease)
    return RollResult(
        primary_chance(characteristic, level),
        effective_ease(ease, level > 0),
        sc,
        d100,
        quality_for(d100, sc, fractions),
    )


def max_steps(quality: int | None) -> int:
    """How many improvement steps still change this result (failure needs 4 to reach QR 1)."""
    return WORST_QUALITY if quality is None else quality - 1


def improve(quality: int | None, steps: int) -> int | None:
    """Move a result `steps` better: failure → 4 → 3 → 2 → 1; steps past QR 1 are wasted."""
    if steps < 0:
        raise IllegalAction("gambling.bad_steps", steps=steps)
    if quality is not None and not 1 <= quality <= WORST_QUALITY:
        raise IllegalAction("gambling.bad_quality", quality=quality)
    if steps == 0:
        return quality
    start = WORST_QUALITY + 1 if quality is None else quality
    return max(1, start - steps)


def net_steps(hero_steps: int, survival_cancels: int) -> int:
    """Hero Point steps left after a villain's Survival Points cancel them one for one."""
    if hero_steps < 0 or survival_cancels < 0:
        raise IllegalAction("gambling.bad_steps", steps=min(hero_steps, survival_cancels))
    return max(0, hero_steps - survival_cancels)


def improve_contested(quality: int | None, hero_steps: int, survival_cancels: int) -> int | None:
    """The result after Hero Point steps, less those Survival Points cancelled."""
    return improve(quality, net_steps(hero_steps, survival_cancels))


@dataclass(frozen=True, slots=True)
class Contestant:
    key: str
    level: int
    perception: int
    quality: int | None


def _standing(c: Contestant) -> tuple[bool, int, int, int]:
    """Bigger is better: success, then lower QR, then Gambling level, then Perception."""
    return (c.quality is not None, -(c.quality or 0), c.level, c.perception)


def contest_winner(a: Contestant, b: Contestant) -> str | None:
    """The key of the winner of a two-way contest, or None for a push (stakes stay).

    Two failures are equal results, so the tie-breaks decide them too.
    """
    sa, sb = _standing(a), _standing(b)
    if sa == sb:
        return None
    return a.key if sa > sb else b.key


def pot_winners(contestants: Sequence[Contestant]) -> list[str]:
    """Keys of those who share the pot: the best standing, in the order given."""
    if not contestants:
        raise IllegalAction("gambling.no_contestants")
    if len({c.key for c in contestants}) != len(contestants):
        raise IllegalAction("gambling.duplicate_contestant")
    best = max(_standing(c) for c in contestants)
    return [c.key for c in contestants if _standing(c) == best]


def split_pot(amount: int, n: int) -> list[int]:
    """Share `amount` cents among `n` winners; the remainder cents go to the first."""
    if n < 1 or amount < 0:
        raise IllegalAction("gambling.bad_split", amount=amount, winners=n)
    share, remainder = divmod(amount, n)
    return [share + remainder] + [share] * (n - 1)
