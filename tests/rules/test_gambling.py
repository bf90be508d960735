"""The rulebook's gambling resolution against rules/rulebook.md."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bondbot.rules.errors import IllegalAction
from bondbot.rules.gambling import (
    Contestant,
    RollResult,
    contest_winner,
    ease_factor,
    effective_ease,
    improve,
    improve_contested,
    max_steps,
    net_steps,
    pot_winners,
    primary_chance,
    qr_fractions,
    qr_thresholds,
    quality_for,
    roll_d100,
    skill_roll,
    split_pot,
    success_chance,
)

HALF = Fraction(1, 2)

# --- Ease Factor ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (5, Fraction(5)),
        ("½", HALF),
        ("1/2", HALF),
        (0.5, HALF),
        ("2.5", Fraction(5, 2)),
        (10, Fraction(10)),
        (Fraction(3, 2), Fraction(3, 2)),
    ],
)
def test_ease_factor_accepts_half_steps(value: object, expected: Fraction):
    assert ease_factor(value) == expected


@pytest.mark.parametrize("value", [0, 10.5, 11, -1, 0.3, "1/3", "abc", "", "1/0"])
def test_ease_factor_outside_half_to_ten_is_refused(value: object):
    with pytest.raises(IllegalAction) as info:
        ease_factor(value)
    assert info.value.code == "gambling.bad_ease"


@pytest.mark.parametrize(
    ("ease", "expected"),
    [(5, 2), (10, 7), (4, 1), ("3.5", HALF), (3, HALF), (1, HALF), (HALF, HALF)],
)
def test_without_the_skill_ease_drops_by_3_to_at_least_half(ease: object, expected: Fraction):
    assert effective_ease(ease, skilled=False) == Fraction(expected)
    assert effective_ease(ease, skilled=True) == ease_factor(ease)


# --- chances --------------------------------------------------------------------------------


def test_primary_chance_is_characteristic_plus_level():
    assert primary_chance(10, 5) == 15
    assert primary_chance(10, 0) == 10
    assert primary_chance(20, 15) == 35


@pytest.mark.parametrize(("characteristic", "level"), [(0, 5), (21, 5), (10, -1), (10, 16)])
def test_out_of_range_sheet_values_are_refused(characteristic: int, level: int):
    with pytest.raises(IllegalAction):
        primary_chance(characteristic, level)


@pytest.mark.parametrize(
    ("per", "level", "ease", "sc"),
    [
        (10, 5, 5, 75),
        (10, 5, HALF, 7),  # 7.5 rounded down
        (10, 5, Fraction(3, 2), 22),  # 22.5
        (15, 15, 10, 300),  # above 100: still only 100 fails
        (10, 0, 5, 20),  # no skill: PER alone at EF 2
        (10, 0, 3, 5),  # no skill: EF 0 clamps to ½
        (9, 0, 1, 4),  # 4.5 rounded down
        (1, 0, 1, 0),
    ],
)
def test_success_chance(per: int, level: int, ease: object, sc: int):
    assert success_chance(per, level, ease) == sc


def test_qr_thresholds_of_the_rulebook_example():
    assert qr_thresholds(75) == (7, 18, 37, 75)


@pytest.mark.parametrize(
    ("sc", "expected"),
    [(100, (10, 25, 50, 100)), (5, (1, 1, 2, 5)), (1, (1, 1, 1, 1)), (0, (1, 1, 1, 1))],
)
def test_qr_thresholds_round_down_and_are_at_least_1(sc: int, expected: tuple[int, ...]):
    assert qr_thresholds(sc) == expected


def test_qr_fractions_are_configurable():
    custom = qr_fractions([0.05, 0.2, 0.5, 1])
    assert qr_thresholds(75, custom) == (3, 15, 37, 75)
    # 0.1 is a decimal tenth, not the float just above it: SC 30 → 3, SC 70 → 7.
    tenth = qr_fractions([0.1, 0.3, 0.7, 1.0])
    assert qr_thresholds(70, tenth) == (7, 21, 49, 70)


@pytest.mark.parametrize(
    "values",
    [[0.1, 0.25, 0.5], [0, 0.25, 0.5, 1], [0.3, 0.25, 0.5, 1], [0.1, 0.25, 0.5, 0.9], ["x"] * 4],
)
def test_bad_qr_fractions_are_refused(values: list[object]):
    with pytest.raises(IllegalAction) as info:
        qr_fractions(values)
    assert info.value.code == "gambling.bad_qr_fractions"


@pytest.mark.parametrize(
    ("roll", "quality"),
    [(1, 1), (7, 1), (8, 2), (18, 2), (19, 3), (37, 3), (38, 4), (75, 4), (76, None), (99, None)],
)
def test_quality_at_each_threshold_of_sc_75(roll: int, quality: int | None):
    assert quality_for(roll, 75) == quality


def test_100_always_fails():
    assert quality_for(100, 300) is None
    assert quality_for(99, 300) == 3  # thresholds 30, 75, 150, 300
    assert skill_roll(20, 15, 10, 100).quality is None


@pytest.mark.parametrize("roll", [0, 101, -5])
def test_rolls_outside_d100_are_refused(roll: int):
    with pytest.raises(IllegalAction) as info:
        quality_for(roll, 75)
    assert info.value.code == "gambling.bad_roll"


def test_skill_roll_reports_everything():
    result = skill_roll(10, 5, 5, 18)
    assert result == RollResult(15, Fraction(5), 75, 18, 2)
    assert result.succeeded


def test_skill_roll_without_the_skill():
    result = skill_roll(10, 0, 5, 21)
    assert result == RollResult(10, Fraction(2), 20, 21, None)
    assert not result.succeeded
    assert skill_roll(10, 0, 5, 2).quality == 1  # thresholds 2, 5, 10, 20


def test_roll_result_round_trips():
    result = skill_roll(10, 0, 3, 4)
    assert result.ease_factor == HALF
    assert RollResult.from_dict(result.to_dict()) == result


def test_injected_rng_is_deterministic():
    first = [roll_d100(random.Random(7)) for _ in range(3)]
    assert first == [roll_d100(random.Random(7)) for _ in range(3)]
    rng = random.Random(1)
    rolls = {roll_d100(rng) for _ in range(2000)}
    assert rolls == set(range(1, 101))


# --- Hero Points and Survival Points --------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "steps", "after"),
    [
        (None, 0, None),
        (None, 1, 4),
        (None, 2, 3),
        (None, 4, 1),
        (None, 9, 1),
        (4, 1, 3),
        (3, 2, 1),
        (2, 5, 1),
        (1, 1, 1),
        (3, 0, 3),
    ],
)
def test_improve_moves_one_step_per_point(quality: int | None, steps: int, after: int | None):
    assert improve(quality, steps) == after


@pytest.mark.parametrize(("quality", "steps"), [(None, 4), (4, 3), (2, 1), (1, 0)])
def test_max_steps_is_what_still_helps(quality: int | None, steps: int):
    assert max_steps(quality) == steps
    assert improve(quality, steps) == 1


@pytest.mark.parametrize(("quality", "steps"), [(3, -1), (0, 1), (5, 1)])
def test_improve_refuses_nonsense(quality: int, steps: int):
    with pytest.raises(IllegalAction):
        improve(quality, steps)


@pytest.mark.parametrize(
    ("hero", "survival", "net"), [(3, 1, 2), (1, 3, 0), (2, 2, 0), (0, 0, 0), (4, 0, 4)]
)
def test_survival_points_cancel_steps_one_for_one(hero: int, survival: int, net: int):
    assert net_steps(hero, survival) == net


def test_improve_contested():
    assert improve_contested(None, 3, 1) == 3
    assert improve_contested(4, 1, 1) == 4
    with pytest.raises(IllegalAction):
        net_steps(1, -1)


# --- the contest ----------------------------------------------------------------------------


def c(key: str, quality: int | None, level: int = 5, per: int = 10) -> Contestant:
    return Contestant(key, level, per, quality)


@pytest.mark.parametrize(
    ("a", "b", "winner"),
    [
        (c("bond", 4, level=1), c("le chiffre", None, level=15), "bond"),  # success beats failure
        (c("bond", 1), c("le chiffre", 2), "bond"),  # lower QR wins
        (c("bond", 3, level=9), c("le chiffre", 3, level=8, per=15), "bond"),  # then level
        (c("bond", 3, per=12), c("le chiffre", 3, per=11), "bond"),  # then Perception
        (c("bond", 3), c("le chiffre", 3), None),  # push
        (c("bond", None, level=6), c("le chiffre", None), "bond"),  # failures: tie-breaks too
        (c("bond", None), c("le chiffre", None), None),
    ],
)
def test_contest_winner(a: Contestant, b: Contestant, winner: str | None):
    assert contest_winner(a, b) == winner
    assert contest_winner(b, a) == winner


def test_pot_single_best():
    table = [c("bond", 3), c("drax", 2), c("scaramanga", None, level=15)]
    assert pot_winners(table) == ["drax"]


def test_pot_shared_by_equal_best_in_seat_order():
    table = [c("drax", 2), c("bond", 4), c("largo", 2), c("blofeld", 2, level=4)]
    assert pot_winners(table) == ["drax", "largo"]


def test_pot_tie_breaks_narrow_the_winners():
    table = [c("drax", 2, per=11), c("largo", 2, per=12)]
    assert pot_winners(table) == ["largo"]


def test_pot_of_all_failures_goes_by_tie_breaks():
    table = [c("drax", None, level=3), c("largo", None, level=3), c("bond", None, level=2)]
    assert pot_winners(table) == ["drax", "largo"]


@pytest.mark.parametrize(
    ("table", "code"),
    [([], "gambling.no_contestants"), ([c("a", 1), c("a", 2)], "gambling.duplicate_contestant")],
)
def test_pot_refuses_bad_tables(table: list[Contestant], code: str):
    with pytest.raises(IllegalAction) as info:
        pot_winners(table)
    assert info.value.code == code


@pytest.mark.parametrize(
    ("amount", "n", "shares"),
    [(100, 3, [34, 33, 33]), (101, 2, [51, 50]), (99, 1, [99]), (0, 2, [0, 0]), (2, 3, [2, 0, 0])],
)
def test_split_pot(amount: int, n: int, shares: list[int]):
    assert split_pot(amount, n) == shares


@pytest.mark.parametrize(("amount", "n"), [(100, 0), (-1, 2)])
def test_split_pot_refuses_nonsense(amount: int, n: int):
    with pytest.raises(IllegalAction):
        split_pot(amount, n)


@given(amount=st.integers(min_value=0, max_value=10**13), n=st.integers(min_value=1, max_value=50))
def test_split_pot_conserves_and_is_fair(amount: int, n: int):
    shares = split_pot(amount, n)
    assert len(shares) == n
    assert sum(shares) == amount
    assert max(shares[1:], default=shares[0]) == min(shares)
    assert shares[0] - min(shares) < n
