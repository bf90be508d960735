"""A timed move that falls due while the database is unreachable is refused (nothing can
be saved), and made as soon as the database is back: no table waits on a timer that
fired into an outage until someone clicks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from table_helpers import GUILD, Clock
from test_blackjack_service import (
    bet_and_deal,
    plain_deal,
    scenario,
    seat_both,
    setup_table,
    stand_all,
)

from bondbot.games.blackjack.engine import LogEntry
from bondbot.storage.db import Database
from bondbot.storage.settings import update_settings


async def test_a_timed_move_due_during_an_outage_is_made_once_the_database_is_back(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, _ = scenario(stand_all, plain_deal)
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    async with db.transaction() as conn:
        await update_settings(conn, GUILD, turn_timer_s=30)
    await seat_both(tables, table, ids)
    dealt = await bet_and_deal(tables, table)
    waiting = (str(ids["bond"]), 0)
    assert dealt.state.engine.game.current() == waiting

    opener = db.writer._opener

    async def unreachable() -> Any:
        raise OSError("connection refused")

    monkeypatch.setattr(db.writer, "_opener", unreachable)
    db.link.lost(OSError("server closed the connection"))
    clock.advance(31)
    await tables.run_due()  # the scheduler's timer fires: refused, nothing saved
    assert (await tables.snapshot(table)).state.engine.game.current() == waiting

    monkeypatch.setattr(db.writer, "_opener", opener)  # the server is back
    for _ in range(200):
        if (
            not db.link.down
            and (await tables.snapshot(table)).state.engine.game.current() != waiting
        ):
            break
        await asyncio.sleep(0.05)
    after = (await tables.snapshot(table)).state.engine
    assert after.log[-1] == LogEntry(kind="timeout", seat=str(ids["bond"]), hand=0)
    assert after.game.current() == (str(ids["vesper"]), 0)
