"""Hold'em through the table service on a real SQLite file: buy-in limits, the GM playing
the NPC, a side pot lost to it and won back by two PCs who split the pot they share, the
NPC's automatic play, a timeout, a restart mid-hand."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from table_helpers import (
    BOND_OWNER,
    CHANNEL,
    GM,
    GUILD,
    Clock,
    assert_conserved,
    balance,
    make_character,
    service,
)

from bondbot.errors import Refusal
from bondbot.games.holdem.names import strength
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.service import TableService

LEITER_OWNER = 13
BLINDS = {"levels": [{"small": 500, "big": 1_000}]}
Holes = list[tuple[Card, Card]]


def deal_of(seed: bytes, players: int) -> tuple[Holes, list[Card]]:
    """The hole cards (in order of play) and the board a live table deals from `seed`."""
    shoe = Shoe.shuffled(1, seed)
    dealt = [shoe.deal() for _ in range(2 * players + 5)]
    return [(dealt[i], dealt[i + players]) for i in range(players)], dealt[2 * players :]


def seed_where(players: int, wins: Callable[[list[int]], bool]) -> bytes:
    """The first seed whose seven-card hands (in order of play) satisfy `wins`."""
    for n in range(10_000):
        seed = n.to_bytes(32, "big")
        holes, board = deal_of(seed, players)
        if wins([strength([*hole, *board]) for hole in holes]):
            return seed
    raise AssertionError("no seed")


def npc_best(values: list[int]) -> bool:
    """Bond, Leiter, then the NPC on the button (the first hand): the NPC beats both."""
    return values[2] > max(values[:2])


async def seat_three(
    db: Database, clock: Clock, seeds: list[bytes], *, auto: bool
) -> tuple[TableService, int, dict[str, int]]:
    """Le Chiffre (unlimited) with Bond ($100) and Leiter ($300), blinds $5/$10; the NPC
    first in the game's seat order, so it has the first button."""
    ids = {
        "npc": await make_character(db, "Le Chiffre", kind="NPC", gambling=12),
        "bond": await make_character(
            db, "James Bond", owner=BOND_OWNER, gambling=8, cash=100_000, hero=1
        ),
        "leiter": await make_character(
            db, "Felix Leiter", owner=LEITER_OWNER, gambling=3, cash=100_000
        ),
    }
    tables = service(db, clock, seeds)
    snapshot = await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor_id=GM,
        game="holdem",
        npc_id=ids["npc"],
        min_bet=5_000,
        max_bet=50_000,
        bankroll=None,
        options=BLINDS,
    )
    table = snapshot.id
    with pytest.raises(Refusal) as short:
        await tables.join(table, BOND_OWNER, ids["bond"], 1_000)
    assert short.value.key == "table.buy_in_outside"
    await tables.join(table, BOND_OWNER, ids["bond"], 10_000)
    await tables.join(table, LEITER_OWNER, ids["leiter"], 30_000)
    await tables.choose(table, BOND_OWNER, "simulate")
    await tables.choose(table, LEITER_OWNER, "simulate")
    if not auto:
        await tables.set_npc_auto(table, GM, False)
    return tables, table, ids


async def test_a_side_pot_lost_to_the_npc_is_won_back_and_shared(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [seed_where(3, npc_best)], auto=False)
    bond, leiter, npc = (str(ids[k]) for k in ("bond", "leiter", "npc"))
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert dealt.state.engine.players == [bond, leiter, npc]
    assert dealt.state.engine.turn() == (npc,)  # the GM plays it: it waits for him

    with pytest.raises(Refusal) as not_his:
        await tables.act(table, BOND_OWNER, "fold")
    assert not_his.value.key == "games.illegal_move"
    await tables.act(table, GM, "raise", amount=3_000, as_gm=True, for_npc=True)
    await tables.act(table, BOND_OWNER, "all_in")
    await tables.act(table, LEITER_OWNER, "call", amount=9_000)
    flop = await tables.act(table, GM, "call", amount=7_000, as_gm=True, for_npc=True)
    assert [p.amount for p in flop.state.engine.pots()] == [30_000]
    await tables.act(table, LEITER_OWNER, "bet", amount=5_000)
    turn = await tables.act(table, GM, "call", amount=5_000, as_gm=True, for_npc=True)
    pots = turn.state.engine.pots()
    assert [(p.amount, len(p.eligible)) for p in pots] == [(30_000, 3), (10_000, 2)]
    for _ in range(2):  # turn and river checked down
        await tables.act(table, LEITER_OWNER, "check")
        over = await tables.act(table, GM, "check", as_gm=True, for_npc=True)
    assert not over.state.engine.in_hand()
    assert over.chips == {ids["bond"]: 0, ids["leiter"]: 15_000}
    offers = {o.character_id: o for o in over.state.offers}
    assert {k: o.pay for k, o in offers.items()} == {ids["bond"]: 30_000, ids["leiter"]: 40_000}

    # Bond spends (a double click spends once): the main pot is his.
    results = await asyncio.gather(
        tables.spend(table, BOND_OWNER, offers[ids["bond"]].id),
        tables.spend(table, BOND_OWNER, offers[ids["bond"]].id),
        return_exceptions=True,
    )
    [spent] = [r for r in results if not isinstance(r, Exception)]
    assert [r.key for r in results if isinstance(r, Refusal)] == ["table.already_spent"]
    assert spent.event.pay == 30_000 and spent.chips[ids["bond"]] == 30_000
    # What Leiter's spend pays now: half the main pot and the side pot.
    assert spent.state.engine.won_back_pays(leiter) == {bond: -15_000, leiter: 25_000}
    with pytest.raises(Refusal) as broke:  # Leiter (Gambling 3) earned one point: spend it
        await tables.spend(table, BOND_OWNER, offers[ids["leiter"]].id)
    assert broke.value.key == "table.not_your_button"
    shared = await tables.spend(table, LEITER_OWNER, offers[ids["leiter"]].id)
    assert shared.event.pay == 25_000
    assert shared.chips == {ids["bond"]: 15_000, ids["leiter"]: 40_000}
    assert await balance(db, accounts.sheet(ids["bond"]), "hero") == 2
    assert await balance(db, accounts.sheet(ids["leiter"]), "hero") == 0
    async with db.read() as conn:
        rows = await conn.execute_fetchall(
            "SELECT reason, src, dst, amount FROM ledger WHERE reason LIKE 'spend.%'"
            " AND kind = 'cash' ORDER BY id"
        )
    chips = {key: accounts.chips(table, ids[key]) for key in ("bond", "leiter")}
    assert [tuple(r) for r in rows] == [
        ("spend.win_hand", accounts.bank(table), chips["bond"], 30_000),
        ("spend.shared", chips["bond"], accounts.bank(table), 15_000),
        ("spend.win_hand", accounts.bank(table), chips["leiter"], 25_000),
    ]
    # The first spend replaced the finished pack: its seed is revealed for the hand's proof.
    assert shared.state.shoes[0].seed is not None and len(shared.state.shoes) == 2
    await assert_conserved(db)


async def test_a_folded_hand_has_no_offer_and_a_timeout_folds(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [], auto=False)
    leiter, npc = str(ids["leiter"]), str(ids["npc"])
    await tables.act(table, GM, "deal", as_gm=True)
    await tables.act(table, GM, "raise", amount=3_000, as_gm=True, for_npc=True)
    await tables.act(table, BOND_OWNER, "fold")
    waiting = await tables.snapshot(table)
    assert waiting.state.engine.turn() == (leiter,) and waiting.state.deadline is not None
    clock.advance(45)
    away = await tables.act(table, BOND_OWNER, "sit_out")  # someone else's move: same clock
    assert away.state.deadline == waiting.state.deadline
    clock.advance(44)
    await tables.run_due()
    assert (await tables.snapshot(table)).state.engine.turn() == (leiter,)
    clock.advance(2)  # the server's 90 seconds: he folds, the NPC takes the blinds
    await tables.run_due()
    over = await tables.snapshot(table)
    assert not over.state.engine.in_hand() and over.state.offers == []
    assert [m.auto for m in over.state.engine.history if m.seat == leiter] == ["timeout"]
    assert over.chips == {ids["bond"]: 9_500, ids["leiter"]: 29_000}
    await assert_conserved(db)
    assert npc in over.state.engine.seats


async def test_the_npc_plays_by_itself_and_a_restart_resumes_the_hand(db: Database) -> None:
    clock = Clock()
    tables, table, ids = await seat_three(db, clock, [], auto=False)
    npc = str(ids["npc"])
    dealt = await tables.act(table, GM, "deal", as_gm=True)
    assert dealt.state.engine.turn() == (npc,)
    # Given back to automatic play while it is to act, the NPC acts at once.
    auto = await tables.set_npc_auto(table, GM, True)
    assert auto.records and auto.records[0].move.auto == "npc"
    assert npc not in auto.state.engine.turn()
    with pytest.raises(Refusal) as again:
        await tables.set_npc_auto(table, GM, True)
    assert again.value.key == "table.npc_already_auto"

    restarted = service(db, clock)
    await restarted.resume()
    before = await restarted.snapshot(table)
    assert before.state.engine.history == auto.state.engine.history
    while (snapshot := await restarted.snapshot(table)).state.engine.in_hand():
        seat = snapshot.state.engine.turn()[0]
        owner = BOND_OWNER if seat == str(ids["bond"]) else LEITER_OWNER
        amount = snapshot.state.engine.to_call(seat)
        await restarted.act(table, owner, "call" if amount else "check", amount=amount or None)
    await assert_conserved(db)
