"""The money model of every game: any sequence of seat-to-seat moves, pots, layouts, bank
changes, settlements and Hero Point spends conserves money and points, never overdraws a
limited account, writes exactly what it holds in memory to the ledger, and never moves a
spend's money between two PCs."""

from __future__ import annotations

import asyncio
import copy
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bondbot.errors import Refusal
from bondbot.games.contract import (
    Transfer,
    house_account,
    layout_account,
    pot_account,
    seat_account,
)
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.money import Row, TableMoney

TABLE, NPC, PCS = 7, 1, (2, 3, 4)
SEATS = [str(NPC), *(str(pc) for pc in PCS)]
PLACES = [
    *(seat_account(seat) for seat in SEATS),
    pot_account("main"),
    pot_account("side_1"),
    layout_account("Js"),
    house_account("commission"),  # only ever paid: the house takes chips out of the game
]

transfers = st.builds(
    lambda src, dst, amount: (src, dst, amount),
    st.sampled_from(PLACES),
    st.sampled_from(PLACES),
    st.integers(1, 5_000),
)
operations = st.one_of(
    st.tuples(st.just("settle"), st.lists(transfers, min_size=1, max_size=6)),
    st.tuples(st.just("spend"), st.tuples(st.sampled_from([NPC, *PCS]), st.integers(1, 3_000))),
    st.tuples(st.just("buy_in"), st.tuples(st.sampled_from(PCS), st.integers(1, 20_000))),
    st.tuples(st.just("cash_out"), st.sampled_from(PCS)),
)


def fresh(bankroll: int | None) -> TableMoney:
    money = TableMoney(TABLE, NPC)
    for pc in PCS:
        money.move(30_000, None, accounts.sheet(pc), "gm.grant")
        money.move(2, None, accounts.sheet(pc), "gm.grant", "hero")
    if bankroll is None:
        money.unlimited.add((accounts.bank(TABLE), "cash"))
    else:
        money.move(bankroll, None, accounts.bank(TABLE), "table.bankroll")
    return money


def apply(money: TableMoney, operation: tuple[str, object]) -> None:
    kind, arg = operation
    if kind == "settle":
        money.settle(
            [
                Transfer(src=src, dst=dst, amount=amount, reason="test.move")
                for src, dst, amount in arg  # type: ignore[union-attr]
                if src != dst and not src.startswith("house:")
            ]
        )
    elif kind == "spend":
        character, amount = arg  # type: ignore[misc]
        money.spend_hero_point(character, "spend.win_hand")
        money.pay_won_back(character, amount, "spend.win_hand")
    elif kind == "buy_in":
        pc, amount = arg  # type: ignore[misc]
        money.move(amount, accounts.sheet(pc), accounts.chips(TABLE, pc), "table.buy_in")
    else:
        pc = int(arg)  # type: ignore[call-overload]
        chips = money.chips(pc)
        money.move(chips, accounts.chips(TABLE, pc), accounts.sheet(pc), "table.cash_out")


def totals(money: TableMoney) -> dict[str, int]:
    """What is inside the game, by kind, less what came in from outside."""
    found = {"cash": 0, "hero": 0}
    for (_, kind), value in money.balances.items():
        found[kind] += value
    for row in money.rows:
        found[row.kind] -= row.amount if row.src is None else 0
        found[row.kind] += row.amount if row.dst is None else 0
    return found


async def written(money: TableMoney) -> dict[tuple[str, str], int]:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "money.sqlite3")
        try:
            await db.migrate()

            def job(conn: sqlite3.Connection) -> None:
                if money.is_unlimited(accounts.bank(TABLE)):
                    ledger.mark_unlimited(conn, accounts.bank(TABLE), "cash")
                money.write(conn, guild_id=1, actor_id=None, now="2026-11-23T00:00")

            await db.submit(job)
            async with db.read() as conn:
                assert await ledger.verify_balances(conn) == {}
                return await ledger.stored_balances(conn)
        finally:
            await db.close()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    bankroll=st.one_of(st.none(), st.integers(0, 50_000)),
    script=st.lists(operations, min_size=1, max_size=30),
)
def test_any_sequence_conserves_money_and_points(bankroll: int | None, script: list) -> None:  # type: ignore[type-arg]
    money = fresh(bankroll)
    for operation in script:
        before = copy.deepcopy(money)
        try:
            apply(money, operation)
        except Refusal:
            money = before  # the service discards a refused action's copy
            continue
        except ValueError:
            assert operation[0] == "spend" and operation[1][0] == NPC  # type: ignore[index]
            money = before
            continue
        assert totals(money) == {"cash": 0, "hero": 0}
        for (account, kind), value in money.balances.items():
            assert value >= 0 or money.is_unlimited(account, kind), (account, value)
    for row in money.rows:
        if row.reason == "spend.win_hand" and row.kind == "cash":
            assert row.src == accounts.bank(TABLE) and row.dst is not None
            assert row.dst.startswith(f"chips:{TABLE}:") and row.dst != accounts.bank(TABLE)
    held = {key: value for key, value in money.balances.items() if value}
    assert asyncio.run(written(money)) == held


def test_a_spend_never_pays_the_npc_and_never_comes_from_a_pc() -> None:
    money = fresh(10_000)
    money.spend_hero_point(2, "spend.win_hand")
    money.pay_won_back(2, 500, "spend.win_hand")
    assert money.rows[-1].src == accounts.bank(TABLE)
    assert money.rows[-1].dst == accounts.chips(TABLE, 2)
    with pytest.raises(ValueError):
        money.pay_won_back(NPC, 500, "spend.win_hand")


def test_a_commission_leaves_the_game_for_the_house() -> None:
    money = fresh(10_000)
    money.move(5_000, accounts.sheet(2), accounts.chips(TABLE, 2), "table.buy_in")
    commission = Transfer(
        src=seat_account("2"), dst=house_account("commission"), amount=50, reason="cdf.commission"
    )
    money.settle([commission])
    assert money.rows[-1] == Row("cash", 50, accounts.chips(TABLE, 2), None, "cdf.commission")
    assert money.chips(2) == 4_950 and totals(money) == {"cash": 0, "hero": 0}
    with pytest.raises(ValueError):
        money.transfer(commission.model_copy(update={"src": "house:x", "dst": "seat:2"}))


def test_a_shared_spend_gives_back_only_to_the_npc() -> None:
    money = fresh(10_000)
    money.pay_won_back(2, 500, "spend.win_hand")
    money.give_back(2, 200, "spend.shared")
    assert money.rows[-1].src == accounts.chips(TABLE, 2)
    assert money.rows[-1].dst == accounts.bank(TABLE)
    with pytest.raises(ValueError):
        money.give_back(NPC, 100, "spend.shared")
