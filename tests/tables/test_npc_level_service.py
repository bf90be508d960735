"""The NPC's Gambling level at the table service: read from his sheet at the opening,
handed to the engine's automatic play, overridden by the GM (refused when out of range or
unchanged), and 15 for a state saved before the level existed."""

from __future__ import annotations

import json
import random

import pytest
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock, make_character, open_table

from bondbot.errors import Refusal
from bondbot.games.contract import Move
from bondbot.games.michigan.engine import Michigan
from bondbot.storage.db import Database
from bondbot.tables.state import TableState

BUY_IN = 5_000


async def test_the_sheet_level_reaches_the_automatic_play_until_the_gm_changes_it(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[int] = []
    npc_move = Michigan.npc_move

    def spy(self: Michigan, rng: random.Random, level: int = 15) -> Move | None:
        asked.append(level)
        return npc_move(self, rng, level)

    monkeypatch.setattr(Michigan, "npc_move", spy)
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [bytes(32)], game="michigan")
    assert (await tables.snapshot(table)).state.npc_level == 12  # Le Chiffre's sheet
    owners = {str(ids["bond"]): BOND_OWNER, str(ids["vesper"]): VESPER_OWNER}
    for key, owner in (("bond", BOND_OWNER), ("vesper", VESPER_OWNER)):
        await tables.join(table, owner, ids[key], BUY_IN)
        await tables.choose(table, owner, "simulate")
    snapshot = await tables.act(table, GM, "deal", target=str(ids["npc"]), as_gm=True)
    level = 12
    while snapshot.state.engine.in_hand():
        if asked:  # once he has led at his sheet's level, the GM has him play at 3
            assert set(asked) == {level}
            if level == 12:
                level = 3
                asked.clear()
                snapshot = await tables.set_npc_level(table, GM, 3)
        game = snapshot.state.engine
        (seat,) = game.turn()
        advice = game.timeout_move(seat)
        assert advice is not None
        snapshot = await tables.act(
            table, owners[seat], "lead", target=advice.target, moves=snapshot.state.moves
        )
    assert level == 3, "the NPC never led with this pack"


async def test_the_gm_override_is_refused_out_of_range_or_unchanged(db: Database) -> None:
    clock = Clock()
    tables, table, _ = await open_table(db, clock, [bytes(32)], game="michigan")
    before = (await tables.snapshot(table)).state
    for level, code in ((16, "table.bad_npc_level"), (-1, "table.bad_npc_level")):
        with pytest.raises(Refusal) as refused:
            await tables.set_npc_level(table, GM, level)
        assert refused.value.key == code
    with pytest.raises(Refusal) as refused:
        await tables.set_npc_level(table, GM, 12)
    assert refused.value.key == "table.npc_level_same"
    assert (await tables.snapshot(table, fresh=True)).state == before
    changed = await tables.set_npc_level(table, GM, 0)
    assert changed.state.npc_level == 0
    assert (await tables.snapshot(table, fresh=True)).state.npc_level == 0  # saved


async def test_an_npc_without_the_skill_plays_at_0_and_an_old_state_at_15(db: Database) -> None:
    clock = Clock()
    tables, table, _ = await open_table(db, clock, [bytes(32)], game="michigan")
    tourist = await make_character(db, "A Drunk Tourist", kind="NPC")
    snapshot = await tables.open_table(
        guild_id=(await tables.snapshot(table)).guild_id,
        channel_id=999,
        actor_id=GM,
        game="michigan",
        npc_id=tourist,
        min_bet=1_000,
        max_bet=50_000,
    )
    assert snapshot.state.npc_level == 0
    saved = json.loads(snapshot.state.model_dump_json())
    del saved["npc_level"]  # as saved before the field existed
    assert TableState.model_validate(saved).npc_level == 15
