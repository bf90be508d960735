"""An action takes the table's state object instead of parsing it again; a snapshot still
reads as its table stood after its action, parsing its saved state once if the next action
took the object; a redraw parses nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock
from test_blackjack_service import BET, scenario, seat_both, setup_table, stand_all

from bondbot.bot.tables.message import table_embed, table_view
from bondbot.games.registry import spec_for
from bondbot.storage.db import Database


async def test_actions_take_the_state_and_an_older_snapshot_reads_as_it_stood(
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

    wagered = await tables.act(table, BOND_OWNER, "wager", amount=BET)
    table_embed(wagered, "en", "$", clock.now)
    assert table_view(wagered, "en", clock.now) is not None
    assert loads == []  # the action took the object; the redraw reads the action's own
    moves = wagered.state.moves

    await tables.act(table, VESPER_OWNER, "wager", amount=BET)
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert loads == []
    assert dealt.state.moves == moves + 2

    # The next action took the object `wagered` held: read again, it is parsed from what
    # was saved, and shows the table after Bond's wager, not the deal.
    table_embed(wagered, "en", "$", clock.now)
    assert len(loads) == 1
    assert wagered.state.moves == moves
    assert wagered.state.model_dump_json() == wagered.saved

    fresh = await tables.snapshot(table, fresh=True)
    table_embed(fresh, "en", "$", clock.now)
    assert len(loads) == 2
