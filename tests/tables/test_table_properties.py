"""Any sequence of table actions, accepted or refused, conserves money and Hero Points.

Hypothesis plays random actions by two players and the GM at a punto banco or blackjack
table on a real SQLite file (refusals included), then checks that the ledger explains
every balance, that everything inside the game came from outside it, that the stored
state restores to itself, and that a restarted service sees the same table.
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
from bondbot.storage import tables as stored
from bondbot.storage.db import Database
from bondbot.tables.service import TableService

PLAYERS = (BOND_OWNER, VESPER_OWNER)
BETS = st.sampled_from(["player", "banker", "tie"])
MOVES = st.sampled_from(["hit", "stand", "double", "split", "surrender", "insure", "no_insurance"])
BY_KIND = {
    "wager": st.tuples(BETS, st.integers(500, 30_000)),
    "play": MOVES,
    "deal": st.none(),
    "spend": st.integers(1, 12),
    "contest": st.integers(500, 20_000),
    "join": st.integers(0, 60_000),
    "leave": st.none(),
    "wait": st.integers(1, 120),
}
# Common moves come up more often: each kind's share is its count in this list.
KINDS = ["wager"] * 4 + ["play"] * 4 + ["deal"] * 3 + ["spend"] * 2 + list(BY_KIND)
ACTIONS = st.sampled_from(KINDS).flatmap(
    lambda kind: st.tuples(st.just(kind), st.sampled_from(PLAYERS), BY_KIND[kind])
)


# Money and points may cross the game's edge only for these reasons.
FROM_OUTSIDE = {("cash", "sheet.create"), ("cash", "table.bankroll"), ("hero", "sheet.create")}
FROM_OUTSIDE_HERO = {"award.simulate"}
TO_OUTSIDE = {("cash", "table.bank_close")}
TO_OUTSIDE_HERO = {"spend.win_hand", "spend.contest_step"}


async def assert_edges(db: Database) -> None:
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT kind, reason, src IS NULL FROM ledger WHERE src IS NULL OR dst IS NULL"
        )
    for kind, reason, from_outside in rows:
        if from_outside:
            assert (kind, reason) in FROM_OUTSIDE or (
                kind == "hero" and reason in FROM_OUTSIDE_HERO
            )
        else:
            assert (kind, reason) in TO_OUTSIDE or (kind == "hero" and reason in TO_OUTSIDE_HERO)


async def assert_memory_is_disk(db: Database, tables: TableService, table: int) -> None:
    """The table in memory is the one on disk: a refused action left nothing of its work
    in the state object it took (`TableSnapshot.take_state`)."""
    held = await tables.snapshot(table)
    async with db.read() as conn:
        row = await stored.load(conn, table)
    assert row is not None and held.state.model_dump_json() == row.state


async def play(
    game: str,
    actions: list[tuple[str, int, object]],
    bankroll: int | None,
    vesper_choice: str,
    seed: bytes,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bond.sqlite3")
        try:
            await db.migrate()
            clock = Clock()
            tables, table, ids = await open_table(db, clock, [seed], game=game, bankroll=bankroll)
            characters = {BOND_OWNER: ids["bond"], VESPER_OWNER: ids["vesper"]}
            await tables.join(table, BOND_OWNER, ids["bond"], 40_000)
            await tables.join(table, VESPER_OWNER, ids["vesper"], 30_000)
            await tables.choose(table, BOND_OWNER, "simulate")
            await tables.choose(table, VESPER_OWNER, vesper_choice)  # type: ignore[arg-type]
            # Every example starts with a hand in play: Bond's wager, dealt.
            opening = [("wager", BOND_OWNER, ("banker", 5_000)), ("deal", GM, None)]
            for action, user, arg in opening + actions:
                try:
                    if action == "join":
                        await tables.join(table, user, characters[user], int(arg))  # type: ignore[arg-type]
                    elif action == "wager":
                        bet, amount = arg  # type: ignore[misc]
                        await tables.act(table, user, "wager", target=bet, amount=amount)
                    elif action == "play":
                        await tables.act(table, user, str(arg))
                    elif action == "deal":
                        await tables.act(table, GM, "deal", as_gm=True)
                    elif action == "spend":
                        await tables.spend(table, user, int(arg))  # type: ignore[arg-type]
                    elif action == "contest":
                        snap = await tables.contest(table, user, int(arg))  # type: ignore[arg-type]
                        await tables.contest_settle(table, user, snap.event.contest)
                    elif action == "leave":
                        await tables.leave(table, user)
                    else:
                        clock.advance(int(arg))  # type: ignore[arg-type]
                        await tables.run_due()
                except Refusal:
                    pass
                await assert_conserved(db)
                await assert_memory_is_disk(db, tables, table)
            await assert_restores_then_closes(db, clock, tables, table)
            await assert_edges(db)
        finally:
            await db.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["punto_banco", "blackjack"]),
    actions=st.lists(ACTIONS, min_size=5, max_size=40),
    bankroll=st.one_of(st.none(), st.integers(1_000, 200_000)),
    vesper_choice=st.sampled_from(["simulate", "rulebook"]),
    seed=st.binary(min_size=32, max_size=32),
)
def test_any_play_conserves_money_and_points(
    game: str,
    actions: list[tuple[str, int, object]],
    bankroll: int | None,
    vesper_choice: str,
    seed: bytes,
) -> None:
    asyncio.run(play(game, actions, bankroll, vesper_choice, seed))
