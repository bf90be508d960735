"""Invariants of any hold'em play: chips conserved, pots to eligible winners only, no card
dealt twice, a state that restores exactly after every action, and a hand's picture that
shows only public cards; with the table's whole-unit chip (100 cents), every blind, bet
and share of a pot whole chips, whatever cents the stacks and blinds were given."""

from __future__ import annotations

import random
from collections import Counter

from holdem_helpers import book
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move, Record, ShownHand
from bondbot.games.holdem.engine import BlindLevel, Holdem, HoldemOptions
from bondbot.games.holdem.names import strength
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe

NPC = "npc"


@st.composite
def tables(draw: st.DrawFn) -> Holdem:
    players = draw(st.integers(2, 10))
    chip = draw(st.sampled_from([1, 100]))  # a cent, or the table's whole unit
    seats = [f"p{n}" for n in range(players - 1)] + [NPC]
    stacks: dict[str, int | None] = {seat: draw(st.integers(1, 3000 * chip)) for seat in seats}
    if draw(st.booleans()):
        stacks[NPC] = None  # unlimited bankroll
    big = draw(st.integers(2, 200 * chip))
    small = draw(st.integers(1, big))
    return Holdem(
        shoe=Shoe.stacked([]),
        seats=seats,
        npc=NPC,
        stacks=stacks,
        rules=HoldemOptions(levels=(BlindLevel(small=small, big=big),)),
        chip=chip,
    )


def restores(game: Holdem) -> None:
    restored = Holdem.model_validate_json(game.model_dump_json())
    assert restored == game
    assert restored.options() == game.options()
    assert (restored.turn(), restored.automation()) == (game.turn(), game.automation())
    assert (restored.chips, restored.bets, restored.pots()) == (game.chips, game.bets, game.pots())


def choose(game: Holdem, data: st.DataObject) -> Move:
    """The table's step, or a legal move for whoever must act: the NPC's own play now and
    then, the timeout's, or any option with any amount in its bounds."""
    step = game.automation()
    if step is not None:
        return step
    [seat] = game.turn()
    how = data.draw(st.sampled_from(["option", "option", "option", "timeout", "npc"]))
    if how == "timeout":
        move = game.timeout_move(seat)
    elif how == "npc" and seat == NPC:
        move = game.npc_move(random.Random(data.draw(st.integers(0, 2**32))))
    else:
        options = [o for o in game.options() if o.seat == seat and o.kind in PLAYER_KINDS]
        option = data.draw(st.sampled_from(options))
        chip = game.chip  # the bounds are whole chips; any whole amount between them
        assert option.min is None or option.min % chip == option.max % chip == 0  # type: ignore[operator]
        amount = (
            None
            if option.min is None
            else data.draw(st.integers(option.min // chip, option.max // chip)) * chip  # type: ignore[operator]
        )
        move = Move(kind=option.kind, seat=seat, amount=amount)
    assert move is not None and game.can(move), move
    return move


PLAYER_KINDS = {"fold", "check", "call", "bet", "raise", "all_in"}


def check_hand(game: Holdem, start: dict[str, int | None], records: list[Record]) -> None:
    """The invariants of one finished hand, from its records."""
    over = records[-1]
    assert over.hand_over and sum(r.hand_over for r in records) == 1
    # Chips: every pot is emptied, nobody pays more than he brought, the seats' total is kept.
    balance: Counter[str] = Counter()
    for transfer in over.transfers:
        balance[transfer.src] -= transfer.amount
        balance[transfer.dst] += transfer.amount
    assert all(amount == 0 for account, amount in balance.items() if account.startswith("pot:"))
    assert sum(balance.values()) == 0
    for seat in game.players:
        paid = -sum(t.amount for t in over.transfers if t.src == f"seat:{seat}")
        if start[seat] is not None:
            assert -paid <= start[seat]
    assert all(r.transfers == () for r in records[:-1])
    # Pots: to eligible winners, who hold the best hand among the eligible at a showdown.
    folded = set(game.folded)
    awards = [e for e in over.events if e.kind == "pot_awarded"]
    assert sum(e.amount for e in awards) == sum(
        t.amount for t in over.transfers if t.dst.startswith("pot:")
    )
    board = [Card.parse(code) for code in game.board]
    for award in awards:
        assert set(award.winners) <= set(award.eligible)
        assert not set(award.eligible) & folded
        assert sum(award.shares) == award.amount
        assert max(award.shares) - min(award.shares) <= game.chip  # odd chips, one each
    # Whole chips: every blind, bet and share of a pot (a stack's cents never play).
    assert all(t.amount % game.chip == 0 for t in over.transfers)
    for record in records:
        for event in record.events:
            if event.kind in ("blind", "acted"):
                assert event.amount % game.chip == 0  # type: ignore[attr-defined]
        if award.shown:
            best = {seat: strength([*game.private_cards(seat), *board]) for seat in award.eligible}
            top = max(best.values())
            assert set(award.winners) == {seat for seat, value in best.items() if value == top}
    # Lost hands: only PCs still in at a showdown, only pots the NPC won.
    for lost in over.lost:
        assert lost.seat != NPC and lost.seat not in folded
        assert lost.pay == sum(claim.amount for claim in lost.pots) > 0
        for claim in lost.pots:
            award = awards[claim.pot]
            assert lost.seat in award.eligible and lost.seat not in award.winners
            assert NPC in award.winners
            assert claim.amount == award.shares[award.winners.index(NPC)]
    # Cards: every dealt card is the next of the pack, none twice.
    dealt = [Card.parse(c) for seat in game.players for c in game.holes[seat]] + board
    assert len(set(dealt)) == len(dealt)
    assert set(dealt) == set(game.shoe.dealt)


def check_shown(game: Holdem) -> None:
    """The picture of a finished hand: the board as dealt, then hands shown at a showdown,
    never a card still hidden, every card dealt and none twice."""
    shown = game.shown_hands()
    cards = [card for hand in shown for card in hand.cards]
    assert not set(cards) & game.hidden_cards()
    assert set(cards) <= set(game.shoe.dealt) and len(set(cards)) == len(cards)
    board = tuple(Card.parse(code) for code in game.board)
    rows = list(shown)
    if board:
        assert rows.pop(0) == ShownHand("board", board)
    assert [hand.whose for hand in rows] == game.shown
    assert not set(game.shown) & set(game.folded)
    for hand in rows:
        assert hand.cards == tuple(game.private_cards(hand.whose))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(game=tables(), seed=st.binary(min_size=16, max_size=16), data=st.data())
def test_any_play_keeps_the_invariants(game: Holdem, seed: bytes, data: st.DataObject) -> None:
    for hand in range(data.draw(st.integers(1, 3))):
        if len(game._dealt_in()) < 2:
            break
        game.replace_shoe(Shoe.shuffled(1, seed + bytes([hand])))
        start = dict(game.stacks)
        records = [game.apply(Move(kind="deal"))]
        restores(game)
        while game.in_hand():
            assert game.shown_hands() == ()
            records.append(game.apply(choose(game, data)))
            restores(game)
            assert not game.hidden_cards() & {Card.parse(c) for c in game.board}
        assert records[-1].hand_over
        check_shown(game)
        check_hand(game, start, records)
        book(game, records[-1])
        assert all(chips is None or chips >= 0 for chips in game.stacks.values())
        finite = [s for s in game.seats if start[s] is not None]
        if len(finite) == len(game.seats):
            assert sum(game.stacks.values()) == sum(start.values())  # type: ignore[arg-type]
