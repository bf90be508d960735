"""The engine's state is parsed once per action and once per fresh read, never by a redraw."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock
from test_blackjack_service import BET, scenario, seat_both, setup_table, stand_all

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.games.registry import spec_for
from bondbot.storage.db import Database


async def test_the_engine_is_loaded_once_per_action_and_not_by_a_redraw(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, _ = scenario(stand_all, lambda g: True)
    clock = Clock()
    tables, table, ids = await setup_table(db, clock, [seed])
    await seat_both(tables, table, ids)
    engine = spec_for("blackjack").engine
    loads: list[Any] = []
    parse = engine.model_validate

    def counted(value: Any, *args: Any, **kwargs: Any) -> Any:
        loads.append(value)
        return parse(value, *args, **kwargs)

    monkeypatch.setattr(engine, "model_validate", counted)

    snapshot = await tables.act(table, BOND_OWNER, "wager", amount=BET)
    assert len(loads) == 1
    table_embed(snapshot, "en", "$", clock.now)
    assert table_view(snapshot, "en", clock.now) is not None
    assert len(loads) == 1  # the redraw reads the action's own state object

    await tables.act(table, VESPER_OWNER, "wager", amount=BET)
    await tables.act(table, GM, "deal", as_gm=True)
    assert len(loads) == 3

    fresh = await tables.snapshot(table, fresh=True)
    table_embed(fresh, "en", "$", clock.now)
    assert len(loads) == 4
