import random

from bondbot.games.contract import GAMBLING_MAX
from bondbot.games.skill import plays_strong, strong_share


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
