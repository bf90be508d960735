"""Buttons that belong to one hand: refused once the next hand has been dealt (punto banco
here; chemin de fer, whose pontes answer together, uses them for its stakes)."""

from __future__ import annotations

import pytest
from table_helpers import BOND_OWNER, GM, Clock, open_table, seeds_where

from bondbot.errors import Refusal
from bondbot.rules.baccarat import Bet
from bondbot.storage.db import Database


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
