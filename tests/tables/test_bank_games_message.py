"""What the chemin de fer table message says about a coup (rendered from the service)."""

from __future__ import annotations

from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock
from test_chemin_de_fer_service import ponte_natural, seated, seed_where

from bondbot.bot.tables.message import table_embed
from bondbot.storage.db import Database


async def test_only_the_npcs_win_carries_the_pc_bankers_hero_point(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(ponte_natural)])
    await tables.act(table, GM, "first_banker", target=str(ids["bond"]), as_gm=True)
    await tables.act(table, BOND_OWNER, "bank", amount=20_000)
    snapshot = await tables.act(table, VESPER_OWNER, "stake", amount=10_000)
    embed = table_embed(snapshot, "en", "$", clock.now).to_dict()
    (result,) = [f["value"] for f in embed["fields"] if f["name"] == "Coup 1: result"]
    lines = result.replace(" · ", "\n").split("\n")  # issue 34: the results on one line
    vesper = next(line for line in lines if line.startswith("Vesper Lynd wins $100"))
    npc = next(line for line in lines if line.startswith("Le Chiffre wins $100"))
    assert vesper == "Vesper Lynd wins $100"  # the same amount, but won from a PC banker
    assert npc == "Le Chiffre wins $100"  # issue 34: the offer is said once, in its field
    (offers,) = [f["value"] for f in embed["fields"] if f["name"] == "Hero Points"]
    assert offers.startswith("James Bond ($200")
