"""The Macao engine, coup by coup on stacked shoes, against rules/macao.md.

Expected totals, payments and draws are written from the spec; the stacked shoes deal the
players (seat order from the banker's left) then the banker, one card at a time.
"""

from __future__ import annotations

import random

import pytest
from macao_helpers import (
    BOND,
    CHIPS,
    MATHIS,
    NPC,
    act,
    card,
    coup_shoe,
    deal,
    draw,
    events,
    nets,
    npc_plays,
    stand,
    table,
    wager,
)

from bondbot.games.contract import LostHand, Move
from bondbot.games.macao.counting import Counting
from bondbot.games.macao.engine import Bank, Macao, MacaoRules, Phase, packs_for
from bondbot.rules.cards import parse_cards
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

M9, M10, BUST = Counting.MINUS9, Counting.MODULO10, Counting.BUST
MULTIPLE = {7: 1, 8: 2, 9: 3}


def rules(**options: object) -> MacaoRules:
    return MacaoRules.model_validate(options)


# -- counting, through whole coups ------------------------------------------------------

# The seed's and macao.md's examples as Bond's two cards: (cards, {scheme: total}).
TWO_CARD_EXAMPLES = [
    ("4s 7h", {M9: 2, M10: 1, BUST: 11}),
    ("9s 5h", {M9: 5, M10: 4, BUST: 14}),
    ("4s 6h", {M9: 1, M10: 0, BUST: 10}),
    ("Qs Kh", {M9: 0, M10: 0, BUST: 0}),
    ("As Ah", {M9: 2, M10: 2, BUST: 2}),
    ("9s 9h", {M9: 9, M10: 8, BUST: 18}),
]


@pytest.mark.parametrize("counting", [M9, M10, BUST])
@pytest.mark.parametrize(("cards", "totals"), TWO_CARD_EXAMPLES)
def test_counting_examples_on_a_stacked_pack(cards: str, totals: dict, counting: Counting):
    total = totals[counting]
    # The banker holds 6 (he stands whatever happens); Bond stands when he has the choice.
    game = table(coup_shoe([cards], "Kd 6c"), rules=rules(counting=counting))
    records = deal(game) + act(game, wager(BOND, "own"))
    if BOND in game.turn():
        records += act(game, stand(BOND))
    shown = [event for event in events(records, "revealed") if event.seat == BOND]
    assert [(event.total, event.cards) for event in shown] == [(total, tuple(parse_cards(cards)))]
    expected_why = "bust" if total > 9 else "natural" if total >= 7 else "showdown"
    assert shown[0].why == expected_why


@pytest.mark.parametrize(("counting", "total"), [(M9, 1), (M10, 9)])
def test_a_third_card_past_nine_loses_nine_twice_or_keeps_the_units(counting: Counting, total: int):
    game = table(coup_shoe(["5s 5h"], "Kd 6c", "9d"), rules=rules(counting=counting))
    records = deal(game) + act(game, wager(BOND, "own"), draw(BOND))
    (shown,) = [event for event in events(records, "revealed") if event.seat == BOND]
    assert shown.total == total  # 5 + 5 + 9 = 19


# -- naturals ---------------------------------------------------------------------------

NATURAL_HANDS = {None: "2s 3h", 7: "7s Kh", 8: "8s Kh", 9: "9s Kh"}
BANK_HANDS = {None: "2d 3c", 7: "7d Kc", 8: "8d Kc", 9: "9d Kc"}


def natural_net(target: str, player: int | None, banker: int | None) -> int:
    """macao.md step 3 for a stake of 100: the higher natural is paid its multiple."""
    p, b = player or 0, banker or 0
    if target == "tie":
        return 800 if p == b else -100
    own = 100 * MULTIPLE[p] if p > b else -100 * MULTIPLE[b] if b > p else 0
    return own if target == "own" else -own


NATURAL_PAIRS = [(p, b) for p in NATURAL_HANDS for b in BANK_HANDS if p or b]


@pytest.mark.parametrize("target", ["own", "banker", "tie"])
@pytest.mark.parametrize(("player", "banker"), NATURAL_PAIRS)
def test_each_natural_against_each_banker_natural(
    target: str, player: int | None, banker: int | None
):
    game = table(coup_shoe([NATURAL_HANDS[player]], BANK_HANDS[banker]))
    records = deal(game) + act(game, wager(BOND, target))
    # Settled at once: the coup ends with the naturals, nobody draws.
    assert records[-1].move.kind == "naturals" and records[-1].hand_over
    assert nets(records).get(BOND, 0) == natural_net(target, player, banker)
    assert game.phase is Phase.IDLE
    shown = {event.seat: event.total for event in events(records, "revealed")}
    expected = {BOND: player} if player else {}
    if banker:
        expected[NPC] = banker
    assert shown == expected  # a hand without a natural is never shown


def test_a_players_natural_is_paid_at_once_while_the_others_play_on():
    shoe = coup_shoe(["9s Kh", "2s 3h"], "2d 3c", "Kh")
    game = table(shoe, players=(BOND, MATHIS))
    records = deal(game) + act(game, wager(BOND, "own"), wager(MATHIS, "own"))
    assert nets(records) == {BOND: 300, NPC: -300}
    assert game.phase is Phase.DRAWS and game.turn() == (MATHIS,)
    assert game.private_cards(BOND) == ()  # shown with his natural


# -- the banker's drawing rule ----------------------------------------------------------

RESTRICTED = {
    3: {6, 7},
    4: {0, 1, 2, 3, 4, 5, 6, 7, 9},
    5: {2, 3, 4, 5, 6, 7},
    6: {4, 5, 6, 7},
}


@pytest.mark.parametrize("banker", [3, 4, 5, 6])
@pytest.mark.parametrize("third", range(10))
def test_restricted_table_with_one_player_who_drew(banker: int, third: int):
    game = table(coup_shoe(["2s Kh"], f"Kd {card(banker, 'c')}", card(third)))
    deal(game)
    act(game, wager(BOND, "own"), draw(BOND))
    allowed = third in RESTRICTED[banker]
    # Not allowed: the showdown follows by itself.
    assert game.phase is (Phase.BANKER if allowed else Phase.IDLE)
    if allowed:
        assert game.turn() == (NPC,)
        allowance = game.banker_allowance()
        assert allowance is not None and (allowance.seat, allowance.card.code) == (
            BOND,
            card(third),
        )
        # The advice (a timer's play) draws on 3 and 4 when allowed, stands on 5 and 6; the
        # NPC at Gambling 15 leaves it where the player's face-up third card tells: he drew
        # on 0–4, so he holds that plus the card (minus9).
        advised = "draw" if banker <= 4 else "stand"
        assert game.timeout_move(NPC) == Move(kind=advised, seat=NPC)
        expected = BEST_REPLY.get((banker, third), advised)
        assert game.npc_move(random.Random(0)) == Move(kind=expected, seat=NPC)


# (banker, player's third card) → the better play, one player wagering on his own hand:
# a ten leaves him on 0–4 and a 9 on 9 or 1–4, so 4 stands (it never loses to 0–4); an
# ace leaves him on 1–5, where standing on 4 is better by a hair (0.3% of the stake); a 4
# to a 7 lifts him to 4–8 or 5–9, where 5 and 6 mostly lose by standing.
BEST_REPLY = {
    (4, 0): "stand",
    (4, 1): "stand",
    (4, 9): "stand",
    (5, 4): "draw",
    (5, 5): "draw",
    (5, 6): "draw",
    (5, 7): "draw",
    (6, 6): "draw",
    (6, 7): "draw",
}


@pytest.mark.parametrize("banker", [3, 4, 5, 6])
@pytest.mark.parametrize(("bond_allows", "mathis_allows"), [(0, 0), (0, 1), (1, 0), (1, 1)])
def test_restricted_table_with_several_players_who_drew(
    banker: int, bond_allows: int, mathis_allows: int
):
    allowing = card(min(RESTRICTED[banker]))
    forbidding = card(next(v for v in range(10) if v not in RESTRICTED[banker]), "h")
    bond_third = allowing if bond_allows else forbidding
    mathis_third = allowing.replace("d", "s") if mathis_allows else forbidding.replace("h", "c")
    shoe = coup_shoe(["2s Kh", "As Kd"], f"Kd {card(banker, 'c')}", f"{bond_third} {mathis_third}")
    game = table(shoe, players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), wager(MATHIS, "own"), draw(BOND), draw(MATHIS))
    if not (bond_allows or mathis_allows):
        assert game.phase is Phase.IDLE  # no banker's turn: the showdown followed
        return
    assert game.turn() == (NPC,)
    (banker_draw,) = events(act(game, draw(NPC)), "drew")
    # The bot shows which card let him draw: the first in seat order.
    expected_seat, expected_card = (BOND, bond_third) if bond_allows else (MATHIS, mathis_third)
    assert (banker_draw.allowed_by, banker_draw.allowing.code) == (expected_seat, expected_card)


def test_a_player_who_stood_does_not_count_for_the_restricted_table():
    # Banker 3: Bond stands on 5, Mathis draws an 8 (forbids): the banker may not draw.
    shoe = coup_shoe(["2s 3h", "As Kd"], "Kd 3c", "8d")
    game = table(shoe, players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), wager(MATHIS, "own"), stand(BOND), draw(MATHIS))
    assert game.phase is Phase.IDLE  # straight to the showdown


@pytest.mark.parametrize(("banker", "may_draw"), [(0, True), (3, True), (5, True), (6, False)])
def test_when_nobody_drew_the_banker_follows_the_players_rule(banker: int, may_draw: bool):
    game = table(coup_shoe(["Ks 6h"], f"Kd {card(banker, 'c')}"))
    deal(game)
    act(game, wager(BOND, "own"), stand(BOND))
    assert game.phase is (Phase.BANKER if may_draw else Phase.IDLE)


def test_a_six_gets_his_turn_but_may_only_stand():
    game = table(coup_shoe(["Ks 6h", "2s Kh"], "Kd 6c"), players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), wager(MATHIS, "own"))
    assert game.turn() == (BOND,)  # skipping him would tell the table he holds 6
    assert [(option.kind, option.seat) for option in game.options()] == [("stand", BOND)]
    assert game.timeout_move(BOND) == stand(BOND)
    act(game, stand(BOND))
    assert game.turn() == (MATHIS,)


def test_a_busted_banker_never_draws():
    game = table(coup_shoe(["2s Kh"], "9d 5c", "6d"), rules=rules(counting=BUST))
    deal(game)
    records = act(game, wager(BOND, "own"), draw(BOND))
    assert records[-1].hand_over and nets(records)[BOND] == 100


# -- settling ---------------------------------------------------------------------------

# Bond's two cards and the banker's, for each outcome at the showdown (no natural, and the
# NPC banker stands on 5 and 6): Bond's 6 beats 5, his 5 loses to 6, 5 against 5 ties.
OUTCOMES = {"player": ("Ks 6h", "Kd 5c"), "banker": ("2s 3h", "Kd 6c"), "tie": ("2s 3h", "Kd 5c")}
# Each wager kind against each outcome, stake 100, tie 8:1 (macao.md step 6).
WAGER_NETS = {
    ("own", "player"): 100,
    ("own", "banker"): -100,
    ("own", "tie"): 0,
    ("banker", "player"): -100,
    ("banker", "banker"): 100,
    ("banker", "tie"): 0,
    ("tie", "player"): -100,
    ("tie", "banker"): -100,
    ("tie", "tie"): 800,
}


def showdown(target: str, outcome: str, **options: object) -> list:
    bond, bank = OUTCOMES[outcome]
    game = table(coup_shoe([bond], bank), rules=rules(**options))
    records = deal(game) + act(game, wager(BOND, target))
    if BOND in game.turn():
        records += act(game, stand(BOND))
    records += npc_plays(game)  # the banker's 5 is his free choice: the NPC stands
    assert records[-1].move.kind == "showdown" and records[-1].hand_over
    return records


@pytest.mark.parametrize(("target", "outcome"), list(WAGER_NETS))
def test_each_wager_kind_against_each_outcome(target: str, outcome: str):
    records = showdown(target, outcome)
    net = WAGER_NETS[target, outcome]
    assert nets(records).get(BOND, 0) == net
    (settled,) = events(records, "settled")
    assert (settled.target, settled.winner, settled.net) == (target, outcome, net)


def test_the_tie_odds_are_the_tables():
    assert nets(showdown("tie", "tie", tie_pays=9))[BOND] == 900


def test_the_banker_hand_wager_mirrors_the_own_hand_wager():
    for outcome in OUTCOMES:
        assert nets(showdown("banker", outcome)).get(BOND, 0) == -nets(
            showdown("own", outcome)
        ).get(BOND, 0)
    for player, banker in NATURAL_PAIRS:
        results = {}
        for target in ("own", "banker"):
            game = table(coup_shoe([NATURAL_HANDS[player]], BANK_HANDS[banker]))
            results[target] = nets(deal(game) + act(game, wager(BOND, target))).get(BOND, 0)
        assert results["banker"] == -results["own"]


def test_money_moves_between_the_seats_only():
    records = showdown("own", "player")
    assert [(t.src, t.dst, t.amount) for r in records for t in r.transfers] == [
        ("seat:npc", "seat:bond", 100)
    ]


# -- bust -------------------------------------------------------------------------------


def test_a_player_busting_on_two_cards_shows_them_and_loses_his_stake():
    game = table(coup_shoe(["9s 5h"], "2d 3c"), rules=rules(counting=BUST))
    records = deal(game) + act(game, wager(BOND, "own"))
    assert records[-1].move.kind == "naturals" and records[-1].hand_over
    assert [(e.seat, e.total, e.why) for e in events(records, "revealed")] == [(BOND, 14, "bust")]
    assert nets(records)[BOND] == -100
    assert game.private_cards(NPC) == tuple(parse_cards("2d 3c"))  # the bank stays hidden


def test_a_banker_natural_collects_its_multiple_from_a_busted_player():
    game = table(coup_shoe(["9s 5h"], "9d Kc"), rules=rules(counting=BUST))
    assert nets(deal(game) + act(game, wager(BOND, "own")))[BOND] == -300


def test_a_player_who_busts_on_his_third_card_loses_at_once_even_if_the_banker_busts():
    shoe = coup_shoe(["2s 2h", "Ks 6h"], "9d 5c", "9s")
    game = table(shoe, players=(BOND, MATHIS), rules=rules(counting=BUST))
    records = deal(game) + act(game, wager(BOND, "own"), wager(MATHIS, "own"))
    drew = game.apply(draw(BOND))
    assert nets([drew]) == {BOND: -100, NPC: 100}  # 2 + 2 + 9 = 13: bust, settled at once
    assert drew.lost == () and not drew.hand_over  # lost hands wait for the end of the coup
    records += [drew, *act(game, stand(MATHIS))]
    assert records[-1].hand_over  # the banker's 14 cannot draw
    assert nets(records)[MATHIS] == 100  # the busted banker pays everyone left
    assert nets(records)[BOND] == -100
    assert [lost.seat for lost in records[-1].lost] == [BOND]


def test_a_banker_who_busts_on_his_third_card_pays_everyone_left():
    game = table(coup_shoe(["Ks 6h"], "2d 2c", "9h"), rules=rules(counting=BUST))
    records = deal(game) + act(game, wager(BOND, "banker"), stand(BOND), draw(NPC))
    assert [(e.seat, e.total) for e in events(records, "revealed")] == [(NPC, 13), (BOND, 6)]
    assert nets(records)[BOND] == -100  # a banker's-hand wager loses when the banker busts


def test_a_tie_wager_loses_when_both_bust():
    shoe = coup_shoe(["2s 2h"], "9d 5c", "9s")
    game = table(shoe, rules=rules(counting=BUST))
    records = deal(game) + act(game, wager(BOND, "tie"), draw(BOND))
    assert nets(records)[BOND] == -100


def test_nobody_busts_under_the_other_countings():
    game = table(coup_shoe(["9s 5h"], "2d 3c"), rules=rules(counting=M9))
    deal(game)
    act(game, wager(BOND, "own"))
    assert game.turn() == (BOND,)  # 14 counts 5: a free choice


# -- a lost hand ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bond", "bank", "target", "moves", "pay"),
    [
        ("2s 3h", "Kd 6c", "own", [stand(BOND)], 200),  # 1:1: stake back and the win
        ("Ks 6h", "Kd 5c", "banker", [stand(BOND), stand(NPC)], 200),
        ("Ks 6h", "Kd 5c", "tie", [stand(BOND), stand(NPC)], 900),  # the tie odds
        ("2s 3h", "9d Kc", "own", [], 400),  # lost three stakes to a natural 9
        ("8s Kh", "9d Kc", "own", [], 500),  # his 8 lost to a 9: paid at his double
        ("9s Kh", "2d 3c", "banker", [], 600),  # his own 9 beat his banker's-hand wager
    ],
)
def test_every_lost_hand_against_the_npc_banker(
    bond: str, bank: str, target: str, moves: list, pay: int
):
    game = table(coup_shoe([bond], bank))
    records = deal(game) + act(game, wager(BOND, target), *moves)
    assert records[-1].hand_over
    assert records[-1].lost == (LostHand(seat=BOND, label=f"{target}:100", pay=pay),)
    assert all(record.lost == () for record in records[:-1])


def test_a_bust_is_a_lost_hand():
    game = table(coup_shoe(["9s 5h"], "2d 3c"), rules=rules(counting=BUST))
    records = deal(game) + act(game, wager(BOND, "own"))
    assert records[-1].lost == (LostHand(seat=BOND, label="own:100", pay=200),)


@pytest.mark.parametrize(
    ("bond", "bank", "target"),
    [
        ("2s 3h", "Kd 5c", "own"),  # a tie returns the hand wagers
        ("9s Kh", "9d Kc", "banker"),  # equal naturals are void
        ("Ks 6h", "Kd 5c", "own"),  # won
    ],
)
def test_no_lost_hand_when_nothing_was_lost(bond: str, bank: str, target: str):
    game = table(coup_shoe([bond], bank))
    records = deal(game) + act(game, wager(BOND, target))
    if BOND in game.turn():
        records += act(game, stand(BOND))
    records += npc_plays(game)
    assert records[-1].hand_over and all(record.lost == () for record in records)


# -- the bank rotates -------------------------------------------------------------------


def rotating(shoe: Shoe, **stacks: int | None) -> Macao:
    chips: dict[str, int | None] = {NPC: None, BOND: CHIPS, MATHIS: CHIPS} | stacks
    return Macao(
        shoe=shoe,
        seats=[NPC, BOND, MATHIS],
        npc=NPC,
        rules=rules(bank=Bank.ROTATE),
        stacks=chips,
    )


def pass_all(game: Macao) -> None:
    act(game, *(Move(kind="pass", seat=seat) for seat in game.turn()))


def test_each_seat_banks_in_turn_and_deals_from_his_left():
    game = rotating(Shoe.shuffled(2, b"rotation" * 4))
    bankers = []
    for _ in range(4):
        (dealt,) = events(deal(game), "dealt")
        bankers.append((dealt.banker, dealt.players))
        pass_all(game)
    assert bankers == [
        (NPC, (BOND, MATHIS)),
        (BOND, (MATHIS, NPC)),
        (MATHIS, (NPC, BOND)),
        (NPC, (BOND, MATHIS)),
    ]


def test_money_moves_seat_to_seat_and_nothing_is_won_back_against_a_pc_banker():
    game = rotating(coup_shoe(["Kd 5c", "Ks 6h"], "Kh Kc"))
    game.banker = NPC  # as if the NPC had banked the last coup: Bond banks now
    records = deal(game)
    assert events(records, "dealt")[0].banker == BOND
    # Mathis (5) and the NPC (6) against Bond's 0; the NPC wagers by itself, on the banker's
    # hand (a 6 that may not draw is worth less than the banker's hand, by the exact odds).
    records += act(game, wager(MATHIS, "own"))
    npc_wager = game.npc_move(random.Random(0))
    assert npc_wager == wager(NPC, "banker", game.rules.min_stake)
    records += act(game, npc_wager, stand(MATHIS), stand(NPC))
    if BOND in game.turn():
        records += act(game, stand(BOND))
    assert records[-1].hand_over
    assert all(
        transfer.src == "seat:bond" or transfer.dst == "seat:bond"
        for record in records
        for transfer in record.transfers
    )
    assert nets(records) == {MATHIS: 100, NPC: -100, BOND: 0}
    assert all(record.lost == () for record in records)


def test_a_pc_losing_to_the_npc_bank_in_its_turn_may_win_it_back():
    game = rotating(coup_shoe(["2s 3h", "Ks 5h"], "Kd 6c"))
    deal(game)
    records = act(game, wager(BOND, "own"), wager(MATHIS, "tie"), stand(BOND), stand(MATHIS))
    assert {lost.seat: lost.pay for lost in records[-1].lost} == {BOND: 200, MATHIS: 900}


def test_the_npc_player_losing_to_a_pc_banker_is_no_lost_hand():
    game = rotating(coup_shoe(["Ks 5h", "2s 3h"], "Kd 6c"))
    game.banker = NPC  # Bond banks; Mathis then the NPC play
    deal(game)
    records = act(
        game,
        Move(kind="pass", seat=MATHIS),
        wager(NPC, "own"),
        stand(NPC),
    )
    assert records[-1].hand_over and nets(records)[NPC] == -100
    assert records[-1].lost == ()


def test_a_seat_that_cannot_cover_a_minimum_wager_is_passed_over():
    game = rotating(Shoe.shuffled(1, b"skip" * 8), **{BOND: 299})
    game.banker = NPC
    assert events(deal(game), "dealt")[0].banker == MATHIS


def test_a_banker_who_leaves_passes_the_bank_to_the_next_seat():
    game = rotating(Shoe.shuffled(1, b"leave" * 8))
    deal(game)
    pass_all(game)  # the NPC banked; Bond is next
    game.sit("felix")
    game.stacks["felix"] = CHIPS
    game.stand_up(BOND)
    assert events(deal(game), "dealt")[0].banker == MATHIS


def test_a_pc_banker_covers_only_what_his_chips_can_pay():
    game = rotating(Shoe.shuffled(1, b"cover" * 8), **{BOND: 3000})
    game.banker = NPC
    deal(game)
    by_target = {option.targets: option.max for option in game.options() if option.seat == MATHIS}
    assert by_target == {(): None, ("own", "banker"): 1000, ("tie",): 375}
    act(game, wager(MATHIS, "own", 1000))
    assert [option.kind for option in game.options() if option.seat == NPC] == ["pass"]
    assert game.npc_move(random.Random(0)) == Move(kind="pass", seat=NPC)


# -- stakes and limits ------------------------------------------------------------------


def wager_bounds(game: Macao, seat: str) -> dict[tuple[str, ...], tuple[int, int]]:
    return {
        option.targets: (option.min, option.max)
        for option in game.options()
        if option.seat == seat and option.kind == "wager"
    }


def test_a_hand_wager_takes_at_most_a_third_of_the_stack():
    game = table(coup_shoe(["2s 3h"], "Kd 6c"), stacks={BOND: 30_000})
    deal(game)
    assert wager_bounds(game, BOND) == {("own", "banker"): (100, 10_000), ("tie",): (100, 30_000)}


def test_the_table_limits_bound_every_wager():
    game = table(coup_shoe(["2s 3h"], "Kd 6c"), rules=rules(min_stake=500, max_stake=5000))
    deal(game)
    assert wager_bounds(game, BOND) == {("own", "banker"): (500, 5000), ("tie",): (500, 5000)}
    for move in (wager(BOND, "own", 400), wager(BOND, "tie", 5001), wager(BOND, "side", 500)):
        before = game.model_copy(deep=True)
        with pytest.raises(IllegalAction):
            game.apply(move)
        assert game == before


def test_a_limited_npc_bank_covers_first_come_first_served():
    shoe = coup_shoe(["2s 3h", "As Kd"], "Kd 6c")
    game = table(shoe, players=(BOND, MATHIS), stacks={NPC: 2400})
    deal(game)
    assert wager_bounds(game, BOND) == {("own", "banker"): (100, 800), ("tie",): (100, 300)}
    act(game, wager(BOND, "own", 800))
    assert wager_bounds(game, MATHIS) == {}


def test_a_player_without_the_minimum_can_only_pass():
    game = table(coup_shoe(["2s 3h"], "Kd 6c"), stacks={BOND: 99})
    deal(game)
    assert [option.kind for option in game.options()] == ["pass"]


def test_a_limited_table_rejects_bad_options():
    with pytest.raises(ValueError):
        rules(min_stake=500, max_stake=100)
    with pytest.raises(ValueError):
        rules(counting="blackjack")


# -- turns, timeouts and the NPC --------------------------------------------------------


def test_players_wager_at_once_then_draw_in_seat_order():
    shoe = coup_shoe(["2s Kh", "As Kd"], "Kd 6c", "Kh Kh")
    game = table(shoe, players=(BOND, MATHIS))
    deal(game)
    assert set(game.turn()) == {BOND, MATHIS}
    act(game, wager(MATHIS, "own"))
    assert game.turn() == (BOND,)
    act(game, wager(BOND, "own"))
    assert game.turn() == (BOND,)
    assert not game.can(draw(MATHIS))
    act(game, draw(BOND))
    assert game.turn() == (MATHIS,)


@pytest.mark.parametrize(
    ("bond", "expected"), [("2s Kh", "draw"), ("4s Kh", "draw"), ("5s Kh", "stand")]
)
def test_a_draw_timeout_plays_the_recommended_move(bond: str, expected: str):
    game = table(coup_shoe([bond], "Kd 6c"))
    deal(game)
    assert game.timeout_move(BOND) == Move(kind="pass", seat=BOND)
    act(game, wager(BOND, "own"))
    assert game.timeout_move(BOND) == Move(kind=expected, seat=BOND)
    assert game.timeout_move(MATHIS) is None


def test_a_passing_player_sits_the_coup_out_and_his_hand_is_never_shown():
    shoe = coup_shoe(["2s 3h", "As Kd"], "Kd 6c")
    game = table(shoe, players=(BOND, MATHIS))
    deal(game)
    records = act(game, Move(kind="pass", seat=BOND), wager(MATHIS, "own"), draw(MATHIS))
    assert records[-1].hand_over
    assert BOND not in {event.seat for event in events(records, "revealed")}
    assert game.private_cards(BOND) == tuple(parse_cards("2s 3h"))


def test_nobody_wagering_ends_the_coup_unseen():
    game = table(coup_shoe(["2s 3h"], "Kd 6c"))
    deal(game)
    records = act(game, Move(kind="pass", seat=BOND))
    assert records[-1].hand_over and events(records, "revealed") == []


@pytest.mark.parametrize(
    ("bank", "third", "expected"),
    [
        ("Kd 2c", "8d", "draw"),
        ("Kd 3c", "6d", "draw"),
        ("Kd 4c", "5d", "draw"),
        ("Kd 5c", "5d", "draw"),  # he drew a 5 on 0–4: standing on 5 never wins
        ("Kd 6c", "5d", "stand"),
    ],
)
def test_the_npc_banker(bank: str, third: str, expected: str):
    game = table(coup_shoe(["2s Kh"], bank, third))
    deal(game)
    assert game.npc_move(random.Random(0)) is None  # the NPC banker does not wager
    act(game, wager(BOND, "own"), draw(BOND))
    assert game.npc_move(random.Random(0)) == Move(kind=expected, seat=NPC)


@pytest.mark.parametrize(("npc_hand", "target"), [("9s Kh", "own"), ("Ks Kh", "banker")])
def test_an_npc_player_stakes_the_minimum_on_the_best_target(npc_hand: str, target: str):
    game = rotating(coup_shoe(["2s 3h", npc_hand], "Kd 6c"))
    game.banker = NPC  # Bond banks: Mathis, then the NPC
    deal(game)
    assert game.npc_move(random.Random(0)) == wager(NPC, target, game.rules.min_stake)


# -- privacy ----------------------------------------------------------------------------


def test_each_seat_sees_only_his_own_hand():
    game = table(coup_shoe(["2s 3h", "As Kd"], "Qd 6c"), players=(BOND, MATHIS))
    records = deal(game)
    assert game.private_cards(BOND) == tuple(parse_cards("2s 3h"))
    assert game.private_cards(MATHIS) == tuple(parse_cards("As Kd"))
    assert game.private_cards(NPC) == tuple(parse_cards("Qd 6c"))
    assert game.private_cards("felix") == ()
    assert game.hidden_cards() == set(parse_cards("2s 3h As Kd Qd 6c"))
    assert records[0].model_dump_json().count('"cards"') == 0


def test_shown_hands_are_no_longer_hidden():
    game = table(coup_shoe(["9s Kh", "2s 3h"], "2d 3c", "Kh"), players=(BOND, MATHIS))
    deal(game)
    act(game, wager(BOND, "own"), wager(MATHIS, "own"))
    assert game.hidden_cards() == set(parse_cards("2s 3h 2d 3c"))


# -- the evening ------------------------------------------------------------------------


def test_the_evening_ends_after_the_gms_number_of_coups():
    game = table(Shoe.shuffled(1, b"evening" * 5), rules=rules(coups=2))
    for _ in range(2):
        assert game.phase is Phase.IDLE
        deal(game)
        records = act(game, Move(kind="pass", seat=BOND))
    assert game.phase is Phase.OVER and game.options() == []
    assert events(records, "evening_over")[0].coups == 2


def test_the_gm_ends_the_evening_between_coups():
    game = table(Shoe.shuffled(1, b"end" * 11))
    deal(game)
    assert not game.can(Move(kind="end"))
    act(game, Move(kind="pass", seat=BOND))
    act(game, Move(kind="end"))
    assert game.phase is Phase.OVER and not game.can(Move(kind="deal"))


def test_the_winner_has_the_most_chips_the_npc_bank_apart():
    game = table(Shoe.shuffled(1, b"w" * 32), players=(BOND, MATHIS))
    game.stacks = {NPC: 10**9, BOND: 500, MATHIS: 700}
    assert game.winners() == (MATHIS,)
    game.stacks[BOND] = 700
    assert game.winners() == (BOND, MATHIS)


# -- packs and shoes --------------------------------------------------------------------


def test_packs_by_table_size():
    assert [packs_for(hands) for hands in range(1, 12)] == [1] * 5 + [2] * 5 + [3]
    six_hands = Macao(
        shoe=Shoe.shuffled(1, b"six" * 11),
        seats=[NPC, "a", "b", "c", "d", "e"],
        npc=NPC,
    )
    assert six_hands.packs == 2
    assert six_hands.needs_new_shoe  # one pack no longer serves the table
    assert six_hands.model_copy(update={"rules": rules(packs=1)}).packs == 1


def test_a_shoe_that_cannot_serve_a_coup_is_replaced_between_coups():
    game = table(Shoe.stacked(parse_cards("2s 3h Kd 6c 7h")))  # 5 cards: 6 are needed
    assert game.needs_new_shoe and not game.can(Move(kind="deal"))
    game.replace_shoe(coup_shoe(["2s 3h"], "Kd 6c"))
    deal(game)
    with pytest.raises(IllegalAction):
        game.replace_shoe(Shoe.shuffled(1))


def test_the_bank_expectation_is_told_for_the_tables_rules():
    expectation = table(Shoe.shuffled(1, b"x" * 32)).bank_expectation()
    assert f"{float(expectation.per_target['own']) * 100:.2f}" == "-1.13"  # macao.md


# -- what the table asks of the engine ----------------------------------------------------


def refusal(game: Macao, move: Move) -> tuple[str, dict]:
    with pytest.raises(IllegalAction) as refused:
        game.apply(move)
    return refused.value.code, dict(refused.value.params)


def test_each_refusal_says_why():
    game = table(coup_shoe(["6s Kh", "2s 3h"], "Kd 4c"), players=(BOND, MATHIS))
    game.stacks[MATHIS] = 2_000
    assert refusal(game, wager(BOND, "own")) == ("macao.wagers_closed", {})
    assert refusal(game, draw(BOND)) == ("macao.no_draw_now", {})
    deal(game)
    assert refusal(game, Move(kind="deal")) == ("macao.in_coup", {})
    assert refusal(game, Move(kind="end")) == ("macao.in_coup", {})
    assert refusal(game, wager(BOND, "side")) == ("macao.unknown_target", {})
    assert refusal(game, wager(BOND, "own", 99)) == (
        "table.outside_limits",
        {"min": 100, "max": 100_000},
    )
    assert refusal(game, wager(MATHIS, "banker", 700)) == ("macao.hand_over_chips", {"max": 666})
    assert refusal(game, wager(MATHIS, "tie", 2_001)) == ("macao.tie_over_chips", {"max": 2_000})
    assert refusal(game, wager("felix", "own")) == ("macao.not_in_coup", {"seat": "felix"})
    act(game, wager(BOND, "own"))
    assert refusal(game, Move(kind="pass", seat=BOND)) == ("macao.already_decided", {})
    act(game, wager(MATHIS, "own"))
    assert game.turn() == (BOND,)  # his 6 gets its turn, to stand only
    assert refusal(game, draw(MATHIS)) == ("macao.not_your_turn", {"seat": BOND})
    assert refusal(game, draw(BOND)) == ("macao.cannot_draw", {})


def test_a_limited_bank_refuses_what_it_cannot_cover():
    game = table(coup_shoe(["2s 3h"], "Kd 6c"), stacks={NPC: 2_400})
    deal(game)
    assert refusal(game, wager(BOND, "own", 900)) == (
        "table.bank_cannot_cover",
        {"available": 2_400},
    )


def test_nobody_to_deal_to_or_to_bank():
    alone = Macao(shoe=Shoe.shuffled(1, b"a" * 32), npc=NPC)
    assert refusal(alone, Move(kind="deal")) == ("macao.no_players", {})
    broke = rotating(Shoe.shuffled(1, b"b" * 32), **{NPC: 0, BOND: 0, MATHIS: 0})
    assert refusal(broke, Move(kind="deal")) == ("macao.no_banker", {})
    over = table(Shoe.shuffled(1, b"c" * 32))
    act(over, Move(kind="end"))
    assert refusal(over, Move(kind="deal")) == ("macao.evening_over", {})


def test_what_each_seat_may_still_pay_during_a_coup():
    game = table(coup_shoe(["2s 3h", "As Kd"], "Kd 6c"), players=(BOND, MATHIS))
    assert game.exposure() == 0
    deal(game)
    act(game, wager(BOND, "own", 1_000), wager(MATHIS, "tie", 500))
    assert game.committed(BOND) == 3_000  # a banker's natural 9 would take three stakes
    assert game.committed(MATHIS) == 500
    assert game.committed(NPC) == game.exposure() == 3_000 + 8 * 500
    act(game, draw(BOND), draw(MATHIS))
    assert game.phase is Phase.IDLE
    assert game.exposure() == game.committed(BOND) == 0


def test_the_table_shuffles_the_packs_the_engine_counts():
    game = table(Shoe.shuffled(1, b"s" * 32))
    assert game.current_shoe() is game.shoe
    assert game.shoe_packs(4) == 1  # by table size: two hands
    assert table(Shoe.shuffled(1, b"s" * 32), rules=rules(packs=3)).shoe_packs(1) == 3
