"""The end of an evening through the fake Discord: the closed table, the summary, the shoes.

`unnamed` scans every version of every message the fake holds (any channel or thread,
public or ephemeral: content, embeds, buttons) for a "?" standing where a name goes;
`the_end` checks what a closed table and its summary must say, for any game: among it,
that the winner and the podium are the ledger's nets (read here from the sheets' rows
alone, not through `tables.summary`), ties shared, no podium when nobody moved.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from table_flow import STORIES, table_message, wait_table

from bondbot.bot.client import BondBot
from bondbot.bot.tables.story import names_a_winner, npc_competes, read_story
from bondbot.i18n import Lang, t
from bondbot.local import FakeDiscord
from bondbot.local.models import FakeMessage
from bondbot.storage import ledger

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


MEDALS = ("🥇", "🥈", "🥉")


def played_count(text: str, game: str, lang: Lang) -> int:
    """The hands played the text says, in the game's own words ("Rounds played: 3.")."""
    word = t(f"games.hand_word.{game}", lang)
    said = re.escape(t(f"summary.by.{word}.played", lang, count="§")).replace("§", r"(\d+)")
    found = re.search(said, text)
    assert found, f"no '{said}' in:\n{text}"
    return int(found.group(1))


def check_podium(
    text: str, nets: dict[str, int], competing: dict[str, int], has_winner: bool, lang: Lang
) -> None:
    """The winner line and the medals of `text` are the nets' (by name): the best gain
    among `competing` wins, ties share it and are said as ties; the PCs' `nets` take the
    medals; nobody moved means no winner and no medal."""
    top = max(competing.values(), default=0)
    first = [name for name, net in competing.items() if net == top] if top > 0 else []
    winner = [line for line in text.splitlines() if line.startswith(("Winner", "Vainqueur"))]
    if has_winner and first:
        assert len(winner) == 1, text
        key = "summary.winner" if len(first) == 1 else "summary.winners_tied"
        shown = ", ".join(
            f"**{name}**" for name in sorted(first, key=lambda n: winner[0].find(f"**{n}**"))
        )
        assert winner == [t(key, lang, names=shown)], text
    else:
        assert winner == [], text
    medalled = {
        line.split("**")[1]: line.split(" ")[0]
        for line in text.splitlines()
        if line.startswith(MEDALS)
    }
    if not any(nets.values()):
        assert medalled == {}, text
        return
    best = max(nets.values())
    assert {name for name, medal in medalled.items() if medal == "🥇"} == set(
        name for name, net in nets.items() if net == best
    ), text
    ranked = sorted(nets.values(), reverse=True)
    for name, medal in medalled.items():
        assert ranked.index(nets[name]) == MEDALS.index(medal), (name, text)


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
    snapshot = await bot.services.tables.snapshot(table_id)
    game, lang = snapshot.state.config.game, snapshot.state.config.language or "en"
    hands = played_count(summary, game, lang)
    assert played_count(closed, game, lang) == hands
    async with bot.db.read() as conn:  # type: ignore[union-attr]
        told = await read_story(conn, snapshot)
        rows = await ledger.table_entries(conn, table_id)
    # Each PC's net, from his sheet's rows at this table alone (all cashed out now).
    nets = {}
    for character_id, name in snapshot.state.sat.items():
        sheet = ledger.sheet_account(character_id)
        moved = [r for r in rows if r.kind == "cash" and sheet in (r.src, r.dst)]
        nets[name] = sum(r.amount if r.dst == sheet else -r.amount for r in moved)
    # The NPC is read among them where the game has him play for the win: his result is
    # what his bank gained, bookkeeping (bankroll in and out) aside.
    bank = f"bank:{table_id}"
    npc_rows = [r for r in rows if r.kind == "cash" and not r.reason.startswith("table.")]
    npc_net = sum(
        r.amount if r.dst == bank else -r.amount for r in npc_rows if bank in (r.src, r.dst)
    )
    competing = {**nets, npc: npc_net} if npc_competes(snapshot.state) else nets
    for text in (closed, summary):
        check_podium(text, nets, competing, names_a_winner(snapshot.state), lang)
    assert not re.search(r"\(\$0\)|\(0\s\$\)", summary)  # no "won back hand 1 ($0)"
    spec = told.evening.chart(told.names, npc)
    return TheEnd(closed, summary, hands, [hand for hand, _ in spec.points])
