"""Each hand's picture: drawn once the hand ends, carried by the answer to the click on the
table message that ended it (Discord does not count an interaction's answer against the
bot's budget), else posted in the table's thread, in the order the hands ended; the
table message keeps showing the last hand's picture under it until the next one's.

A part of `TableMessages` (bot/tables/messages.py), kept apart by concern: the table's
state and its redraws there, the hands' pictures here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import defaultdict
from collections.abc import Coroutine, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bondbot.bot.tables.language import table_lang
from bondbot.bot.tables.results import (
    PICTURE,
    ResultPicture,
    ended_hand,
    result_embed,
    result_picture,
)
from bondbot.games.contract import ShownHand
from bondbot.pictures.cards import drawn, result_png
from bondbot.tables.service import TableSnapshot

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

log = logging.getLogger("bondbot.bot.tables.messages")
EMBEDS_MAX = 6000  # Discord's limit for a message's embeds together

ANSWER_WAIT_S = 3.5  # how long a hand's picture waits for the answer that may carry it
# How long that answer waits for the picture's drawing (about a millisecond on a quiet
# loop): past it the answer goes without, and the picture to the thread. A busy bot
# answers in time rather than spare a request.
DRAWING_WAIT_S = 0.25

# The table message whose button the interaction being handled clicked (set by the Tables
# cog): a hand that click ends is pictured on the answer redrawing that message, which
# Discord does not count against the bot's budget, rather than posted in the thread.
clicked: ContextVar[int | None] = ContextVar("clicked", default=None)


@dataclass
class AnswerPicture:
    """A hand's picture, drawn for the answer to the click that ended the hand."""

    hand: int
    drawn: asyncio.Event = field(default_factory=asyncio.Event)
    taken: asyncio.Event = field(default_factory=asyncio.Event)  # the answer went (or not)
    carried: bool = False  # the answer carried it: no post in the thread
    embed: discord.Embed | None = None
    png: bytes | None = None
    alt: str = ""


class HandPictures:
    """The hands' pictures of `TableMessages` (its state, declared here for the mixin)."""

    bot: BondBot
    _for_answer: dict[int, AnswerPicture]  # table → the picture its answer may carry
    _on_table: dict[int, discord.Embed]  # table → the picture its message shows
    _pictured: dict[int, int]  # table → the last hand whose result was posted
    _picturing: defaultdict[int, asyncio.Lock]
    _shown: dict[int, TableSnapshot]

    if TYPE_CHECKING:  # TableMessages' own

        async def changed(self, snapshot: TableSnapshot) -> None: ...
        def thread_of(self, snapshot: TableSnapshot) -> int | None: ...
        def start(self, post: Coroutine[Any, Any, None]) -> None: ...
        async def post(self, snapshot: TableSnapshot, what: str, build: Any) -> int | None: ...

    def click_handled(self, table_id: int) -> None:
        """The click on the table message is handled: a picture its answer did not take
        goes to the thread now."""
        picture = self._for_answer.pop(table_id, None)
        if picture is not None:
            picture.taken.set()

    def _take_picture(self, snapshot: TableSnapshot) -> AnswerPicture | None:
        """The picture of the hand `snapshot`'s action ended, if this answer is to carry it."""
        picture = self._for_answer.get(snapshot.id)
        if picture is None or picture.hand != snapshot.state.hand_no or not ended_hand(snapshot):
            return None
        del self._for_answer[snapshot.id]
        return picture

    def _pictured_on(self, table_id: int, drawn: dict[str, Any]) -> dict[str, Any]:
        """`drawn` with the last hand's picture the table message shows under it (its
        file stays attached), or without any picture (an older one's file goes)."""
        if "embeds" in drawn:
            return drawn
        drawn = dict(drawn)
        embed = drawn.pop("embed")
        shown = self._on_table.get(table_id)
        if shown is not None and len(embed) + len(shown) <= EMBEDS_MAX:
            return {**drawn, "embeds": [embed, shown]}
        return {**drawn, "embeds": [embed], "attachments": []}

    async def hand_ended(self, snapshot: TableSnapshot) -> None:
        """Picture the hand the action behind `snapshot` ended, once: on the answer to the
        click that ended it, if that click was on the table message and its answer redraws
        it; else in the table's thread, after the action's answer. In the order the hands
        ended."""
        rows = ended_hand(snapshot)
        hand = snapshot.state.hand_no
        if not rows or not self.thread_of(snapshot) or self._pictured.get(snapshot.id, -1) >= hand:
            return
        self._pictured[snapshot.id] = hand
        waiting = None
        if snapshot.message_id is not None and clicked.get() == snapshot.message_id:
            waiting = self._for_answer[snapshot.id] = AnswerPicture(hand)
        self.start(self._post_result(snapshot, rows, waiting))

    async def _post_result(
        self,
        snapshot: TableSnapshot,
        rows: Sequence[ShownHand],
        waiting: AnswerPicture | None = None,
    ) -> None:
        """Draw the hand's picture; give it to the answer `waiting` for it (the click that
        ended the hand, on the table message: drawn at once, before any earlier hand's post
        is through, so that answer never waits on the thread), else, or if that answer did
        not carry it, post it in the thread, in the order the hands ended."""
        if waiting is not None:
            result = await self._draw_result(snapshot, rows)
            if result is not None:
                waiting.embed, waiting.png, waiting.alt = result[1], result[2], result[0].alt
            waiting.drawn.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiting.taken.wait(), ANSWER_WAIT_S)
            if self._for_answer.get(snapshot.id) is waiting:
                del self._for_answer[snapshot.id]
            if waiting.carried or result is None:
                return
        async with self._picturing[snapshot.id]:  # taken before any wait: hands in order
            if waiting is None:
                result = await self._draw_result(snapshot, rows)
                if result is None:
                    return
            picture, embed, png = result
            if self._on_table.pop(snapshot.id, None) is not None:
                self._shown.pop(snapshot.id, None)  # an older hand's picture: it goes
                await self.changed(snapshot)

            def build() -> dict[str, Any]:  # a new file each try: a sent one is read
                file = discord.File(io.BytesIO(png), PICTURE, description=picture.alt)
                return {"embed": embed, "file": file}

            await self.post(snapshot, "pictures", build)

    async def _draw_result(
        self, snapshot: TableSnapshot, rows: Sequence[ShownHand]
    ) -> tuple[ResultPicture, discord.Embed, bytes] | None:
        """The hand's picture (its words, its embed, its PNG); None if it could not be drawn."""
        try:
            settings = await self.bot.services.guilds.get(snapshot.guild_id)
            picture = result_picture(snapshot, rows, table_lang(snapshot, settings))
            embed = result_embed(picture)
            # On the loop: a result draws in about a millisecond (bench/display/pictures.py), and a
            # thread would only take the GIL back and forth with the loop; but the first
            # drawing of a card takes a few, so a picture with one goes to a thread (the
            # first hands after a start, at every table at once).
            cards = [row.cards for row in rows]
            draw = partial(result_png, cards, picture.labels, picture.heading)
            png = draw() if drawn(cards) else await asyncio.to_thread(draw)
        except Exception:
            log.exception(
                "table %s: could not draw the picture of hand %s",
                snapshot.id,
                snapshot.state.hand_no,
            )
            return None
        return picture, embed, png
