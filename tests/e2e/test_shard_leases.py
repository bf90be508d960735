"""A shard is served by one process: `python -m bondbot run` as an operator starts it,
against the fake Discord, on SQLite and on PostgreSQL (when BONDBOT_TEST_POSTGRES is set).

A second process on a shard a running process serves refuses to start, in one line naming
that process; a process on a shard whose holder was killed (SIGKILL: no goodbye) takes it
over and serves it; a process with another shard count than the running ones refuses.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import FakeDiscord

from bondbot.bot import health
from bondbot.cli import main
from bondbot.config import Settings
from bondbot.storage.db import Database

TOKEN = "test-token"
SHARDS = 2


class Process:
    """`python -m bondbot run` on some shards, in its own folder (its health file there)."""

    def __init__(
        self,
        fake: FakeDiscord,
        database: Path | str,
        folder: Path,
        shard: int,
        count: int,
        name: str = "bot",
    ) -> None:
        self.fake, self.shard, self.count = fake, shard, count
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / f"{name}.toml"
        self.log = folder / f"{name}.log"
        self.config.write_text(
            f"database = {json.dumps(str(database))}\n"
            'default_locale = "en"\n'
            'log_level = "INFO"\n'
            f"discord_api_base = {json.dumps(fake.api_base)}\n"
            f"shard_count = {count}\n"
            f"shard_ids = [{shard}]\n",
            encoding="utf-8",
        )
        self.proc: asyncio.subprocess.Process | None = None

    async def launch(self) -> None:
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bondbot",
                "--config",
                str(self.config),
                "run",
                env={**os.environ, "BONDBOT_TOKEN": TOKEN},
                cwd=self.folder,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )

    async def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until its shard's session is up."""
        identified = self.fake.identify_count
        await self.launch()
        assert self.proc is not None
        async with asyncio.timeout(timeout):
            while self.fake.identify_count <= identified:
                if self.proc.returncode is not None:
                    raise AssertionError(f"the bot exited:\n{self.text()}")
                await asyncio.sleep(0.05)

    async def refused(self, timeout: float = 60.0) -> str:
        """Start it and expect it to stop with code 2: its last line."""
        await self.launch()
        assert self.proc is not None
        async with asyncio.timeout(timeout):
            code = await self.proc.wait()
        assert code == 2, self.text()
        return self.text().strip().splitlines()[-1]

    async def health(self) -> int:
        """`bondbot health` as Docker runs it: in the folder, with the same settings."""
        checked = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bondbot",
            "--config",
            str(self.config),
            "health",
            cwd=self.folder,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return await checked.wait()

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

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, shard_count=SHARDS) as running:
        running.heartbeat_interval_ms = 500
        yield running


async def migrated(target: Path | str) -> None:
    db = await Database.open(target)
    try:
        await db.migrate()
    finally:
        await db.close()


async def test_a_second_process_on_a_held_shard_refuses_naming_the_holder(
    fake: FakeDiscord, database_target: Path | str, tmp_path: Path
) -> None:
    await migrated(database_target)
    folder = tmp_path / "bots"  # one folder for all, as two services on one volume
    first = Process(fake, database_target, folder, 0, SHARDS, "first")
    other = Process(fake, database_target, folder, 1, SHARDS, "other")
    try:
        await first.start()
        assert first.proc is not None
        line = await Process(fake, database_target, folder, 0, SHARDS, "second").refused()
        assert line.startswith(
            f"shards: shard 0 is already served by process {first.proc.pid}"
            f" on host {socket.gethostname()}"
        ), line
        # Another count is refused too, while a process of the recorded one runs.
        line = await Process(fake, database_target, folder, 1, 3, "third").refused()
        assert line.startswith(
            "shards: this database is served with shard_count = 2"
            f" (process {first.proc.pid} on host {socket.gethostname()} is running);"
            " this process has shard_count = 3"
        ), line
        # The holder served on all along; the other shard is free for another process.
        assert first.proc.returncode is None
        await other.start()
        assert "holding the lease of shards 1 of 2" in other.text()
        # In one folder, each has a health file of its own, which `bondbot health` with
        # its settings finds.
        files = set()
        for process in (first, other):
            shards = Settings(token="t", shard_count=SHARDS, shard_ids=(process.shard,)).shards
            alive = process.folder / health.heartbeat_path(database_target, shards)
            files.add(alive)
            await fake.wait_until(alive.exists, timeout=30, what=str(alive))
            assert await process.health() == 0
        assert len(files) == 2
    finally:
        await first.stop()
        await other.stop()


async def test_a_process_started_after_kill_9_of_the_holder_takes_the_shard_over(
    fake: FakeDiscord, database_target: Path | str, tmp_path: Path
) -> None:
    await migrated(database_target)
    first = Process(fake, database_target, tmp_path / "first", 0, SHARDS)
    second = Process(fake, database_target, tmp_path / "second", 0, SHARDS)
    try:
        await first.start()
        await first.kill()  # its lease stays behind, its heartbeat stopped
        await second.start()  # on this machine, its holder gone: at once
        assert "holding the lease of shards 0 of 2" in second.text()
        assert second.proc is not None and second.proc.returncode is None
    finally:
        await first.stop()
        await second.stop()
    # Stopped cleanly, it gave its lease back: the next process starts at once.
    third = Process(fake, database_target, tmp_path / "third", 0, SHARDS)
    try:
        await third.start()
        assert "waiting up to" not in third.text()
    finally:
        await third.stop()


def test_health_finds_each_process_s_own_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes in one folder on PostgreSQL: `bondbot health` with each one's settings
    reads that one's file, not the other's."""
    monkeypatch.chdir(tmp_path)
    url = "postgresql://bondbot@127.0.0.1:1/bondbot"
    for shard in (0, 1):
        (tmp_path / f"shard{shard}.toml").write_text(
            f"database = {json.dumps(url)}\nshard_count = 2\nshard_ids = [{shard}]\n",
            encoding="utf-8",
        )
    first = Settings(token="t", shard_count=2, shard_ids=(0,)).shards
    health.write(health.heartbeat_path(url, first), None)
    assert main(["--config", str(tmp_path / "shard0.toml"), "health"]) == 0
    assert main(["--config", str(tmp_path / "shard1.toml"), "health"]) == 1
    assert {p.name for p in tmp_path.glob("*.alive")} == {"bondbot.shards-0.alive"}
