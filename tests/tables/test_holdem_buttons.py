"""Where hold'em's buttons are, phase by phase, drawn from real service snapshots (SQLite):
the table message has only the moves of the one to act (Fold, Check or Call, Bet…/Raise…)
and, between hands, the GM's Deal; the bet sizes and Sit out are in the player's panel,
the NPC's sizes (when the GM plays it) in the GM's."""

from __future__ import annotations

from table_helpers import BOND_OWNER, GM, Clock
from test_holdem_service import LEITER_OWNER, npc_best, seat_three, seed_where

from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.message import table_view
from bondbot.games.holdem.ui import UI, engine_of
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot

GM_ONLY = ("(GM)", "NPC's cards", "Sit out", "½ pot", "Pot:", "All-in")


def table_labels(snapshot: TableSnapshot, clock: Clock) -> list[str]:
    view = table_view(snapshot, "en", clock.now)
    assert view is not None
    return [str(item.label) for item in view.children]  # type: ignore[attr-defined]


def labels(specs: list[ButtonSpec]) -> list[str]:
    return [spec.label for spec in specs]


async def test_a_betting_round_shows_the_actors_moves_and_his_panel_the_sizes(
    db: Database,
) -> None:
    clock = Clock()
    seed = seed_where(3, npc_best)
    tables, table, _ = await seat_three(db, clock, [seed], auto=True)
    between = await tables.snapshot(table)
    assert UI.phase(between) == "between hands"
    assert table_labels(between, clock) == ["Deal (GM)", "My seat", "GM"]
    assert UI.buttons(between, "en", "$") == [] and UI.gm_buttons(between, "en", "$") == []

    dealt = await tables.act(table, GM, "deal", as_gm=True)
    engine = engine_of(dealt)
    (actor,) = engine.turn()
    assert actor != dealt.state.npc_key  # Le Chiffre plays by itself: a PC is to act
    assert UI.phase(dealt) == "betting"
    call = engine.to_call(actor)
    shown = table_labels(dealt, clock)
    assert shown == ["Fold", f"Call ${call // 100}", "Raise…", "My seat", "GM"]
    assert not any(word in label for label in shown for word in GM_ONLY)

    mine = labels(UI.panel_buttons(dealt, actor, "en", "$"))
    assert mine[:3] == shown[:3] and mine[-1] == "Sit out"
    assert any(label.startswith("½ pot: $") for label in mine)
    assert any(label.startswith("All-in $") for label in mine)
    waiting = next(s for s in engine.seats if s not in (actor, dealt.state.npc_key))
    assert labels(UI.panel_buttons(dealt, waiting, "en", "$")) == ["Sit out"]
    assert UI.gm_waits(dealt, "en", "$") is None and UI.gm_buttons(dealt, "en", "$") == []


async def test_the_gm_plays_the_npc_from_the_table_and_his_panel(db: Database) -> None:
    clock = Clock()
    seed = seed_where(3, npc_best)
    tables, table, ids = await seat_three(db, clock, [seed], auto=False)
    snapshot = await tables.act(table, GM, "deal", as_gm=True)
    npc = snapshot.state.npc_key
    while engine_of(snapshot).turn() != (npc,):  # the PCs call up to Le Chiffre
        (seat,) = engine_of(snapshot).turn()
        owner = BOND_OWNER if int(seat) == ids["bond"] else LEITER_OWNER
        kind = "call" if engine_of(snapshot).to_call(seat) else "check"
        snapshot = await tables.act(table, owner, kind)
    shown = table_labels(snapshot, clock)
    assert shown[-2:] == ["My seat", "GM"] and shown[0] in ("Fold", "Check")
    sizes = labels(UI.gm_buttons(snapshot, "en", "$"))
    assert sizes and all(label.startswith(("½ pot", "Pot", "All-in")) for label in sizes)


async def test_a_player_sitting_out_gets_back_in_in_his_panel(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [seed_where(3, npc_best)], auto=True)
    snapshot = await tables.act(table, BOND_OWNER, "sit_out")
    bond = str(ids["bond"])
    assert labels(UI.panel_buttons(snapshot, bond, "en", "$")) == ["Back in"]
    assert UI.hand_note(snapshot, bond, "en") == "You sit out from the next hand."
    assert labels(UI.panel_buttons(snapshot, bond, "fr", "$")) == ["Revenir"]
    # Le Chiffre and Leiter only: still two to deal in.
    assert table_labels(snapshot, clock) == ["Deal (GM)", "My seat", "GM"]
    alone = await tables.act(table, LEITER_OWNER, "sit_out")
    assert UI.gm_waits(alone, "en", "$") is None  # nobody to play Le Chiffre
    assert labels(UI.gm_buttons(alone, "en", "$")) == ["Deal"]  # in his panel: says why


async def test_a_call_of_all_he_has_is_one_button(db: Database) -> None:
    """Facing a bet larger than his stack, a player may fold or call all he has: Call
    says the amount, and no All-in button repeats it."""
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [seed_where(3, npc_best)], auto=False)
    snapshot = await tables.act(table, GM, "deal", as_gm=True)
    npc, bond = snapshot.state.npc_key, str(ids["bond"])
    while engine_of(snapshot).turn() != (bond,):
        (seat,) = engine_of(snapshot).turn()
        if seat == npc:
            snapshot = await tables.act(table, GM, "raise", amount=20_000, as_gm=True, for_npc=True)
        else:
            snapshot = await tables.act(table, LEITER_OWNER, "call")
    engine = engine_of(snapshot)
    stack = engine.chips[bond]
    assert engine.to_call(bond) >= stack  # $200 to him, who has less
    mine = labels(UI.panel_buttons(snapshot, bond, "en", "$"))
    assert mine == ["Fold", f"Call ${stack // 100}", "Sit out"]
    assert table_labels(snapshot, clock) == ["Fold", f"Call ${stack // 100}", "My seat", "GM"]
