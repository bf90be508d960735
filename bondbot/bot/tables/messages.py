"""Each table's public message, kept up to date: drawn from the latest snapshot in the
table's language, edited at most once a `message_interval`, one write at a time; its
thread, and the picture of each hand, in order (on the answer that ended it, else in the
thread). Every request the bot makes here by itself waits its turn in `outgoing`, within
Discord's budget (issue 32).

What Discord loses or refuses is mended here (`mending`): a deleted table message is
posted again, a deleted or locked thread replaced, a refusal told on the table and to the
GM once and not tried again until the permissions change, and a failed redraw or post
tried again until it goes through."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import defaultdict
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

import discord

from bondbot import background
from bondbot.bot.client import BondBot
from bondbot.bot.outgoing import WINDOW_S, Outgoing, Turn, share
from bondbot.bot.reply import reply_to
from bondbot.bot.tables import orphans
from bondbot.bot.tables.answers import note_change
from bondbot.bot.tables.common import fit
from bondbot.bot.tables.glance import redraw_panel
from bondbot.bot.tables.hand_pictures import DRAWING_WAIT_S, AnswerPicture, HandPictures
from bondbot.bot.tables.language import table_lang, table_money
from bondbot.bot.tables.mending import (
    POST_TRIES,
    THREAD_EXISTS,
    THREAD_TRIES,
    backoff,
    missing,
    outcome,
    refused_line,
    repost_nonce,
)
from bondbot.bot.tables.message import table_embed, table_view
from bondbot.bot.tables.results import (
    PICTURE,
)
from bondbot.bot.tables.story import closed_embed, closed_view, read_story, table_title
from bondbot.i18n import Lang, t
from bondbot.storage import tables as stored
from bondbot.storage.link import Unreachable
from bondbot.tables.context import iso
from bondbot.tables.service import TableSnapshot

log = logging.getLogger(__name__)
RESUMED_PER_SECOND = 10  # table messages redrawn after a start (Discord: ~50 requests/s)
THREAD_NAME_MAX = 100  # Discord's limit for a thread's name
DESCRIPTION_MAX = 4096  # Discord's limit for an embed's description


class TableMessages(HandPictures):
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
        self._deleted: dict[int, int] = {}  # table → its message a moderator deleted
        self._thread: dict[int, int] = {}  # table → the thread that replaced its first one
        self._lost_thread: dict[int, int] = {}  # table → its thread, deleted or locked
        # table → what Discord refused it ("table", "pictures", "summary") → where it was
        # posting ("table", "thread", "channel": the permissions it needs, `mending.NEEDS`)
        self._refused: dict[int, dict[str, str]] = {}
        self._where: dict[int, tuple[int, int]] = {}  # table → (guild, channel), if refused
        self._told_gm: set[int] = set()  # tables whose GM saw the refusal on his panel
        # Every request the tables make by themselves waits its turn here (issue 32); a
        # process spends its shards' share of the bot token's budget.
        # A channel's window shrinks with `message_interval` (Discord's pace is 1 s; the
        # tests play faster against a fake without limits).
        self.outgoing = Outgoing(
            share(bot.shard_count, bot.shard_ids),
            window=WINDOW_S * min(1.0, bot.message_interval),
        )
        self._channel: dict[int, int] = {}  # table → its channel (for its turn)
        self._for_answer: dict[int, AnswerPicture] = {}  # table → the picture its answer may carry
        self._on_table: dict[int, discord.Embed] = {}  # table → the picture its message shows

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
        note_change(snapshot)  # a move clicked on the table: its answer redraws it
        self._channel[snapshot.id] = snapshot.channel_id
        self._dirty.add(snapshot.id)
        if snapshot.id not in self._running:
            self._running[snapshot.id] = background.spawn(self._refresh(snapshot.id))

    async def _refresh(self, table_id: int) -> None:
        """Draw the table's latest state until the message shows it: a redraw Discord
        did not take now (429, 5xx, the network) is tried again, a pause longer each time.

        The edit waits its turn (`outgoing`) before the table's state is read: under
        pressure, what changed meanwhile goes out in that one edit."""
        failures = 0
        try:
            while table_id in self._dirty:
                channel = self._channel[table_id]
                turn = await self.outgoing.turn(channel, Turn.TABLE)
                self._dirty.discard(table_id)
                try:
                    snapshot = await self.bot.services.tables.snapshot(table_id)
                except Unreachable:  # said once by the database's link: wait for it
                    self.outgoing.unused(channel, turn)  # nothing sent: the turn goes to another
                    failures += 1
                    await self._again(table_id, failures)
                    continue
                if "table" in self._refused.get(table_id, {}):
                    self.outgoing.unused(channel, turn)
                    return  # until the permissions change (`mend`)
                try:
                    async with self._writing[table_id]:
                        if self._shown.get(table_id) is not snapshot:
                            await self._render(snapshot)
                        else:  # an answer drew it meanwhile
                            self.outgoing.unused(channel, turn)
                except Exception as error:
                    self._shown.pop(table_id, None)
                    if not await self._render_failed(snapshot, error, failures):
                        return
                    failures += 1
                    await self._again(table_id, failures)
                    continue
                failures = 0
                self._arm(snapshot)
                await asyncio.sleep(self.bot.message_interval)
        except Exception:
            log.exception("could not refresh the message of table %s", table_id)
        finally:
            self._running.pop(table_id, None)

    async def _again(self, table_id: int, failures: int) -> None:
        """The table to be redrawn once more, after a pause longer each failure."""
        self._dirty.add(table_id)
        await asyncio.sleep(backoff(failures))

    async def _render_failed(
        self, snapshot: TableSnapshot, error: Exception, failures: int
    ) -> bool:
        """Whether to try the redraw again, after saying why it failed."""
        match outcome(error):
            case "later":
                log.warning(
                    "table %s: its message not redrawn (%s), try %d: trying again",
                    snapshot.id,
                    error,
                    failures + 1,
                )
                return True
            case "refused":
                await self._refuse(snapshot, "table", "table")
            case "gone":  # its channel (its message is posted again): nowhere to draw it
                log.warning("table %s: its channel %s is gone", snapshot.id, snapshot.channel_id)
                if getattr(error, "code", None) == orphans.UNKNOWN_CHANNEL:  # deleted
                    background.spawn(
                        orphans.close_gone(self.bot, snapshot.id, orphans.CHANNEL_DELETED)
                    )
            case _:
                log.error("could not refresh the message of table %s", snapshot.id, exc_info=error)
        return False

    async def _draw(self, snapshot: TableSnapshot) -> dict[str, Any]:
        settings = await self.bot.services.guilds.get(snapshot.guild_id)
        lang, money = table_lang(snapshot, settings), table_money(snapshot, settings)
        now = self.bot.services.clock()
        if not snapshot.open:  # the final scoreboard, from the ledger
            async with self.bot.db.read() as conn:  # type: ignore[union-attr]
                told = await read_story(conn, snapshot)
            title = table_title(snapshot.state, lang)
            return {
                "embed": self._warned(
                    snapshot, closed_embed(snapshot, told, lang, money, title), lang
                ),
                "view": closed_view(snapshot, lang),
            }
        return {
            "embed": self._warned(snapshot, table_embed(snapshot, lang, money, now), lang),
            "view": table_view(snapshot, lang, now, money),
        }

    def _warned(self, snapshot: TableSnapshot, embed: discord.Embed, lang: Lang) -> discord.Embed:
        """The embed with a line for each post Discord refused the table, first."""
        lines = self.refused_lines(snapshot.id, lang)
        if not lines:
            return embed
        text = "\n".join([*lines, embed.description or ""]).strip()
        embed.description = text[:DESCRIPTION_MAX]
        return fit(embed)

    def refused_lines(self, table_id: int, lang: Lang) -> list[str]:
        """ "I can't post the hands' pictures here: give BondBot Attach Files", for each
        post Discord refused the table (with the permissions it lacks, as last heard)."""
        refused = self._refused.get(table_id)
        if not refused:
            return []
        guild, channel = self._where[table_id]
        name = self.bot.user.name if self.bot.user else "BondBot"
        return [
            refused_line(what, missing(self.bot, guild, channel, where) or [], name, lang)
            for what, where in refused.items()
        ]

    def note_for_gm(self, table_id: int, lang: Lang) -> str | None:
        """The refusals, for the GM's panel: once (until something else is refused)."""
        if table_id in self._told_gm or not (lines := self.refused_lines(table_id, lang)):
            return None
        self._told_gm.add(table_id)
        return "\n".join(lines)

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
            if not await redraw_panel(interaction, snapshot):  # the panel clicked, in place
                await (await reply_to(interaction)).say("table.done")
            await self.changed(snapshot)
            return
        picture = self._take_picture(snapshot)
        self._shown[snapshot.id] = snapshot  # first, so a pending refresh does not edit too
        try:
            async with self._writing[snapshot.id]:
                drawn = await self._draw(snapshot)
                if picture is not None:  # the hand this click ended, on the table message
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(picture.drawn.wait(), DRAWING_WAIT_S)
                    if picture.png is not None and picture.embed is not None:
                        file = discord.File(
                            io.BytesIO(picture.png), PICTURE, description=picture.alt
                        )
                        self._on_table[snapshot.id] = picture.embed
                        drawn = {**self._pictured_on(snapshot.id, drawn), "attachments": [file]}
                        picture.carried = True
                await interaction.response.edit_message(**self._pictured_on(snapshot.id, drawn))
        except Exception:
            self._shown.pop(snapshot.id, None)
            if picture is not None and picture.carried:  # not carried after all: the thread
                picture.carried = False
                self._on_table.pop(snapshot.id, None)
            await self.changed(snapshot)
            raise
        finally:
            if picture is not None:
                picture.taken.set()

    async def _render(self, snapshot: TableSnapshot) -> None:
        if not snapshot.open:  # the closed scoreboard: no hand's picture on it
            self._on_table.pop(snapshot.id, None)
        drawn = await self._draw(snapshot)
        embed, view = drawn["embed"], drawn["view"]
        self._shown[snapshot.id] = snapshot
        channel = self.bot.get_partial_messageable(snapshot.channel_id, guild_id=snapshot.guild_id)
        old = snapshot.message_id
        if old is not None and self._deleted.get(snapshot.id) != old:
            try:
                await channel.get_partial_message(old).edit(**self._pictured_on(snapshot.id, drawn))
            except discord.NotFound:  # 10008: a moderator deleted it
                log.info("table %s: its message %s was deleted: posting it again", snapshot.id, old)
                self._deleted[snapshot.id] = old
                await self.outgoing.turn(snapshot.channel_id, Turn.TABLE)  # the edit had the first
        if old is None or self._deleted.get(snapshot.id) == old:
            # The nonce makes Discord return the message already posted if the bot stopped
            # after posting it and before saving its id: never two table messages. One
            # nonce per deleted message: posted again once per deletion.
            nonce = f"table{snapshot.id}" if old is None else repost_nonce(snapshot.id, old)
            self._on_table.pop(snapshot.id, None)  # its file went with the deleted message
            message = await channel.send(embed=embed, view=view, nonce=nonce)
            await self.bot.services.tables.set_message(snapshot.id, message.id)
            snapshot.message_id = message.id
            self._deleted.pop(snapshot.id, None)
            if old is None and snapshot.state.config.thread and snapshot.thread_id is None:
                await self._start_thread(snapshot, message.id)
            self.posted(snapshot.id).set()
        if not snapshot.open:
            await self.bot.services.tables.closed_drawn(snapshot.id)

    async def _thread_name(self, snapshot: TableSnapshot) -> str:
        lang = table_lang(snapshot, await self.bot.services.guilds.get(snapshot.guild_id))
        return t(
            "table.thread_name",
            lang,
            game=t(f"games.{snapshot.state.config.game}", lang),
            npc=snapshot.state.npc_name,
        )[:THREAD_NAME_MAX]

    async def _start_thread(self, snapshot: TableSnapshot, message_id: int) -> None:
        """The table's public thread, started from its message (which stays at its top).
        Without the permission the table plays in the channel (the GM is told)."""
        name = await self._thread_name(snapshot)
        await self.outgoing.turn(snapshot.channel_id, Turn.TABLE)
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

    def thread_of(self, snapshot: TableSnapshot) -> int | None:
        """Where the table's pictures and summary go: its thread (the one that replaced
        it, if any), its channel (threads refused when it was replaced), or None/0 (the
        table plays in its channel: no pictures)."""
        return self._thread.get(snapshot.id, snapshot.thread_id)

    async def _replace_thread(self, snapshot: TableSnapshot) -> int:
        """A new thread for the table whose thread was deleted or locked: from the table
        message if Discord allows it (it does once the old one is deleted), else on its
        own; where threads are refused, the channel itself."""
        name = await self._thread_name(snapshot)
        http, channel = self.bot.http, snapshot.channel_id
        message = (await self.bot.services.tables.snapshot(snapshot.id)).message_id
        try:
            thread = None
            if message is not None:
                await self.outgoing.turn(channel, Turn.TABLE)
                try:
                    thread = await http.start_thread_with_message(
                        channel, message, name=name, auto_archive_duration=1440
                    )
                except discord.Forbidden:
                    raise
                except discord.HTTPException as error:  # the message gone, or its thread kept
                    if not isinstance(error, discord.NotFound) and error.code != THREAD_EXISTS:
                        raise
            if thread is None:
                await self.outgoing.turn(channel, Turn.TABLE)
                thread = await http.start_thread_without_message(
                    channel, name=name, auto_archive_duration=1440, type=11
                )
            new = int(thread["id"])
            log.info("table %s: its thread is gone: it plays on in thread %s", snapshot.id, new)
        except discord.Forbidden:
            new = channel
            log.info(
                "table %s: its thread is gone and threads are refused: in the channel", snapshot.id
            )
        await self.bot.services.tables.set_thread(snapshot.id, new)
        self._thread[snapshot.id] = new
        self._lost_thread.pop(snapshot.id, None)
        return new

    async def _where_to_post(self, snapshot: TableSnapshot, what: str) -> int | None:
        where = self.thread_of(snapshot)
        if where and where == self._lost_thread.get(snapshot.id):
            where = await self._replace_thread(snapshot)
        if not where:  # the table plays in its channel: its summary goes there, no picture
            return snapshot.channel_id if what == "summary" else None
        return where

    async def post(
        self, snapshot: TableSnapshot, what: str, build: Callable[[], dict[str, Any]]
    ) -> int | None:
        """Post `build()` ("pictures" or "summary") where the table's thread is, and return
        where it went (None: not posted). A deleted or locked thread is replaced; a post
        Discord did not take now is tried again; a refusal is told on the table and to
        the GM, and nothing of its kind is tried again until the permissions change."""
        failures = replaced = 0
        while True:
            where: int | None = None
            try:
                if what in self._refused.get(snapshot.id, {}):
                    log.info(
                        "table %s: %s not posted: refused (told on the table)", snapshot.id, what
                    )
                    return None
                where = await self._where_to_post(snapshot, what)
                if where is None:
                    return None
                messageable = self.bot.get_partial_messageable(where, guild_id=snapshot.guild_id)
                turn = Turn.PICTURE if what == "pictures" else Turn.SUMMARY
                await self.outgoing.turn(where, turn)
                await messageable.send(**build())
                return where
            except Exception as error:
                kind = outcome(error)
                in_thread = where is not None and where != snapshot.channel_id
                if kind in ("gone", "closed") and in_thread and replaced < THREAD_TRIES:
                    replaced += 1
                    self._lost_thread[snapshot.id] = where  # type: ignore[assignment]
                    continue
                if kind == "refused":
                    await self._refuse(snapshot, what, "thread" if in_thread else "channel")
                    return None
                if kind == "later" and failures < POST_TRIES:
                    failures += 1
                    log.warning(
                        "table %s: %s not posted (%s), try %d: trying again",
                        snapshot.id,
                        what,
                        error,
                        failures,
                    )
                    await asyncio.sleep(backoff(failures))
                    continue
                log.error(
                    "table %s: could not post its %s in %s",
                    snapshot.id,
                    what,
                    where,
                    exc_info=error,
                )
                return None

    async def _refuse(self, snapshot: TableSnapshot, what: str, where: str) -> None:
        """Discord refused a post (403): say so on the table and to the GM, once; nothing
        of its kind is tried again until the permissions change (or the GM asks)."""
        lacking = missing(self.bot, snapshot.guild_id, snapshot.channel_id, where)
        log.warning(
            "table %s: Discord refuses the bot's %s in channel %s (missing %s): told on the"
            " table, not tried again until the permissions change",
            snapshot.id,
            what,
            snapshot.channel_id,
            ", ".join(lacking or []) or "?",
        )
        self._refused.setdefault(snapshot.id, {})[what] = where
        self._where[snapshot.id] = (snapshot.guild_id, snapshot.channel_id)
        self._told_gm.discard(snapshot.id)
        if what != "table":  # the table message itself says it
            self._shown.pop(snapshot.id, None)
            await self.changed(snapshot)

    async def permissions_changed(self, guild_id: int) -> None:
        """A channel, a role or the bot's member changed in this guild: what Discord
        refused the guild's tables and the bot may now do is tried again."""
        for table_id, refused in list(self._refused.items()):
            guild, channel = self._where[table_id]
            if guild != guild_id:
                continue
            left = {
                what: where
                for what, where in refused.items()
                if missing(self.bot, guild, channel, where)
            }
            if left == refused:
                continue
            log.info("table %s: permissions changed: posting again", table_id)
            await self.mend(table_id, keep=left)

    async def mend(self, table_id: int, *, keep: dict[str, str] | None = None) -> None:
        """Try again what Discord refused the table (all of it, unless `keep`), and draw
        the table again: after a permission change, or when the GM asks."""
        if keep:
            self._refused[table_id] = keep
        else:
            self._refused.pop(table_id, None)
        self._shown.pop(table_id, None)
        await self.changed(await self.bot.services.tables.snapshot(table_id))

    async def message_deleted(self, guild_id: int, message_ids: set[int]) -> None:
        """MESSAGE_DELETE: a table's message (open or closed) is posted again."""
        async with self.bot.db.read() as conn:  # type: ignore[union-attr]
            found = await stored.with_messages(conn, guild_id, message_ids)
        for table_id, message_id in found:
            log.info("table %s: its message %s was deleted: posting it again", table_id, message_id)
            self._deleted[table_id] = message_id
            await self.mend(table_id, keep=self._refused.get(table_id))

    async def thread_deleted(self, guild_id: int, thread_id: int) -> None:
        """THREAD_DELETE: a table's thread is replaced at its next post."""
        async with self.bot.db.read() as conn:  # type: ignore[union-attr]
            found = await stored.with_thread(conn, guild_id, thread_id)
        for table_id in found:
            log.info("table %s: its thread %s was deleted", table_id, thread_id)
            self._lost_thread[table_id] = thread_id

    def start(self, post: Coroutine[Any, Any, None]) -> None:
        """A post in a table's channel or thread, the bot's own work after an answer: a
        task of its own (`background`), waited for at shutdown."""
        task = background.spawn(post)
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

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
        scheduler.at(key, when, lambda: background.spawn(self._offers_closed(snapshot)))

    async def _offers_closed(self, snapshot: TableSnapshot) -> None:
        """A Hero Point window closed: what the table shows changed with the clock, not
        with its state, so a message still showing `snapshot` is drawn again (its Spend
        button goes). One edit, and only when nothing redrew the table since."""
        if self._shown.get(snapshot.id) is snapshot:
            self._shown.pop(snapshot.id, None)
        await self.changed(snapshot)

    async def stop(self) -> None:
        """Let edits already under way finish (the service's scheduler holds the timers);
        those still waiting to try again are given up."""
        if self._resuming is not None:
            self._resuming.cancel()
        pending = [*self._running.values(), *self._posting]
        if pending:
            _, late = await asyncio.wait(pending, timeout=5)
            for task in late:
                task.cancel()


def table_messages(interaction: discord.Interaction) -> TableMessages:
    """The tables' public messages, as the Tables cog keeps them."""
    messages = interaction.client.get_cog("Tables").messages  # type: ignore[attr-defined]
    assert isinstance(messages, TableMessages)
    return messages
