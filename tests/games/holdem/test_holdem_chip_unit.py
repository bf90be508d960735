"""A chip is one whole unit of the currency (holdem.md): at the table's chip of 100 cents,
blinds, bets, stacks, pots and what Hero Points win back are whole units."""

from __future__ import annotations

import pytest
from holdem_helpers import act, deal, events, table
from test_holdem_lost import BOARD, check_down, lost

from bondbot.games.contract import Move
from bondbot.games.holdem.engine import CHIP, Holdem, totals, winback_pay
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import Shoe

DOLLAR = 100


def test_the_table_chip_is_one_whole_unit() -> None:
    game = Holdem(shoe=Shoe.stacked([]), seats=["a"])
    assert CHIP == DOLLAR and game.chip == DOLLAR and game.chip_value() == DOLLAR
    assert game.least_stack() == DOLLAR


def test_a_three_way_split_of_an_odd_pot_gives_whole_units_by_the_odd_chip_rule() -> None:
    """A pot of $71 between three: $24, $24, $23, the odd dollars one each to the first two
    winners left of the button (in cents it was 2367, 2367, 2366)."""
    stacks = dict.fromkeys("abcd", 1000 * DOLLAR)
    game = table(stacks, blinds=((11 * DOLLAR, 20 * DOLLAR),), chip=CHIP)
    deal(game, ["2c 3d", "4c 5d", "6c 7d", "8c 9d"], "Ts Js Qs Ks As")  # the board plays
    assert game.players == ["b", "c", "d", "a"]
    act(game, "d", "call")
    act(game, "a", "call")
    act(game, "b", "fold")
    records = act(game, "c", "check") + check_down(game)
    [pot] = events(records, "pot_awarded")
    assert pot.amount == 71 * DOLLAR and pot.winners == ("c", "d", "a")
    assert pot.shares == (24 * DOLLAR, 24 * DOLLAR, 23 * DOLLAR)
    assert all(transfer.amount % DOLLAR == 0 for transfer in records[-1].transfers)


def test_a_stack_with_cents_plays_its_whole_units() -> None:
    game = table({"a": 10_050, "b": 10_000}, blinds=((DOLLAR, 2 * DOLLAR),), chip=CHIP)
    [started] = events(deal(game, ["As Ad", "7s 6d"], BOARD), "hand_started")
    assert dict(zip(started.players, started.stacks, strict=True)) == {"a": 10_000, "b": 10_000}
    assert game.chips["a"] == 10_000 - DOLLAR  # the small blind: what the table shows behind


def test_a_table_without_a_whole_chip_deals_nobody() -> None:
    game = table({"a": 99, "b": 10_000}, blinds=((DOLLAR, 2 * DOLLAR),), chip=CHIP)
    assert game._dealt_in() == ["b"]


def test_blinds_set_in_cents_are_rounded_up_to_whole_chips() -> None:
    game = table({"a": 10_000, "b": 10_000}, blinds=((250, 500),), chip=CHIP)
    level = game.level(1)
    assert (level.small, level.big) == (300, 500)
    blinds = {e.blind: e.amount for e in events(deal(game, ["As Ad", "7s 6d"], BOARD), "blind")}
    assert blinds == {"small": 300, "big": 500}


def test_a_bet_of_part_of_a_chip_is_refused_and_changes_nothing() -> None:
    game = table({"a": 10_000, "b": 10_000}, blinds=((DOLLAR, 2 * DOLLAR),), chip=CHIP)
    deal(game, ["As Ad", "7s 6d"], BOARD)
    seat = game.turn()[0]
    raising = next(o for o in game.options() if o.seat == seat and o.kind == "raise")
    assert raising.min is not None and raising.max is not None
    assert raising.min % DOLLAR == 0 and raising.max % DOLLAR == 0
    before = game.model_dump_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(Move(kind="raise", seat=seat, amount=raising.min + 50))
    assert refused.value.code == "holdem.whole_chips"
    assert game.model_dump_json() == before
    game.apply(Move(kind="raise", seat=seat, amount=raising.min + DOLLAR))


def test_two_spenders_split_an_odd_pot_won_back_in_whole_units() -> None:
    """The NPC's aces beat leiter and bond, who put $25 each in a pot of $75: spent on by
    both, $38 to leiter (first left of the button), $37 to bond, whoever spends first."""
    for first, second in (("bond", "leiter"), ("leiter", "bond")):
        game = table(
            dict.fromkeys(("bond", "leiter", "npc"), 1000 * DOLLAR),
            npc="npc",
            blinds=((5 * DOLLAR, 10 * DOLLAR),),
            chip=CHIP,
        )
        records = deal(game, ["Qs Qd", "As Ad", "7s 6d"], BOARD)
        records += act(game, "bond", "raise", 25 * DOLLAR)
        records += check_down(game)
        claims = list(lost(records).values())
        assert winback_pay(claims, {"bond", "leiter"}, CHIP) == {
            "leiter": 38 * DOLLAR,
            "bond": 37 * DOLLAR,
        }
        for seat in (first, second):
            pays = game.won_back_pays(seat)
            assert pays is not None and all(amount % DOLLAR == 0 for amount in pays.values())
            game.apply(Move(kind="won_back", target=seat))
        assert totals(game.won_back) == {"leiter": 38 * DOLLAR, "bond": 37 * DOLLAR}


def test_the_chips_after_a_split_pot_are_what_the_odd_chip_rule_gave() -> None:
    """At the end of a hand the chips each player has are the table's: the odd dollars of a
    split pot one each to the first winners, not pokerkit's split in cents ($1003.67 ...)."""
    stacks = dict.fromkeys("abcd", 1000 * DOLLAR)
    game = table(stacks, blinds=((11 * DOLLAR, 20 * DOLLAR),), chip=CHIP)
    deal(game, ["2c 3d", "4c 5d", "6c 7d", "8c 9d"], "Ts Js Qs Ks As")  # the board plays
    act(game, "d", "call")
    act(game, "a", "call")
    act(game, "b", "fold")
    act(game, "c", "check")
    check_down(game)
    assert game.over
    assert game.chips == {
        "b": 989 * DOLLAR,  # his small blind lost
        "c": 1004 * DOLLAR,  # $20 in, $24 back
        "d": 1004 * DOLLAR,
        "a": 1003 * DOLLAR,  # the last winner: no odd dollar
    }
