"""How much a player reads on the table message, and an evening of any game to count it.

`lines_read` counts the lines of the embed's description and field values (not its title,
field names, footer or buttons: a player reads those at a glance), each non-empty line
once. `evening` plays a game at a table of `seats` PCs, all simulating, by random legal
moves through the table service (the walk of `test_table_buttons.py`), and counts the
table message after every move.
"""

from __future__ import annotations

import hashlib
import random
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from table_helpers import GM, Clock, make_character, service

from bondbot.bot.tables.acting import options_now
from bondbot.bot.tables.message import table_embed
from bondbot.errors import Refusal
from bondbot.games.contract import Option
from bondbot.money import Currency
from bondbot.storage.db import Database
from bondbot.tables.service import TableSnapshot

NAMES = (
    "James Bond",
    "Vesper Lynd",
    "René Mathis",
    "Felix Leiter",
    "Miss Moneypenny",
    "Bill Tanner",
    "Q Boothroyd",
    "Tiger Tanaka",
    "Kissy Suzuki",
    "Honey Rider",
)


def lines_read(payload: dict[str, Any]) -> list[str]:
    """The lines a player reads in a table message's embed payload (`Embed.to_dict()`)."""
    texts = [payload.get("description") or ""]
    texts += [f.get("value") or "" for f in payload.get("fields", [])]
    return [line for text in texts for line in text.split("\n") if line.strip()]


@dataclass
class Counts:
    """The lines read on every table message drawn in an evening, and the longest one."""

    counts: list[int] = field(default_factory=list)
    longest: list[str] = field(default_factory=list)

    def add(self, lines: list[str]) -> None:
        self.counts.append(len(lines))
        if len(lines) > len(self.longest):
            self.longest = lines

    @property
    def median(self) -> float:
        return statistics.median(self.counts)

    @property
    def most(self) -> int:
        return max(self.counts)


def count(snapshot: TableSnapshot, clock: Clock, counts: dict[str, Counts]) -> None:
    for lang in ("en", "fr"):
        embed = table_embed(snapshot, lang, Currency("$", lang), clock.now)
        counts.setdefault(lang, Counts()).add(lines_read(embed.to_dict()))  # type: ignore[arg-type]


Seen = Callable[[TableSnapshot, Clock], None]
Closed = Callable[[TableSnapshot], Awaitable[None]]


async def evening(
    db: Database,
    game: str,
    seats: int,
    seed: int,
    steps: int = 160,
    *,
    seen: Seen | None = None,
    closed: Closed | None = None,
) -> Counts:
    """The counts of an evening of `game` at `seats` PCs (the worse of the two languages);
    `seen` is shown every snapshot, `closed` the closed table's."""
    clock = Clock()
    shoes = [hashlib.sha256(f"lines {game} {seed} {n}".encode()).digest() for n in range(64)]
    tables = service(db, clock, shoes)
    npc = await make_character(db, "Le Chiffre", kind="NPC", gambling=12, per=12, survival=2)
    opened = await tables.open_table(
        guild_id=1000,
        channel_id=3000 + seed,
        actor_id=GM,
        game=game,
        npc_id=npc,
        min_bet=1_000,
        max_bet=50_000,
        bankroll=None,
    )
    table = opened.id
    owners: dict[str, int] = {}
    for index in range(seats):
        owner = 100 + index
        pc = await make_character(db, NAMES[index], owner=owner, cash=10**9, hero=5)
        snapshot = await tables.snapshot(table)
        least = max(snapshot.state.engine.least_stack(), 1_000)
        await tables.join(table, owner, pc, min(50_000, max(least, 40_000)))
        try:
            await tables.choose(table, owner, "simulate")
        except Refusal:  # hold'em seats ten with the NPC: the tenth sits by the rulebook
            await tables.choose(table, owner, "rulebook")
            continue
        owners[str(pc)] = owner
    rng = random.Random(seed)
    counts: dict[str, Counts] = {}
    for _ in range(steps):
        snapshot = await tables.snapshot(table)
        count(snapshot, clock, counts)
        if seen is not None:
            seen(snapshot, clock)
        engine = snapshot.state.engine
        every = options_now(snapshot)
        options = [option for option in every if option.kind != "end"] or every
        if not engine.in_hand() and engine.needs_new_shoe and "deal" in engine.moves:
            options.append(Option(kind="deal"))
        if not options:
            clock.advance(30)
            await tables.run_due()
            continue
        option = rng.choice(options)
        amount = None
        if option.min is not None or option.max is not None:
            low = option.min if option.min is not None else 1
            high = option.max if option.max is not None else low
            amount = rng.choice([low, high, (low + high) // 2])
        target = rng.choice(option.targets) if option.targets else None
        user = owners.get(option.seat or "")
        try:
            await tables.act(
                table,
                GM if user is None else user,
                option.kind,
                amount=amount,
                target=target,
                as_gm=user is None,
                for_npc=option.seat == snapshot.state.npc_key,
            )
        except Refusal:
            clock.advance(5)
        if rng.random() < 0.1:  # a Hero Point window runs out now and then
            clock.advance(120)
            await tables.run_due()
    await tables.close(table, GM)
    if closed is not None:
        await closed(await tables.snapshot(table))
    return max(counts.values(), key=lambda c: (c.most, c.median))
