"""Chemin de fer through the table service on a real SQLite file: the first banker, the NPC
banking and staking by itself or by the GM's hand, money seat to seat and the commission to
the house, timers, the shoe replaced between coups, players sitting down between coups,
and Hero Points both ways (never against a PC banker, never between two PCs)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    balance,
    event_of,
    open_table,
)

from bondbot.errors import Refusal
from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.contract import Move
from bondbot.rules import baccarat
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService, TableSnapshot

Deal = Callable[[list[int]], bool]


def values(seed: bytes, count: int, packs: int = 6) -> list[int]:
    """The baccarat values of a live shoe's first cards (ponte, banker, ponte, banker, …)."""
    shoe = baccarat.new_shoe(packs, seed)
    return [shoe.deal().baccarat_value for _ in range(count)]


def seed_where(wanted: Deal, count: int = 6) -> bytes:
    for n in range(20_000):
        seed = n.to_bytes(32, "big")
        if wanted(values(seed, count)):
            return seed
    raise AssertionError("no seed for that deal")


def banker_natural(v: list[int]) -> bool:
    return (v[1] + v[3]) % 10 == 9 and (v[0] + v[2]) % 10 < 8


def ponte_natural(v: list[int]) -> bool:
    return (v[0] + v[2]) % 10 == 9 and (v[1] + v[3]) % 10 < 8


def ponte_at_five(v: list[int]) -> bool:
    return (v[0] + v[2]) % 10 == 5 and (v[1] + v[3]) % 10 < 8


def engine_of(snapshot: TableSnapshot) -> ChemindeFer:
    engine = snapshot.state.engine
    assert isinstance(engine, ChemindeFer)
    return engine


async def seated(
    db: Database,
    clock: Clock,
    seeds: list[bytes],
    *,
    vesper: bool = True,
    **options: object,
) -> tuple[TableService, int, dict[str, int]]:
    """Le Chiffre's chemin de fer table, $10 stakes to a $500 bank, Bond (and Vesper) seated."""
    tables, table, ids = await open_table(db, clock, seeds, game="chemin_de_fer", options=options)
    await tables.join(table, BOND_OWNER, ids["bond"], 50_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    if vesper:
        await tables.join(table, VESPER_OWNER, ids["vesper"], 30_000)
        await tables.choose(table, VESPER_OWNER, "simulate")
    return tables, table, ids


async def test_the_npc_sits_first_and_the_gm_names_the_first_banker(
    db: Database,
) -> None:
    tables, table, ids = await seated(db, Clock(), [])
    snapshot = await tables.snapshot(table)
    keys = [str(ids[who]) for who in ("npc", "bond", "vesper")]
    assert engine_of(snapshot).seats == keys and engine_of(snapshot).banker is None
    with pytest.raises(Refusal) as refused:  # a player cannot name the banker
        await tables.act(table, BOND_OWNER, "first_banker", target=keys[1])
    assert refused.value.key == "games.illegal_move"
    snapshot = await tables.act(table, GM, "first_banker", target=keys[2], as_gm=True)
    assert engine_of(snapshot).banker == keys[2] and engine_of(snapshot).hand == 0


def banker_decides(v: list[int]) -> bool:
    """Classic drawing: no natural, the ponte's play forced (not 5): the banker decides."""
    ponte, banker = (v[0] + v[2]) % 10, (v[1] + v[3]) % 10
    return ponte < 8 and banker < 8 and ponte != 5


async def test_a_player_sits_down_between_coups_not_during_one(db: Database) -> None:
    clock = Clock()
    seed = seed_where(banker_decides)
    tables, table, ids = await seated(db, clock, [seed], vesper=False, drawing="classic")
    npc, bond, vesper = (str(ids[who]) for who in ("npc", "bond", "vesper"))
    await tables.set_npc_auto(table, GM, False)
    await tables.act(table, GM, "first_banker", target=npc, as_gm=True)
    await tables.act(table, GM, "bank", amount=20_000, as_gm=True, for_npc=True)
    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=10_000)
    assert engine_of(snapshot).phase == "banker"  # the coup waits on the banker
    await tables.join(table, VESPER_OWNER, ids["vesper"], 30_000)
    with pytest.raises(Refusal) as refused:  # a coup is in play
        await tables.choose(table, VESPER_OWNER, "simulate")
    assert refused.value.key == "games.in_hand"
    await tables.act(table, GM, "stand", as_gm=True, for_npc=True)
    snapshot = await tables.choose(table, VESPER_OWNER, "simulate")
    assert engine_of(snapshot).seats == [npc, bond, vesper]


async def test_players_leave_between_coups_even_as_the_npc_keeps_its_bank(
    db: Database,
) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(banker_natural)])
    npc, bond = str(ids["npc"]), str(ids["bond"])
    await tables.act(table, GM, "first_banker", target=npc, as_gm=True)
    await tables.act(table, VESPER_OWNER, "pass")
    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=10_000)
    engine = engine_of(snapshot)
    assert engine.banker == npc and engine.phase == "stakes"  # kept the moment the coup ended
    await tables.act(table, BOND_OWNER, "stake", amount=1_000)
    with pytest.raises(Refusal) as locked:  # Bond has answered: this coup is under way
        await tables.leave(table, VESPER_OWNER)
    assert locked.value.key == "games.in_hand"
    snapshot = await tables.act(table, VESPER_OWNER, "pass")
    assert engine_of(snapshot).hand == 2 and not engine_of(snapshot).in_hand()
    snapshot = await tables.leave(table, VESPER_OWNER)  # nobody has answered the next one
    assert engine_of(snapshot).seats == [npc, bond]
    await assert_conserved(db)


async def test_a_coup_against_the_npc_bank_with_its_commission_and_a_spend(db: Database) -> None:
    clock = Clock()
    seeds = [seed_where(banker_natural)]
    tables, table, ids = await seated(db, clock, seeds, commission=5)
    npc, bond = str(ids["npc"]), str(ids["bond"])
    snapshot = await tables.act(table, GM, "first_banker", target=npc, as_gm=True)
    assert event_of(snapshot, "bank_put").amount == 50_000  # the table's maximum by default
    stale_hand = engine_of(snapshot).hand
    await tables.act(table, VESPER_OWNER, "pass", hand=stale_hand)
    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=20_000, hand=stale_hand)
    settled = event_of(snapshot, "settled")
    assert settled.winner == "banker" and settled.commission == 1_000
    assert snapshot.chips[ids["bond"]] == 30_000
    assert snapshot.bank == 1_000_000 + 20_000 - 1_000
    assert engine_of(snapshot).bank == 50_000  # kept, within the table's maximum
    with pytest.raises(Refusal) as stale:  # a stake button of the last coup
        await tables.act(table, BOND_OWNER, "stake", amount=1_000, hand=stale_hand)
    assert stale.value.key == "table.stale_button"

    (offer,) = snapshot.state.offers
    assert (offer.character_id, offer.pay, offer.hand) == (ids["bond"], 40_000, 1)
    snapshot = await tables.spend(table, BOND_OWNER, offer.id)
    assert snapshot.chips[ids["bond"]] == 70_000
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 2
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT reason, src, dst, amount FROM ledger WHERE table_id = ? AND kind = 'cash'"
            " AND reason NOT LIKE 'table.%' ORDER BY id",
            (table,),
        )
    assert [tuple(row) for row in rows] == [
        (
            "chemin_de_fer.stake_lost",
            accounts.chips(table, int(bond)),
            accounts.bank(table),
            20_000,
        ),
        ("chemin_de_fer.commission", accounts.bank(table), None, 1_000),
        ("spend.win_hand", accounts.bank(table), accounts.chips(table, int(bond)), 40_000),
    ]
    await assert_conserved(db)


async def test_a_pc_banker_wins_back_only_what_the_npc_ponte_won(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(ponte_natural)])
    bond, vesper = str(ids["bond"]), str(ids["vesper"])
    await tables.act(table, GM, "first_banker", target=bond, as_gm=True)
    await tables.act(table, BOND_OWNER, "bank", amount=30_000)
    snapshot = await tables.act(table, VESPER_OWNER, "stake", amount=10_000)
    # Vesper sits on the banker's right, the NPC after her: it staked up to the bank.
    settled = event_of(snapshot, "settled")
    assert settled.winner == "ponte" and settled.holder == vesper
    assert [(r.seat, r.covered) for r in settled.results] == [
        (vesper, 10_000),
        (str(ids["npc"]), 20_000),
    ]
    (offer,) = snapshot.state.offers  # Bond's, for the NPC's stake; none for Vesper's
    assert (offer.character_id, offer.pay) == (ids["bond"], 40_000)
    snapshot = await tables.spend(table, BOND_OWNER, offer.id)
    assert snapshot.chips == {ids["bond"]: 50_000 - 30_000 + 40_000, ids["vesper"]: 40_000}
    async with db.read() as conn:
        spends = await conn.execute_fetchall(
            "SELECT src, dst FROM ledger WHERE reason = 'spend.win_hand' AND kind = 'cash'"
        )
    assert [tuple(row) for row in spends] == [
        (accounts.bank(table), accounts.chips(table, ids["bond"]))
    ]
    await assert_conserved(db)


async def test_the_gm_plays_the_npc_then_hands_it_back(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(banker_natural)])
    npc = str(ids["npc"])
    await tables.set_npc_auto(table, GM, False)
    snapshot = await tables.act(table, GM, "first_banker", target=npc, as_gm=True)
    assert engine_of(snapshot).turn() == (npc,)  # the NPC waits for the GM
    with pytest.raises(Refusal):
        await tables.act(table, BOND_OWNER, "bank", amount=20_000)  # not his to put up
    snapshot = await tables.act(table, GM, "bank", amount=20_000, as_gm=True, for_npc=True)
    assert event_of(snapshot, "bank_put").amount == 20_000
    await tables.act(table, BOND_OWNER, "stake", amount=5_000)
    snapshot = await tables.act(table, VESPER_OWNER, "pass")
    assert engine_of(snapshot).turn() == (npc,)  # keep or withdraw: the GM's again
    snapshot = await tables.set_npc_auto(table, GM, True)
    kept = engine_of(snapshot).history[-1]  # played at once
    assert (kept.kind, kept.auto) == ("keep", "npc")
    with pytest.raises(Refusal) as again:
        await tables.set_npc_auto(table, GM, True)
    assert again.value.key == "table.npc_already_auto"


async def test_timers_answer_for_the_pontes_together_and_follow_the_advice(
    db: Database,
) -> None:
    clock = Clock()
    seeds = [seed_where(ponte_at_five)]
    tables, table, ids = await seated(db, clock, seeds, drawing="classic")
    npc, bond, vesper = (str(ids[who]) for who in ("npc", "bond", "vesper"))
    snapshot = await tables.act(table, GM, "first_banker", target=npc, as_gm=True)
    deadline = snapshot.state.deadline
    clock.advance(30)
    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=5_000)
    assert snapshot.state.deadline == deadline  # one clock for the pontes answering together
    clock.advance(61)
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    timed = [m for m in engine_of(snapshot).history if m.auto == "timeout"]
    assert timed == [timed[0].model_copy(update={"kind": "pass", "seat": vesper})]
    engine = engine_of(snapshot)
    assert engine.phase == "ponte" and engine.turn() == (bond,)  # Bond holds 5: his choice
    clock.advance(91)
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    last = engine_of(snapshot).last
    assert last is not None and len(last.ponte) == 3  # the timer drew for him at 5
    drawn = next(m for m in last.moves if m.kind == "draw" and m.seat == bond)
    assert drawn.auto == "timeout"
    await assert_conserved(db)


def crosses_the_cut_and_the_npc_keeps(seed: bytes) -> bool:
    """One pack, Bond staking $10 a coup against the NPC's bank (refusing the bank when he
    wins it): does the coup that reaches the cut card leave the bank with the NPC, who then
    keeps it by itself, before anyone else moves?"""
    rules = Settings(packs=1, min_stake=1_000, min_bank=1_000, max_bank=50_000, npc_bank=50_000)
    engine = ChemindeFer.new(
        baccarat.new_shoe(1, seed), ["npc", "bond"], "npc", npc="npc", settings=rules
    )
    engine.stacks = {"npc": None, "bond": 10**9}
    while not engine.shoe.past_cut:
        if engine.banker == "bond":
            engine.apply(Move(kind="refuse", seat="bond"))
        kind = "keep" if engine.bank else "bank"
        engine.apply(Move(kind=kind, seat="npc", amount=None if engine.bank else 50_000))
        engine.apply(Move(kind="stake", seat="bond", amount=1_000))
        while (step := engine.automation()) is not None:
            engine.apply(step)
    return engine.last is not None and engine.last.winner != "ponte"


async def test_the_shoe_is_replaced_before_the_npc_keeps_its_bank(db: Database) -> None:
    clock = Clock()
    seed = next(
        seed
        for seed in (n.to_bytes(32, "big") for n in range(100))
        if crosses_the_cut_and_the_npc_keeps(seed)
    )
    tables, table, ids = await open_table(db, clock, [seed], game="chemin_de_fer", packs=1)
    await tables.join(table, BOND_OWNER, ids["bond"], 100_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    snapshot = await tables.act(table, GM, "first_banker", target=str(ids["npc"]), as_gm=True)
    while len(snapshot.state.shoes) == 1:
        if engine_of(snapshot).banker == str(ids["bond"]):
            await tables.act(table, BOND_OWNER, "refuse")  # the NPC banks again by itself
        snapshot = await tables.act(table, BOND_OWNER, "stake", amount=1_000)
    # The coup reached the cut card; the NPC kept its bank in the same action, from a new
    # shoe (before the fix it kept it over the finished shoe, and no coup could be dealt).
    engine = engine_of(snapshot)
    assert engine.phase == "stakes" and engine.turn() == (str(ids["bond"]),)
    assert [r.move.kind for r in snapshot.records][-1] == "keep"
    assert snapshot.state.shoes[0].seed == seed.hex()  # the finished shoe's seed is shown
    assert not engine.shoe.dealt
    hand = engine.hand
    snapshot = await tables.act(table, BOND_OWNER, "stake", amount=1_000)
    assert engine_of(snapshot).hand > hand  # and the next coup is dealt from it
    await assert_conserved(db)


async def test_a_chosen_first_banker_must_be_seated(db: Database) -> None:
    tables, table, ids = await seated(db, Clock(), [], vesper=False)
    with pytest.raises(Refusal) as absent:
        await tables.act(table, GM, "first_banker", target=str(ids["vesper"]), as_gm=True)
    assert absent.value.key == "games.illegal_move"
