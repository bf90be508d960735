"""Chemin de fer invariants under any play: money, cards, saved states, replays, Hero Points."""

from __future__ import annotations

import random

from cdf_helpers import Desk
from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.chemin_de_fer.events import CoupCovered, CoupSettled
from bondbot.games.contract import Move, Option, replay
from bondbot.rules.baccarat import hand_value, new_shoe

# The NPC plays at any Gambling level, the novice (0) most often: every move stays legal.
LEVELS = (0, 0, 1, 7, 14, 15)


def pick(option: Option, rng: random.Random) -> Move:
    """A move within `option`'s bounds (an unbounded amount stays near its minimum)."""
    if option.min is None:
        return Move(kind=option.kind, seat=option.seat)
    high = option.max if option.max is not None else option.min + 10_000
    return Move(kind=option.kind, seat=option.seat, amount=rng.randint(option.min, high))


def next_move(engine: ChemindeFer, rng: random.Random) -> Move | None:
    """The table's step, else one waiting seat's decision: the NPC's, a timeout or a choice."""
    move = engine.automation()
    if move is not None:
        return move
    turn = engine.turn()
    if not turn:
        return None
    seat = rng.choice(turn)
    if seat == engine.npc:
        return engine.npc_move(rng, rng.choice(LEVELS))
    if rng.random() < 0.2:
        return engine.timeout_move(seat)
    return pick(rng.choice([o for o in engine.options() if o.seat == seat]), rng)


def dealt_order(settled: CoupSettled) -> list[str]:
    """A coup's cards in the order the shoe gave them: ponte, banker, ponte, banker, thirds."""
    first = [settled.ponte[0], settled.banker[0], settled.ponte[1], settled.banker[1]]
    return first + list(settled.ponte[2:]) + list(settled.banker[2:])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.binary(min_size=16, max_size=16),
    pcs=st.lists(st.integers(0, 6_000), min_size=1, max_size=4),
    npc_at=st.integers(0, 4),
    npc_stack=st.none() | st.integers(0, 20_000),
    banker_at=st.integers(0, 4),
    drawing=st.sampled_from(["fixed", "classic"]),
    commission=st.integers(0, 5),
    npc_bank=st.integers(100, 8_000),
    choices=st.integers(0, 2**32),
)
def test_any_play_keeps_the_invariants(
    seed: bytes,
    pcs: list[int],
    npc_at: int,
    npc_stack: int | None,
    banker_at: int,
    drawing: str,
    commission: int,
    npc_bank: int,
    choices: int,
):
    rng = random.Random(choices)
    seats = [f"pc{i}" for i in range(len(pcs))]
    seats.insert(npc_at % (len(seats) + 1), "npc")
    stacks: dict[str, int | None] = dict(zip([s for s in seats if s != "npc"], pcs, strict=True))
    stacks["npc"] = npc_stack
    rules = Settings(drawing=drawing, commission=commission, npc_bank=npc_bank)  # type: ignore[arg-type]
    engine = ChemindeFer.new(
        new_shoe(6, seed), seats, seats[banker_at % len(seats)], npc="npc", settings=rules
    )
    desk = Desk(engine, stacks)
    money = sum(pcs) + (npc_stack or 0)
    coups: list[str] = []
    holder: str | None = None  # the hand-holder of the coup being played
    start = engine.model_copy(deep=True)  # the state the current hand started from

    for _ in range(120):
        move = next_move(engine, rng)
        if move is None:
            break
        if engine.between_hands:
            start = engine.model_copy(deep=True)  # the state the current hand started from
        banker = engine.banker
        record = desk.apply(move)

        # money: conserved, and only between seats and the house's commission
        held = sum(v for k, v in desk.stacks.items() if k != "npc" and v is not None)
        npc_holds = desk.stacks["npc"] if npc_stack is not None else desk.npc_net
        assert held + (npc_holds or 0) + sum(desk.pots.values()) == money
        assert set(desk.pots) <= {"commission"}

        covered = next((e for e in record.events if isinstance(e, CoupCovered)), None)
        if covered is not None:
            assert sum(item.covered for item in covered.stakes) <= covered.bank
            assert all(0 <= item.covered <= item.stake for item in covered.stakes)
        for event in record.events:
            if isinstance(event, CoupSettled):
                coups.extend(dealt_order(event))

        # a Hero Point only ever for a PC against the NPC, and for every such loss
        last = next((e for e in record.events if isinstance(e, CoupSettled)), None)
        if record.lost:
            assert last is not None
        for lost in record.lost:
            assert lost.seat != "npc"
            if banker == "npc":
                (result,) = [r for r in last.results if r.seat == lost.seat]  # type: ignore[union-attr]
                assert result.net < 0 and lost.pay == 2 * result.covered
            else:
                assert lost.seat == banker and last.winner == "ponte"  # type: ignore[union-attr]
                (npc,) = [r for r in last.results if r.seat == "npc"]  # type: ignore[union-attr]
                assert 0 < lost.pay <= 2 * npc.covered
        if last is not None and banker == "npc" and last.winner == "banker":
            assert {lost.seat for lost in record.lost} == {r.seat for r in last.results}

        # a hand's end shows exactly its coup's cards (all face up by then), under its seats
        if covered is not None:
            holder = covered.holder
        if record.hand_over:
            shown = engine.shown_hands()
            in_coup = engine.shoe.dealt[len(start.shoe.dealt) :]
            assert sorted(c.code for h in shown for c in h.cards) == sorted(c.code for c in in_coup)
            assert not {c for h in shown for c in h.cards} & engine.hidden_cards()
            if shown:
                assert [h.whose for h in shown] == [holder, banker]
                assert all(h.total == hand_value(h.cards) for h in shown)
            else:
                assert last is None and not in_coup

        # every state serialises and restores; at a hand's end its history rebuilds it
        assert ChemindeFer.model_validate_json(engine.model_dump_json()) == engine
        if record.hand_over:
            rebuilt = replay(start, engine.history)
            rebuilt.stacks = dict(engine.stacks)
            assert rebuilt == engine

    rebuilt = replay(start, engine.history)  # a hand cut off midway rebuilds too
    rebuilt.stacks = dict(engine.stacks)
    assert rebuilt == engine

    # no card dealt twice: the coups' cards are the shoe's, each position once
    dealt = [card.code for card in engine.shoe.dealt]
    in_play = [] if engine.coup is None else engine.coup.ponte + engine.coup.banker
    assert dealt[: len(coups)] == coups
    assert len(dealt) == len(coups) + len(in_play)
