"""Makao's NPC at each Gambling level: a bid the cards make certain, the card that makes
the bid exactly where the earlier play overshoots, a novice who stays legal, and
decisions that never depend on a hidden card."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_makao_engine import bids, deal, deal1, deal2, play, table

from bondbot.games.contract import Move
from bondbot.games.makao.engine import Makao
from bondbot.games.makao.npc import strong_bid, trick_counts
from bondbot.rules.shoe import Shoe


def test_a_bid_the_cards_make_certain() -> None:
    # One card each, the King of spades turned: the NPC's Ace of spades takes the trick
    # whatever the others hold.
    game = table()
    deal(game, {"a": "5h", "b": "Kh", "c": "2c", "npc": "As"}, "Ks", dealer="c")
    assert trick_counts(["As"], "Ks", 4) == [0.0, 1.0]
    for seat, bid in (("npc", None), ("a", 0), ("b", 1), ("c", 0)):
        if bid is None:
            move = game.npc_move(random.Random(1), 15)
            assert move == Move(kind="bid", seat="npc", amount=1)
        else:
            move = Move(kind="bid", seat=seat, amount=bid)
        game.apply(move)
    # A novice bids by feel: now and then he doubts his Ace.
    novice = {_novice_bid(n) for n in range(30)}
    assert novice == {0, 1}
    play(game, "As 5h Kh 2c")
    assert game.deals[-1].made("npc")


def _novice_bid(n: int) -> int:
    game = table()
    deal(game, {"a": "5h", "b": "Kh", "c": "2c", "npc": "As"}, "Ks", dealer="c")
    move = game.npc_move(random.Random(n), 0)
    assert move is not None and move.amount is not None
    return move.amount


def test_four_top_trumps_are_bid_four() -> None:
    assert trick_counts(["As", "Ks", "Qs", "Js"], "Ts", 4)[4] == pytest.approx(1.0)
    assert strong_bid(["As", "Ks", "Qs", "Js"], "Ts", 4) == 4


def third_deal() -> Makao:
    """Deal 3 (c starts, the NPC second): the NPC holds the top trump and Kh 2h and bid
    1; c leads the Queen of hearts."""
    game = table()
    deal1(game)
    deal2(game)
    deal(game, {"c": "Qh 4d 5d", "npc": "As Kh 2h", "a": "7c 8c 9c", "b": "Jd Td 6c"}, "3s")
    bids(game, c=0, npc=1, a=0, b=0)
    play(game, "Qh")
    return game


def finish(game: Makao, *, earlier: bool = False) -> None:
    """The rest of the deal: the NPC by level 15 (or by the play before levels), the
    others by their timers."""
    while game.turn():
        (seat,) = game.turn()
        if seat != "npc":
            move = game.timeout_move(seat)
        else:
            move = game.baseline_move(seat) if earlier else game.npc_move(random.Random(0))
        assert move is not None
        game.apply(move)


def test_the_exact_play_keeps_the_sure_trick_for_the_one_bid() -> None:
    # The Ace of trumps takes a trick whatever happens: that is the one bid. Winning with
    # the King of hearts now (the play before levels) would take a second.
    game = third_deal()
    earlier = game.model_copy(deep=True)
    assert earlier.baseline_move("npc") == Move(kind="play", seat="npc", target="Kh")
    finish(earlier, earlier=True)
    assert earlier.deals[2].taken("npc") > 1 and not earlier.deals[2].made("npc")

    move = game.npc_move(random.Random(0), 15)
    assert move == Move(kind="play", seat="npc", target="2h")
    finish(game)
    assert game.deals[2].taken("npc") == 1 and game.deals[2].made("npc")


def random_cycle_until_npc(seed: int, seats: int) -> Makao | None:
    """A cycle with random legal bids and cards until an NPC decision (None if the cycle
    ends first); the deal stops at a random NPC decision."""
    rng = random.Random(seed)
    names = [*(f"p{i}" for i in range(seats - 1)), "npc"]
    game = Makao(shoe=Shoe.shuffled(1, rng.randbytes(16)), seats=names, npc="npc")
    game.stacks = dict.fromkeys(names, 10_000)
    while game.phase != "over":
        if game.phase == "done":
            return None
        if game.phase == "idle":
            if game.needs_new_shoe:
                game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
            game.apply(Move(kind="deal"))
            continue
        (seat,) = game.turn()
        if seat == "npc" and rng.random() < 0.2:
            return game
        option = next(o for o in game.options() if o.seat == seat)
        if option.kind == "bid":
            assert option.max is not None
            move = Move(kind="bid", seat=seat, amount=rng.randint(0, option.max))
        else:
            move = Move(kind="play", seat=seat, target=rng.choice(option.targets))
        game.apply(move)
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 6), level=st.integers(0, 15))
def test_the_npc_never_reads_a_hidden_card(seed: int, seats: int, level: int) -> None:
    """The same decision, by the same generator, with the others' cards dealt otherwise
    among them (each hand keeping its size)."""
    game = random_cycle_until_npc(seed, seats)
    if game is None:
        return
    others = [seat for seat in game.hands if seat != "npc"]
    pool = [code for seat in others for code in game.hands[seat]]
    random.Random(seed + 1).shuffle(pool)
    other = game.model_copy(deep=True)
    at = 0
    for seat in others:
        size = len(game.hands[seat])
        other.hands[seat] = pool[at : at + size]
        at += size
    assert other.hidden_cards() == game.hidden_cards()
    first = game.npc_move(random.Random(seed), level)
    assert first is not None and game.can(first)
    assert other.npc_move(random.Random(seed), level) == first


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), seats=st.integers(3, 5), level=st.integers(0, 15))
def test_every_level_plays_a_whole_cycle_legally(seed: int, seats: int, level: int) -> None:
    rng = random.Random(seed)
    names = [*(f"p{i}" for i in range(seats - 1)), "npc"]
    game = Makao(shoe=Shoe.shuffled(1, rng.randbytes(16)), seats=names, npc="npc")
    game.stacks = dict.fromkeys(names, 10_000)
    while game.phase == "idle":
        if game.needs_new_shoe:
            game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        game.apply(Move(kind="deal"))
        while turn := game.turn():
            (seat,) = turn
            if seat == "npc":
                move = game.npc_move(rng, level)
                assert move is not None and game.can(move), move
            else:
                move = game.timeout_move(seat)
                assert move is not None
            game.apply(move)
    assert game.phase == "done" and all(deal.complete for deal in game.deals)
