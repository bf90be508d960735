"""Each table's public message, kept up to date: drawn from the latest snapshot in the
table's language, edited at most once a `message_interval`, one write at a time; its
thread, and the picture of each hand posted there in order."""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from collections.abc import Coroutine, Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from bondbot import background
from bondbot.bot.client import BondBot
from bondbot.bot.reply import reply_to
from bondbot.bot.tables.language import table_lang, table_money
from bondbot.bot.tables.message import table_embed, table_view
from bondbot.bot.tables.results import PICTURE, ended_hand, result_embed, result_picture
from bondbot.bot.tables.story import closed_embed, closed_view, read_story, table_title
from bondbot.games.contract import ShownHand
from bondbot.i18n import t
from bondbot.pictures.cards import drawn, result_png
from bondbot.tables.context import iso
from bondbot.tables.service import TableSnapshot

log = logging.getLogger(__name__)
RESUMED_PER_SECOND = 10  # table messages redrawn after a start (Discord: ~50 requests/s)
THREAD_NAME_MAX = 100  # Discord's limit for a thread's name


class TableMessages:
    """Keeps each table's public message up to date: one edit at a time, latest state wins.

    After an edit, changes wait `bot.message_interval` seconds and go out as one edit:
    Discord allows a channel about one message edit a second, and players do not need more.
    Writes to one message (edits, and clicks answered by redrawing it) take turns, so an
    older edit still on its way can never land over a newer drawing.
    """

    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self._running: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._resuming: asyncio.Task[None] | None = None
        self._posted: dict[int, asyncio.Event] = {}
        self._shown: dict[int, TableSnapshot] = {}  # what each table message shows now
        self._writing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._pictured: dict[int, int] = {}  # table → the last hand whose result was posted
        self._picturing: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._posting: set[asyncio.Task[None]] = set()

    def resume(self, snapshots: list[TableSnapshot]) -> None:
        """Redraw the tables found at start, a few a second: their messages may be stale
        (a timer ran out while the bot was down), but a thousand edits at once would meet
        Discord's rate limits and stall the bot."""

        async def pace() -> None:
            for snapshot in snapshots:
                await self.changed(snapshot)
                await asyncio.sleep(1 / RESUMED_PER_SECOND)

        self._resuming = background.spawn(pace())

    async def changed(self, snapshot: TableSnapshot) -> None:
        self._dirty.add(snapshot.id)
        if snapshot.id not in self._running:
            self._running[snapshot.id] = background.spawn(self._refresh(snapshot.id))

    async def _refresh(self, table_id: int) -> None:
        try:
            while table_id in self._dirty:
                self._dirty.discard(table_id)
                snapshot = await self.bot.services.tables.snapshot(table_id)
                async with self._writing[table_id]:
                    if self._shown.get(table_id) is not snapshot:
                        await self._render(snapshot)
                self._arm(snapshot)
                await asyncio.sleep(self.bot.message_interval)
        except Exception:
            log.exception("could not refresh the message of table %s", table_id)
        finally:
            self._running.pop(table_id, None)

    async def _draw(self, snapshot: TableSnapshot) -> dict[str, Any]:
        settings = await self.bot.services.guilds.get(snapshot.guild_id)
        lang, money = table_lang(snapshot, settings), table_money(snapshot, settings)
        now = self.bot.services.clock()
        if not snapshot.open:  # the final scoreboard, from the ledger
            async with self.bot.db.read() as conn:  # type: ignore[union-attr]
                told = await read_story(conn, snapshot)
            title = table_title(snapshot.state, lang)
            return {
                "embed": closed_embed(snapshot, told, lang, money, title),
                "view": closed_view(snapshot, lang),
            }
        return {
            "embed": table_embed(snapshot, lang, money, now),
            "view": table_view(snapshot, lang, now, money),
        }

    async def answer_on_table(
        self, interaction: discord.Interaction, snapshot: TableSnapshot
    ) -> bool:
        """Answer a form sent from the table's own message by redrawing that message, when
        the table shows all the move did (a wager on its seat line): one callback instead
        of a private restatement and an edit, and Deal is on the table at once. False when
        the form came from elsewhere (a panel, a command): the caller answers privately."""
        message = interaction.message
        if message is None or message.id != snapshot.message_id:
            return False
        await self.answer(interaction, snapshot)
        return True

    async def answer(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> None:
        """Answer a click on the table message by redrawing that message in place; a click
        from a private panel (the GM's Deal) is told it was done, and the table redrawn."""
        message = interaction.message
        if message is None or message.id != snapshot.message_id:
            await (await reply_to(interaction)).say("table.done")
            await self.changed(snapshot)
            return
        self._shown[snapshot.id] = snapshot  # first, so a pending refresh does not edit too
        try:
            async with self._writing[snapshot.id]:
                await interaction.response.edit_message(**await self._draw(snapshot))
        except Exception:
            self._shown.pop(snapshot.id, None)
            await self.changed(snapshot)
            raise

    async def _render(self, snapshot: TableSnapshot) -> None:
        drawn = await self._draw(snapshot)
        embed, view = drawn["embed"], drawn["view"]
        self._shown[snapshot.id] = snapshot
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        if snapshot.message_id is None:
            # The nonce makes Discord return the message already posted if the bot stopped
            # after posting it and before saving its id: never two table messages.
            message = await channel.send(embed=embed, view=view, nonce=f"table{snapshot.id}")
            await self.bot.services.tables.set_message(snapshot.id, message.id)
            if snapshot.state.config.thread and snapshot.thread_id is None:
                await self._start_thread(snapshot, message.id)
            self.posted(snapshot.id).set()
        else:
            await channel.get_partial_message(snapshot.message_id).edit(embed=embed, view=view)
        if not snapshot.open:
            await self.bot.services.tables.closed_drawn(snapshot.id)

    async def _start_thread(self, snapshot: TableSnapshot, message_id: int) -> None:
        """The table's public thread, started from its message (which stays at its top).
        Without the permission the table plays in the channel (the GM is told)."""
        lang = table_lang(snapshot, await self.bot.services.guilds.get(snapshot.guild_id))
        name = t(
            "table.thread_name",
            lang,
            game=t(f"games.{snapshot.state.config.game}", lang),
            npc=snapshot.state.npc_name,
        )[:THREAD_NAME_MAX]
        try:
            thread = await self.bot.http.start_thread_with_message(
                snapshot.channel_id, message_id, name=name, auto_archive_duration=1440
            )
        except discord.Forbidden:
            log.info("table %s: no permission to start a thread", snapshot.id)
            thread_id = 0
        else:
            thread_id = int(thread["id"])
        await self.bot.services.tables.set_thread(snapshot.id, thread_id)

    async def hand_ended(self, snapshot: TableSnapshot) -> None:
        """Post the picture of the hand the action behind `snapshot` ended, once, in the
        table's thread; after the action's answer, and in the order the hands ended."""
        rows = ended_hand(snapshot)
        hand = snapshot.state.hand_no
        if not rows or not snapshot.thread_id or self._pictured.get(snapshot.id, -1) >= hand:
            return
        self._pictured[snapshot.id] = hand
        self.start(self._post_result(snapshot, rows))

    def start(self, post: Coroutine[Any, Any, None]) -> None:
        """A post in a table's channel or thread, the bot's own work after an answer: a
        task of its own (`background`), waited for at shutdown."""
        task = background.spawn(post)
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    async def _post_result(self, snapshot: TableSnapshot, rows: Sequence[ShownHand]) -> None:
        async with self._picturing[snapshot.id]:  # taken before any wait: hands in order
            try:
                settings = await self.bot.services.guilds.get(snapshot.guild_id)
                picture = result_picture(snapshot, rows, table_lang(snapshot, settings))
                embed = result_embed(picture)
                # On the loop: a result draws in about a millisecond (bench/pictures.py),
                # and a thread would only take the GIL back and forth with the loop; but
                # the first drawing of a card takes a few, so a picture with one goes to a
                # thread (the first hands after a start, at every table at once).
                cards = [row.cards for row in rows]
                draw = partial(result_png, cards, picture.labels, picture.heading)
                png = draw() if drawn(cards) else await asyncio.to_thread(draw)
                thread = self.bot.get_partial_messageable(
                    snapshot.thread_id, guild_id=snapshot.guild_id
                )
                file = discord.File(io.BytesIO(png), PICTURE, description=picture.alt)
                await thread.send(embed=embed, file=file)
            except Exception:
                log.exception(
                    "table %s: could not post the picture of hand %s in thread %s",
                    snapshot.id,
                    snapshot.state.hand_no,
                    snapshot.thread_id,
                )

    def posted(self, table_id: int) -> asyncio.Event:
        """Set once the table's message is posted (and its thread started, or refused)."""
        return self._posted.setdefault(table_id, asyncio.Event())

    def _arm(self, snapshot: TableSnapshot) -> None:
        """Redraw when the next Hero Point window closes, so its button disappears."""
        scheduler = self.bot.services.scheduler
        key = ("redraw", snapshot.id)
        now = self.bot.services.clock()
        deadlines = [when for when in snapshot.offers_close if when > iso(now)]
        if not deadlines or not snapshot.open:
            scheduler.cancel(key)
            return
        when = datetime.fromisoformat(min(deadlines)) + timedelta(milliseconds=50)
        scheduler.at(key, when, lambda: background.spawn(self.changed(snapshot)))

    async def stop(self) -> None:
        """Let edits already under way finish (the service's scheduler holds the timers)."""
        if self._resuming is not None:
            self._resuming.cancel()
        pending = [*self._running.values(), *self._posting]
        if pending:
            await asyncio.wait(pending, timeout=5)


def table_messages(interaction: discord.Interaction) -> TableMessages:
    """The tables' public messages, as the Tables cog keeps them."""
    messages = interaction.client.get_cog("Tables").messages  # type: ignore[attr-defined]
    assert isinstance(messages, TableMessages)
    return messages
