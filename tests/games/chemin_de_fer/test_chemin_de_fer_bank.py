"""The bank at chemin de fer: coverage, banco, keeping and passing it, commission, Hero Points."""

from __future__ import annotations

import pytest
from cdf_helpers import Desk, coup, game, settled, two

from bondbot.games.chemin_de_fer.coverage import Cover
from bondbot.games.chemin_de_fer.engine import ChemindeFer
from bondbot.games.chemin_de_fer.events import BancoCalled, BankOffered, CoupCovered
from bondbot.games.contract import LostHand, Move, Option, Transfer
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

# Abattage coups: settled by the deal, whatever the drawing.
BANKER_WINS = coup(two(3, "h"), two(9, "d"))
PONTE_WINS = coup(two(9, "h"), two(3, "d"))
TIE = coup(two(8, "h"), two(8, "d"))

CHIPS = 100_000


def desk_of(cards: list[str], seats: tuple[str, ...], banker: str, **settings: object) -> Desk:
    stacks = {seat: (None if seat == "npc" else CHIPS) for seat in seats}
    return Desk(game(cards, seats, banker, **settings), stacks)


def transfers_of(desk: Desk, *moves: tuple[str, str | None, int | None]) -> list[Transfer]:
    found = []
    for kind, seat, amount in moves:
        found.extend(desk.do(kind, seat, amount).transfers)
    for record in desk.auto():
        found.extend(record.transfers)
    return found


def t(src: str, dst: str, amount: int, reason: str) -> Transfer:
    return Transfer(src=src, dst=dst, amount=amount, reason=f"chemin_de_fer.{reason}")


# -- coverage ----------------------------------------------------------------------------


def test_stakes_are_covered_in_seat_order_from_the_bankers_right():
    desk = desk_of(BANKER_WINS, ("a", "b", "npc", "c"), "npc")
    assert desk.engine.pontes() == ["c", "a", "b"]
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "b", 500)
    desk.do("stake", "a", 300)
    desk.do("stake", "c", 400)
    expected = (
        Cover(seat="c", stake=400, covered=400),
        Cover(seat="a", stake=300, covered=300),
        Cover(seat="b", stake=500, covered=300),  # 200 of it is not in play
    )
    assert desk.engine.coverage() == expected
    (record,) = desk.auto()
    covered = record.events[0]
    assert covered == CoupCovered(bank=1_000, stakes=expected, holder="c")
    assert record.transfers == (
        t("seat:c", "seat:npc", 400, "stake_lost"),
        t("seat:a", "seat:npc", 300, "stake_lost"),
        t("seat:b", "seat:npc", 300, "stake_lost"),
    )
    assert desk.stacks == {"a": CHIPS - 300, "b": CHIPS - 300, "c": CHIPS - 400, "npc": None}


def test_the_hand_holder_is_the_first_ponte_in_play_and_is_paid_first():
    desk = desk_of(PONTE_WINS, ("npc", "a", "b", "c"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "c", 700)
    desk.do("pass", "a")
    desk.do("stake", "b", 500)
    (record,) = desk.auto()
    assert isinstance(record.events[0], CoupCovered) and record.events[0].holder == "b"
    assert record.transfers == (
        t("seat:npc", "seat:b", 500, "stake_won"),
        t("seat:npc", "seat:c", 500, "stake_won"),
    )


def test_a_stake_is_bounded_by_the_bank_and_the_stack():
    desk = desk_of(BANKER_WINS, ("npc", "a", "b"), "npc")
    desk.stacks["b"] = 700
    desk.do("bank", "npc", 1_000)
    stakes = {o.seat: o for o in desk.engine.options() if o.kind == "stake"}
    assert stakes["a"] == Option(kind="stake", seat="a", min=100, max=1_000)
    assert stakes["b"] == Option(kind="stake", seat="b", min=100, max=700)
    with pytest.raises(IllegalAction):
        desk.do("stake", "a", 1_001)
    desk.do("stake", "a", 1_000)
    with pytest.raises(IllegalAction):
        desk.do("stake", "a", 500)  # one answer per coup
    assert not desk.engine.can(Move(kind="stake", seat="npc", amount=500))  # the banker


def test_when_every_ponte_passes_nothing_is_played():
    desk = desk_of(BANKER_WINS, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("pass", "a")
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert record.move.kind == "no_play" and record.hand_over and not record.transfers
    assert desk.engine.shoe.position == 0
    assert {o.kind for o in desk.engine.options()} == {"keep", "withdraw"}


# -- banco -------------------------------------------------------------------------------


def test_banco_goes_to_the_first_caller_in_seat_order_alone():
    desk = desk_of(PONTE_WINS, ("npc", "a", "b", "c"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("banco", "c")
    desk.do("stake", "b", 500)
    desk.do("banco", "a")
    (record,) = desk.auto()
    assert record.events[0] == CoupCovered(
        bank=1_000, stakes=(Cover(seat="a", stake=1_000, covered=1_000),), holder="a", banco="a"
    )
    assert record.transfers == (t("seat:npc", "seat:a", 1_000, "stake_won"),)


def test_banco_needs_the_chips_for_the_whole_bank():
    desk = desk_of(BANKER_WINS, ("npc", "a", "b"), "npc")
    desk.stacks["a"] = 999
    desk.do("bank", "npc", 1_000)
    assert not desk.engine.can(Move(kind="banco", seat="a"))
    assert desk.engine.can(Move(kind="banco", seat="b"))


def test_banco_suivi_has_priority_on_the_next_coup():
    cards = BANKER_WINS + BANKER_WINS + BANKER_WINS
    desk = desk_of(cards, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("pass", "a")
    desk.do("banco", "b")
    desk.auto()
    assert desk.engine.banco_suivi == "b"
    desk.do("keep", "npc")
    desk.do("banco", "a")
    suivi = desk.do("banco", "b")
    assert suivi.events == (BancoCalled(seat="b", suivi=True),)
    (record,) = desk.auto()
    assert record.events[0] == CoupCovered(
        bank=2_000, stakes=(Cover(seat="b", stake=2_000, covered=2_000),), holder="b", banco="b"
    )
    # b lost again and keeps his right; when he does not call, a's banco stands
    desk.do("keep", "npc")
    desk.do("banco", "a")
    desk.do("pass", "b")
    (record,) = desk.auto()
    assert isinstance(record.events[0], CoupCovered) and record.events[0].banco == "a"


@pytest.mark.parametrize("cards", [PONTE_WINS, TIE])
def test_banco_suivi_lapses_unless_the_caller_lost(cards: list[str]):
    desk = desk_of(BANKER_WINS + cards, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("banco", "b")
    desk.do("pass", "a")
    desk.auto()
    desk.do("keep", "npc")
    desk.do("banco", "b")
    desk.do("pass", "a")
    desk.auto()
    assert desk.engine.banco_suivi is None


# -- the bank's life ---------------------------------------------------------------------


def test_a_winning_banker_keeps_the_doubled_bank():
    desk = desk_of(BANKER_WINS * 2, ("a", "b", "npc"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "b", 1_000)
    desk.do("pass", "npc")
    record = desk.auto()[0]
    assert settled(record).bank == 2_000 and desk.stacks["a"] == CHIPS + 1_000
    assert desk.engine.turn() == ("a",)
    assert {o.kind for o in desk.engine.options()} == {"keep", "withdraw"}
    desk.do("keep", "a")
    stake = next(o for o in desk.engine.options() if o.kind == "stake" and o.seat == "b")
    assert stake.max == 2_000


def test_a_withdrawn_bank_must_be_taken_at_its_amount_until_all_refused():
    desk = desk_of(BANKER_WINS, ("a", "b", "c"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "b", 1_000)
    desk.do("pass", "c")
    desk.auto()
    withdrawn = desk.do("withdraw", "a")
    assert withdrawn.events[-1] == BankOffered(seat="b", required=2_000)
    assert desk.engine.options() == [
        Option(kind="bank", seat="b", min=2_000, max=2_000),
        Option(kind="refuse", seat="b"),
    ]
    assert desk.do("refuse", "b").events[-1] == BankOffered(seat="c", required=2_000)
    # c refuses too: everyone has (a by withdrawing), so the amount is free for a
    assert desk.do("refuse", "c").events[-1] == BankOffered(seat="a", required=None)
    assert desk.engine.options()[0] == Option(kind="bank", seat="a", min=100, max=CHIPS + 1_000)


def test_a_seat_short_of_the_required_bank_passes_it_on_by_itself():
    desk = desk_of(BANKER_WINS, ("a", "b", "c"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "b", 1_000)
    desk.do("pass", "c")
    desk.auto()
    desk.stacks["b"] = 1_500
    desk.do("withdraw", "a")
    assert desk.engine.turn() == ()
    (forced,) = desk.auto()
    assert forced.move == Move(kind="pass_bank")
    assert forced.events[-1] == BankOffered(seat="c", required=2_000)
    assert desk.engine.turn() == ("c",)
    desk.do("bank", "c", 2_000)
    assert desk.engine.bank == 2_000


def test_a_losing_banker_passes_the_bank_to_his_right():
    desk = desk_of(PONTE_WINS, ("a", "b", "npc"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "b", 400)
    desk.do("pass", "npc")
    (record,) = desk.auto()
    assert settled(record).bank == 600
    assert record.events[-1] == BankOffered(seat="b", required=None)
    assert desk.engine.options() == [
        Option(kind="bank", seat="b", min=100, max=CHIPS + 400),
        Option(kind="refuse", seat="b"),
    ]
    assert desk.stacks["a"] == CHIPS - 400  # the rest of his bank never left his stack


def test_a_player_may_refuse_the_bank():
    desk = desk_of(BANKER_WINS, ("a", "b", "npc"), "a")
    record = desk.do("refuse", "a")
    assert record.events[-1] == BankOffered(seat="b", required=None)
    desk.do("refuse", "b")
    assert desk.engine.turn() == ("npc",)
    desk.npc()
    assert desk.engine.bank == 100_000  # the NPC's default bank


def test_a_tie_leaves_the_bank_with_the_banker():
    desk = desk_of(TIE, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 1_000)
    (record,) = desk.auto()
    assert not record.transfers and settled(record).bank == 1_000
    assert desk.engine.banker == "npc" and desk.engine.turn() == ("npc",)


def test_turn_timers_keep_a_running_bank_refuse_a_new_one_and_pass_a_ponte():
    desk = desk_of(BANKER_WINS, ("a", "b"), "a")
    assert desk.engine.timeout_move("a") == Move(kind="refuse", seat="a")
    desk.do("bank", "a", 1_000)
    assert desk.engine.timeout_move("b") == Move(kind="pass", seat="b")
    desk.do("stake", "b", 1_000)
    desk.auto()
    assert desk.engine.timeout_move("a") == Move(kind="keep", seat="a")
    assert desk.engine.timeout_move("b") is None  # not his turn


# -- commission --------------------------------------------------------------------------


def test_commission_is_taken_on_the_bankers_win_rounded_down():
    desk = desk_of(BANKER_WINS, ("npc", "a"), "npc", commission=5)
    desk.do("bank", "npc", 2_000)
    desk.do("stake", "a", 1_990)
    (record,) = desk.auto()
    assert record.transfers == (
        t("seat:a", "seat:npc", 1_990, "stake_lost"),
        t("seat:npc", "house:commission", 99, "commission"),  # 5% of 19.90 is 0.995
    )
    assert settled(record).commission == 99 and settled(record).bank == 2_000 + 1_990 - 99
    assert desk.pots == {"commission": 99}


@pytest.mark.parametrize("cards", [PONTE_WINS, TIE])
def test_no_commission_unless_the_banker_wins(cards: list[str]):
    desk = desk_of(cards, ("npc", "a"), "npc", commission=5)
    desk.do("bank", "npc", 2_000)
    desk.do("stake", "a", 1_000)
    (record,) = desk.auto()
    assert all(transfer.reason != "chemin_de_fer.commission" for transfer in record.transfers)


def test_commission_is_0_to_5_percent():
    with pytest.raises(ValueError):
        game(BANKER_WINS, commission=6)
    assert game(BANKER_WINS).settings.commission == 0


# -- Hero Points -------------------------------------------------------------------------


def test_a_pc_ponte_losing_to_the_npc_banker_can_win_his_covered_stake():
    desk = desk_of(BANKER_WINS, ("npc", "a", "b"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 800)
    desk.do("stake", "b", 500)  # 200 covered
    (record,) = desk.auto()
    assert record.lost == (
        LostHand(seat="a", label="stake:800", pay=1_600),
        LostHand(seat="b", label="stake:200", pay=400),
    )


def test_a_pc_banker_can_win_back_only_what_the_npc_ponte_won():
    desk = desk_of(PONTE_WINS, ("a", "npc", "b"), "a", commission=5)
    desk.do("bank", "a", 1_000)
    desk.do("stake", "npc", 600)
    desk.do("stake", "b", 400)
    (record,) = desk.auto()
    assert record.transfers == (
        t("seat:a", "seat:npc", 600, "stake_won"),
        t("seat:a", "seat:b", 400, "stake_won"),
    )
    # the NPC's 600 back and the win he would have had, less 5% commission; b's win stands
    assert record.lost == (LostHand(seat="a", label="bank:600", pay=600 + 570),)


@pytest.mark.parametrize("cards", [BANKER_WINS, PONTE_WINS, TIE])
def test_nothing_is_lost_against_a_pc_banker(cards: list[str]):
    desk = desk_of(cards, ("a", "b", "npc"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("stake", "b", 500)
    desk.do("pass", "npc")
    (record,) = desk.auto()
    assert record.lost == ()


def test_the_npc_gets_no_hero_point():
    desk = desk_of(BANKER_WINS, ("a", "npc"), "a")
    desk.do("bank", "a", 1_000)
    desk.do("banco", "npc")
    (record,) = desk.auto()
    assert record.transfers == (t("seat:npc", "seat:a", 1_000, "stake_lost"),)
    assert record.lost == ()


# -- the NPC's automatic play ------------------------------------------------------------


def test_npc_banker_puts_up_its_default_bank_bounded_by_its_chips():
    desk = Desk(game(BANKER_WINS, ("npc", "a"), npc_bank=5_000), {"npc": 3_000, "a": CHIPS})
    assert desk.npc().move == Move(kind="bank", seat="npc", amount=3_000)


def test_npc_ponte_calls_banco_first_to_the_right_of_a_small_bank_only():
    desk = desk_of(BANKER_WINS, ("a", "npc", "b"), "a", npc_bank=1_000)
    desk.do("bank", "a", 1_000)
    assert desk.npc().move == Move(kind="banco", seat="npc")
    far = desk_of(BANKER_WINS, ("a", "b", "npc"), "a", npc_bank=1_000)
    far.do("bank", "a", 1_000)
    assert far.npc().move == Move(kind="stake", seat="npc", amount=1_000)
    big = desk_of(BANKER_WINS, ("a", "npc", "b"), "a", npc_bank=1_000)
    big.do("bank", "a", 5_000)
    assert big.npc().move == Move(kind="stake", seat="npc", amount=1_000)


def test_npc_ponte_chases_a_lost_banco():
    desk = desk_of(BANKER_WINS * 2, ("a", "b", "npc"), "a", npc_bank=500)
    desk.do("bank", "a", 1_000)
    desk.do("pass", "b")
    desk.do("banco", "npc")
    desk.auto()
    desk.do("keep", "a")
    assert desk.npc().move == Move(kind="banco", seat="npc")  # 2,000, over its npc_bank


# -- seats and shoe ----------------------------------------------------------------------


def test_seats_come_and_go_only_between_hands():
    desk = desk_of(BANKER_WINS, ("a", "b", "npc"), "a")
    desk.stacks["c"] = CHIPS
    desk.do("bank", "a", 1_000)
    desk.engine.sit("c")  # the bank is no coup yet: until a ponte answers, seats change
    assert desk.engine.turn() == ("b", "npc", "c")
    desk.do("stake", "b", 1_000)
    with pytest.raises(IllegalAction):
        desk.engine.sit("d")
    with pytest.raises(IllegalAction):
        desk.engine.stand_up("c")
    desk.do("pass", "npc")
    desk.do("pass", "c")
    desk.auto()
    desk.engine.stand_up("a")  # the banker leaves with his bank: it passes to his right
    assert desk.engine.banker == "b" and desk.engine.bank == 0


def test_a_banker_who_leaves_before_the_pontes_answer_takes_his_bank_with_him():
    desk = desk_of(BANKER_WINS, ("a", "b", "npc"), "a")
    desk.do("bank", "a", 1_000)
    desk.engine.stand_up("b")  # a ponte leaves before answering
    desk.engine.stand_up("a")
    engine = desk.engine
    assert (engine.banker, engine.bank, engine.phase, engine.turn()) == ("npc", 0, "bank", ("npc",))


def test_a_finished_shoe_is_replaced_before_the_deal():
    desk = desk_of(BANKER_WINS, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 1_000)
    desk.auto()
    assert desk.engine.needs_new_shoe
    desk.do("keep", "npc")
    desk.do("stake", "a", 1_000)
    assert desk.auto() == [] and desk.engine.turn() == ()
    desk.engine.replace_shoe(Shoe.stacked(PONTE_WINS))
    (record,) = desk.auto()
    assert settled(record).winner == "ponte"


def test_the_shoe_cannot_be_replaced_mid_coup():
    cards = [*coup(two(5, "h"), two(6, "d")), "4c", "Kc"]
    desk = desk_of(cards, ("npc", "a"), "npc", drawing="classic")
    desk.do("bank", "npc", 1_000)
    desk.do("stake", "a", 1_000)
    desk.auto()
    with pytest.raises(IllegalAction):
        desk.engine.replace_shoe(Shoe.stacked(PONTE_WINS))


def test_an_illegal_move_changes_nothing():
    desk = desk_of(BANKER_WINS, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    before = desk.engine.model_dump_json()
    for move in (
        Move(kind="stake", seat="a", amount=50),
        Move(kind="draw", seat="a"),
        Move(kind="deal"),
        Move(kind="keep", seat="npc"),
    ):
        with pytest.raises(IllegalAction):
            desk.apply(move)
    assert desk.engine.model_dump_json() == before


# -- what the table adds: the first banker, a maximum bank, coups counted at the deal -----


def test_the_table_names_the_first_banker_once_two_seats_are_taken():
    engine = ChemindeFer.new(Shoe.stacked(BANKER_WINS), ["npc"], None, npc="npc")
    desk = Desk(engine, {"npc": None, "a": CHIPS, "b": CHIPS})
    assert engine.options() == [] and engine.turn() == ()
    engine.sit("a")
    assert engine.banker is None  # sitting down names nobody
    assert engine.options() == [Option(kind="first_banker", targets=("npc", "a"))]
    with pytest.raises(IllegalAction):
        desk.apply(Move(kind="first_banker", target="b"))  # not seated
    record = desk.apply(Move(kind="first_banker", target="a"))
    assert record.events == (BankOffered(seat="a"),)
    assert engine.banker == "a" and engine.turn() == ("a",) and engine.hand == 0
    engine.sit("b")  # naming the banker is no coup: seats still come and go
    assert engine.pontes() == ["b", "npc"]
    assert not desk.engine.can(Move(kind="first_banker", target="npc"))


def test_a_maximum_bank_bounds_the_bank_and_what_a_win_keeps_in_play():
    desk = desk_of(BANKER_WINS * 2, ("a", "npc"), "a", max_bank=1_500)
    assert Option(kind="bank", seat="a", min=100, max=1_500) in desk.engine.options()
    desk.do("bank", "a", 1_000)
    desk.do("stake", "npc", 1_000)
    (record,) = desk.auto()
    assert settled(record).bank == 1_500  # 2,000 won: 500 of it stays out of play
    desk.do("keep", "a")
    assert desk.engine.bank == 1_500
    assert desk.engine.options()[0] == Option(kind="stake", seat="npc", min=100, max=1_500)


def test_a_coup_counts_when_it_is_dealt():
    desk = desk_of(BANKER_WINS, ("npc", "a"), "npc")
    desk.do("bank", "npc", 1_000)
    desk.do("pass", "a")
    desk.auto()  # nobody played: no coup
    assert desk.engine.hand == 0
    desk.do("keep", "npc")
    desk.do("stake", "a", 500)
    assert desk.engine.hand == 0
    (record,) = desk.auto()
    assert desk.engine.hand == 1
    last = settled(record)
    assert (last.seat, last.holder) == ("npc", "a")
    assert [(m.kind, m.seat) for m in last.moves] == [("stake", "a"), ("deal", None)]
