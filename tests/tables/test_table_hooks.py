"""What the table does for a game whose NPC sits in it and which keeps its own score:
timeouts marked as such, the NPC's automatic play switched off and on by the GM, a move
once the last hand's Hero Point offers have closed, a spend the game no longer takes,
and the game's own end played when the table closes (the toy game in toy_score.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import toy_score
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    open_table,
)

from bondbot.bot.reply import Reply
from bondbot.bot.tables.message import table_view
from bondbot.bot.tables.panels import gm_panel
from bondbot.errors import Refusal
from bondbot.games import registry
from bondbot.storage.db import Database
from bondbot.tables.events import NpcControl, Spent
from bondbot.tables.service import TableService

STAKE = toy_score.STAKE


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    registry.register(toy_score.SPEC)
    yield


async def seated(db: Database, clock: Clock) -> tuple[TableService, int, dict[str, int]]:
    tables, table, ids = await open_table(db, clock, [], game="toy_score")
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.choose(table, VESPER_OWNER, "simulate")
    return tables, table, ids


def engine(snapshot) -> toy_score.ToyScore:  # type: ignore[no-untyped-def]
    state = snapshot.state.engine
    assert isinstance(state, toy_score.ToyScore)
    return state


async def test_timeouts_the_npc_and_the_end_after_the_last_offers(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock)
    npc, bond, vesper = str(ids["npc"]), str(ids["bond"]), str(ids["vesper"])
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    game = engine(dealt)
    assert game.seats == [npc, bond, vesper]  # the NPC sits first, then the table's order
    assert [(m.seat, m.auto) for m in game.history[1:]] == [(npc, "npc")]  # it called at once
    assert game.turn() == (bond,)

    clock.advance(91)
    await tables.run_due()
    timed = await tables.snapshot(table)
    assert [(m.seat, m.amount, m.auto) for m in engine(timed).history[2:]] == [(bond, 0, "timeout")]

    off = await tables.set_npc_auto(table, GM, False)
    assert isinstance(off.event, NpcControl) and not off.state.npc_auto
    with pytest.raises(Refusal) as again:
        await tables.set_npc_auto(table, GM, False)
    assert again.value.key == "table.npc_already_gm"
    await tables.act(table, VESPER_OWNER, "call", amount=1)  # Bond missed the NPC's call
    second = await tables.act(table, GM, "deal", as_gm=True)
    assert engine(second).turn() == (npc,)  # the GM plays it now: nothing happens by itself
    assert second.state.deadline_action == "timeout"
    on = await tables.set_npc_auto(table, GM, True)  # it plays at once
    assert [(m.seat, m.auto) for m in engine(on).history[1:]] == [(npc, "npc")]
    assert engine(on).turn() == (bond,)

    await tables.act(table, BOND_OWNER, "call", amount=0)
    done = await tables.act(table, VESPER_OWNER, "call", amount=1)
    assert engine(done).phase == "done"
    (offer,) = [o for o in done.state.offers if o.hand == 2]
    assert offer.score == 10 and offer.pay == 0
    # The end waits for the last deal's offers (and, as deadlines only grow, for the last
    # turn's timer), so a spend still counts in it.
    ending = done.state.deadline
    assert done.state.deadline_action == "offers" and ending is not None
    assert ending >= offer.expires_at
    spent = await tables.spend(table, BOND_OWNER, offer.id)
    assert isinstance(spent.event, Spent) and spent.event.score == 10
    assert engine(spent).scores == {npc: 20, vesper: 20, bond: 10}
    assert spent.state.deadline == ending

    clock.advance(59)
    await tables.run_due()
    assert engine(await tables.snapshot(table)).phase == "done"
    clock.advance(32)
    await tables.run_due()
    over = await tables.snapshot(table)
    assert engine(over).phase == "over" and over.state.deadline is None
    # Best score takes the pot: the NPC (first of the tied in seat order).
    assert await balance(db, f"bank:{table}") == 1_000_000 + 2 * STAKE
    assert over.chips == {ids["bond"]: 10_000 - STAKE, ids["vesper"]: 10_000 - STAKE}
    await assert_conserved(db)


async def test_a_spend_the_game_no_longer_takes_is_refused(db: Database) -> None:
    clock = Clock()
    tables, table, _ = await seated(db, clock)
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "call", amount=0)
    lost = await tables.act(table, VESPER_OWNER, "call", amount=1)
    (offer,) = lost.state.offers
    ended = await tables.act(table, GM, "end", as_gm=True)  # the GM stops the game early
    assert ended.chips == dict.fromkeys(ended.chips, 10_000)  # stakes back
    with pytest.raises(Refusal) as closed:
        await tables.spend(table, BOND_OWNER, offer.id)
    assert closed.value.key == "table.offer_closed"
    assert (await tables.snapshot(table, fresh=True)).hero_points[offer.character_id] == 3


async def test_closing_plays_the_games_end_so_no_chips_stay_in_its_pot(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock)
    await tables.act(table, GM, "deal", as_gm=True)
    assert await balance(db, f"pot:{table}:toy") == 3 * STAKE
    await tables.close(table, GM)
    assert await balance(db, f"pot:{table}:toy") == 0
    assert await balance(db, f"sheet:{ids['bond']}") == 100_000
    assert await balance(db, f"sheet:{ids['vesper']}") == 50_000
    await assert_conserved(db)


async def test_a_seat_the_game_refuses_is_named(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [], game="toy_score")
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.join(table, VESPER_OWNER, ids["vesper"], 10_000)
    with pytest.raises(Refusal) as refused:
        await tables.choose(table, VESPER_OWNER, "simulate")
    assert refused.value.key == "games.in_hand"
    assert refused.value.params == {"name": "Vesper Lynd"}


def labels(snapshot, now) -> dict[str, str]:  # type: ignore[no-untyped-def]
    view = table_view(snapshot, "en", now)
    assert view is not None
    return {item.custom_id: item.label for item in view.children}  # type: ignore[attr-defined]


def gm_labels(snapshot) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """The GM panel's buttons, as an English-speaking GM sees them."""
    panel = gm_panel(snapshot, Reply(None, "en", "en", "$"))  # type: ignore[arg-type]
    return {item.custom_id: item.label for item in panel["view"].children}


async def test_the_gm_panel_has_the_npc_switch_and_the_table_a_score_spend(
    db: Database,
) -> None:
    clock = Clock()
    tables, table, _ = await seated(db, clock)
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, BOND_OWNER, "call", amount=0)
    lost = await tables.act(table, VESPER_OWNER, "call", amount=1)
    (offer,) = lost.state.offers
    assert offer.score == 10
    shown = labels(lost, clock.now)
    assert shown[f"bb:tbl:{table}:hp"] == "Spend a Hero Point"
    assert f"bb:tbl:{table}:npc:0" not in shown  # the GM's switch is in his panel
    assert gm_labels(lost)[f"bb:tbl:{table}:npc:0"] == "GM plays the NPC"
    gm_plays = await tables.set_npc_auto(table, GM, False)
    assert gm_labels(gm_plays)[f"bb:tbl:{table}:npc:1"] == "Automatic NPC"
