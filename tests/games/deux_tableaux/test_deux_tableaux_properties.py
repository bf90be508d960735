"""Deux tableaux invariants under any play: money, cards, saved states, replays, Hero Points."""

from __future__ import annotations

import random

from deux_helpers import Desk
from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.contract import Move, Option, replay
from bondbot.games.deux_tableaux.engine import DeuxTableaux, Settings
from bondbot.games.deux_tableaux.events import CoupSettled, TableCovered
from bondbot.rules.baccarat import hand_value, new_shoe

# The NPC plays at any Gambling level, the novice (0) most often: every move stays legal.
LEVELS = (0, 0, 1, 7, 14, 15)


def pick(option: Option, rng: random.Random) -> Move:
    """A move within `option`'s bounds (an unbounded amount stays near its minimum)."""
    target = rng.choice(option.targets) if option.targets else None
    if option.min is None:
        return Move(kind=option.kind, seat=option.seat, target=target)
    high = option.max if option.max is not None else option.min + 10_000
    amount = rng.randint(option.min, high)
    return Move(kind=option.kind, seat=option.seat, amount=amount, target=target)


def next_move(engine: DeuxTableaux, rng: random.Random) -> Move | None:
    """The table's step; else now and then the GM's or an early stake; else a waiting seat."""
    move = engine.automation()
    if move is not None:
        return move
    options = engine.options()
    extra = [o for o in options if o.seat is None or o.kind in ("stake", "withdraw")]
    turn = engine.turn()
    if extra and (not turn or rng.random() < 0.15):
        return pick(rng.choice(extra), rng)
    if not turn:
        return None
    seat = rng.choice(turn)
    if seat == engine.npc:
        return engine.npc_move(rng, rng.choice(LEVELS))
    if rng.random() < 0.2:
        return engine.timeout_move(seat)
    return pick(rng.choice([o for o in options if o.seat == seat]), rng)


def dealt_order(settled: CoupSettled) -> list[str]:
    """A coup's cards as the shoe gave them: each table then the banker, twice; the thirds."""
    hands = [list(result.cards) for result in settled.tables] + [list(settled.banker)]
    return [hand[i] for i in range(2) for hand in hands] + [c for h in hands for c in h[2:]]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=16, max_size=16),
    pcs=st.lists(st.integers(0, 8_000), min_size=1, max_size=4),
    npc_at=st.integers(0, 4),
    npc_stack=st.none() | st.integers(0, 20_000),
    npc_bank=st.integers(200, 6_000),
    choices=st.integers(0, 2**32),
)
def test_any_play_keeps_the_invariants(
    seed: bytes,
    pcs: list[int],
    npc_at: int,
    npc_stack: int | None,
    npc_bank: int,
    choices: int,
):
    rng = random.Random(choices)
    seats = [f"pc{i}" for i in range(len(pcs))]
    seats.insert(npc_at % (len(seats) + 1), "npc")
    stacks: dict[str, int | None] = dict(zip([s for s in seats if s != "npc"], pcs, strict=True))
    stacks["npc"] = npc_stack
    engine = DeuxTableaux.new(
        new_shoe(3, seed), seats, npc="npc", settings=Settings(npc_bank=npc_bank)
    )
    desk = Desk(engine, stacks)
    money = sum(pcs) + (npc_stack or 0)
    coups: list[str] = []
    holders: dict[str, str] = {}  # the hand-holder of each table of the coup being played
    start = engine.model_copy(deep=True)  # the state the current hand started from

    for _ in range(120):
        move = next_move(engine, rng)
        if move is None:
            break
        if engine.between_hands:
            start = engine.model_copy(deep=True)  # the state the current hand started from
        banker = engine.banker
        record = desk.apply(move)

        held = sum(v for k, v in desk.stacks.items() if k != "npc" and v is not None)
        npc_holds = desk.stacks["npc"] if npc_stack is not None else desk.npc_net
        assert held + (npc_holds or 0) == money

        for event in record.events:
            if isinstance(event, TableCovered):
                assert sum(item.covered for item in event.stakes) <= event.half
                assert all(0 <= item.covered <= item.stake for item in event.stakes)
        settled = next((e for e in record.events if isinstance(e, CoupSettled)), None)
        if settled is not None:
            coups.extend(dealt_order(settled))

        # a Hero Point only ever for a PC against the NPC, and for every such loss
        if record.lost:
            assert settled is not None
        tables = {} if settled is None else {result.table: result for result in settled.tables}
        for lost in record.lost:
            assert lost.seat != "npc"
            if banker == "npc":
                name, _ = lost.label.split(":")
                (result,) = [r for r in tables[name].results if r.seat == lost.seat]
                assert result.net < 0 and lost.pay == 2 * result.covered
            else:
                _, name, _ = lost.label.split(":")
                assert lost.seat == banker and tables[name].winner == "ponte"
                (npc,) = [r for r in tables[name].results if r.seat == "npc"]
                assert lost.pay == 2 * npc.covered
        if settled is not None and banker == "npc":
            expected = sorted(
                (lost_table.table, r.seat)
                for lost_table in settled.tables
                for r in lost_table.results
                if r.net < 0
            )
            assert sorted((lost.label.split(":")[0], lost.seat) for lost in record.lost) == expected

        # a hand's end shows exactly its coup's cards (all face up by then), under its seats
        holders.update({e.table: e.holder for e in record.events if isinstance(e, TableCovered)})
        if record.hand_over:
            shown = engine.shown_hands()
            in_coup = engine.shoe.dealt[len(start.shoe.dealt) :]
            assert sorted(c.code for h in shown for c in h.cards) == sorted(c.code for c in in_coup)
            assert not {c for h in shown for c in h.cards} & engine.hidden_cards()
            if shown:
                assert settled is not None
                expected = [banker] + [holders[result.table] for result in settled.tables]
                assert [h.whose for h in shown] == expected
                assert all(h.total == hand_value(h.cards) for h in shown)
            else:
                assert settled is None and not in_coup
            holders = {}

        # every state serialises and restores; at a hand's end its history rebuilds it
        assert DeuxTableaux.model_validate_json(engine.model_dump_json()) == engine
        if record.hand_over:
            rebuilt = replay(start, engine.history)
            rebuilt.stacks = dict(engine.stacks)
            assert rebuilt == engine

    rebuilt = replay(start, engine.history)  # a hand cut off midway rebuilds too
    rebuilt.stacks = dict(engine.stacks)
    assert rebuilt == engine

    # no card dealt twice: the coups' cards are the shoe's, each position once
    dealt = [card.code for card in engine.shoe.dealt]
    in_play = []
    if engine.coup is not None:
        in_play = engine.coup.banker + [
            c for hand in engine.coup.hands.values() for c in hand.cards
        ]
    assert dealt[: len(coups)] == coups
    assert len(dealt) == len(coups) + len(in_play)
