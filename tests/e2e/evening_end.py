"""The end of an evening through the fake Discord: the closed table, the summary, the shoes.

`unnamed` scans every version of every message the fake holds (any channel or thread,
public or ephemeral: content, embeds, buttons) for a "?" standing where a name goes;
`the_end` checks what a closed table and its summary must say, for any game.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from table_flow import STORIES, table_message, wait_table

from bondbot.bot.client import BondBot
from bondbot.bot.tables.story import read_story
from bondbot.local import FakeDiscord
from bondbot.local.models import FakeMessage

# A "?" alone where a name goes: a line starting "?", "**?**", "Winner: ?", "?, ?",
# "— ?"; not a question's mark ("Prendre encore ?", "Delete **James Bond**?": a word
# before it), nor a hidden total "(?)".
NAME_AS_QUESTION_MARK = re.compile(r"(?<=\*\*)\?(?=\*\*)|(?:^|(?<=[:,(—→] ))\?(?![)\w])", re.M)
HASH = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
TEXT_KEYS = ("content", "title", "description", "name", "value", "text", "label", "placeholder")
LOBBY = ("Nobody is seated yet.", "bank $0", "Bets are open", "(0 placed)", "the GM deals")


def _texts(value: Any) -> Iterator[str]:
    """Every text a person reads in a payload (embeds, fields, footers, buttons)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, str) and key in TEXT_KEYS:
                yield inner
            elif isinstance(inner, dict | list):
                yield from _texts(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _texts(inner)


def every_version(fake: FakeDiscord) -> Iterator[tuple[FakeMessage, str]]:
    """Each text of each version of each message the bot sent, anywhere."""
    for message in fake.messages.values():
        for version in [*message.history, message.snapshot()]:
            if version.content:
                yield message, version.content
            for text in _texts([version.embeds, version.components]):
                yield message, text


def unnamed(fake: FakeDiscord) -> list[str]:
    """The texts where a "?" stands for a name (none, ever, is the rule)."""
    return [text for _, text in every_version(fake) if NAME_AS_QUESTION_MARK.search(text)]


def hashes_on_the_table(fake: FakeDiscord) -> list[str]:
    """64-hex strings (a shoe's commitment or seed) in any version of the table message."""
    table = table_message(fake)
    found = []
    for version in [*table.history, table.snapshot()]:
        found += HASH.findall(json.dumps([version.embeds, version.components]))
    return found


def embed_text(embed: dict[str, Any]) -> str:
    return "\n".join(_texts(embed))


@dataclass
class TheEnd:
    closed: str  # the closed table's text
    summary: str  # the summary's text
    hands: int  # hands the summary says were played
    chart_hands: list[int]  # the chart's x axis, from the same story


async def the_end(
    fake: FakeDiscord, bot: BondBot, table_id: int, pcs: list[str], npc: str
) -> TheEnd:
    """Once the table is closed: its message and its summary name every PC and the NPC
    and say the NPC's result; the table is no lobby; no "?" stands for a name anywhere;
    the table message never carried a hash in full; the chart counts the summary's hands."""
    closed = embed_text((await wait_table(fake, "This table is closed.")).embeds[0])
    stories: list[FakeMessage] = []

    def posted() -> bool:  # in the table's thread, or its channel
        stories[:] = [
            m for m in fake.messages.values() if m.embeds and m.embeds[0].get("title") in STORIES
        ]
        return bool(stories)

    await fake.wait_until(posted, what="the evening's summary")
    summary = embed_text(stories[0].embeds[0])
    for name in [*pcs, npc]:
        assert name in closed, f"{name} missing from the closed table:\n{closed}"
        assert name in summary, f"{name} missing from the summary:\n{summary}"
    assert f"{npc} leaves " in closed and f"{npc} leaves " in summary
    assert [phrase for phrase in LOBBY if phrase in closed] == []
    assert "hands won back: 0" not in summary
    assert unnamed(fake) == []
    assert hashes_on_the_table(fake) == []
    hands = int(re.search(r"Hands played: (\d+)\.", summary).group(1))  # type: ignore[union-attr]
    snapshot = await bot.services.tables.snapshot(table_id)
    async with bot.db.read() as conn:  # type: ignore[union-attr]
        told = await read_story(conn, snapshot)
    spec = told.evening.chart(told.names, npc)
    return TheEnd(closed, summary, hands, [hand for hand, _ in spec.points])
