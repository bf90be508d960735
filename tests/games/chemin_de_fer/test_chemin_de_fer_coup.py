"""A chemin de fer coup against rules/chemin-de-fer.md: drawing, the banker's table, abattage.

Expectations are copied from the spec's tables, never computed by the engine's own code.
"""

from __future__ import annotations

import random

import pytest
from cdf_helpers import Desk, card, coup, game, settled, two

from bondbot.games.chemin_de_fer.events import Abattage, Stood, ThirdCard
from bondbot.games.chemin_de_fer.tableau import recommendation
from bondbot.games.contract import Move
from bondbot.rules.cards import Card, parse_cards

# chemin-de-fer.md, seed 004's table: the totals on which the banker is advised to draw,
# by the ponte's third card (None: the ponte stood).
BANKER_DRAWS_ON = {
    None: range(0, 6),
    0: range(0, 3),
    1: range(0, 4),
    2: range(0, 5),
    3: range(0, 5),
    4: range(0, 6),
    5: range(0, 6),
    6: range(0, 7),
    7: range(0, 7),
    8: range(0, 3),
    9: range(0, 3),
}
CELLS = [(third, total) for third in BANKER_DRAWS_ON for total in range(8)]

# baccarat.md, the punto banco tableau once the player drew: P3 values on which Banker draws.
FIXED_DRAWS_ON = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}

NPC_BANKER = {"npc": None, "a": 100_000, "b": 100_000}
PC_BANKER = {"a": 100_000, "npc": None}


def cell_cards(third: int | None, banker_total: int) -> list[str]:
    """A coup reaching the banker's choice: the ponte stood on 6, or drew `third` on 4."""
    if third is None:
        return [*coup(two(6, "h"), two(banker_total, "d")), "Kc"]
    return [*coup(two(4, "h"), two(banker_total, "d")), card(third, "h"), "Kc"]


def staked_npc_bank(cards: list[str], **settings: object) -> Desk:
    """NPC banker with 1,000 up, ponte `a` stakes all of it: the table has dealt."""
    desk = Desk(game(cards, ("npc", "a"), **settings), {"npc": None, "a": 100_000})
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 1_000)
    desk.auto()
    return desk


def staked_pc_bank(cards: list[str], **settings: object) -> Desk:
    """PC banker `a` with 1,000 up, the NPC ponte stakes all of it: the table has dealt."""
    desk = Desk(game(cards, ("a", "npc"), banker="a", **settings), dict(PC_BANKER))
    desk.do("bank", "a", 1_000)
    desk.do("stake", "npc", 1_000)
    desk.auto()
    return desk


# Where the NPC at Gambling 15 leaves seed 004's table for the better expectation: with 3
# against a ponte's 9 or ten it draws, as the punto banco tableau (the banker's optimum)
# does; against a ponte who stood, who draws at 5 as the bot advises, it draws on 6 (a
# standing ponte holds 6 or 7: standing on 6 loses 1/2, drawing about 0.42).
BEST_REPLY_DRAWS = {(9, 3), (0, 3), (None, 6)}


@pytest.mark.parametrize(("third", "banker_total"), CELLS)
def test_every_cell_of_the_banker_table(third: int | None, banker_total: int):
    expected = banker_total in BANKER_DRAWS_ON[third]
    assert recommendation(banker_total, third) is expected

    npc = staked_npc_bank(cell_cards(third, banker_total), drawing="classic")
    assert npc.engine.phase == "banker" and npc.engine.turn() == ("npc",)
    assert npc.engine.advice() is expected
    record = npc.npc()
    npc_draws = expected or (third, banker_total) in BEST_REPLY_DRAWS
    assert record.move.kind == ("draw" if npc_draws else "stand")
    assert len(settled(record).banker) == (3 if npc_draws else 2)

    pc = staked_pc_bank(cell_cards(third, banker_total), drawing="classic")
    assert pc.engine.turn() == ("a",)
    assert pc.engine.timeout_move("a") == Move(kind="draw" if expected else "stand", seat="a")


@pytest.mark.parametrize("banker_total", range(8))
def test_a_pc_banker_may_go_against_the_table(banker_total: int):
    desk = staked_pc_bank(cell_cards(0, banker_total), drawing="classic")
    against = "stand" if recommendation(banker_total, 0) else "draw"
    assert len(settled(desk.do(against, "a")).banker) == (3 if against == "draw" else 2)


@pytest.mark.parametrize("ponte_total", range(5))
def test_classic_ponte_draws_0_to_4_by_himself(ponte_total: int):
    desk = staked_npc_bank(
        [*coup(two(ponte_total, "h"), two(6, "d")), "2c", "Kc"], drawing="classic"
    )
    assert desk.engine.phase == "banker" and desk.engine.turn() == ("npc",)
    assert desk.engine.coup is not None and desk.engine.coup.ponte[2] == "2c"


@pytest.mark.parametrize("ponte_total", [6, 7])
def test_classic_ponte_stands_6_7_and_can_never_draw(ponte_total: int):
    desk = staked_npc_bank([*coup(two(ponte_total, "h"), two(3, "d")), "Kc"], drawing="classic")
    assert desk.engine.phase == "banker"
    assert desk.engine.coup is not None and len(desk.engine.coup.ponte) == 2
    assert not desk.engine.can(Move(kind="draw", seat="a"))
    assert desk.engine.turn() == ("npc",)


def test_classic_ponte_chooses_at_5():
    cards = [*coup(two(5, "h"), two(6, "d")), "4c", "Kc"]
    desk = staked_npc_bank(cards, drawing="classic")
    assert desk.engine.phase == "ponte" and desk.engine.turn() == ("a",)
    kinds = {(option.kind, option.seat) for option in desk.engine.options()}
    assert kinds == {("draw", "a"), ("stand", "a")}
    assert desk.engine.timeout_move("a") == Move(kind="draw", seat="a")  # the better play
    record = desk.do("stand", "a")
    assert record.events == (Stood(side="ponte"),)
    assert desk.engine.turn() == ("npc",) and desk.engine.advice() is False  # stood: 6 stands


def test_the_npc_holding_the_hand_draws_at_5():
    cards = [*coup(two(5, "h"), two(6, "d")), "4c", "Kc"]
    desk = Desk(game(cards, ("a", "npc"), banker="a", drawing="classic"), dict(PC_BANKER))
    desk.do("bank", "a", 1_000)
    desk.do("stake", "npc", 500)
    desk.auto()
    assert desk.engine.turn() == ("npc",)
    record = desk.npc()
    assert record.events == (ThirdCard(side="ponte", card="4c"),)
    assert desk.engine.turn() == ("a",)


NATURAL_PAIRS = [(p, b) for p in range(10) for b in range(10) if max(p, b) >= 8]


@pytest.mark.parametrize("drawing", ["fixed", "classic"])
@pytest.mark.parametrize(("ponte_total", "banker_total"), NATURAL_PAIRS)
def test_every_abattage(drawing: str, ponte_total: int, banker_total: int):
    cards = coup(two(ponte_total, "h"), two(banker_total, "d"))
    desk = Desk(game(cards, drawing=drawing), dict(NPC_BANKER))
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 600)
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert record.hand_over
    abattage = next(event for event in record.events if isinstance(event, Abattage))
    assert abattage.ponte == tuple(cards[0::2]) and abattage.banker == tuple(cards[1::2])
    assert not any(isinstance(event, ThirdCard) for event in record.events)
    result = settled(record)
    assert result.natural
    winner = "ponte" if ponte_total > banker_total else "banker"
    if ponte_total == banker_total:
        winner = "tie"
    assert result.winner == winner
    assert desk.stacks["a"] == 100_000 + {"ponte": 600, "banker": -600, "tie": 0}[winner]


def test_a_three_card_nine_is_no_abattage():
    cards = [*coup(["Ah", "3h"], two(7, "d")), "5c"]  # ponte 4, draws a 5: nine in three cards
    desk = staked_npc_bank(cards, drawing="classic")
    assert desk.engine.phase == "banker"
    result = settled(desk.do("stand", "npc"))
    assert (result.ponte_total, result.winner, result.natural) == (9, "ponte", False)


@pytest.mark.parametrize(("third", "banker_total"), [c for c in CELLS if c[0] is not None])
def test_fixed_drawing_is_the_punto_banco_tableau(third: int, banker_total: int):
    cards = [*coup(two(4, "h"), two(banker_total, "d")), card(third, "h"), "Kc"]
    desk = staked_npc_bank(cards, drawing="fixed")
    assert desk.engine.in_hand() is False  # the deal settled the coup: nobody decided
    assert desk.engine.last is not None
    drew = len(desk.engine.last.banker) == 3
    assert drew is (third in FIXED_DRAWS_ON[banker_total])


@pytest.mark.parametrize(
    ("ponte_total", "banker_total"), [(p, b) for p in range(8) for b in range(8)]
)
def test_fixed_drawing_when_the_ponte_stands_or_draws(ponte_total: int, banker_total: int):
    cards = [*coup(two(ponte_total, "h"), two(banker_total, "d")), "Kc", "Kd"]
    desk = staked_npc_bank(cards, drawing="fixed")
    last = desk.engine.last
    assert last is not None
    assert len(last.ponte) == (3 if ponte_total <= 5 else 2)
    if ponte_total >= 6:
        assert len(last.banker) == (3 if banker_total <= 5 else 2)


def test_deal_order_is_ponte_banker_ponte_banker():
    cards = [*coup(["2h", "Th"], ["4d", "Kd"]), "Kc"]
    desk = staked_npc_bank(cards, drawing="classic")
    assert desk.engine.coup is not None
    assert desk.engine.coup.ponte == ["2h", "Th", "Kc"]
    assert desk.engine.coup.banker == ["4d", "Kd"]


def test_only_the_hand_holder_and_the_banker_see_their_cards():
    cards = [*coup(two(5, "h"), two(6, "d")), "4c", "Kc"]
    desk = Desk(game(cards, drawing="classic"), dict(NPC_BANKER))
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "b", 300)
    desk.do("stake", "a", 300)
    desk.auto()
    engine = desk.engine
    assert list(engine.private_cards("a")) == parse_cards(" ".join(two(5, "h")))
    assert list(engine.private_cards("npc")) == parse_cards(" ".join(two(6, "d")))
    assert list(engine.private_cards("b")) == []
    assert engine.hidden_cards() == {Card.parse(code) for code in cards[:4]}
    desk.do("draw", "a")
    assert Card.parse("4c") not in engine.hidden_cards()  # a third card is face up
    desk.do("stand", "npc")
    assert engine.hidden_cards() == set() and list(engine.private_cards("a")) == []


def test_the_npc_banker_is_random_free():
    cards = cell_cards(3, 4)
    first = staked_npc_bank(cards, drawing="classic")
    second = staked_npc_bank(cards, drawing="classic")
    assert first.engine.npc_move(random.Random(1)) == second.engine.npc_move(random.Random(99))
