"""What the table service offers every game: the GM taking the NPC's decisions and handing
them back, and buttons that belong to one hand (punto banco here; chemin de fer, whose NPC
decides and whose pontes answer together, tests the rest in its own service tests)."""

from __future__ import annotations

import pytest
from table_helpers import BOND_OWNER, GM, Clock, open_table, seeds_where, service

from bondbot.errors import Refusal
from bondbot.rules.baccarat import Bet
from bondbot.storage.db import Database
from bondbot.tables.events import NpcControl


async def test_the_gm_takes_the_npcs_decisions_and_hands_them_back(db: Database) -> None:
    clock = Clock()
    tables, table, _ = await open_table(db, clock, [], game="punto_banco")
    assert (await tables.snapshot(table)).state.npc_auto
    snapshot = await tables.npc_control(table, GM, False)
    assert snapshot.event == NpcControl(auto=False) and not snapshot.state.npc_auto
    with pytest.raises(Refusal) as again:
        await tables.npc_control(table, GM, False)
    assert again.value.key == "table.npc_already_gm"
    restarted = await service(db, clock).snapshot(table)
    assert not restarted.state.npc_auto  # saved with the table
    snapshot = await tables.npc_control(table, GM, True)
    assert snapshot.event == NpcControl(auto=True) and snapshot.records == ()


async def test_a_button_of_an_earlier_hand_is_refused(db: Database) -> None:
    clock = Clock()
    seed = next(seeds_where(lambda coup: coup.winner is Bet.BANKER))
    tables, table, ids = await open_table(db, clock, [seed], game="punto_banco")
    await tables.join(table, BOND_OWNER, ids["bond"], 20_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000, hand=0)
    await tables.act(table, GM, "deal", as_gm=True)
    with pytest.raises(Refusal) as stale:
        await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000, hand=0)
    assert stale.value.key == "table.stale_button"
    await tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000, hand=1)
