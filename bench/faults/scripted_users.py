"""Scripted fake users for crash.py and clicks.py (bench/faults), against the bot in its own
process.

What both share: the cast (one guild, a GM with the GM role, players, channels; their
sheets written to the database before the bot starts), the users' clicks (dispatched with
`_wait=False`, then waited for up to Discord's 3 s, and sorted by what came back: a clear
answer, the generic error, or none), and what the channel and the database show.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "load"))  # load_bot, load_fake

import aiosqlite
from load_common import DEADLINE_S
from load_fake import BenchFake, FakeChannel, FakeMessage, InteractionRejected, InteractionResult

from bondbot.i18n import t
from bondbot.sheets import validate_sheet
from bondbot.storage import characters
from bondbot.storage.db import Database
from bondbot.storage.settings import update_settings

NOW = "2026-11-21T20:00:00.000+00:00"
GENERIC = t("errors.internal", "en")  # the answer to the bot's own faults: not a clear one
CLEAR, GENERIC_ERROR, NO_ANSWER = "answered clearly", "generic error", "no answer"

Starter = Callable[[], Awaitable[InteractionResult]]


@dataclass
class Player:
    """A fake user and his PC (his active character)."""

    user: Any  # FakeUser
    name: str
    character_id: int = 0


class Cast:
    """One guild: a GM (GM role), players with one PC each, NPCs, the given channels."""

    def __init__(
        self, fake: BenchFake, channels: list[str], players: list[str], npcs: list[str]
    ) -> None:
        self.fake = fake
        self.guild = fake.add_guild("Universal Exports", locale="en-US")
        self.channels: dict[str, FakeChannel] = {
            name: fake.add_channel(name, guild=self.guild) for name in channels
        }
        self.gm_role = fake.add_role("GM", guild=self.guild, mentionable=True)
        self.gm = fake.add_user(None, "gm", global_name="Q", roles=[self.gm_role])
        self.players: dict[str, Player] = {
            name: Player(fake.add_user(None, f"player{n}", global_name=name), name)
            for n, name in enumerate(players, start=1)
        }
        self.npcs: dict[str, int] = dict.fromkeys(npcs, 0)
        self.seeded: dict[int, tuple[int, int]] = {}  # character → (cash, Hero Points)

    async def seed(self, path: Path, *, cash: int, hero_points: int) -> None:
        """The sheets (PCs: Gambling 8, each his player's active character) and the GM role."""
        db = await Database.open(path)
        try:
            await db.migrate()
            async with db.transaction() as conn:
                await update_settings(
                    conn,
                    self.guild.id,
                    default_locale="en",
                    gm_role_id=self.gm_role.id,
                    locale="en",
                )
                for name in self.npcs:
                    sheet = {"name": name, "kind": "NPC", "skills": {"gambling": 12}}
                    self.npcs[name] = await _create(conn, self.guild.id, sheet)
                    self.seeded[self.npcs[name]] = (0, 0)
                for player in self.players.values():
                    sheet = {
                        "name": player.name,
                        "kind": "PC",
                        "owner_id": player.user.id,
                        "skills": {"gambling": 8},
                        "cash": cash,
                        "hero_points": hero_points,
                    }
                    player.character_id = await _create(conn, self.guild.id, sheet)
                    self.seeded[player.character_id] = (cash, hero_points)
                    await characters.set_active_character(
                        conn, self.guild.id, player.user.id, player.character_id
                    )
        finally:
            await db.close()


async def _create(conn: Any, guild_id: int, sheet: dict[str, Any]) -> int:
    data = validate_sheet({"characteristics": {"PER": 10}, **sheet})
    return (await characters.create_character(conn, guild_id, data, now=NOW)).id


# -- clicks ------------------------------------------------------------------------------------


@dataclass
class Answer:
    """An interaction and what the bot did with it within the deadline."""

    result: InteractionResult | None  # None: never sent
    acked: bool

    @property
    def verdict(self) -> str:
        if self.result is None or not self.acked:
            return NO_ANSWER
        return GENERIC_ERROR if (self.result.content or "").startswith(GENERIC) else CLEAR

    @property
    def content(self) -> str:
        return (self.result.content or "") if self.result is not None and self.acked else ""

    @property
    def modal(self) -> Any:
        return self.result.modal if self.result is not None and self.acked else None

    def button(self, fragment: str) -> dict[str, Any] | None:
        """The answer's first button whose custom id contains `fragment`."""
        if self.result is None or not self.acked or self.result.message is None:
            return None
        return next((b for b in buttons(self.result.message) if fragment in b["custom_id"]), None)


@dataclass
class Users:
    """Sends interactions as the fake users while the gate is open, and waits for each
    answer; counts them, and tells `watchers` (a killer) of every dispatch."""

    fake: BenchFake
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    dispatched: int = 0
    unanswered: int = 0
    sent: Counter[str] = field(default_factory=Counter)
    in_flight: Counter[str] = field(default_factory=Counter)
    watchers: list[Callable[[int], None]] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    answers: Counter[tuple[str, str]] = field(default_factory=Counter)  # (label, text) seen

    def __post_init__(self) -> None:
        self.gate.set()

    async def send(self, label: str, start: Starter, *, gated: bool = True) -> Answer:
        """Dispatch (once the gate is open, unless not `gated`) and wait for the answer."""
        if gated:
            await self.gate.wait()
        try:
            result = await start()
        except (InteractionRejected, RuntimeError, ConnectionError) as error:
            self.rejected[f"{label}: {error}"[:120]] += 1  # Discord's client would not send it
            return Answer(None, False)
        self.dispatched += 1
        self.sent[label] += 1
        self.in_flight[label] += 1
        for watcher in self.watchers:
            watcher(self.dispatched)
        try:
            await self.fake.wait_ack(result.interaction, DEADLINE_S + 0.25)
            acked = True
        except TimeoutError:
            acked = False
            self.unanswered += 1
        finally:
            self.in_flight[label] -= 1
        answer = Answer(result, acked)
        gist = re.split(r"[:;.(]", answer.content, maxsplit=1)[0][:60]
        self.answers[(label, gist or answer.verdict)] += 1
        return answer

    async def click(
        self, label: str, user: Any, message: Any, custom_id: str, *, gated: bool = True
    ) -> Answer:
        return await self.send(
            label, lambda: self.fake.click(user, message, custom_id, _wait=False), gated=gated
        )

    async def submit(
        self, label: str, user: Any, modal: InteractionResult, values: Mapping[str, Any]
    ) -> Answer:
        return await self.send(
            label, lambda: self.fake.submit_modal(user, modal, values, _wait=False)
        )

    async def slash(
        self, label: str, user: Any, path: str, channel: FakeChannel, **options: Any
    ) -> Answer:
        return await self.send(
            label,
            lambda: self.fake.slash(user, path, _channel=channel, _wait=False, **options),
        )

    def flying(self) -> str:
        return (
            ", ".join(
                f"{label} ×{n}" if n > 1 else label for label, n in self.in_flight.items() if n
            )
            or "nothing"
        )


# -- the channel -------------------------------------------------------------------------------


def buttons(message: FakeMessage | None) -> Iterator[dict[str, Any]]:
    for row in message.components if message is not None else []:
        yield from row.get("components", [])


def table_messages(fake: BenchFake, channel: FakeChannel) -> list[FakeMessage]:
    """The channel's public messages with an embed: table messages (every answer is private)."""
    return [m for m in fake.channel_messages(channel) if m.embeds and m.ephemeral_for is None]


def table_id_of(message: FakeMessage) -> int | None:
    """The table a message's buttons belong to (`bb:tbl:<table>:…`); None without buttons."""
    for button in buttons(message):
        parts = button.get("custom_id", "").split(":")
        if parts[:2] == ["bb", "tbl"]:
            return int(parts[2])
    return None


def has_button(message: FakeMessage | None, custom_id: str, *, enabled: bool = True) -> bool:
    return any(
        b.get("custom_id") == custom_id and not (enabled and b.get("disabled"))
        for b in buttons(message)
    )


async def until(predicate: Callable[[], Any], timeout: float, poll: float = 0.05) -> Any:
    """Polls `predicate` until it returns something true (returned) or `timeout` passes (None).

    Polling, because a click answered by redrawing the message (a Deal) changes it without
    any channel event the fake's waits hear."""
    deadline = time.monotonic() + timeout
    while True:
        found = predicate()
        if found or time.monotonic() >= deadline:
            return found or None
        await asyncio.sleep(poll)


# -- the database ------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def reading(path: Path) -> AsyncIterator[aiosqlite.Connection]:
    """A connection that only reads, its queries in one snapshot (one read transaction)."""
    async with aiosqlite.connect(path) as conn:
        await conn.execute("BEGIN")
        try:
            yield conn
        finally:
            await conn.execute("ROLLBACK")


async def scalar(path: Path, sql: str, params: tuple[Any, ...] = ()) -> Any:
    async with reading(path) as conn:
        rows = list(await conn.execute_fetchall(sql, params))
    return rows[0][0] if rows else None
