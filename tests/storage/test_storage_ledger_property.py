"""Property: whatever transfers are tried (some refused, some batched), the books hold."""

from __future__ import annotations

import asyncio
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bondbot.storage import ledger
from bondbot.storage.db import Database

NOW = "2026-01-02T03:04:05.000+00:00"
ENDS: list[str | None] = [None, "sheet:1", "sheet:2", "chips:5:1", "chips:5:2", "bank:5"]
UNLIMITED = ("bank:5", "cash")  # an NPC's unlimited bankroll

Move = tuple[str, int, int, int]  # kind, src index, dst index, amount


@st.composite
def moves(draw: st.DrawFn) -> Move:
    src = draw(st.integers(0, len(ENDS) - 1))
    dst = draw(st.integers(0, len(ENDS) - 2))
    dst = dst + 1 if dst >= src else dst  # never src == dst
    return draw(st.sampled_from(["cash", "hero"])), src, dst, draw(st.integers(1, 300))


# Each batch is one transaction: all its moves commit, or none.
batches = st.lists(st.lists(moves(), min_size=1, max_size=3), max_size=25)


def _apply(model: Counter[tuple[str, str]], move: Move) -> bool:
    """Apply to the in-memory model; False when the ledger must refuse it."""
    kind, src_i, dst_i, amount = move
    src, dst = ENDS[src_i], ENDS[dst_i]
    if src is not None and (src, kind) != UNLIMITED and model[(src, kind)] < amount:
        return False
    if src is not None:
        model[(src, kind)] -= amount
    if dst is not None:
        model[(dst, kind)] += amount
    return True


async def _scenario(path: Path, plan: list[list[Move]]) -> None:
    db = await Database.open(path)
    try:
        await db.migrate()
        async with db.transaction() as conn:
            await ledger.set_unlimited(conn, *UNLIMITED)  # type: ignore[arg-type]
        model: Counter[tuple[str, str]] = Counter()
        accepted = 0
        for batch in plan:
            trial = model.copy()
            expect_ok = all(_apply(trial, move) for move in batch)
            try:
                async with db.transaction() as conn:
                    for kind, src_i, dst_i, amount in batch:
                        await ledger.transfer(
                            conn,
                            guild_id=1,
                            kind=kind,  # type: ignore[arg-type]
                            amount=amount,
                            src=ENDS[src_i],
                            dst=ENDS[dst_i],
                            reason="prop",
                            now=NOW,
                        )
                ok = True
            except ledger.InsufficientFunds:
                ok = False
            assert ok == expect_ok
            if ok:
                model, accepted = trial, accepted + len(batch)

            async with db.read() as conn:
                stored = await ledger.stored_balances(conn)
                assert stored == await ledger.recompute_balances(conn)
                assert stored == {key: value for key, value in model.items() if value}
                rows = list(
                    await conn.execute_fetchall("SELECT kind, amount, src, dst FROM ledger")
                )
            assert len(rows) == accepted
            for kind in ("cash", "hero"):
                entered = sum(r[1] for r in rows if r[0] == kind and r[2] is None)
                left = sum(r[1] for r in rows if r[0] == kind and r[3] is None)
                held = sum(v for (_, k), v in stored.items() if k == kind)
                assert held == entered - left  # conserved, to the unit
            assert all(v >= 0 for key, v in stored.items() if key != UNLIMITED)
    finally:
        await db.close()


@settings(max_examples=40, deadline=None)
@given(plan=batches)
def test_balances_always_equal_the_ledger(plan: list[list[Move]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_scenario(Path(folder) / "prop.sqlite3", plan))
