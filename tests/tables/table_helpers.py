"""Building blocks for table-service tests: a settable clock, characters, seeded shoes."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bondbot.bot.tables.acting import options_now
from bondbot.games.contract import Event, Option
from bondbot.rules import baccarat
from bondbot.shards import Shards
from bondbot.sheets import validate_sheet
from bondbot.storage import characters, ledger
from bondbot.storage.db import Database
from bondbot.storage.settings import get_settings
from bondbot.tables.service import TableService, TableSnapshot
from bondbot.tables.state import TableState

GUILD = 1000
CHANNEL = 2000
GM = 1
BOND_OWNER = 11
VESPER_OWNER = 12


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 21, 20, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def seeds_where(predicate: Callable[[baccarat.Coup], bool], packs: int = 8) -> Iterator[bytes]:
    """Seeds (as a live table would draw them) whose shoe's first coup satisfies predicate."""
    for n in range(10_000):
        seed = n.to_bytes(32, "big")
        if predicate(baccarat.deal_coup(baccarat.new_shoe(packs, seed))):
            yield seed


def service(
    db: Database, clock: Clock, seeds: list[bytes] | None = None, *, shards: Shards | None = None
) -> TableService:
    pending = list(seeds or [])

    def seed_source() -> bytes:
        return pending.pop(0) if pending else random.randbytes(32)

    async def guild_settings(guild_id):  # type: ignore[no-untyped-def]
        async with db.read() as conn:
            return await get_settings(conn, guild_id)

    return TableService(
        db,
        clock=clock,
        guild_settings=guild_settings,
        rng=random.Random(7),
        seed_source=seed_source,
        shards=shards,
    )


async def make_character(
    db: Database,
    name: str,
    *,
    kind: str = "PC",
    owner: int | None = None,
    gambling: int = 0,
    per: int = 10,
    cash: int = 0,
    hero: int = 0,
    survival: int = 0,
    guild_id: int = GUILD,
) -> int:
    sheet = validate_sheet(
        {
            "name": name,
            "kind": kind,
            "owner_id": owner,
            "characteristics": {"PER": per},
            "skills": {"gambling": gambling} if gambling else {},
            "cash": cash,
            "hero_points": hero,
            "survival_points": survival,
        }
    )
    async with db.transaction() as conn:
        created = await characters.create_character(conn, guild_id, sheet, now="2026-11-21T19:00")
        return created.id


async def balance(db: Database, account: str, kind: str = "cash") -> int:
    async with db.read() as conn:
        return await ledger.balance(conn, account, kind)  # type: ignore[arg-type]


async def assert_conserved(db: Database) -> None:
    """Every balance equals the ledger, and all cash inside equals what came in from outside."""
    async with db.read() as conn:
        stored = await ledger.stored_balances(conn)
        assert stored == await ledger.recompute_balances(conn)
        rows = await conn.execute_fetchall(
            "SELECT kind, COALESCE(SUM(CASE WHEN src IS NULL THEN amount ELSE 0 END), 0)"
            " - COALESCE(SUM(CASE WHEN dst IS NULL THEN amount ELSE 0 END), 0)"
            " FROM ledger GROUP BY kind"
        )
    from_outside = {kind: total for kind, total in rows}
    for kind in ("cash", "hero"):
        inside = sum(v for (account, k), v in stored.items() if k == kind)
        assert inside == from_outside.get(kind, 0)


async def assert_restores_then_closes(
    db: Database, clock: Clock, tables: TableService, table: int
) -> None:
    """The end of every property run: the state survives a JSON round trip and a restart,
    then the table closes with money and points conserved."""
    snapshot = await tables.snapshot(table, fresh=True)
    assert TableState.model_validate_json(snapshot.state.model_dump_json()) == snapshot.state
    restarted = await service(db, clock).snapshot(table)
    assert restarted.state == snapshot.state and restarted.chips == snapshot.chips
    await tables.close(table, GM)
    await assert_conserved(db)


async def open_table(
    db: Database,
    clock: Clock,
    seeds: list[bytes],
    *,
    game: str,
    bankroll: int | None = 1_000_000,
    options: dict[str, Any] | None = None,
    packs: int | None = None,
) -> tuple[TableService, int, dict[str, int]]:
    """Le Chiffre's table, $10 to $500, with Bond (Gambling 8, a Hero Point) and Vesper."""
    ids = {
        "npc": await make_character(db, "Le Chiffre", kind="NPC", gambling=12, per=12, survival=2),
        "bond": await make_character(
            db, "James Bond", owner=BOND_OWNER, gambling=8, cash=100_000, hero=1
        ),
        "vesper": await make_character(db, "Vesper Lynd", owner=VESPER_OWNER, cash=50_000),
    }
    tables = service(db, clock, seeds)
    snapshot = await tables.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        actor_id=GM,
        game=game,
        npc_id=ids["npc"],
        min_bet=1_000,
        max_bet=50_000,
        bankroll=bankroll,
        options=options,
        packs=packs,
    )
    return tables, snapshot.id, ids


def event_of(snapshot: TableSnapshot, kind: str) -> Any:
    """The game event of this kind that the snapshot's action produced."""
    found: list[Event] = [e for r in snapshot.records for e in r.events if e.kind == kind]
    assert found, f"no {kind} event in {snapshot.records}"
    return found[-1]


def random_move(
    snapshot: TableSnapshot, rng: random.Random
) -> tuple[Option, int | None, str | None] | None:
    """One legal move drawn at random (the button walk's step): its option, an amount
    (the least, the most or between) and a target; None when nothing is legal now.

    Ending the evening would end a walk (Michigan and Makao offer it at every turn): it is
    drawn only when nothing else is left. A game lists Deal only once its shoe serves the
    table, and the table replaces a shoe that does not at the deal.
    """
    engine = snapshot.state.engine
    every = options_now(snapshot)  # with the chips as the table holds them
    options = [option for option in every if option.kind != "end"] or every
    if not engine.in_hand() and engine.needs_new_shoe and "deal" in engine.moves:
        options.append(Option(kind="deal"))
    if not options:
        return None
    option = rng.choice(options)
    amount = None
    if option.min is not None or option.max is not None:
        low = option.min if option.min is not None else 1
        high = option.max if option.max is not None else low
        amount = rng.choice([low, high, (low + high) // 2])
    target = rng.choice(option.targets) if option.targets else None
    return option, amount, target
