"""Michigan's NPC at each Gambling level: the lead that looks ahead where the right lead is
known, a novice who stays legal, and a lead that never depends on a hidden card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move
from bondbot.games.michigan.engine import Michigan
from bondbot.games.michigan.npc import View, best_lead, look_ahead_lead
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe

SEATS = ["a", "b", "npc"]


def view(hand: str, dead: str = "", widow_hidden: int = 0, opponents: int = 20) -> View:
    return View(
        hand=frozenset(hand.split()),
        dead=frozenset(dead.split()),
        widow_hidden=widow_hidden,
        layout={},
        opponents_cards=opponents,
    )


def test_the_lead_that_keeps_the_lead_comes_first_when_the_rest_then_goes_out() -> None:
    # Q K A of spades keep the lead for sure; then 2-6 of diamonds empty the hand. The
    # greedy lead sheds the five diamonds first and loses the lead unless 7d is in the widow.
    hand = "Qs Ks As 2d 3d 4d 5d 6d"
    assert best_lead(hand.split(), set()) == "d"
    assert look_ahead_lead(view(hand, widow_hidden=8)) == "s"


def test_a_card_only_his_lead_can_start_goes_before_one_the_others_may_bring() -> None:
    # 7d sits above the 6d already played: only his own lead ever plays it. 3c has the 2c
    # below it, still out there: someone leading clubs plays it for him. The greedy lead
    # sees one card either way and leads the lower.
    assert best_lead(["7d", "3c"], {"6d"}) == "c"
    assert look_ahead_lead(view("7d 3c", dead="6d", widow_hidden=5)) == "d"


def deal_round(seed: int) -> Michigan:
    game = Michigan(shoe=Shoe.shuffled(1, seed.to_bytes(32, "big")), seats=SEATS, npc="npc")
    game.stacks = dict.fromkeys(SEATS, None)
    game.apply(Move(kind="deal", target="b"))  # a leads first, then whoever stops
    return game


def until_npc_leads(game: Michigan, rng: random.Random) -> bool:
    """Play random leads for the others until the NPC is to lead; False if the round ends."""
    while game.in_hand():
        if game.turn() == ("npc",):
            return True
        step = game.automation()
        if step is None:
            (seat,) = game.turn()
            suits = sorted({code[1] for code in game.hands[seat]})
            step = Move(kind="lead", seat=seat, target=rng.choice(suits))
        game.apply(step)
    return False


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(0, 15), choice=st.integers(0, 2**32))
def test_the_npc_never_reads_a_hidden_card(seed: int, level: int, choice: int) -> None:
    """The same lead, by the same generator, with the cards he cannot see dealt otherwise
    among the others and the widow (each hand keeping its size)."""
    game = deal_round(seed)
    if not until_npc_leads(game, random.Random(seed)):
        return
    hidden = [*game.hands["a"], *game.hands["b"], *(c for c in game.widow if c not in game.shown)]
    random.Random(choice).shuffle(hidden)
    other = game.model_copy(deep=True)
    sizes = {"a": len(game.hands["a"]), "b": len(game.hands["b"])}
    other.hands["a"] = sorted(hidden[: sizes["a"]], key=lambda c: Card.parse(c).index)
    other.hands["b"] = sorted(
        hidden[sizes["a"] : sizes["a"] + sizes["b"]], key=lambda c: Card.parse(c).index
    )
    other.widow = [*hidden[sizes["a"] + sizes["b"] :], *game.shown]
    assert other.hidden_cards() == game.hidden_cards()
    first = game.npc_move(random.Random(choice), level)
    second = other.npc_move(random.Random(choice), level)
    assert first == second and first is not None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(0, 15), draws=st.integers(0, 2**32))
def test_every_level_leads_legally_to_the_end_of_the_round(
    seed: int, level: int, draws: int
) -> None:
    game = deal_round(seed)
    rng = random.Random(draws)
    while game.in_hand():
        step = game.automation()
        if step is None:
            (seat,) = game.turn()
            if seat == "npc":
                step = game.npc_move(rng, level)
                assert step is not None and game.can(step)
            else:
                step = game.timeout_move(seat)
        assert step is not None
        game.apply(step)
    assert game.last is not None and sum(map(len, game.played.values())) == 0  # cleared


def test_level_15_draws_nothing_and_level_0_leads_by_the_generator() -> None:
    game = deal_round(3)
    assert until_npc_leads(game, random.Random(3))
    rng = random.Random(5)
    state = rng.getstate()
    assert game.npc_move(rng, 15) == game.timeout_move("npc")
    assert rng.getstate() == state  # the strongest lead is no draw
    suits = sorted({code[1] for code in game.hands["npc"]}, key="shdc".index)
    novice = {game.npc_move(random.Random(n), 0).target for n in range(40)}  # type: ignore[union-attr]
    assert novice == set(suits)  # any suit he holds, as the generator says
