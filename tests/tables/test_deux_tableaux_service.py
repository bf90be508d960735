"""Baccara à deux tableaux through the table service on a real SQLite file: the GM's start
or auction, the NPC's bank and its one decision across both tables, a PC banker facing the
NPC ponte, timers, and Hero Points per table (never against a PC banker, never between two
PCs)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from table_helpers import (
    BOND_OWNER,
    GM,
    VESPER_OWNER,
    Clock,
    assert_conserved,
    event_of,
    open_table,
)

from bondbot.errors import Refusal
from bondbot.games.contract import Move
from bondbot.games.deux_tableaux.engine import DeuxTableaux, Settings
from bondbot.games.deux_tableaux.events import CoupSettled
from bondbot.rules import baccarat
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService, TableSnapshot

NPC, BOND, VESPER = "npc", "bond", "vesper"
RULES = Settings(min_stake=1_000, min_bank=2_000, max_bank=50_000, npc_bank=25_000)
Script = Callable[[DeuxTableaux], bool]


def engine_of(snapshot: TableSnapshot) -> DeuxTableaux:
    engine = snapshot.state.engine
    assert isinstance(engine, DeuxTableaux)
    return engine


def run(seed: bytes, script: Script) -> bool:
    """Play `script` on the pure engine from a live 3-pack shoe (the NPC on automatic play)."""
    game = DeuxTableaux.new(
        baccarat.new_shoe(3, seed), [NPC, BOND, VESPER], npc=NPC, settings=RULES
    )
    game.stacks = {NPC: 1_000_000, BOND: 50_000, VESPER: 30_000}
    return script(game)


def seed_where(script: Script) -> bytes:
    for n in range(20_000):
        seed = n.to_bytes(32, "big")
        if run(seed, script):
            return seed
    raise AssertionError("no seed for that coup")


def step(game: DeuxTableaux, kind: str, seat: str | None = None, **more: object) -> None:
    """A move, then the table's own steps and the NPC's automatic play."""
    game.apply(Move(kind=kind, seat=seat, **more))  # type: ignore[arg-type]
    while True:
        move = game.automation()
        if move is None and NPC in game.turn():
            move = game.npc_move(random.Random(0))
        if move is None:
            return
        game.apply(move)


def split_decision(game: DeuxTableaux) -> bool:
    """The NPC banks; Bond stakes $100 on each table, Vesper passes; no choice at 5; the
    NPC banker decides, wins the right table and loses the left."""
    step(game, "default_bank")
    step(game, "stake", BOND, amount=10_000, target="both")
    step(game, "pass", VESPER)
    last = game.last
    if last is None or any(len(t.cards) == 2 and t.total >= 8 for t in last.tables):
        return False
    decided = [m for m in last.moves if m.seat == NPC and m.kind in ("draw", "stand")]
    winners = {t.table: t.winner for t in last.tables}
    return len(decided) == 1 and winners == {"right": "banker", "left": "ponte"}


def pc_bank_loses_to_the_npc(game: DeuxTableaux) -> bool:
    """An auction: Bond wins the bank with $300; the NPC stakes $125 on each table, Vesper $50
    on the right; nobody chooses at 5; Bond's timer decides; the NPC's left table wins."""
    step(game, "open_auction")
    step(game, "bid", BOND, amount=30_000)
    step(game, "stake", VESPER, amount=5_000, target="right")
    if game.phase != "banker":
        return False
    timeout = game.timeout_move(BOND)
    assert timeout is not None
    step(game, timeout.kind, BOND)
    last = game.last
    assert last is not None
    return {t.table: t.winner for t in last.tables}["left"] == "ponte"


def bond_holds_five(game: DeuxTableaux) -> bool:
    """The NPC banks; Bond stakes $100 on the right table only; he holds 5 there."""
    step(game, "default_bank")
    step(game, "stake", BOND, amount=10_000, target="right")
    step(game, "pass", VESPER)
    return game.phase == "hands"


async def seated(
    db: Database, clock: Clock, seeds: list[bytes]
) -> tuple[TableService, int, dict[str, int]]:
    """Le Chiffre's deux tableaux table, $10 stakes to a $500 bank, Bond and Vesper seated."""
    tables, table, ids = await open_table(
        db, clock, seeds, game="deux_tableaux", options={"npc_bank": 25_000}
    )
    await tables.join(table, BOND_OWNER, ids["bond"], 50_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.join(table, VESPER_OWNER, ids["vesper"], 30_000)
    await tables.choose(table, VESPER_OWNER, "simulate")
    return tables, table, ids


async def test_the_npc_banker_decides_once_and_a_lost_table_is_won_back(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(split_decision)])
    with pytest.raises(Refusal):  # nobody banks yet: the GM starts
        await tables.act(table, BOND_OWNER, "stake", amount=1_000, target="both")
    snapshot = await tables.act(table, GM, "default_bank", as_gm=True)
    assert event_of(snapshot, "bank_started").amount == 25_000
    await tables.act(table, BOND_OWNER, "stake", amount=10_000, target="both")
    snapshot = await tables.act(table, VESPER_OWNER, "pass")
    settled: CoupSettled = event_of(snapshot, "settled")
    assert [m.auto for m in settled.moves if m.seat == str(ids["npc"])] == ["npc"]
    assert snapshot.chips[ids["bond"]] == 50_000  # lost $100 on the right, won it on the left
    (offer,) = snapshot.state.offers
    assert (offer.character_id, offer.label, offer.pay) == (ids["bond"], "right:10000", 20_000)
    snapshot = await tables.spend(table, BOND_OWNER, offer.id)
    assert snapshot.chips[ids["bond"]] == 70_000
    await assert_conserved(db)


async def test_a_pc_banker_wins_back_only_the_npcs_table(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(pc_bank_loses_to_the_npc)])
    snapshot = await tables.act(table, GM, "open_auction", as_gm=True)
    assert engine_of(snapshot).auction is not None
    assert engine_of(snapshot).auction.best == str(ids["npc"])  # it offered its bank at once
    snapshot = await tables.act(table, BOND_OWNER, "bid", amount=30_000)
    assert engine_of(snapshot).banker == str(ids["bond"])  # nobody could outbid him
    with pytest.raises(Refusal) as stale:  # his bid button from the auction, once it is over
        await tables.act(table, BOND_OWNER, "bid", amount=40_000)
    assert stale.value.key == "games.illegal_move"
    snapshot = await tables.act(table, VESPER_OWNER, "stake", amount=5_000, target="right")
    assert engine_of(snapshot).turn() == (str(ids["bond"]),)
    clock.advance(91)  # Bond lets his timer run: the table follows the heavier table
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    settled = engine_of(snapshot).last
    assert settled is not None
    decided = [m for m in settled.moves if m.kind in ("draw", "stand")]
    assert [(m.seat, m.auto) for m in decided] == [(str(ids["bond"]), "timeout")]
    offers = snapshot.state.offers
    assert all(o.character_id == ids["bond"] and o.label.startswith("bank:") for o in offers)
    left = next(t for t in settled.tables if t.table == "left")
    assert left.winner == "ponte" and left.results[0].seat == str(ids["npc"])
    assert any(o.label == "bank:left:12500" and o.pay == 25_000 for o in offers)
    async with db.read() as conn:
        spends = await conn.execute_fetchall(
            "SELECT COUNT(*) FROM ledger WHERE reason = 'spend.win_hand' AND src != ?",
            (accounts.bank(table),),
        )
    assert spends[0][0] == 0
    await assert_conserved(db)


async def test_a_hand_holder_at_5_draws_when_his_timer_runs_out(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seated(db, clock, [seed_where(bond_holds_five)])
    await tables.act(table, GM, "default_bank", as_gm=True)
    await tables.act(table, BOND_OWNER, "stake", amount=10_000, target="right")
    snapshot = await tables.act(table, VESPER_OWNER, "pass")
    assert engine_of(snapshot).turn() == (str(ids["bond"]),)
    clock.advance(91)
    await tables.run_due()
    snapshot = await tables.snapshot(table)
    settled = engine_of(snapshot).last
    assert settled is not None
    drew = [m for m in settled.moves if m.seat == str(ids["bond"]) and m.kind == "draw"]
    assert [m.auto for m in drew] == ["timeout"]
    (right,) = settled.tables
    assert len(right.cards) == 3
    await assert_conserved(db)
