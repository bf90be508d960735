"""Any Macao evening at the table service, accepted or refused, conserves money and points.

Hypothesis plays random actions by two players and the GM (wagers, passes, draws, timers,
Hero Point spends, seats coming and going, a rulebook contest against the same bank, the
GM taking the NPC over and handing it back, the end of the evening) at an NPC or rotating
bank, limited or not, on a real SQLite file. After every action the ledger explains every
balance and nothing entered or left the game but by the allowed edges; at the end the
state restores to itself and a restarted service sees the same table.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path
from typing import Any

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
from test_table_properties import assert_edges

from bondbot.errors import Refusal
from bondbot.storage.db import Database
from bondbot.tables.service import TableService

PLAYERS = (BOND_OWNER, VESPER_OWNER)
BY_KIND = {
    "wager": st.tuples(
        st.sampled_from(["own", "banker", "tie"]),
        st.one_of(st.integers(1_000, 12_000), st.integers(500, 60_000)),
    ),
    "decide": st.sampled_from(["pass", "draw", "stand"]),
    "npc": st.sampled_from(["draw", "stand", "pass", "wager"]),
    "deal": st.none(),
    "spend": st.integers(1, 4),
    "contest": st.integers(500, 20_000),
    "auto": st.booleans(),
    "join": st.integers(0, 60_000),
    "leave": st.none(),
    "end": st.none(),
    "wait": st.integers(1, 120),
}
# Common moves come up more often: each kind's share is its count in this list.
KINDS = ["wager"] * 8 + ["decide"] * 8 + ["deal"] * 4 + ["spend"] * 3 + ["wait"] * 2 + list(BY_KIND)
ACTIONS = st.sampled_from(KINDS).flatmap(
    lambda kind: st.tuples(st.just(kind), st.sampled_from(PLAYERS), BY_KIND[kind])
)


async def play(
    actions: list[tuple[str, int, object]],
    bank: str,
    bankroll: int | None,
    vesper_choice: str,
    seed: bytes,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bond.sqlite3")
        try:
            await db.migrate()
            clock = Clock()
            tables, table, ids = await open_table(
                db, clock, [seed], game="macao", bankroll=bankroll, options={"bank": bank}
            )
            characters = {BOND_OWNER: ids["bond"], VESPER_OWNER: ids["vesper"]}
            await tables.join(table, BOND_OWNER, ids["bond"], 40_000)
            await tables.join(table, VESPER_OWNER, ids["vesper"], 30_000)
            await tables.choose(table, BOND_OWNER, "simulate")
            await tables.choose(table, VESPER_OWNER, vesper_choice)  # type: ignore[arg-type]
            for action, user, arg in [("deal", GM, None), *actions]:
                with contextlib.suppress(Refusal):
                    await act(tables, table, clock, characters, action, user, arg)
                await assert_conserved(db)
            await assert_restores_then_closes(db, clock, tables, table)
            await assert_edges(db)
        finally:
            await db.close()


async def act(
    tables: TableService,
    table: int,
    clock: Clock,
    characters: dict[int, int],
    action: str,
    user: int,
    arg: Any,
) -> None:
    """One random action, as the user (or the GM) would make it."""
    if action == "join":
        await tables.join(table, user, characters[user], int(arg))
    elif action == "wager":
        target, amount = arg
        await tables.act(table, user, "wager", target=target, amount=amount)
    elif action == "decide":
        await tables.act(table, user, str(arg))
    elif action == "npc":  # the GM's click for the NPC
        kind = str(arg)
        amount, target = (1_000, "own") if kind == "wager" else (None, None)
        await tables.act(table, GM, kind, amount=amount, target=target, as_gm=True, for_npc=True)
    elif action in ("deal", "end"):
        await tables.act(table, GM, action, as_gm=True)
    elif action == "spend":
        await tables.spend(table, user, int(arg))
    elif action == "contest":
        snap = await tables.contest(table, user, int(arg))
        await tables.contest_settle(table, user, snap.event.contest)
    elif action == "auto":
        await tables.set_npc_auto(table, GM, bool(arg))
    elif action == "leave":
        await tables.leave(table, user)
    else:
        clock.advance(int(arg))
        await tables.run_due()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actions=st.lists(ACTIONS, min_size=5, max_size=40),
    bank=st.sampled_from(["npc", "rotate"]),
    bankroll=st.one_of(st.none(), st.integers(1_000, 200_000)),
    vesper_choice=st.sampled_from(["simulate", "rulebook"]),
    seed=st.binary(min_size=32, max_size=32),
)
def test_any_macao_evening_conserves_money_and_points(
    actions: list[tuple[str, int, object]],
    bank: str,
    bankroll: int | None,
    vesper_choice: str,
    seed: bytes,
) -> None:
    asyncio.run(play(actions, bank, bankroll, vesper_choice, seed))
