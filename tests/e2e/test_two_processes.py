"""Two bot processes on the two shards of one bot, one shared database, a table in a guild
of each shard played at once; the first process is killed (SIGKILL) mid-evening and
started again.

Each process is `python -m bondbot run` as an operator starts it, pointed at the fake
Discord in this process (which sends each guild's events to the connection of its shard).
The first process is killed a few milliseconds after the GM's Deal was sent to it:
nothing it answered is lost (an answered Deal is on disk; an unanswered one is on disk or
not, and the GM deals again after the restart), its table is found as it was left, every
coup dealt is counted once, the other process's table answers all along, including while
the first is down, neither process touches the other's table, and the money adds up.

It runs on SQLite (a file both processes lock), and on PostgreSQL as well when
BONDBOT_TEST_POSTGRES holds a URL (the other storage backend; skipped otherwise).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from table_flow import find_button, redrawn_with

from bondbot.i18n import LANGS, t
from bondbot.local import FakeDiscord
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeChannel, FakeMessage, FakeRole, FakeUser
from bondbot.sheets import validate_sheet
from bondbot.storage import characters, ledger
from bondbot.storage import tables as stored
from bondbot.storage.db import Database
from bondbot.tables.state import TableState

SHARDS = 2
COUPS = 5  # dealt at the first process's table: two before the kill, three after
KILL_AFTER = 2
TOKEN = "test-token"
STORIES = {t("summary.title", lang) for lang in LANGS}
NOW = "2026-11-21T20:00:00.000+00:00"


@pytest.fixture
def shared_database(database_target: Path | str) -> Path | str:
    """Where both processes keep the game: a SQLite file, or a fresh PostgreSQL schema
    when BONDBOT_TEST_POSTGRES is set (tests/conftest.py)."""
    return database_target


@dataclass
class Station:
    """A guild on one shard: its casino, GM role, owner, GM and player."""

    shard: int
    channel: FakeChannel
    gm_role: FakeRole
    owner: FakeUser
    gm: FakeUser
    player: FakeUser
    answered: list[float] = field(default_factory=list)  # when each interaction was answered

    @classmethod
    def build(cls, fake: FakeDiscord, shard: int) -> Station:
        guild = fake.add_guild(f"Station {shard}", id=fake.guild_id_on_shard(shard, SHARDS))
        channel = fake.add_channel("casino", guild=guild)
        gm_role = fake.add_role("GM", guild=guild)
        manage_guild = 1 << 5
        owner = fake.add_user(
            None, f"owner{shard}", guild=guild, owner=True, permissions=manage_guild
        )
        gm = fake.add_user(None, f"gm{shard}", guild=guild, roles=[gm_role])
        player = fake.add_user(None, f"player{shard}", guild=guild)
        return cls(shard, channel, gm_role, owner, gm, player)

    def table_message(self, fake: FakeDiscord) -> FakeMessage:
        found = [
            m
            for m in fake.channel_messages(self.channel)
            if m.embeds and m.ephemeral_for is None and m.embeds[0].get("title") not in STORIES
        ]
        assert len(found) == 1, "one public table message, edited in place"
        return found[0]

    def button(self, fake: FakeDiscord, action: str, *args: object) -> str:
        found = find_button(self.table_message(fake).components, [action, *map(str, args)])
        assert found, f"no {action} button"
        return found

    def note(self, result: InteractionResult) -> InteractionResult:
        assert result.interaction.acknowledged
        self.answered.append(time.monotonic())
        return result


class BotProcess:
    """`python -m bondbot run` for one shard, its log in the test's folder."""

    def __init__(self, fake: FakeDiscord, shard: int, database: str | Path, folder: Path):
        self.fake, self.shard = fake, shard
        self.config = folder / f"shard{shard}.toml"
        self.log = folder / f"shard{shard}.log"
        self.config.write_text(
            f"database = {json.dumps(str(database))}\n"
            'default_locale = "en"\n'
            'log_level = "INFO"\n'
            f"discord_api_base = {json.dumps(fake.api_base)}\n"
            f"shard_count = {SHARDS}\n"
            f"shard_ids = [{shard}]\n",
            encoding="utf-8",
        )
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until its shard's session is up (commands synced before)."""
        identified = self.fake.identify_count
        env = {**os.environ, "BONDBOT_TOKEN": TOKEN}
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bondbot",
                "--config",
                str(self.config),
                "run",
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        shard = [self.shard, SHARDS]

        def up() -> bool:
            return self.fake.identify_count > identified and any(
                s.shard == shard and s.connection is not None for s in self.fake.sessions.values()
            )

        async with asyncio.timeout(timeout):
            while not up():
                if self.proc.returncode is not None:
                    raise RuntimeError(f"shard {self.shard}'s bot exited:\n{self.log_text()}")
                await asyncio.sleep(0.05)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                await self.kill()

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


async def open_database(target: str | Path) -> Database:
    return await Database.open(target)  # type: ignore[arg-type]  # a URL on PostgreSQL


async def create_cast(target: str | Path, fake: FakeDiscord, stations: list[Station]) -> None:
    """Le Chiffre and James Bond in each guild, before the bots start."""
    db = await open_database(target)
    try:
        await db.migrate()
        async with db.transaction() as conn:
            for st in stations:
                guild = fake.channels[st.channel.id].guild_id
                for data in (
                    {"name": "Le Chiffre", "kind": "NPC", "skills": {"gambling": 12}},
                    {"name": "James Bond", "kind": "PC", "owner_id": st.player.id, "cash": 100_000},
                ):
                    sheet = validate_sheet({"characteristics": {"PER": 10}, **data})
                    made = await characters.create_character(conn, guild, sheet, now=NOW)
                await characters.set_active_character(conn, guild, st.player.id, made.id)
    finally:
        await db.close()


async def open_table(fake: FakeDiscord, st: Station) -> None:
    at = st.channel
    st.note(await fake.slash(st.owner, "gm role", role=st.gm_role, _channel=at))
    opened = await fake.slash(
        st.gm,
        "table open punto_banco",
        npc="Le Chiffre",
        minimum="10",
        maximum="500",
        bankroll="10000",
        _channel=at,
    )
    st.note(opened)
    await fake.wait_for_message(at, lambda m: bool(m.embeds) and m.ephemeral_for is None)
    modal = await fake.click(st.player, st.table_message(fake), st.button(fake, "seat"))
    # All his cash: the other table plays $10 coups for as long as the first's restart
    # takes, which on a loaded machine can be a hundred of them.
    joined = st.note(await fake.submit_modal(st.player, modal, {"amount": "1000"}))
    assert joined.content.startswith("You sit down with $1,000 in chips."), joined.content
    simulate = next(cid for cid in joined.custom_ids() if cid.endswith(":choose:simulate"))
    chose = await fake.click(st.player, joined, simulate)  # the choice comes with the seat
    assert st.note(chose).content.startswith("You simulate the game")


async def bet(fake: FakeDiscord, st: Station) -> None:
    await shows(fake, st, "bets")  # drawn once he plays the game (after his choice)
    modal = await fake.click(st.player, st.table_message(fake), st.button(fake, "bets"))
    values = {"on": ["player"], "amount": "10"}
    placed = st.note(await fake.submit_modal(st.player, modal, values))
    assert redrawn_with(placed, "on Player: $10"), placed


async def shows(fake: FakeDiscord, st: Station, action: str) -> None:
    """Wait for the table message drawn with `action`'s button (Deal once a wager is in)."""
    await fake.wait_until(
        lambda: find_button(st.table_message(fake).components, [action]) is not None
    )


async def deal(fake: FakeDiscord, st: Station) -> None:
    await shows(fake, st, "deal")
    dealt = await fake.click(st.gm, st.table_message(fake), st.button(fake, "deal"))
    assert st.note(dealt).response_type == 7  # answered with the table message redrawn


async def close(fake: FakeDiscord, st: Station) -> None:
    closed = st.note(await fake.slash(st.gm, "table close", _channel=st.channel))
    assert "seed" in (closed.content or "")


async def table_rows(target: str | Path) -> dict[int, stored.TableRow]:
    """Every table as the database holds it, by guild."""
    db = await open_database(target)
    try:
        async with db.read() as conn:
            ids = [row[0] for row in await conn.execute_fetchall("SELECT id FROM card_tables")]
            rows = [await stored.load(conn, table_id) for table_id in ids]
    finally:
        await db.close()
    return {row.guild_id: row for row in rows if row is not None}


def hand_no(row: stored.TableRow) -> int:
    """How many coups the table has dealt."""
    return TableState.model_validate_json(row.state).hand_no


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, shard_count=SHARDS) as running:
        yield running


async def test_two_processes_share_the_database_and_survive_a_kill(
    fake: FakeDiscord, shared_database: str | Path, tmp_path: Path
) -> None:
    stations = [Station.build(fake, shard) for shard in range(SHARDS)]
    first, second = stations
    guilds = [fake.channels[st.channel.id].guild_id for st in stations]
    await create_cast(shared_database, fake, stations)
    processes = [BotProcess(fake, shard, shared_database, tmp_path) for shard in range(SHARDS)]
    down: list[float] = []  # when the first process was killed, and when it was back
    try:
        await asyncio.gather(*(p.start() for p in processes))
        await asyncio.gather(*(open_table(fake, st) for st in stations))

        first_done = asyncio.Event()

        async def second_evening() -> int:
            """The other process's table plays on until the first's evening is over."""
            coups = 0
            while not first_done.is_set() or coups < COUPS:
                await bet(fake, second)
                await deal(fake, second)
                coups += 1
                await asyncio.sleep(0.1)
            await close(fake, second)
            return coups

        async def first_evening() -> dict[str, Any]:
            seen: dict[str, Any] = {}
            coup = 0
            while coup < COUPS:
                await bet(fake, first)
                if coup != KILL_AFTER or seen:
                    await deal(fake, first)
                    coup += 1
                    continue
                # Mid-evening, a wager answered: the GM's Deal is on its way when the
                # process is killed, a few milliseconds after it was sent.
                await shows(fake, first, "deal")
                in_flight = await fake.click(
                    first.gm, first.table_message(fake), first.button(fake, "deal"), _wait=False
                )
                await asyncio.sleep(random.Random(7).uniform(0.0, 0.03))
                await processes[0].kill()
                down.append(time.monotonic())
                seen["answered"] = in_flight.interaction.acknowledged
                seen["killed"] = (await table_rows(shared_database))[guilds[0]]
                await asyncio.sleep(1.0)  # the other table plays on meanwhile
                seen["while_down"] = (await table_rows(shared_database))[guilds[0]]
                await processes[0].start()
                down.append(time.monotonic())
                seen["restarted"] = (await table_rows(shared_database))[guilds[0]]
                seen["landed"] = hand_no(seen["killed"]) == KILL_AFTER + 1
                if seen["landed"]:  # dealt before the kill; the restart redraws its result
                    coup += 1
                else:  # not dealt: the wager still waits, and the GM deals again
                    await fake.wait_until(
                        lambda: "on Player: $10" in str(first.table_message(fake).embeds),
                        timeout=10,
                        what="the table redrawn with the wager it had",
                    )
            await close(fake, first)
            first_done.set()
            return seen

        seen, second_coups = await asyncio.gather(first_evening(), second_evening())
    finally:
        await asyncio.gather(*(p.stop() for p in processes))

    # Nothing the killed process had answered was lost (a Deal answered is on disk), and
    # nobody touched its table while it was down (the other does not resume or time it).
    assert seen["landed"] or not seen["answered"]
    assert hand_no(seen["killed"]) in (KILL_AFTER, KILL_AFTER + 1)
    assert seen["killed"] == seen["while_down"] == seen["restarted"]
    # The other process answered all along, also while the first was down.
    killed, back = down
    assert any(killed < at < back for at in second.answered), "no answer while one was down"
    rows = await table_rows(shared_database)
    dealt = {g: hand_no(rows[g]) for g in guilds}
    assert dealt == {guilds[0]: COUPS, guilds[1]: second_coups}
    assert all(rows[g].status == "closed" for g in guilds)
    db = await open_database(shared_database)
    try:
        async with db.read() as conn:
            assert await ledger.verify_balances(conn) == {}
            # What PCs and NPCs hold is what came in from outside the game, less what left.
            inside = await conn.execute_fetchall(
                "SELECT kind, SUM(balance) FROM balances GROUP BY kind ORDER BY kind"
            )
            outside = await conn.execute_fetchall(
                "SELECT kind, SUM(CASE WHEN src IS NULL THEN amount ELSE 0 END)"
                " - SUM(CASE WHEN dst IS NULL THEN amount ELSE 0 END)"
                " FROM ledger GROUP BY kind ORDER BY kind"
            )
    finally:
        await db.close()
    assert [tuple(r) for r in inside] == [tuple(r) for r in outside]
    # Each process served its shard alone: no action was refused as another's.
    for process in processes:
        assert "refused: table" not in process.log_text()
        assert f"serving shards {process.shard} of {SHARDS}" in process.log_text()
