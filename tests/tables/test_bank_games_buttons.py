"""The buttons of chemin de fer and deux tableaux, phase by phase: on the table message only
the moves of the moment (and the GM's Start when the table waits for it); Banco, Withdraw
and the single-tableau stakes in the players' panels; the GM's controls in his panel."""

from __future__ import annotations

from datetime import datetime

from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock
from test_chemin_de_fer_service import banker_decides
from test_chemin_de_fer_service import seated as chemin_table
from test_chemin_de_fer_service import seed_where as chemin_seed
from test_deux_tableaux_service import bond_holds_five
from test_deux_tableaux_service import seated as deux_table
from test_deux_tableaux_service import seed_where as deux_seed

from bondbot.bot.tables.games import ui_for
from bondbot.bot.tables.message import table_view
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot


def on_table(snapshot: TableSnapshot, now: datetime) -> list[str]:
    view = table_view(snapshot, "en", now, "$")
    assert view is not None
    return [item.label or "" for item in view.children]  # type: ignore[attr-defined]


def panel(snapshot: TableSnapshot, character_id: int, lang: str = "en") -> list[str]:
    ui = ui_for(snapshot.state.config.game)
    return [b.label for b in ui.panel_buttons(snapshot, str(character_id), lang, "$")]  # type: ignore[attr-defined]


def gm(snapshot: TableSnapshot) -> list[str]:
    ui = ui_for(snapshot.state.config.game)
    return [b.label for b in ui.gm_buttons(snapshot, "en", "$")]  # type: ignore[attr-defined]


def phase(snapshot: TableSnapshot) -> str:
    return str(ui_for(snapshot.state.config.game).phase(snapshot))  # type: ignore[attr-defined]


async def test_chemin_de_fer_shows_each_phase_its_moves(db: Database) -> None:
    clock = Clock()
    seed = chemin_seed(banker_decides)
    tables, table, ids = await chemin_table(db, clock, [seed], drawing="classic")
    bond, vesper = ids["bond"], ids["vesper"]
    snapshot = await tables.snapshot(table)
    assert phase(snapshot) == "first bank"
    assert on_table(snapshot, clock.now) == ["Start (GM)", "My seat", "GM"]
    assert gm(snapshot) == ["Start (GM)"]  # also in his panel
    assert panel(snapshot, bond) == []

    snapshot = await tables.act(table, GM, "first_banker", target=str(bond), as_gm=True)
    assert phase(snapshot) == "bank"
    assert on_table(snapshot, clock.now) == ["Put up the bank", "Refuse the bank", "My seat", "GM"]
    assert panel(snapshot, bond) == ["Put up the bank", "Refuse the bank"]
    assert panel(snapshot, vesper) == []  # not hers to put up
    assert gm(snapshot) == []  # the NPC plays by itself: nothing of the game for the GM

    snapshot = await tables.act(table, BOND_OWNER, "bank", amount=20_000)
    assert phase(snapshot) == "stakes"  # the NPC ponte staked by itself; Vesper answers
    assert on_table(snapshot, clock.now) == ["Stake", "Pass", "My seat", "GM"]
    assert panel(snapshot, vesper) == ["Stake", "Banco ($200)", "Pass"]  # with its amount
    assert panel(snapshot, vesper, "fr") == ["Ponter", "Banco ($200)", "Passer"]
    assert panel(snapshot, bond) == []  # the banker does not stake

    snapshot = await tables.act(table, VESPER_OWNER, "stake", amount=1_000)
    assert phase(snapshot) == "drawing"  # the banker decides (classic, the ponte not at 5)
    assert on_table(snapshot, clock.now) == ["Draw", "Stand", "My seat", "GM"]
    assert panel(snapshot, bond) == ["Draw", "Stand"]
    assert panel(snapshot, vesper) == []


async def test_chemin_de_fer_banco_and_withdraw_are_in_the_panels(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await chemin_table(db, clock, [chemin_seed(banker_decides)])
    bond, vesper = ids["bond"], ids["vesper"]
    await tables.set_npc_auto(table, GM, False)
    await tables.act(table, GM, "first_banker", target=str(ids["npc"]), as_gm=True)
    snapshot = await tables.act(table, GM, "bank", amount=20_000, as_gm=True, for_npc=True)
    assert on_table(snapshot, clock.now) == ["Stake", "Pass", "My seat", "GM"]
    assert panel(snapshot, bond) == ["Stake", "Banco ($200)", "Pass"]
    assert panel(snapshot, vesper) == ["Stake", "Banco ($200)", "Pass"]


async def test_deux_tableaux_shows_each_phase_its_moves(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await deux_table(db, clock, [deux_seed(bond_holds_five)])
    bond, vesper = ids["bond"], ids["vesper"]
    snapshot = await tables.snapshot(table)
    assert phase(snapshot) == "first bank"
    assert on_table(snapshot, clock.now) == ["Start: the NPC banks (GM)", "My seat", "GM"]
    assert gm(snapshot) == ["Start: the NPC banks (GM)", "Auction the bank"]

    snapshot = await tables.act(table, GM, "default_bank", as_gm=True)
    assert phase(snapshot) == "stakes"
    assert on_table(snapshot, clock.now) == ["Stake", "Pass", "My seat", "GM"]
    assert panel(snapshot, bond) == [
        "Stake right",
        "Stake left",
        "Stake both",
        "Banco ($250)",
        "Pass",
    ]
    assert gm(snapshot) == ["Auction the bank"]  # the NPC's bank

    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=10_000, target="right")
    assert panel(snapshot, bond) == ["Stake left"]  # the other tableau, still open to him
    snapshot = await tables.act(table, VESPER_OWNER, "pass")
    assert phase(snapshot) == "drawing"  # Bond holds 5 on the right tableau
    assert on_table(snapshot, clock.now) == ["Draw", "Stand", "My seat", "GM"]
    assert panel(snapshot, bond) == ["Draw", "Stand"]
    assert panel(snapshot, vesper) == []


async def test_deux_tableaux_auction_puts_close_in_the_gms_panel(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await deux_table(db, clock, [deux_seed(bond_holds_five)])
    snapshot = await tables.act(table, GM, "open_auction", as_gm=True)
    assert phase(snapshot) == "auction"
    assert on_table(snapshot, clock.now) == ["Offer a bank", "Pass", "My seat", "GM"]
    assert panel(snapshot, ids["bond"]) == ["Offer a bank", "Pass"]
    assert gm(snapshot) == ["Close the auction"]


async def test_deux_tableaux_offers_no_banco_once_the_second_is_refused(db: Database) -> None:
    """After a banco lost and a banco suivi lost too, the right to banco is closed for the
    bank's run: Banco is not drawn (it would only be refused)."""
    clock = Clock()
    tables, table, ids = await deux_table(db, clock, [deux_seed(bond_holds_five)])
    snapshot = await tables.act(table, GM, "default_bank", as_gm=True)
    assert "Banco ($250)" in panel(snapshot, ids["bond"])
    snapshot.state.engine.banco_right = "closed"  # type: ignore[attr-defined]  # as the engine leaves it
    assert panel(snapshot, ids["bond"]) == ["Stake right", "Stake left", "Stake both", "Pass"]
    assert on_table(snapshot, clock.now) == ["Stake", "Pass", "My seat", "GM"]
