"""What a table action sends to PostgreSQL: a count of statements, not a time (issue 32).

Each statement is a round trip and the bot's CPU to send it and read its answer: on
PostgreSQL, the writer's BEGIN, lock timeout and savepoints go together, a write is not
wrapped in a savepoint of its own (a job whose write fails runs again, careful), and an
action's ledger rows go in one INSERT. The same actions on SQLite give the same money."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from table_helpers import BOND_OWNER, GM, VESPER_OWNER, Clock, assert_conserved, open_table

from bondbot.storage.db import Database
from bondbot.storage.postgres import PgDatabase


@contextmanager
def statements() -> Iterator[list[str]]:
    """Every statement psycopg sends meanwhile (on any connection of the process)."""
    import psycopg

    sent: list[str] = []
    original = psycopg.Cursor.execute

    def execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(query.decode() if isinstance(query, bytes) else str(query))
        return original(self, query, *args, **kwargs)

    psycopg.Cursor.execute = execute  # type: ignore[method-assign]
    try:
        yield sent
    finally:
        psycopg.Cursor.execute = original  # type: ignore[method-assign]


async def test_a_wager_and_a_deal_send_few_statements_on_postgresql(db: Database) -> None:
    if not isinstance(db, PgDatabase):
        pytest.skip("counts PostgreSQL's statements")
    tables, table, ids = await open_table(db, Clock(), [bytes(32)], game="punto_banco")
    for owner, name in ((BOND_OWNER, "bond"), (VESPER_OWNER, "vesper")):
        await tables.join(table, owner, ids[name], 20_000)
        await tables.choose(table, owner, "simulate")
    for _ in range(2):  # the second coup: nothing left to load for the first time
        with statements() as wager:
            await tables.act(table, BOND_OWNER, "wager", target="player", amount=5_000)
        await tables.act(table, VESPER_OWNER, "wager", target="banker", amount=5_000)
        with statements() as deal:
            await tables.act(table, GM, "deal", as_gm=True)
    # The wager's job: BEGIN with its savepoint, the ledger row, the table's state, COMMIT
    # (it was 7: BEGIN, SET, SAVEPOINT, the ledger row's SAVEPOINT, INSERT and RELEASE in
    # one pipeline, then the state's three, RELEASE, COMMIT: 11).
    # The wager: the guild's settings read (a snapshot: BEGIN, SELECT, ROLLBACK), then the
    # job: BEGIN with its lock timeout and savepoint in one, the table's state, COMMIT. It
    # was 11: BEGIN, SET, SAVEPOINT, the state's write in a savepoint of its own (three in
    # a pipeline), RELEASE, COMMIT.
    assert len(wager) <= 6, wager
    # The deal: the same, and its ledger rows (both stakes settled) in one INSERT, where
    # each row was a savepoint, the INSERT and a release: 7 against 14.
    assert len(deal) <= 7, deal
    written = [s for s in wager + deal if s.lstrip().upper().startswith(("INSERT", "UPDATE"))]
    assert sum(s.startswith("INSERT INTO ledger") for s in written) == 1, written
    await assert_conserved(db)
