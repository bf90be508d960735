"""Baccara à deux tableaux against rules/deux-tableaux.md, with stacked shoes."""

from __future__ import annotations

import pytest
from deux_helpers import CHIPS, SEATS, Desk, deal, game, npc_banks, pc_bank, settled, table, two

from bondbot.games.chemin_de_fer.coverage import Cover
from bondbot.games.contract import LostHand, Move, Option, Transfer
from bondbot.games.deux_tableaux.events import (
    Abattage,
    AuctionClosed,
    AuctionOpened,
    BancoCalled,
    BankEnded,
    BankerAdvice,
    BankStarted,
    Dealt,
    HandPassed,
    TableCovered,
)
from bondbot.rules.cards import Card
from bondbot.rules.errors import IllegalAction


def t(src: str, dst: str, amount: int, reason: str) -> Transfer:
    return Transfer(src=src, dst=dst, amount=amount, reason=f"deux_tableaux.{reason}")


# -- naturals ----------------------------------------------------------------------------


def at_once(ponte: int, banker: int) -> str | None:
    """deux-tableaux.md: what a natural decides at once on a table (None: play on)."""
    if banker == 9:
        return "tie" if ponte == 9 else "banker"
    if banker == 8:
        return {9: "ponte", 8: "tie"}.get(ponte, "banker")
    return "ponte" if ponte >= 8 else None


NATURALS = [
    (r, left, b) for r in range(10) for left in range(10) for b in range(10) if max(r, left, b) >= 8
]


@pytest.mark.parametrize(("right", "left", "banker"), NATURALS)
def test_naturals_are_shown_at_once_and_settle_each_table(right: int, left: int, banker: int):
    cards = deal(two(right, "h"), two(left, "c"), two(banker, "d"), "Ks", "Kh", "Kd")
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("stake", "c", 400, "left")
    desk.do("pass", "b")
    (record,) = desk.auto()
    shown = {event.side for event in record.events if isinstance(event, Abattage)}
    totals = {"right": right, "left": left, "banker": banker}
    assert shown == {side for side, total in totals.items() if total >= 8}
    expected = {"right": at_once(right, banker), "left": at_once(left, banker)}
    engine = desk.engine
    if engine.coup is None:
        assert engine.last is not None
        assert {r.table: r.winner for r in engine.last.tables} == expected
    else:
        assert {name: hand.winner for name, hand in engine.coup.hands.items()} == expected


def test_a_natural_table_is_paid_whatever_the_banker_draws_to():
    # right: natural 8; left: 4 draws a 7; banker 6 draws a 3 to 9 (three cards)
    cards = deal(two(8, "h"), two(4, "c"), two(6, "d"), "7c", "3d")
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("stake", "c", 400, "left")
    desk.do("pass", "b")
    desk.auto()
    assert desk.engine.advice() == BankerAdvice(left=True)
    record = desk.do("draw", "npc")
    assert table(record, "right").winner == "ponte" and table(record, "right").natural
    assert table(record, "left").winner == "banker"
    assert settled(record).banker_total == 9


# -- stakes and coverage -----------------------------------------------------------------


def test_each_half_covers_its_table_from_the_seat_nearest_the_banker():
    cards = deal(two(3, "h"), two(3, "c"), two(9, "d"))
    desk = npc_banks(cards, bank=1_001)
    desk.do("stake", "b", 400, "right")
    desk.do("stake", "a", 300, "right")
    desk.do("stake", "a", 200, "left")
    desk.do("stake", "c", 500, "left")
    assert desk.engine.coverage("right") == (
        Cover(seat="a", stake=300, covered=300),
        Cover(seat="b", stake=400, covered=201),  # the right half takes the odd cent
    )
    assert desk.engine.coverage("left") == (
        Cover(seat="c", stake=500, covered=500),
        Cover(seat="a", stake=200, covered=0),  # not in play
    )
    (record,) = desk.auto()
    assert record.transfers == (
        t("seat:a", "seat:npc", 300, "stake_lost"),
        t("seat:b", "seat:npc", 201, "stake_lost"),
        t("seat:c", "seat:npc", 500, "stake_lost"),
    )


def test_stake_bounds_per_table_and_on_both():
    desk = npc_banks(deal(two(3, "h"), two(3, "c"), two(9, "d")), bank=1_000)
    desk.stacks["a"] = 700
    desk.engine.stacks = dict(desk.stacks)
    mine = [o for o in desk.engine.options() if o.seat == "a"]
    assert Option(kind="stake", seat="a", min=100, max=500, targets=("right",)) in mine
    assert Option(kind="stake", seat="a", min=100, max=350, targets=("both",)) in mine
    desk.do("stake", "a", 500, "right")
    left = [o for o in desk.engine.options() if o.seat == "a" and o.kind == "stake"]
    assert left == [Option(kind="stake", seat="a", min=100, max=200, targets=("left",))]
    with pytest.raises(IllegalAction):
        desk.do("stake", "a", 100, "right")  # one stake per table
    assert desk.engine.turn() == ("b", "c")  # a has answered; he may still add the left


def test_a_table_without_stakes_is_not_dealt():
    cards = deal(two(9, "h"), None, two(3, "d"))
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    (record,) = desk.auto()
    assert Dealt(tables=("right",)) in record.events
    assert [r.table for r in settled(record).tables] == ["right"]
    assert desk.engine.shoe.position == 4


def test_when_every_ponte_passes_nothing_is_dealt():
    desk = npc_banks(deal(two(9, "h"), None, two(3, "d")))
    for seat in ("a", "b", "c"):
        desk.do("pass", seat)
    (record,) = desk.auto()
    assert record.move == Move(kind="no_play") and record.hand_over
    assert desk.engine.shoe.position == 0


# -- drawing -----------------------------------------------------------------------------


def test_hand_holders_choose_at_5_right_table_first_and_never_draw_above_5():
    # right 5 (chooses), left 5 (chooses); banker 6
    cards = deal(two(5, "h"), two(5, "c"), two(6, "d"), "4h", "Kd")
    desk = npc_banks(cards)
    desk.do("stake", "b", 400, "right")  # a passes: b holds the right table
    desk.do("pass", "a")
    desk.do("stake", "c", 400, "left")
    desk.auto()
    assert desk.engine.phase == "hands" and desk.engine.turn() == ("b",)
    assert desk.engine.timeout_move("b") == Move(kind="draw", seat="b")
    desk.do("draw", "b")
    assert desk.engine.turn() == ("c",)
    desk.do("stand", "c")
    assert desk.engine.turn() == ("npc",)
    advice = desk.engine.advice()
    assert advice == BankerAdvice(right=False, left=False)  # 4 given: stand on 6; stood: 6


@pytest.mark.parametrize("total", [6, 7])
def test_a_hand_holder_stands_above_5_by_himself(total: int):
    cards = deal(two(total, "h"), None, two(3, "d"), "Kd")
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    desk.auto()
    assert desk.engine.phase == "banker" and not desk.engine.can(Move(kind="draw", seat="a"))


@pytest.mark.parametrize(
    ("right", "left", "weighed", "draws"),
    [
        (300, 300, True, False),
        (400, 200, False, False),
        (200, 400, True, False),
        (100, 900, True, True),
    ],
)
def test_the_banker_decides_once_weighing_both_tables_stakes(
    right: int, left: int, weighed: bool, draws: bool
):
    # seed 004's example: banker 5; the right table draws a ten (stand), the left a 7 (draw).
    # The timer follows the table with more at stake (`weighed`); the NPC weighs each
    # table's exact expectation by its money: standing is worth 0.305 a unit on the right,
    # drawing 0.037 on the left, so it draws only with over 8.1 times more on the left
    # (seed 004's own example stands). A bank of 2,000 covers every stake here.
    cards = deal(two(4, "h"), two(3, "c"), two(5, "d"), "Kh", "7c", "2s")
    desk = npc_banks(cards, bank=2_000)
    desk.do("stake", "a", right, "right")
    desk.do("stake", "c", left, "left")
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert record.events[-1] == BankerAdvice(right=False, left=True, conflict=True)
    assert desk.engine.turn() == ("npc",)
    assert desk.engine.weighed_draw() is weighed
    decided = desk.npc()
    assert decided.move.kind == ("draw" if draws else "stand")
    banker_total = settled(decided).banker_total
    assert banker_total == (7 if draws else 5)
    assert {r.table: r.total for r in settled(decided).tables} == {"right": 4, "left": 0}


def test_the_tables_agree_when_the_banker_must_draw():
    cards = deal(two(4, "h"), two(3, "c"), two(2, "d"), "Kh", "7c", "2s")
    desk = npc_banks(cards)
    desk.do("stake", "a", 300, "right")
    desk.do("stake", "c", 300, "left")
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert record.events[-1] == BankerAdvice(right=True, left=True, conflict=False)
    assert desk.npc().move.kind == "draw"


# -- the hand passes ---------------------------------------------------------------------


def test_the_hand_passes_on_each_table_that_loses():
    first = deal(two(3, "h"), two(9, "c"), two(8, "d"))  # right loses, left wins
    second = deal(two(9, "h"), two(3, "c"), two(9, "d"))  # right ties, left loses
    desk = npc_banks(first + second, bank=400)
    for _ in range(2):
        desk.do("stake", "a", 150, "right")
        desk.do("stake", "b", 150, "both")
        desk.do("stake", "c", 150, "left")
        (record,) = desk.auto()
        if desk.engine.hand == 1:
            covered = [e for e in record.events if isinstance(e, TableCovered)]
            assert [(e.table, e.holder, e.stakes) for e in covered] == [
                (
                    "right",
                    "a",
                    (
                        Cover(seat="a", stake=150, covered=150),
                        Cover(seat="b", stake=150, covered=50),
                    ),
                ),
                (
                    "left",
                    "c",
                    (
                        Cover(seat="c", stake=150, covered=150),
                        Cover(seat="b", stake=150, covered=50),
                    ),
                ),
            ]
            assert [e for e in record.events if isinstance(e, HandPassed)] == [
                HandPassed(table="right", seat="b")
            ]
    covered = [e for e in record.events if isinstance(e, TableCovered)]
    # b has the right hand now: he is covered first, a (nearest the banker) last
    assert [(e.table, e.holder, e.stakes) for e in covered] == [
        (
            "right",
            "b",
            (Cover(seat="b", stake=150, covered=150), Cover(seat="a", stake=150, covered=50)),
        ),
        (
            "left",
            "c",
            (Cover(seat="c", stake=150, covered=150), Cover(seat="b", stake=150, covered=50)),
        ),
    ]
    assert [e for e in record.events if isinstance(e, HandPassed)] == [
        HandPassed(table="left", seat="b")
    ]
    assert desk.engine.hand_at == {"right": "b", "left": "b"}


# -- banco -------------------------------------------------------------------------------

BANK_WINS = deal(two(3, "h"), two(2, "c"), two(9, "d"))


def test_banco_takes_both_halves_alone():
    desk = npc_banks(BANK_WINS, seats=("npc", "a", "b"))
    desk.do("stake", "a", 300, "right")
    desk.do("banco", "b")
    (record,) = desk.auto()
    covered = [e for e in record.events if isinstance(e, TableCovered)]
    assert [(e.table, e.holder, e.banco, e.stakes) for e in covered] == [
        ("right", "b", "b", (Cover(seat="b", stake=500, covered=500),)),
        ("left", "b", "b", (Cover(seat="b", stake=500, covered=500),)),
    ]
    assert record.transfers == (
        t("seat:b", "seat:npc", 500, "stake_lost"),
        t("seat:b", "seat:npc", 500, "stake_lost"),
    )
    assert record.lost == (
        LostHand(seat="b", label="right:500", pay=1_000),
        LostHand(seat="b", label="left:500", pay=1_000),
    )


def test_after_a_won_banco_its_loser_may_banco_again_first_then_tables_resume():
    desk = npc_banks(BANK_WINS * 4, seats=("npc", "a", "b"))
    desk.do("pass", "a")
    desk.do("banco", "b")
    desk.auto()
    assert (desk.engine.banco_right, desk.engine.banco_loser) == ("again", "b")
    desk.do("banco", "a")
    assert desk.do("banco", "b").events == (BancoCalled(seat="b", again=True),)
    (record,) = desk.auto()
    assert {e.holder for e in record.events if isinstance(e, TableCovered)} == {"b"}
    assert desk.engine.bank == 4_000  # quadrupled, as seed 004 says
    # after the second banco: no banco on the next coup, only the tables
    assert not any(o.kind == "banco" for o in desk.engine.options())
    desk.do("stake", "a", 100, "both")
    desk.do("pass", "b")
    desk.auto()
    assert any(o.kind == "banco" for o in desk.engine.options())


def test_when_the_loser_does_not_banco_again_anyone_may():
    desk = npc_banks(BANK_WINS * 2, seats=("npc", "a", "b"))
    desk.do("pass", "a")
    desk.do("banco", "b")
    desk.auto()
    desk.do("banco", "a")
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert {e.banco for e in record.events if isinstance(e, TableCovered)} == {"a"}


def test_banco_needs_the_chips_for_the_whole_bank():
    desk = npc_banks(BANK_WINS, seats=("npc", "a", "b"))
    desk.stacks["a"] = 999
    desk.engine.stacks = dict(desk.stacks)
    assert not desk.engine.can(Move(kind="banco", seat="a"))
    assert desk.engine.can(Move(kind="banco", seat="b"))


# -- the auction and the bank ------------------------------------------------------------


def auction_desk(npc_bank: int) -> Desk:
    stacks: dict[str, int | None] = {"npc": None, "a": CHIPS, "b": CHIPS, "c": CHIPS}
    desk = Desk(game(BANK_WINS, SEATS, npc_bank=npc_bank), stacks)
    desk.auto()
    opened = desk.do("open_auction")
    assert opened.events == (
        BankEnded(seat="npc", amount=npc_bank, why="auction"),
        AuctionOpened(),
    )
    return desk


def test_the_largest_bank_wins_the_auction_and_a_pc_may_win_it():
    desk = auction_desk(npc_bank=5_500)
    assert desk.engine.turn() == SEATS
    desk.do("bid", "a", 5_000)
    desk.do("bid", "b", 6_000)
    assert desk.npc().move == Move(kind="pass", seat="npc")  # 5,500 does not beat 6,000
    with pytest.raises(IllegalAction):
        desk.do("bid", "c", 6_000)  # must beat the best offer
    desk.do("pass", "c")
    assert desk.engine.turn() == ("a",)  # outbid, a may offer again
    desk.do("pass", "a")
    (closed,) = desk.auto()
    assert closed.events == (
        AuctionClosed(seat="b", amount=6_000),
        BankStarted(seat="b", amount=6_000),
    )
    stake = [o for o in desk.engine.options() if o.seat == "a" and o.targets == ("right",)]
    assert stake[0].max == 3_000
    assert Option(kind="withdraw", seat="b") in desk.engine.options()
    assert Option(kind="open_auction") not in desk.engine.options()  # a PC's bank stands


def test_the_npc_bids_its_bank_and_may_win():
    desk = auction_desk(npc_bank=8_000)
    desk.do("bid", "b", 6_000)
    assert desk.npc().move == Move(kind="bid", seat="npc", amount=8_000)
    for seat in ("a", "b", "c"):
        desk.do("pass", seat)
    (closed,) = desk.auto()
    assert closed.events[-1] == BankStarted(seat="npc", amount=8_000)


def test_without_bids_the_npc_banks_by_default_and_the_gm_may_close_early():
    desk = auction_desk(npc_bank=1_000)
    for seat in SEATS:
        desk.do("pass", seat)
    closed, started = desk.auto()
    assert closed.events == (AuctionClosed(),)
    assert started.events == (BankStarted(seat="npc", amount=1_000),)
    desk.do("open_auction")
    desk.do("bid", "c", 2_000)
    assert desk.do("close_auction").events[-1] == BankStarted(seat="c", amount=2_000)


def test_a_pc_banker_withdraws_between_coups_and_the_npc_banks_again():
    desk = auction_desk(npc_bank=1_000)
    desk.do("bid", "a", 3_000)
    for seat in ("npc", "b", "c"):
        desk.do("pass", seat)
    desk.auto()
    desk.do("stake", "b", 500, "right")
    withdrawn = desk.do("withdraw", "a")
    assert withdrawn.hand_over and withdrawn.events == (
        BankEnded(seat="a", amount=3_000, why="withdrawn"),
    )
    assert desk.engine.stakes == {"right": {}, "left": {}}
    (started,) = desk.auto()
    assert started.events == (BankStarted(seat="npc", amount=1_000),)


def test_a_bank_below_the_minimum_ends():
    cards = deal(two(9, "h"), two(9, "c"), two(3, "d"))
    desk = npc_banks(cards, bank=400)
    desk.do("stake", "a", 200, "both")
    desk.do("pass", "b")
    desk.do("pass", "c")
    record, renewed = desk.auto()
    assert settled(record).bank == 0
    assert record.events[-1] == BankEnded(seat="npc", amount=0, why="spent")
    assert renewed.events == (BankStarted(seat="npc", amount=400),)


# -- Hero Points -------------------------------------------------------------------------


def test_a_pc_banker_can_win_back_only_the_npc_pontes_table():
    desk = pc_bank(deal(two(9, "h"), two(9, "c"), two(3, "d")))
    (record,) = desk.auto()
    assert record.transfers == (
        t("seat:b", "seat:npc", 1_000, "stake_won"),
        t("seat:b", "seat:a", 1_000, "stake_won"),
    )
    assert record.lost == (LostHand(seat="b", label="bank:right:1000", pay=2_000),)


def test_nothing_is_lost_against_a_pc_banker():
    desk = pc_bank(deal(two(3, "h"), two(3, "c"), two(9, "d")))
    (record,) = desk.auto()
    assert len(record.transfers) == 2 and record.lost == ()


def test_a_pc_bankers_timer_follows_the_table_with_more_at_stake():
    cards = deal(two(4, "h"), two(3, "c"), two(5, "d"), "Kh", "7c", "2s")
    desk = pc_bank(cards)
    desk.auto()
    assert desk.engine.turn() == ("b",)
    assert desk.engine.timeout_move("b") == Move(kind="draw", seat="b")  # equal: draw


# -- what each seat sees, seats between hands --------------------------------------------


def test_hand_holders_and_the_banker_see_only_their_own_cards():
    cards = deal(two(5, "h"), two(5, "c"), two(6, "d"), "4h", "Kd")
    desk = npc_banks(cards)
    desk.do("stake", "a", 400, "right")
    desk.do("stake", "c", 400, "left")
    desk.do("stake", "b", 400, "left")
    desk.auto()
    engine = desk.engine

    def seen(seat: str) -> list[str]:
        return [c.code for c in engine.private_cards(seat)]

    assert seen("a") == two(5, "h") and seen("c") == two(5, "c") and seen("b") == []
    assert seen("npc") == two(6, "d")
    assert engine.hidden_cards() == {Card.parse(code) for code in cards[:6]}
    desk.do("draw", "a")
    assert Card.parse("4h") not in engine.hidden_cards()


def test_seats_come_and_go_between_hands_only():
    desk = npc_banks(deal(two(3, "h"), None, two(9, "d")))
    desk.do("stake", "a", 100, "right")
    with pytest.raises(IllegalAction):
        desk.engine.sit("d")
    with pytest.raises(IllegalAction):
        desk.engine.stand_up("a")
    desk.do("pass", "b")
    desk.do("pass", "c")
    desk.auto()
    desk.engine.stand_up("a")  # he had the right hand: it goes on to b
    assert desk.engine.hand_at["right"] == "b"
    desk.engine.sit("d")
    assert desk.engine.pontes() == ["b", "c", "d"]


# -- what the table adds: a maximum bank, coups counted at the deal ----------------------


def test_a_maximum_bank_bounds_the_npcs_bank_the_offers_and_a_won_bank():
    cards = deal(two(3, "h"), two(3, "c"), two(9, "d"))
    stacks = {seat: (None if seat == "npc" else CHIPS) for seat in SEATS}
    desk = Desk(game(cards, npc_bank=5_000, max_bank=1_500), stacks)
    (started,) = desk.auto()
    assert started.events == (BankStarted(seat="npc", amount=1_500),)
    desk.do("stake", "a", 500, "both")
    desk.do("pass", "b")
    desk.do("pass", "c")
    (record,) = desk.auto()
    assert settled(record).bank == 1_500 and settled(record).seat == "npc"
    assert desk.engine.hand == 1
    desk.do("open_auction")
    assert Option(kind="bid", seat="a", min=200, max=1_500) in desk.engine.options()
    desk.do("bid", "a", 1_500)
    assert desk.engine.automation() == Move(kind="close_auction")  # nobody can outbid


def test_a_coup_counts_when_it_is_dealt_and_its_moves_are_kept():
    desk = npc_banks(deal(two(3, "h"), None, two(9, "d")))
    assert desk.engine.hand == 0
    desk.do("stake", "a", 300, "right")
    desk.do("pass", "b")
    desk.do("pass", "c")
    (record,) = desk.auto()
    assert desk.engine.hand == 1
    assert [(m.kind, m.seat) for m in settled(record).moves] == [
        ("default_bank", None),  # the NPC's bank began the first coup
        ("stake", "a"),
        ("pass", "b"),
        ("pass", "c"),
        ("deal", None),
    ]


def test_the_gm_may_auction_the_first_bank_instead_of_the_npcs_banking():
    stacks: dict[str, int | None] = {"npc": None, "a": CHIPS, "b": CHIPS, "c": CHIPS}
    desk = Desk(game(BANK_WINS, SEATS, npc_bank=1_000), stacks)
    assert desk.engine.automation() == Move(kind="default_bank")
    assert desk.do("open_auction").events == (AuctionOpened(),)
    desk.do("bid", "b", 2_500)
    assert desk.do("close_auction").events[-1] == BankStarted(seat="b", amount=2_500)


def test_a_hand_holder_may_leave_while_nobody_banks():
    cards = deal(two(9, "h"), two(9, "c"), two(3, "d"))
    stacks: dict[str, int | None] = {"npc": 400, "a": CHIPS, "b": CHIPS, "c": CHIPS}
    desk = Desk(game(cards, SEATS, npc_bank=400), stacks)
    desk.auto()
    desk.do("stake", "a", 200, "both")
    desk.do("pass", "b")
    desk.do("pass", "c")
    (record,) = desk.auto()  # the NPC's bank is spent, and it has no chips to bank again
    assert record.events[-1] == BankEnded(seat="npc", amount=0, why="spent")
    assert desk.engine.banker is None and desk.engine.hand_at == {"right": "a", "left": "a"}
    desk.engine.stand_up("a")  # nobody banks: no seat takes the hand after him
    assert desk.engine.hand_at == {"right": None, "left": None}
    assert desk.engine.seats == ["npc", "b", "c"]
