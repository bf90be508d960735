import random

from bondbot.games.contract import GAMBLING_MAX
from bondbot.games.skill import plays_strong, strong_by_draw, strong_share


def test_the_share_rises_with_the_level_from_none_to_all() -> None:
    shares = [strong_share(level) for level in range(GAMBLING_MAX + 1)]
    assert shares[0] == 0.0 and shares[-1] == 1.0
    assert shares == sorted(shares) and len(set(shares)) == len(shares)
    assert strong_share(-3) == 0.0 and strong_share(40) == 1.0


def test_the_extremes_draw_nothing_and_the_middle_draws_its_share() -> None:
    rng = random.Random(7)
    state = rng.getstate()
    assert plays_strong(GAMBLING_MAX, rng) and not plays_strong(0, rng)
    assert rng.getstate() == state
    strong = sum(plays_strong(5, rng) for _ in range(30_000))
    assert abs(strong / 30_000 - 5 / GAMBLING_MAX) < 0.01


def test_a_line_drawn_once_plays_strong_under_the_share() -> None:
    """The rule for a whole line (a hold'em hand): the extremes whatever the draw, else
    strong exactly when the draw falls under the share."""
    assert strong_by_draw(GAMBLING_MAX, None) and strong_by_draw(GAMBLING_MAX, 0.99)
    assert not strong_by_draw(0, 0.0) and not strong_by_draw(0, None)
    assert strong_by_draw(5, 0.33) and not strong_by_draw(5, 0.34)
    rng = random.Random(3)
    lines = [rng.random() for _ in range(30_000)]
    for level in (1, 7, 14):
        strong = sum(strong_by_draw(level, line) for line in lines) / len(lines)
        assert abs(strong - strong_share(level)) < 0.01
