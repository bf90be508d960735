"""Makao properties over random cycles: scores recomputed from the recorded deals, each card
dealt once per deal, states that serialise and replay, no private card in a public event
(nor in a deal's picture), and the pot conserved.

Bids and cards are random legal moves (a cycle is also cut short by the GM now and then);
the table's ledger books the transfers and sets `stacks` before every move.
"""

from __future__ import annotations

import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move, Record, replay
from bondbot.games.makao.engine import DealRecord, Makao, MakaoOptions, Scored
from bondbot.rules.cards import RANKS
from bondbot.rules.shoe import Shoe

CARD_CODE = re.compile(r"\b[2-9TJQKA][shdc]\b")


def cards_in(record: Record) -> set[str]:
    return {code for event in record.events for code in CARD_CODE.findall(event.model_dump_json())}


def winner_of(cards: list[str], trump: str | None) -> int:
    """The trick rule, written again: trumps if any were played, else the suit led."""
    suit = trump if any(card[1] == trump for card in cards) else cards[0][1]
    candidates = [i for i, card in enumerate(cards) if card[1] == suit]
    return max(candidates, key=lambda i: RANKS.index(cards[i][0]))


def recomputed(deal: DealRecord) -> dict[str, int]:
    """A complete deal's scores from its bids and the cards of its tricks alone."""
    taken = Counter()
    leader = deal.players[0]
    for trick in deal.tricks:
        assert trick.leader == leader
        start = deal.players.index(leader)
        leader = deal.players[(start + winner_of(trick.cards, deal.trump_suit)) % len(deal.players)]
        assert trick.winner == leader
        taken[leader] += 1
    assert sum(taken.values()) == deal.number
    return {
        seat: deal.bids[seat] + 10 if taken[seat] == deal.bids[seat] or seat in deal.won_back else 0
        for seat in deal.players
    }


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 8),
    stake=st.integers(0, 300),
    seed=st.integers(0, 2**32),
    spend_rate=st.sampled_from([0.0, 0.5]),
)
def test_a_cycle_keeps_a_recomputable_score_sheet(
    players: int, stake: int, seed: int, spend_rate: float
) -> None:
    rng = random.Random(seed)
    seats = [*(f"pc{i}" for i in range(players - 1)), "npc"]
    ledger: Counter[str] = Counter({f"seat:{seat}": 1000 for seat in seats})
    total = sum(ledger.values())
    game = Makao(
        shoe=Shoe.shuffled(1, rng.randbytes(16)),
        seats=seats,
        npc="npc",
        settings=MakaoOptions(stake=stake),
    )
    stop_after = rng.choice([None, rng.randint(0, 2 * game.cycle * players)])
    moves = 0

    def set_stacks() -> None:
        game.stacks = {seat: ledger[f"seat:{seat}"] for seat in seats}

    def apply(move: Move) -> Record:
        nonlocal moves
        moves += 1
        set_stacks()
        record = game.apply(move)
        for transfer in record.transfers:
            ledger[transfer.src] -= transfer.amount
            ledger[transfer.dst] += transfer.amount
        assert sum(ledger.values()) == total
        assert ledger["pot:makao"] == game.pot
        assert all(ledger[f"seat:{seat}"] >= 0 for seat in seats)
        assert Makao.model_validate_json(game.model_dump_json()) == game
        hidden = {card.code for card in game.hidden_cards()}
        assert not cards_in(record) & hidden
        for seat in seats:
            assert {card.code for card in game.private_cards(seat)} <= hidden
        if record.hand_over:  # a deal's picture: public cards only, every one dealt
            shown = [card.code for hand in game.shown_hands() for card in hand.cards]
            assert not set(shown) & hidden
            assert set(shown) <= {card.code for card in game.shoe.dealt}
        return record

    while game.phase == "idle":
        if game.needs_new_shoe:
            game.replace_shoe(Shoe.shuffled(1, rng.randbytes(16)))
        set_stacks()
        start = game.model_copy(deep=True)
        apply(Move(kind="deal"))
        deal = game.deals[-1]
        dealt = [code for hand in game.hands.values() for code in hand]
        assert len(dealt) == deal.number * players
        assert len({*dealt, deal.trump}) == len(dealt) + 1  # the trump card too (or None)
        record = None
        while game.turn() and moves != stop_after:
            (seat,) = game.turn()
            (option,) = [o for o in game.options() if o.seat == seat]
            if option.kind == "bid":
                record = apply(Move(kind="bid", seat=seat, amount=rng.randint(0, deal.number)))
            else:
                card = rng.choice(option.targets)
                record = apply(Move(kind="play", seat=seat, target=card))
        if moves == stop_after:
            break
        assert record is not None and record.hand_over
        assert sorted(card for trick in deal.tricks for card in trick.cards) == sorted(dealt)
        (scored,) = [event for event in record.events if isinstance(event, Scored)]
        assert scored.scores == recomputed(deal)
        for lost in record.lost:
            assert lost.seat != "npc" and scored.scores[lost.seat] == 0
            assert lost.score == deal.bids[lost.seat] + 10
        for seat in sorted(game.offers):
            if rng.random() < spend_rate:
                apply(Move(kind="won_back", target=seat))
        assert replay(start, game.history) == game
        sheet = Counter()
        for past in game.deals:
            sheet.update(recomputed(past))
        assert game.totals() == {seat: sheet[seat] for seat in seats}
    complete = game.phase == "done"
    final = apply(Move(kind="end"))
    assert game.pot == 0
    (over,) = final.events
    assert over.complete == complete
    if complete and stake:
        best = max(game.totals().values())
        assert set(over.paid) == {seat for seat, score in game.totals().items() if score == best}
        assert max(over.paid.values()) - min(over.paid.values()) <= 1
    elif stake:
        assert over.paid == dict.fromkeys(seats, stake)
