"""The chemin de fer NPC's draws by its Gambling level: the strong play's known answers, the
novice's loose play, what it may not see, and that the table's generator decides a replay."""

from __future__ import annotations

import random

import pytest
from cdf_helpers import Desk, coup, two
from test_chemin_de_fer_coup import cell_cards, staked_npc_bank, staked_pc_bank

from bondbot.games.chemin_de_fer.expectation import banker_outlook, composition
from bondbot.games.contract import GAMBLING_MAX, Move

SEEDS = range(40)


def decisions(desk: Desk, level: int) -> list[Move | None]:
    """The NPC's move now, for each of the generators `SEEDS` (the state left as it is)."""
    return [desk.engine.npc_move(random.Random(seed), level) for seed in SEEDS]


@pytest.mark.parametrize(("third", "banker_total"), [(9, 3), (0, 3), (None, 6)])
def test_the_strong_banker_draws_where_the_expectation_beats_seed_004(
    third: int | None, banker_total: int
):
    desk = staked_npc_bank(cell_cards(third, banker_total), drawing="classic")
    assert desk.engine.advice() is False  # seed 004's table stands here
    assert set(decisions(desk, GAMBLING_MAX)) == {Move(kind="draw", seat="npc")}


@pytest.mark.parametrize(("third", "banker_total"), [(8, 5), (None, 7), (1, 6), (6, 2)])
def test_the_strong_banker_plays_the_cells_where_advice_and_expectation_agree(
    third: int | None, banker_total: int
):
    desk = staked_npc_bank(cell_cards(third, banker_total), drawing="classic")
    advice = desk.engine.advice()
    seen = [9, (banker_total - 9) % 10] + ([] if third is None else [third])
    outlook = banker_outlook(composition(6, seen), banker_total, third)
    assert (outlook[True].value() > outlook[False].value()) is advice
    expected = Move(kind="draw" if advice else "stand", seat="npc")
    assert set(decisions(desk, GAMBLING_MAX)) == {expected}


def test_the_novice_banker_draws_by_feel_blind_to_the_pontes_card():
    # banker 6 against a drawn ten: the table and the expectation stand; the novice's
    # threshold (0 to 7, drawn afresh) makes him draw a quarter of the time
    desk = staked_npc_bank(cell_cards(0, 6), drawing="classic")
    novice = decisions(desk, 0)
    assert set(novice) == {Move(kind="draw", seat="npc"), Move(kind="stand", seat="npc")}
    assert set(decisions(desk, GAMBLING_MAX)) == {Move(kind="stand", seat="npc")}
    between = decisions(desk, 10)
    assert novice.count(Move(kind="draw", seat="npc")) > between.count(
        Move(kind="draw", seat="npc")
    )


def test_the_strong_ponte_draws_at_5_the_novice_tosses_a_coin():
    desk = staked_pc_bank([*coup(two(5, "h"), two(6, "d")), "4c", "Kc"], drawing="classic")
    assert desk.engine.phase == "ponte" and desk.engine.turn() == ("npc",)
    assert set(decisions(desk, GAMBLING_MAX)) == {Move(kind="draw", seat="npc")}
    both = {Move(kind="draw", seat="npc"), Move(kind="stand", seat="npc")}
    assert set(decisions(desk, 0)) == both


@pytest.mark.parametrize(
    ("third", "others"),
    [(None, ["7c", "Kh"]), (None, ["3c", "3h"]), (2, ["Ac", "3h"]), (2, ["Qc", "Kh"])],
)
@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
def test_the_banker_never_reads_the_pontes_hidden_cards(
    third: int | None, others: list[str], banker_total: int, level: int
):
    """The same decision, whatever the ponte's two hidden cards, as long as what is public
    (he stood, or drew this card) is the same."""
    desk = staked_npc_bank(cell_cards(third, banker_total), drawing="classic")
    before = decisions(desk, level)
    assert desk.engine.coup is not None
    desk.engine.coup.ponte[:2] = others
    assert decisions(desk, level) == before


@pytest.mark.parametrize("others", [["Kd", "Qd"], ["4d", "3d"], ["9d", "8d"]])
@pytest.mark.parametrize("level", [0, 8, GAMBLING_MAX])
def test_the_ponte_never_reads_the_bankers_hidden_cards(others: list[str], level: int):
    desk = staked_pc_bank([*coup(two(5, "h"), two(6, "d")), "4c", "Kc"], drawing="classic")
    before = decisions(desk, level)
    assert desk.engine.coup is not None
    desk.engine.coup.banker[:2] = others
    assert decisions(desk, level) == before


@pytest.mark.parametrize("level", [0, 5, 10, GAMBLING_MAX])
def test_the_same_generator_decides_the_same(level: int):
    desk = staked_npc_bank(cell_cards(0, 5), drawing="classic")
    assert decisions(desk, level) == decisions(desk, level)
    rng = random.Random(7)
    desk.engine.npc_move(rng, GAMBLING_MAX)
    assert rng.random() == random.Random(7).random()  # the strong play draws nothing
