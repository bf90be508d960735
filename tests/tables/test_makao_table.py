"""Makao at the table (real SQLite, the table service, the table message): a whole cycle
for eight players played out by the turn timers, a missed bid won back, the no-trump last
deal and the pot paid once the last window closes; bids and cards by the players and by
the GM for the NPC; seats fixed for the cycle; closing mid-cycle."""

from __future__ import annotations

from datetime import datetime

import pytest
from limits import assert_within_limits, long_name
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    make_character,
    open_table,
)

from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.common import cards, short
from bondbot.bot.tables.message import table_embed
from bondbot.errors import Refusal
from bondbot.games.makao.engine import Makao
from bondbot.games.makao.ui import UI
from bondbot.storage.db import Database
from bondbot.tables.service import TableService, TableSnapshot

STAKE = 1_000
BUY_IN = 5_000
TURN = 91  # past the server's default turn timer


def engine(snapshot: TableSnapshot) -> Makao:
    game = snapshot.state.engine
    assert isinstance(game, Makao)
    return game


def fields(snapshot: TableSnapshot, now: datetime) -> dict[str, str]:
    return {f.name: f.value for f in table_embed(snapshot, "en", "$", now).fields}


async def seated(
    db: Database, clock: Clock, extra: int = 0
) -> tuple[TableService, int, dict[str, int], dict[int, int]]:
    """Bond and Vesper, and `extra` more PCs, simulating at a table with a $10 stake."""
    tables, table, ids = await open_table(
        db, clock, [bytes([n]) * 32 for n in range(20)], game="makao", options={"stake": STAKE}
    )
    owners = {ids["bond"]: BOND_OWNER, ids["vesper"]: VESPER_OWNER}
    for n in range(extra):  # names as long as a sheet allows
        owner = 100 + n
        name = long_name(f"Agent {n}")
        owners[await make_character(db, name, owner=owner, cash=10_000)] = owner
    for character, owner in owners.items():
        await tables.join(table, owner, character, BUY_IN)
        await tables.choose(table, owner, "simulate")
    return tables, table, ids, owners


async def time_out(tables: TableService, table: int, clock: Clock) -> TableSnapshot:
    clock.advance(TURN)
    await tables.run_due()
    return await tables.snapshot(table)


async def test_a_cycle_for_eight_players_ends_with_the_pot(db: Database) -> None:
    clock = Clock()
    tables, table, ids, owners = await seated(db, clock, extra=5)
    bond = str(ids["bond"])
    spent_on: list[int] = []
    snapshot = await tables.act(table, GM, "deal", target=str(ids["npc"]), as_gm=True)
    assert engine(snapshot).cycle == 6
    assert await balance(db, f"pot:{table}:makao") == 8 * STAKE
    while engine(snapshot).phase != "done":
        if engine(snapshot).phase == "idle":
            snapshot = await tables.act(table, GM, "deal", as_gm=True)
            deal = engine(snapshot).deals[-1]
            if deal.trump is not None:
                shown = "\n".join(fields(snapshot, clock.now).values())
                assert f"Trump: {cards(deal.trump)}" in shown
        while engine(snapshot).turn():
            snapshot = await time_out(tables, table, clock)
            assert_within_limits(snapshot, clock.now)
        game = engine(snapshot)
        deal = game.deals[-1]
        assert deal.complete
        timed = [m for m in game.history if m.kind in ("bid", "play") and m.seat != game.npc]
        assert timed and all(m.auto == "timeout" for m in timed)  # the table said so
        offer = next(
            (o for o in snapshot.state.offers if o.character_id == ids["bond"] and not o.spent),
            None,
        )
        if offer is not None and not spent_on:  # Bond wins his first missed deal back
            assert offer.score == deal.bids[bond] + 10
            before = game.totals()[bond]
            snapshot = await tables.spend(table, BOND_OWNER, offer.id)
            assert engine(snapshot).totals()[bond] == before + offer.score
            spent_on.append(deal.number)
    assert spent_on, "Bond missed no bid with this pack"
    game = engine(snapshot)
    last = game.deals[-1]
    assert last.number == 6 and last.trump is None
    shown = fields(snapshot, clock.now)
    deal_field = next(v for k, v in shown.items() if k.startswith("Deal 6 of 6"))
    assert deal_field.startswith("No trump: the cycle's last deal")
    assert "The cycle is complete; it ends (and the pot is paid)" in deal_field
    assert "★" in shown["Score sheet"]
    assert snapshot.state.deadline_action == "offers"

    totals, winners = game.totals(), game.winners()
    snapshot = await time_out(tables, table, clock)  # past the last window: the cycle ends
    assert engine(snapshot).phase == "over"
    assert_within_limits(snapshot, clock.now)
    assert await balance(db, f"pot:{table}:makao") == 0
    # Tied winners share the pot, the odd cents one each in seat order (makao engine).
    share, odd = divmod(8 * STAKE, len(winners))
    for character in owners:
        seat = str(character)
        won = share + (winners.index(seat) < odd) if seat in winners else 0
        assert snapshot.chips[character] == BUY_IN - STAKE + won
    as_shown = {str(s.character_id): short(s.name) for s in snapshot.state.seats}
    as_shown[str(ids["npc"])] = "Le Chiffre"
    over = fields(snapshot, clock.now)["Game over"]
    assert over.startswith(
        f"Winner: **{', '.join(as_shown[w] for w in winners)}** with {totals[winners[0]]} points"
    )
    await assert_conserved(db)


async def test_players_and_the_gm_for_the_npc_bid_and_play(db: Database) -> None:
    clock = Clock()
    tables, table, ids, _ = await seated(db, clock)
    npc, bond, vesper = str(ids["npc"]), str(ids["bond"]), str(ids["vesper"])
    await tables.set_npc_auto(table, GM, False)
    await tables.act(table, GM, "deal", target=npc, as_gm=True)  # Bond starts, then Vesper
    snapshot = await tables.act(table, BOND_OWNER, "bid", amount=1)
    with pytest.raises(Refusal) as refused:
        await tables.act(table, VESPER_OWNER, "bid", amount=2)  # one card: 0 or 1
    assert refused.value.key == "games.illegal_move"
    snapshot = await tables.act(table, VESPER_OWNER, "bid", amount=0)
    assert "To bid: **Le Chiffre**, played by the GM" in "\n".join(
        fields(snapshot, clock.now).values()
    )
    snapshot = await tables.act(table, GM, "bid", amount=0, as_gm=True, for_npc=True)
    game = engine(snapshot)
    assert game.deals[-1].bids == {bond: 1, vesper: 0, npc: 0}
    (card,) = game.hands[bond]
    stale = snapshot.state.moves - 1
    with pytest.raises(Refusal) as old:
        await tables.act(table, BOND_OWNER, "play", target=card, moves=stale)
    assert old.value.key == "table.stale_button"
    await tables.act(table, BOND_OWNER, "play", target=card, moves=snapshot.state.moves)
    (card,) = engine(await tables.snapshot(table)).hands[vesper]
    await tables.act(table, VESPER_OWNER, "play", target=card)
    (card,) = engine(await tables.snapshot(table)).hands[npc]
    scored = await tables.act(table, GM, "play", target=card, as_gm=True, for_npc=True)
    deal = engine(scored).deals[-1]
    assert deal.complete and sum(deal.taken(s) for s in deal.players) == 1
    sheet = fields(scored, clock.now)["Score sheet"]
    assert f"**James Bond**: {deal.score(bond)} = **{deal.score(bond)}**" in sheet


async def test_seats_are_fixed_for_the_cycle(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await open_table(db, clock, [], game="makao")
    third = await make_character(db, "Felix Leiter", owner=13, cash=10_000)
    await tables.join(table, BOND_OWNER, ids["bond"], BUY_IN)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.join(table, VESPER_OWNER, ids["vesper"], BUY_IN)
    await tables.choose(table, VESPER_OWNER, "simulate")
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.join(table, 13, third, BUY_IN)
    with pytest.raises(Refusal) as late:
        await tables.choose(table, 13, "simulate")
    assert (late.value.key, late.value.params) == (
        "makao.cycle_under_way",
        {"name": "Felix Leiter"},
    )
    with pytest.raises(Refusal) as leaving:
        await tables.leave(table, BOND_OWNER)
    assert (leaving.value.key, leaving.value.params) == (
        "makao.cycle_under_way",
        {"name": "James Bond"},
    )


async def test_closing_mid_cycle_gives_every_stake_back(db: Database) -> None:
    clock = Clock()
    tables, table, ids, _ = await seated(db, clock)
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.close(table, GM)
    assert await balance(db, f"pot:{table}:makao") == 0
    assert await balance(db, f"sheet:{ids['bond']}") == 100_000
    assert await balance(db, f"sheet:{ids['vesper']}") == 50_000
    await assert_conserved(db)


def ui_labels(specs: list[ButtonSpec] | ButtonSpec | None) -> list[str]:
    if specs is None:
        return []
    return [spec.label for spec in ([specs] if isinstance(specs, ButtonSpec) else specs)]


async def test_each_phase_shows_its_move_on_the_table_and_the_rest_in_the_panels(
    db: Database,
) -> None:
    """The table has the move of the moment (Bid, Play a card, the GM's Deal it waits
    for); the player's seat panel his legal bids and cards; the GM's panel End the game."""
    clock = Clock()
    tables, table, ids = await open_table(
        db, clock, [bytes([n]) * 32 for n in range(5)], game="makao"
    )
    npc, bond, vesper = str(ids["npc"]), str(ids["bond"]), str(ids["vesper"])
    await tables.join(table, BOND_OWNER, ids["bond"], BUY_IN)
    snapshot = await tables.choose(table, BOND_OWNER, "simulate")
    # Two in the game: the deal cannot go ahead, so the table does not wait for it; the
    # GM's panel has it (a click says why not).
    assert (UI.phase(snapshot), UI.buttons(snapshot, "en", "$")) == ("between deals", [])
    assert UI.gm_waits(snapshot, "en", "$") is None
    assert ui_labels(UI.gm_buttons(snapshot, "en", "$")) == [
        "Deal",
        "End the game, keep the table open",
    ]  # issue 34: said apart from Close
    await tables.join(table, VESPER_OWNER, ids["vesper"], BUY_IN)
    snapshot = await tables.choose(table, VESPER_OWNER, "simulate")
    assert ui_labels(UI.gm_waits(snapshot, "en", "$")) == ["Deal (GM)"]
    assert ui_labels(UI.gm_buttons(snapshot, "fr", "$")) == ["Finir la partie, garder la table"]
    await tables.set_npc_auto(table, GM, False)
    snapshot = await tables.act(table, GM, "deal", target=npc, as_gm=True)  # Bond starts
    assert UI.phase(snapshot) == "bidding"
    assert ui_labels(UI.buttons(snapshot, "en", "$")) == ["Bid"]
    assert ui_labels(UI.panel_buttons(snapshot, bond, "en", "$")) == ["Bid 0", "Bid 1"]
    assert ui_labels(UI.panel_buttons(snapshot, bond, "fr", "$")) == ["Annoncer 0", "Annoncer 1"]
    assert UI.panel_buttons(snapshot, vesper, "en", "$") == []  # not his turn
    note = UI.hand_note(snapshot, bond, "en") or ""
    assert "Your bid: how many tricks will you take exactly, out of 1?" in note  # issue 34
    assert "Your bid" not in (UI.hand_note(snapshot, vesper, "en") or "")
    await tables.act(table, BOND_OWNER, "bid", amount=1)
    snapshot = await tables.act(table, VESPER_OWNER, "bid", amount=0)
    # The NPC's bid, played by the GM: the table waits for him, no player's button.
    assert UI.buttons(snapshot, "en", "$") == []
    assert ui_labels(UI.gm_waits(snapshot, "en", "$")) == ["Bid for Le Chiffre (GM)"]
    snapshot = await tables.act(table, GM, "bid", amount=0, as_gm=True, for_npc=True)
    assert UI.phase(snapshot) == "playing"
    assert ui_labels(UI.buttons(snapshot, "en", "$")) == ["Play a card"]
    (card,) = engine(snapshot).hands[bond]
    assert ui_labels(UI.panel_buttons(snapshot, bond, "en", "$")) == [f"Play {cards(card)}"]
    assert "You bid 1 and took 0." in (UI.hand_note(snapshot, bond, "en") or "")


async def test_a_ninth_player_is_told_the_game_is_full_when_he_chooses_to_play(
    db: Database,
) -> None:
    clock = Clock()
    tables, table, _, _ = await seated(db, clock, extra=5)  # eight with the NPC
    late = await make_character(db, "Felix Leiter", owner=13, cash=10_000)
    await tables.join(table, 13, late, BUY_IN)
    with pytest.raises(Refusal) as full:
        await tables.choose(table, 13, "simulate")
    assert (full.value.key, full.value.params) == (
        "makao.full",
        {"name": "Felix Leiter", "seats": 8},
    )
    await tables.choose(table, 13, "rulebook")  # he may still play the contest
