"""Any play at a chemin de fer or deux tableaux table conserves money and Hero Points.

Hypothesis plays random actions by two players and the GM (moves of every kind, some of
them the NPC's by the GM's hand, Hero Point spends, timers, seats coming and going) on a
real SQLite file, refusals included. After every action the ledger explains every balance
and everything inside the game came from outside it; money leaves only for the house's
commission or with the NPC's bank at the close; a spend is always paid by the NPC's bank to
the PC who spent; the saved state restores to itself and a restarted service sees the same
table.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    assert_restores_then_closes,
    open_table,
)

from bondbot.errors import Refusal
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableSnapshot

PLAYERS = (BOND_OWNER, VESPER_OWNER)
CDF_MOVES = ["bank", "keep", "withdraw", "refuse", "stake", "banco", "pass", "draw", "stand"]
DEUX_MOVES = ["bid", "stake", "banco", "pass", "draw", "stand", "withdraw", "open_auction"]
MOVES = {"chemin_de_fer": CDF_MOVES, "deux_tableaux": [*DEUX_MOVES, "close_auction"]}
TARGETS = st.sampled_from([None, "right", "left", "both"])
ACTION = st.tuples(
    st.sampled_from(
        ["legal"] * 8
        + ["move", "npc", "npc", "spend", "spend", "wait", "wait", "seat"]
        + ["control"]
    ),
    st.sampled_from(PLAYERS),
    st.integers(0, 8),  # which move
    st.integers(500, 40_000),  # an amount
    TARGETS,
)

TO_OUTSIDE = {"table.bank_close", "chemin_de_fer.commission"}


async def assert_edges_and_spends(db: Database, table: int) -> None:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT kind, reason, src, dst FROM ledger WHERE kind = 'cash'"
            " AND (dst IS NULL OR reason = 'spend.win_hand')"
        )
    for _, reason, src, dst in rows:
        if dst is None:
            assert reason in TO_OUTSIDE, reason
        else:  # a spend: from the NPC's bank, to a PC's chips, never between two PCs
            assert src == accounts.bank(table) and dst.startswith(f"chips:{table}:")


def legal(
    snapshot: TableSnapshot, seat: str, which: int, amount: int
) -> tuple[str, int | None, str | None] | None:
    """One of the moves the game allows `seat` now, its amount brought within bounds."""
    options = [o for o in snapshot.state.engine.options() if o.seat == seat]
    if not options:
        return None
    option = options[which % len(options)]
    target = option.targets[which % len(option.targets)] if option.targets else None
    if option.min is None:
        return option.kind, None, target
    high = option.max if option.max is not None else option.min + amount
    return option.kind, option.min + amount % (high - option.min + 1), target


async def play(
    game: str,
    actions: list[tuple[str, int, int, int, str | None]],
    bankroll: int | None,
    options: dict[str, object],
    seed: bytes,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bond.sqlite3")
        try:
            await db.migrate()
            clock = Clock()
            tables, table, ids = await open_table(
                db, clock, [seed], game=game, bankroll=bankroll, options=options
            )
            characters = {BOND_OWNER: ids["bond"], VESPER_OWNER: ids["vesper"]}
            for user in PLAYERS:
                await tables.join(table, user, characters[user], 30_000)
                await tables.choose(table, user, "simulate")
            start = "first_banker" if game == "chemin_de_fer" else "default_bank"
            await tables.act(table, GM, start, as_gm=True, target=str(ids["npc"]))
            kinds = MOVES[game]
            for action, user, which, amount, target in actions:
                kind = kinds[which % len(kinds)]
                try:
                    if action == "legal":
                        snapshot = await tables.snapshot(table)
                        seat = snapshot.state.seat_of_user(user)
                        key = str(seat.character_id) if seat else ""
                        npc_turn = snapshot.state.npc_key in snapshot.state.engine.turn()
                        gm = npc_turn and not snapshot.state.npc_auto and which % 2 == 0
                        found = legal(
                            snapshot, snapshot.state.npc_key if gm else key, which, amount
                        )
                        if found is not None:
                            await tables.act(
                                table,
                                GM if gm else user,
                                found[0],
                                amount=found[1],
                                target=found[2],
                                as_gm=gm,
                                for_npc=gm,
                            )
                    elif action == "move":
                        await tables.act(table, user, kind, amount=amount, target=target)
                    elif action == "npc":
                        await tables.act(
                            table, GM, kind, amount=amount, target=target, as_gm=True, for_npc=True
                        )
                    elif action == "spend":  # an offer of his if there is one, else any
                        state = (await tables.snapshot(table)).state
                        mine = [o.id for o in state.offers if o.character_id == characters[user]]
                        offers = mine or [which + 1]
                        await tables.spend(table, user, offers[which % len(offers)])
                    elif action == "wait":
                        clock.advance(amount // 100)
                        await tables.run_due()
                    elif action == "seat":
                        seated = (await tables.snapshot(table)).state.seat_of_user(user)
                        if seated is None:
                            await tables.join(table, user, characters[user], amount)
                        else:
                            await tables.leave(table, user)
                    else:
                        auto = (await tables.snapshot(table)).state.npc_auto
                        await tables.set_npc_auto(table, GM, not auto)
                except Refusal:
                    pass
                await assert_conserved(db)
            await assert_edges_and_spends(db, table)
            await assert_restores_then_closes(db, clock, tables, table)
            await assert_edges_and_spends(db, table)
        finally:
            await db.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actions=st.lists(ACTION, min_size=5, max_size=60),
    bankroll=st.one_of(st.none(), st.integers(5_000, 200_000)),
    drawing=st.sampled_from(["fixed", "classic"]),
    commission=st.integers(0, 5),
    seed=st.binary(min_size=32, max_size=32),
)
def test_any_chemin_de_fer_play_conserves_money_and_points(
    actions: list[tuple[str, int, int, int, str | None]],
    bankroll: int | None,
    drawing: str,
    commission: int,
    seed: bytes,
) -> None:
    options = {"drawing": drawing, "commission": commission}
    asyncio.run(play("chemin_de_fer", actions, bankroll, options, seed))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actions=st.lists(ACTION, min_size=5, max_size=60),
    bankroll=st.one_of(st.none(), st.integers(5_000, 200_000)),
    seed=st.binary(min_size=32, max_size=32),
)
def test_any_deux_tableaux_play_conserves_money_and_points(
    actions: list[tuple[str, int, int, int, str | None]],
    bankroll: int | None,
    seed: bytes,
) -> None:
    asyncio.run(play("deux_tableaux", actions, bankroll, {}, seed))
