"""Michigan properties over random evenings: chips conserved, every card dealt once, states
that serialise and replay, no private card in a public event, and a round's picture that
shows only public cards.

An evening is played the way a table plays it: the table's ledger books every transfer
and sets `stacks` from it before each move; leads are random legal suits, and now and
then the table books a Hero Point spend or the GM ends the game.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move, Record, replay
from bondbot.games.michigan.engine import PACK, PAY_CARDS, Michigan, MichiganOptions
from bondbot.rules.shoe import Shoe

CARD_CODE = re.compile(r"\b[2-9TJQKA][shdc]\b")


def cards_in(record: Record) -> set[str]:
    """Every card code a record shows (its events are public)."""
    return {code for event in record.events for code in CARD_CODE.findall(event.model_dump_json())}


def round_cards(game: Michigan) -> list[str]:
    return [
        *(code for hand in game.hands.values() for code in hand),
        *game.widow,
        *(code for cards in game.played.values() for code in cards),
    ]


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 8),
    chip=st.integers(1, 500),
    stacks=st.lists(st.integers(1, 60), min_size=8, max_size=8),
    npc_bankroll=st.none() | st.integers(1, 60),
    seed=st.integers(0, 2**32),
)
def test_an_evening_conserves_chips_and_deals_each_card_once(
    players: int, chip: int, stacks: list[int], npc_bankroll: int | None, seed: int
) -> None:
    rng = random.Random(seed)
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    ledger: Counter[str] = Counter(
        {f"seat:{seat}": stacks[i] * chip for i, seat in enumerate(seats)}
    )
    if npc_bankroll is None:
        ledger["seat:npc"] = 0  # unlimited: may go below zero
    else:
        ledger["seat:npc"] = npc_bankroll * chip
    total = sum(ledger.values())
    game = Michigan(
        shoe=Shoe.shuffled(1, rng.randbytes(16)),
        seats=seats,
        npc="npc",
        settings=MichiganOptions(chip=chip),
    )

    def set_stacks() -> None:
        game.stacks = {seat: ledger[f"seat:{seat}"] for seat in seats}
        if npc_bankroll is None:
            game.stacks["npc"] = None

    def apply(move: Move) -> Record:
        set_stacks()
        held = {code for hand in game.hands.values() for code in hand}
        record = game.apply(move)
        for transfer in record.transfers:
            ledger[transfer.src] -= transfer.amount
            ledger[transfer.dst] += transfer.amount
        check(record)
        if record.hand_over:
            played = {event.card for event in record.events if event.kind == "played"}
            check_shown(record, held - played)
        elif game.in_hand():
            assert game.shown_hands() == ()
        return record

    def check(record: Record) -> None:
        assert sum(ledger.values()) == total
        for seat in seats:
            if seat != "npc" or npc_bankroll is not None:
                assert ledger[f"seat:{seat}"] >= 0
                assert game.stacks[seat] == ledger[f"seat:{seat}"]  # the engine's mirror
        assert {card: ledger[f"layout:{card}"] for card in PAY_CARDS} == {
            card: chips * chip for card, chips in game.layout.items()
        }
        assert sum(game.net.values()) + sum(game.layout.values()) * chip == 0
        if game.in_hand():
            dealt = round_cards(game)
            assert len(dealt) == len(set(dealt)) == PACK
        assert Michigan.model_validate_json(game.model_dump_json()) == game
        hidden = {card.code for card in game.hidden_cards()}
        assert not cards_in(record) & hidden
        for seat in seats:
            assert {card.code for card in game.private_cards(seat)} <= hidden

    def check_shown(record: Record, unseen: set[str]) -> None:
        """The picture of a round's end: public cards only, each dealt in the round once;
        `unseen`: the cards still in a hand when the round ended."""
        shown = [card.code for hand in game.shown_hands() for card in hand.cards]
        assert not set(shown) & {card.code for card in game.hidden_cards()}
        assert not set(shown) & unseen
        assert len(shown) == len(set(shown))
        assert set(shown) <= {card.code for card in game.shoe.dealt[-PACK:]}
        assert all(0 < len(hand.cards) <= 13 for hand in game.shown_hands())
        over = [event for event in record.events if event.kind == "round_over"]
        if over:  # a round won: the first out's cards and the widow
            assert [hand.whose for hand in game.shown_hands()] == [over[0].seat, "widow"]
            assert sorted(shown) == sorted([*game.went_out, *over[0].widow])
        else:  # a round the GM abandoned
            assert game.shown_hands() == ()

    for _ in range(rng.randint(1, 4)):
        set_stacks()
        if (end := game.automation()) is not None:
            apply(end)
        if game.phase == "over":
            break
        if game.needs_new_shoe:
            game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        start = game.model_copy(deep=True)
        record = apply(Move(kind="deal"))
        while not record.hand_over and game.phase != "over":
            move = game.automation()
            if move is None:
                (leader,) = game.turn()
                (option,) = [o for o in game.options() if o.kind == "lead"]
                move = Move(kind="lead", seat=leader, target=rng.choice(option.targets))
            if rng.random() < 0.005:
                move = Move(kind="end")
            record = apply(move)
        assert replay(start, game.history) == game
        for spender, pay in sorted(game.offers.items()):
            if rng.random() < 0.5 and (npc_bankroll is None or ledger["seat:npc"] >= pay):
                ledger["seat:npc"] -= pay  # the table pays the spend, then tells the engine
                ledger[f"seat:{spender}"] += pay
                set_stacks()
                game.apply(Move(kind="won_back", target=spender))
    assert sum(game.net.values()) + sum(game.layout.values()) * chip == 0
    assert set(game.winners()) <= set(seats)
