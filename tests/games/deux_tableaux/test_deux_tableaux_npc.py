"""The deux tableaux NPC's draws by its Gambling level: the banker weighs both tables'
stakes, the novice plays loose, it never reads a hidden card, and the table's generator
decides a replay."""

from __future__ import annotations

import random

import pytest
from deux_helpers import Desk, deal, npc_banks, pc_bank, two

from bondbot.games.contract import GAMBLING_MAX, Move

SEEDS = range(40)
DRAW, STAND = Move(kind="draw", seat="npc"), Move(kind="stand", seat="npc")


def decisions(desk: Desk, level: int) -> list[Move | None]:
    """The NPC's move now, for each of the generators `SEEDS` (the state left as it is)."""
    return [desk.engine.npc_move(random.Random(seed), level) for seed in SEEDS]


def seed_004(right: int, left: int) -> Desk:
    """Seed 004's example: banker 5; the right table drew a ten, the left a 7."""
    cards = deal(two(4, "h"), two(3, "c"), two(5, "d"), "Kh", "7c", "2s")
    desk = npc_banks(cards, bank=2_000)
    desk.do("stake", "a", right, "right")
    desk.do("stake", "c", left, "left")
    desk.do("pass", "b")
    desk.auto()
    assert desk.engine.phase == "banker"
    return desk


def test_the_strong_banker_weighs_the_money_the_novice_does_not_look():
    # the left's pull to draw outweighs the right's pull to stand only beyond 8.1 times
    assert set(decisions(seed_004(300, 300), GAMBLING_MAX)) == {STAND}
    assert set(decisions(seed_004(100, 900), GAMBLING_MAX)) == {DRAW}
    # the novice on 5 draws by a threshold drawn afresh (0 to 7): 3 times in 8
    assert set(decisions(seed_004(300, 300), 0)) == {DRAW, STAND}
    assert decisions(seed_004(300, 300), 0) == decisions(seed_004(100, 900), 0)


@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
@pytest.mark.parametrize(
    ("right", "left"), [(["2h", "Kh"], ["Ac", "Kc"]), (["Ah", "3h"], ["4c", "Qc"])]
)
def test_the_banker_never_reads_the_tables_hidden_cards(
    right: list[str], left: list[str], level: int
):
    """Other two cards on each table that drew the same third card: the same decision."""
    for stakes in ((300, 300), (100, 900)):
        desk = seed_004(*stakes)
        before = decisions(desk, level)
        assert desk.engine.coup is not None
        desk.engine.coup.hands["right"].cards[:2] = right
        desk.engine.coup.hands["left"].cards[:2] = left
        assert decisions(desk, level) == before


def npc_holds_5() -> Desk:
    """A PC banks; the NPC holds the right table's hand on 5, the banker holds 6."""
    desk = pc_bank(deal(two(5, "h"), two(3, "c"), two(6, "d"), "4h", "Kd", "Kc"))
    desk.auto()
    assert desk.engine.phase == "hands" and desk.engine.turn() == ("npc",)
    return desk


def test_the_strong_hand_holder_draws_at_5_the_novice_tosses_a_coin():
    desk = npc_holds_5()
    assert set(decisions(desk, GAMBLING_MAX)) == {DRAW}
    assert set(decisions(desk, 0)) == {DRAW, STAND}


@pytest.mark.parametrize("others", [["Kd", "Qd"], ["4d", "3d"], ["9d", "7d"]])
@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
def test_the_hand_holder_never_reads_the_bankers_hidden_cards(others: list[str], level: int):
    desk = npc_holds_5()
    before = decisions(desk, level)
    assert desk.engine.coup is not None
    desk.engine.coup.banker[:2] = others
    assert decisions(desk, level) == before


@pytest.mark.parametrize("level", [0, 5, 10, GAMBLING_MAX])
def test_the_same_generator_decides_the_same(level: int):
    desk = seed_004(300, 300)
    assert decisions(desk, level) == decisions(desk, level)
    rng = random.Random(7)
    desk.engine.npc_move(rng, GAMBLING_MAX)
    assert rng.random() == random.Random(7).random()  # the strong play draws nothing
