from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bondbot.errors import Refusal
from bondbot.money import MAX_AMOUNT
from bondbot.storage import ledger
from bondbot.storage.db import Database

NOW = "2026-01-02T03:04:05.000+00:00"
A, B, BANK = "sheet:1", "sheet:2", "bank:9"
CHARACTERS = (1, 2, 12, 21)


async def _move(db: Database, amount: int, src: str | None, dst: str | None, **kw: Any) -> int:
    async with db.transaction() as conn:
        return await ledger.transfer(
            conn,
            guild_id=kw.pop("guild_id", 1),
            kind=kw.pop("kind", "cash"),
            amount=amount,
            src=src,
            dst=dst,
            reason=kw.pop("reason", "test.move"),
            now=NOW,
            **kw,
        )


async def _snapshot(db: Database) -> tuple[list[Any], dict[tuple[str, str], int]]:
    async with db.read() as conn:
        rows = [tuple(r) for r in await conn.execute_fetchall("SELECT * FROM ledger ORDER BY id")]
        return rows, await ledger.stored_balances(conn)


async def test_transfer_moves_and_records(db: Database) -> None:
    first = await _move(db, 1000, None, A, reason="gm.grant", actor_id=5, note="for the casino")
    second = await _move(db, 300, A, B, table_id=4)
    assert second > first
    async with db.read() as conn:
        assert await ledger.balance(conn, A, "cash") == 700
        assert await ledger.balance(conn, B, "cash") == 300
        assert await ledger.balance(conn, A, "hero") == 0
        page = await ledger.ledger_page(conn, 1)
    newest = page.entries[0]
    assert (newest.amount, newest.src, newest.dst, newest.table_id) == (300, A, B, 4)
    assert page.entries[1].note == "for the casino" and page.entries[1].actor_id == 5


async def test_ledger_is_append_only(db: Database) -> None:
    await _move(db, 10, None, A)
    for statement in ("UPDATE ledger SET amount = 99", "DELETE FROM ledger"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute(statement)
    rows, _ = await _snapshot(db)
    assert len(rows) == 1 and rows[0][3] == 10


async def test_refusal_leaves_nothing_changed(db: Database) -> None:
    await _move(db, 500, None, A)
    before = await _snapshot(db)
    with pytest.raises(ledger.InsufficientFunds) as refused:
        async with db.transaction() as conn:
            # a first movement that succeeds, then one that must undo it with itself
            await ledger.transfer(
                conn, guild_id=1, kind="cash", amount=200, src=A, dst=B, reason="x", now=NOW
            )
            await ledger.transfer(
                conn, guild_id=1, kind="cash", amount=400, src=A, dst=B, reason="x", now=NOW
            )
    assert (refused.value.account, refused.value.kind, refused.value.available) == (A, "cash", 300)
    assert refused.value.requested == 400
    assert isinstance(refused.value, Refusal) and refused.value.key == "ledger.insufficient_funds"
    assert await _snapshot(db) == before


async def test_an_account_that_never_held_anything_cannot_pay(db: Database) -> None:
    with pytest.raises(ledger.InsufficientFunds) as refused:
        await _move(db, 1, B, A, kind="hero")
    assert refused.value.available == 0
    assert await _snapshot(db) == ([], {})


async def test_database_refuses_overdraft_even_without_transfer(db: Database) -> None:
    await _move(db, 5, None, A)
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO ledger (guild_id, kind, amount, src, reason, created_at)"
                " VALUES (1, 'cash', 6, ?, 'raw', ?)",
                (A, NOW),
            )
    assert (await _snapshot(db))[1] == {(A, "cash"): 5}


async def test_unlimited_bank_goes_negative_and_can_be_limited_again(db: Database) -> None:
    async with db.transaction() as conn:
        await ledger.set_unlimited(conn, BANK, "cash")
        assert await ledger.account_states(conn, [BANK]) == {(BANK, "cash"): (0, True)}
    await _move(db, 2500, BANK, A)
    async with db.transaction() as conn:
        assert await ledger.balance(conn, BANK, "cash") == -2500
        with pytest.raises(ValueError, match="below zero"):
            await ledger.set_unlimited(conn, BANK, "cash", False)
    await _move(db, 2500, None, BANK)
    async with db.transaction() as conn:
        await ledger.set_unlimited(conn, BANK, "cash", False)
    with pytest.raises(ledger.InsufficientFunds):
        await _move(db, 1, BANK, A)


@pytest.mark.parametrize(
    ("amount", "src", "dst", "reason"),
    [
        (0, None, A, "r"),
        (-5, None, A, "r"),
        (1.5, None, A, "r"),
        (True, None, A, "r"),
        (MAX_AMOUNT + 1, None, A, "r"),
        (1, None, None, "r"),
        (1, A, A, "r"),
        (1, "wallet:1", A, "r"),
        (1, None, "sheet:x", "r"),
        (1, None, A, ""),
        (1, None, A, "Not a key!"),
    ],
)
async def test_malformed_transfers_are_programming_errors(
    db: Database, amount: Any, src: str | None, dst: str | None, reason: str
) -> None:
    with pytest.raises(ValueError):
        await _move(db, amount, src, dst, reason=reason)
    assert await _snapshot(db) == ([], {})


async def test_transfer_outside_a_transaction_is_refused(db: Database) -> None:
    async with db.read() as conn:
        with pytest.raises(RuntimeError, match="transaction"):
            await conn.execute("ROLLBACK")  # leave the read's snapshot to test the guard
            await ledger.transfer(
                conn, guild_id=1, kind="cash", amount=1, src=None, dst=A, reason="x", now=NOW
            )


async def test_ledger_page_filters_and_paginates(db: Database) -> None:
    await _move(db, 100, None, "sheet:1")  # 1
    await _move(db, 100, None, "sheet:12")  # 2
    await _move(db, 40, "sheet:1", "chips:3:1")  # 3
    await _move(db, 40, "sheet:12", "chips:3:12")  # 4
    await _move(db, 5, None, "sheet:1", kind="hero")  # 5
    await _move(db, 1, None, "sheet:1", guild_id=2)  # 6: another guild
    async with db.read() as conn:
        mine = await ledger.ledger_page(conn, 1, character_id=1)
        assert [e.id for e in mine.entries] == [5, 3, 1] and mine.next_before_id is None
        other = await ledger.ledger_page(conn, 1, character_id=12)
        assert [e.id for e in other.entries] == [4, 2]
        ids: list[int] = []
        before = None
        while True:
            page = await ledger.ledger_page(conn, 1, before_id=before, limit=2)
            ids += [e.id for e in page.entries]
            if page.next_before_id is None:
                break
            before = page.next_before_id
        assert ids == [5, 4, 3, 2, 1]
        with pytest.raises(ValueError):
            await ledger.account_states(conn, [], ["x' OR 1=1 --"])
        with pytest.raises(ValueError):
            await ledger.ledger_page(conn, 1, limit=0)
        under = await ledger.account_states(conn, [], ["sheet:1"])
    assert {key: value for key, (value, _) in under.items()} == {
        ("sheet:1", "cash"): 61,
        ("sheet:1", "hero"): 5,
        ("sheet:12", "cash"): 60,
    }


def _character_of(account: str | None) -> int | None:
    parts = (account or "").split(":")
    return {"sheet": 1, "chips": 2}.get(parts[0]) and int(parts[{"sheet": 1, "chips": 2}[parts[0]]])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    moves=st.lists(
        st.tuples(st.sampled_from(CHARACTERS), st.sampled_from(CHARACTERS), st.integers(0, 4)),
        min_size=0,
        max_size=40,
    ),
    limit=st.integers(1, 4),
)
async def test_character_pages_both_ways_hold_exactly_his_rows(
    tmp_path_factory: pytest.TempPathFactory, moves: list[tuple[int, int, int]], limit: int
) -> None:
    """Older pages, then Newer cursors back, give exactly the rows naming the character's
    sheet or chips (ids sharing digits, 1 / 12 / 21, never mix), newest first."""
    async with await Database.open(tmp_path_factory.mktemp("pages") / "p.sqlite3") as db:
        await db.migrate()
        rows: list[tuple[str | None, str | None]] = []
        async with db.transaction() as conn:
            for account in (
                ["bank:7"]
                + [f"sheet:{a}" for a in CHARACTERS]
                + [f"chips:{a}:{b}" for a in CHARACTERS for b in CHARACTERS]
            ):
                await ledger.set_unlimited(conn, account, "cash")
            for a, b, shape in moves:
                src, dst = (
                    (None, f"sheet:{a}"),
                    (f"sheet:{a}", f"chips:{b}:{a}"),
                    ("bank:7", f"chips:{a}:{b}"),
                    (None, f"chips:{b}:{a}"),
                    ("bank:7", f"sheet:{b}"),
                )[shape]
                await ledger.transfer(
                    conn, guild_id=1, kind="cash", amount=1, src=src, dst=dst, reason="t", now=NOW
                )
                rows.append((src, dst))
            await ledger.transfer(
                conn,
                guild_id=2,
                kind="cash",
                amount=1,
                src=None,
                dst="sheet:1",
                reason="t",
                now=NOW,
            )
        async with db.read() as conn:
            for character in CHARACTERS:
                expected = [
                    i + 1
                    for i, ends in enumerate(rows)
                    if character in {_character_of(account) for account in ends}
                ][::-1]
                pages, before = [], None
                while True:
                    page = await ledger.ledger_page(
                        conn, 1, character_id=character, before_id=before, limit=limit
                    )
                    pages.append((before, [e.id for e in page.entries]))
                    if page.next_before_id is None:
                        break
                    before = page.next_before_id
                assert [i for _, ids in pages for i in ids] == expected
                for (newer_before, _), (_, ids) in itertools.pairwise(pages):
                    cursor = await ledger.newer_cursor(
                        conn, 1, ids[0], character_id=character, limit=limit
                    )
                    assert cursor == newer_before


async def test_concurrent_transfers_keep_balances_consistent(db: Database) -> None:
    accounts = [f"sheet:{i}" for i in range(1, 9)] + ["chips:1:1", "chips:1:2"]
    for account in accounts:
        await _move(db, 1000, None, account)
    rng = random.Random(7)
    plans = [(rng.choice(accounts), rng.choice(accounts), rng.randint(1, 400)) for _ in range(300)]
    refused = 0

    async def one(src: str, dst: str, amount: int) -> None:
        nonlocal refused
        if src == dst:
            return
        try:
            async with db.transaction() as conn:
                have = await ledger.balance(conn, src, "cash")
                await asyncio.sleep(0)  # another task would slip in here without the lock
                await ledger.transfer(
                    conn,
                    guild_id=1,
                    kind="cash",
                    amount=amount,
                    src=src,
                    dst=dst,
                    reason="r",
                    now=NOW,
                )
                assert await ledger.balance(conn, src, "cash") == have - amount
        except ledger.InsufficientFunds:
            refused += 1

    await asyncio.gather(*(one(*plan) for plan in plans))
    async with db.read() as conn:
        stored = await ledger.stored_balances(conn)
        assert stored == await ledger.recompute_balances(conn)
        assert await ledger.verify_balances(conn) == {}
    assert sum(stored.values()) == 1000 * len(accounts)
    assert all(value >= 0 for value in stored.values())
    assert refused > 0  # the plan overdraws some accounts: refusals were exercised
