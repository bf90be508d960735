"""A table with several NPCs plays only the rulebook: the pot contest."""

from __future__ import annotations

import pytest
from table_helpers import (
    BOND_OWNER,
    CHANNEL,
    GM,
    GUILD,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    make_character,
    service,
)

from bondbot.errors import Refusal
from bondbot.rules import gambling
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService


async def rulebook_table(db: Database) -> tuple[TableService, int, dict[str, int]]:
    ids = {
        "chiffre": await make_character(db, "Le Chiffre", kind="NPC", gambling=12, per=12),
        "obanno": await make_character(db, "Obanno", kind="NPC", gambling=3),
        "bond": await make_character(
            db, "James Bond", owner=BOND_OWNER, gambling=8, cash=90_000, hero=3
        ),
        "vesper": await make_character(db, "Vesper Lynd", owner=VESPER_OWNER, cash=50_000),
    }
    tables = service(db, Clock())
    snapshot = await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor_id=GM,
        game="punto_banco",
        npc_id=ids["chiffre"],
        other_npc_ids=[ids["obanno"], ids["chiffre"]],
        min_bet=1_000,
        max_bet=50_000,
    )
    assert [n.name for n in snapshot.state.other_npcs] == ["Obanno"]
    await tables.join(snapshot.id, BOND_OWNER, ids["bond"], 30_000)
    await tables.join(snapshot.id, VESPER_OWNER, ids["vesper"], 5_000)
    return tables, snapshot.id, ids


async def test_everyone_plays_the_rulebook(db: Database) -> None:
    tables, table, _ = await rulebook_table(db)
    snap = await tables.snapshot(table)
    assert [s.choice for s in snap.state.seats] == ["rulebook", "rulebook"]
    for call in (
        tables.choose(table, BOND_OWNER, "simulate"),
        tables.act(table, BOND_OWNER, "wager", target="player", amount=1_000),
        tables.contest(table, BOND_OWNER, 1_000),
    ):
        with pytest.raises(Refusal) as refused:
            await call
        assert refused.value.key == "table.rulebook_only"


async def test_a_pot_goes_to_the_best_result(db: Database) -> None:
    tables, table, ids = await rulebook_table(db)
    snap = await tables.pot_start(table, GM, 10_000)
    (pot,) = snap.state.pots
    # Vesper has 50 in chips: she cannot stake 100 and sits this one out.
    assert [r.name for r in pot.rolls] == ["James Bond", "Le Chiffre", "Obanno"]
    assert snap.chips == {ids["bond"]: 20_000, ids["vesper"]: 5_000}
    with pytest.raises(Refusal) as twice:
        await tables.pot_start(table, GM, 10_000)
    assert twice.value.key == "table.pot_pending"
    with pytest.raises(Refusal) as outsider:
        await tables.pot_step(table, VESPER_OWNER, pot.id, 0)
    assert outsider.value.key == "table.not_in_pot"

    bond_roll = pot.rolls[0]
    if gambling.improve(bond_roll.quality, 0) != 1:
        snap = await tables.pot_step(table, BOND_OWNER, pot.id, 0)
        assert snap.state.pots[0].rolls[0].steps == 1
        with pytest.raises(Refusal) as again:  # the same button clicked again
            await tables.pot_step(table, BOND_OWNER, pot.id, 0)
        assert again.value.key == "table.step_already_spent"
        assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 2

    settled = await tables.pot_settle(table, GM)
    result = settled.state.pots[0]
    contestants = [
        gambling.Contestant(
            str(r.character_id), r.level, r.perception, gambling.improve(r.quality, r.steps)
        )
        for r in result.rolls
    ]
    assert result.winners == [int(k) for k in gambling.pot_winners(contestants)]
    assert sum(result.shares) == 30_000
    bond_share = dict(zip(result.winners, result.shares, strict=True)).get(ids["bond"], 0)
    assert settled.chips[ids["bond"]] == 20_000 + bond_share
    assert await balance(db, accounts.bank(table)) == 0
    await assert_conserved(db)


async def test_closing_settles_an_open_pot(db: Database) -> None:
    tables, table, _ = await rulebook_table(db)
    await tables.pot_start(table, GM, 5_000)
    closed = await tables.close(table, GM)
    assert closed.state.pots[0].settled
    assert await balance(db, accounts.bank(table)) == 0
    await assert_conserved(db)


async def test_a_single_npc_table_has_no_pot(db: Database) -> None:
    npc = await make_character(db, "Le Chiffre", kind="NPC")
    tables = service(db, Clock())
    snap = await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor_id=GM,
        game="punto_banco",
        npc_id=npc,
        min_bet=100,
        max_bet=1_000,
    )
    with pytest.raises(Refusal) as refused:
        await tables.pot_start(snap.id, GM, 100)
    assert refused.value.key == "table.not_rulebook_only"
