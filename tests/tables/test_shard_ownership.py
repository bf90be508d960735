"""A process serving some shards resumes, times and touches only its guilds' tables.

Two guilds on the two shards of a pair of processes, one database: each process's table
service finds its own tables at start, arms only their timers, and refuses, with a log
line and nothing written, an action or an opening in the other process's guild.
"""

from __future__ import annotations

import logging

import pytest
from table_helpers import BOND_OWNER, GM, Clock, make_character, service

from bondbot.errors import Refusal
from bondbot.shards import Shards, shard_of
from bondbot.storage import tables as stored
from bondbot.storage.db import Database
from bondbot.tables.service import TableService
from bondbot.tables.state import TableState

# Discord's shard of a guild is (guild_id >> 22) % shard_count.
GUILD_0 = (7 << 22) * 2 + 5  # shard 0 of 2
GUILD_1 = GUILD_0 + (1 << 22)  # shard 1 of 2
FIRST, SECOND = Shards(2, (0,)), Shards(2, (1,))


async def _open(tables: TableService, guild_id: int, channel_id: int) -> int:
    """A punto banco table with its auto-deal timer running (a deadline to arm)."""
    npc = await make_character(tables.db, "Le Chiffre", kind="NPC", guild_id=guild_id)
    bond = await make_character(
        tables.db, "James Bond", owner=BOND_OWNER, cash=100_000, guild_id=guild_id
    )
    opened = await tables.open_table(
        guild_id=guild_id,
        channel_id=channel_id,
        actor_id=GM,
        game="punto_banco",
        npc_id=npc,
        min_bet=100,
        max_bet=10_000,
        options={"auto_deal_s": 30},
    )
    await tables.join(opened.id, BOND_OWNER, bond, 5_000)
    await tables.choose(opened.id, BOND_OWNER, "simulate")
    snap = await tables.act(opened.id, BOND_OWNER, "wager", target="player", amount=100)
    assert snap.state.deadline is not None
    return opened.id


async def _two_tables(db: Database, clock: Clock) -> tuple[int, int]:
    everything = service(db, clock)  # the single process that played before the split
    return await _open(everything, GUILD_0, 2001), await _open(everything, GUILD_1, 2002)


def test_the_guilds_are_on_the_shards_the_test_says() -> None:
    assert (shard_of(GUILD_0, 2), shard_of(GUILD_1, 2)) == (0, 1)
    assert FIRST.owns(GUILD_0) and not FIRST.owns(GUILD_1)
    assert SECOND.owns(GUILD_1) and not SECOND.owns(GUILD_0)


async def test_each_process_resumes_and_arms_only_its_own_tables(db: Database) -> None:
    clock = Clock()
    table_0, table_1 = await _two_tables(db, clock)
    first, second = service(db, clock, shards=FIRST), service(db, clock, shards=SECOND)
    assert [s.id for s in await first.resume()] == [table_0]
    assert [s.id for s in await second.resume()] == [table_1]
    assert first.scheduler.pending(("move", table_0))
    assert not first.scheduler.pending(("move", table_1))
    assert second.scheduler.pending(("move", table_1))
    assert not second.scheduler.pending(("move", table_0))
    # Reading the other's table (a stray click would) keeps it out of this one's timers.
    await first.snapshot(table_1, fresh=True)
    assert not first.scheduler.pending(("move", table_1))
    clock.advance(31)
    await first.run_due()
    await second.run_due()
    async with db.read() as conn:
        rows = {t: await stored.load(conn, t) for t in (table_0, table_1)}
    assert rows[table_0] is not None and rows[table_1] is not None
    # Each auto-deal was made once, by its own process.
    for row in rows.values():
        assert TableState.model_validate_json(row.state).hand_no == 1
    assert rows[table_0].version == rows[table_1].version


async def test_an_action_on_another_process_s_table_is_refused_and_logged(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    table_0, table_1 = await _two_tables(db, clock)
    first = service(db, clock, shards=FIRST)
    await first.resume()
    async with db.read() as conn:
        before = await stored.load(conn, table_1)
    assert before is not None
    clock.advance(31)
    with caplog.at_level(logging.WARNING, logger="bondbot.tables.service"):
        with pytest.raises(Refusal) as refused:
            await first.act(table_1, BOND_OWNER, "wager", target="player", amount=100)
        with pytest.raises(Refusal) as timed:
            await first.timed_move(table_1, TableState.model_validate_json(before.state).deadline)
    assert refused.value.key == timed.value.key == "table.other_process"
    async with db.read() as conn:
        assert await stored.load(conn, table_1) == before  # nothing written
    (line, *_) = [r.getMessage() for r in caplog.records]
    assert f"table {table_1} of guild {GUILD_1} is on shard 1" in line
    assert "shards 0 of 2" in line
    # Its own table still plays.
    played = await first.act(table_0, BOND_OWNER, "wager", target="player", amount=100)
    assert played.version > 0


async def test_a_table_cannot_be_opened_in_another_process_s_guild(db: Database) -> None:
    clock = Clock()
    first = service(db, clock, shards=FIRST)
    npc = await make_character(db, "Le Chiffre", kind="NPC", guild_id=GUILD_1)
    with pytest.raises(Refusal) as refused:
        await first.open_table(
            guild_id=GUILD_1,
            channel_id=2002,
            actor_id=GM,
            game="punto_banco",
            npc_id=npc,
            min_bet=100,
            max_bet=10_000,
        )
    assert refused.value.key == "table.other_process"
    async with db.read() as conn:
        assert await stored.open_ids(conn) == []


async def test_the_storage_filter_keeps_the_guilds_of_the_shards(db: Database) -> None:
    clock = Clock()
    table_0, table_1 = await _two_tables(db, clock)
    everything = service(db, clock)
    await everything.close(table_1, GM)
    async with db.read() as conn:
        assert sorted(await stored.open_ids(conn)) == [table_0]
        assert await stored.open_ids(conn, shard_count=2, shard_ids=[0]) == [table_0]
        assert await stored.open_ids(conn, shard_count=2, shard_ids=[1]) == []
        assert await stored.open_ids(conn, shard_count=3, shard_ids=[0, 1, 2]) == [table_0]
        assert await stored.closed_undrawn(conn, shard_count=2, shard_ids=[0]) == []
        assert await stored.closed_undrawn(conn, shard_count=2, shard_ids=[1]) == [table_1]
    # The restarted second process redraws its closed table's message; the first does not.
    assert [s.id for s in await service(db, clock, shards=SECOND).resume()] == [table_1]
    assert [s.id for s in await service(db, clock, shards=FIRST).resume()] == [table_0]
