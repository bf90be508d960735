"""Where Macao's buttons are, phase by phase, drawn from real service snapshots (SQLite):
between coups the table waits for the GM's Deal (End the game is in his panel); while
the players decide, the wagers someone may still make ("Bet on my hand", never to be
taken for My seat), each player's panel his own wagers and Pass; then Draw and Stand for
the one to act, on the table and in his panel; a wager he may not make is refused before
its form opens."""

from __future__ import annotations

import pytest
from macao_table import advance, live_engine, seeds
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock
from test_macao_service import BOND, NPC, VESPER, seated

from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.message import table_view
from bondbot.errors import Refusal
from bondbot.games.contract import Move
from bondbot.games.macao.counting import hand_total
from bondbot.games.macao.drawing import player_may_draw
from bondbot.games.macao.engine import Phase
from bondbot.games.macao.ui import UI, engine_of, wager_option
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot

WAGERS = ["Bet on my hand", "Bet on the banker", "Bet on a tie"]


def table_labels(snapshot: TableSnapshot, clock: Clock) -> list[str]:
    view = table_view(snapshot, "en", clock.now)
    assert view is not None
    return [str(item.label) for item in view.children]  # type: ignore[attr-defined]


def labels(specs: list[ButtonSpec]) -> list[str]:
    return [spec.label for spec in specs]


def bond_draws(seed: bytes, *, may: bool = True) -> bool:
    """Bond wagers on his hand, Vesper passes, and Bond (no natural) is to act: he may
    draw (`may`), or only stand."""
    engine = live_engine(seed, NPC, [BOND, VESPER])
    advance(engine, Move(kind="deal"))
    if engine.phase is not Phase.WAGERS:
        return False
    advance(engine, Move(kind="wager", seat=BOND, amount=1_000, target="own"))
    advance(engine, Move(kind="pass", seat=VESPER))
    if engine.phase is not Phase.DRAWS or engine.actor != BOND:
        return False
    (hand,) = [hand for hand in engine.players if hand.seat == BOND]
    return player_may_draw(hand_total(hand.cards, engine.rules.counting)) is may


async def test_each_phase_shows_its_moves_and_the_panels_the_rest(db: Database) -> None:
    clock = Clock()
    tables, table = await seated(db, clock, next(seeds(bond_draws)))
    idle = await tables.snapshot(table)
    assert UI.phase(idle) == "between coups"
    assert table_labels(idle, clock) == ["Deal (GM)", "My seat", "GM"]
    assert labels(UI.gm_buttons(idle, "en", "$")) == [
        "End the game, keep the table open"
    ]  # issue 34: one name
    assert UI.panel_buttons(idle, BOND, "en", "$") == []

    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert UI.phase(dealt) == "wagers"
    assert table_labels(dealt, clock) == [*WAGERS, "My seat", "GM"]
    assert labels(UI.panel_buttons(dealt, BOND, "en", "$")) == [*WAGERS, "Pass"]
    assert labels(UI.panel_buttons(dealt, VESPER, "fr", "$")) == [
        "Miser sur ma main",
        "Miser sur le banquier",
        "Miser sur l'égalité",
        "Passer",
    ]
    assert UI.gm_waits(dealt, "en", "$") is None and UI.gm_buttons(dealt, "en", "$") == []
    option = wager_option(engine_of(dealt), BOND, "own")
    assert (option.min, option.max) == (1_000, 20_000 // 3)  # his chips cover three times it

    wagered = await tables.act(table, BOND_OWNER, "wager", target="own", amount=1_000)
    assert UI.panel_buttons(wagered, BOND, "en", "$") == []  # he has decided
    with pytest.raises(Refusal) as again:
        wager_option(engine_of(wagered), BOND, "tie")
    assert again.value.key == "macao.already_decided"
    assert table_labels(wagered, clock) == [*WAGERS, "My seat", "GM"]  # Vesper still may

    drawing = await tables.act(table, VESPER_OWNER, "pass")
    assert UI.phase(drawing) == "drawing"
    assert table_labels(drawing, clock) == ["Draw", "Stand", "My seat", "GM"]
    assert labels(UI.panel_buttons(drawing, BOND, "en", "$")) == ["Draw", "Stand"]
    assert UI.panel_buttons(drawing, VESPER, "en", "$") == []
    with pytest.raises(Refusal) as closed:
        wager_option(engine_of(drawing), VESPER, "own")
    assert closed.value.key == "macao.wagers_closed"


async def test_a_player_who_may_only_stand_stands_in_one_click(db: Database) -> None:
    clock = Clock()
    seed = next(seeds(lambda seed: bond_draws(seed, may=False)))
    tables, table = await seated(db, clock, seed)
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "wager", target="own", amount=1_000)
    drawing = await tables.act(table, VESPER_OWNER, "pass")
    assert table_labels(drawing, clock) == ["Stand", "My seat", "GM"]  # Draw: absent
    (stand,) = UI.panel_buttons(drawing, BOND, "en", "$")
    assert stand.label == "Stand" and stand.custom_id.endswith(f":stand:{drawing.state.moves}")
