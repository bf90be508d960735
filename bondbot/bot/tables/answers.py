"""A move clicked on the table message, answered by redrawing that message (issue 32).

Discord does not count an interaction's answer against the bot token's budget: its
callback, and the follow-ups sent with its token. A move a game answers privately (its
words: "You stand on 17", "Coup 4 dealt", a Hero Point spent) used to cost an edit of
the table message besides; clicked on the table message itself, it is answered here by
redrawing the table in place (with the hand's picture when the move ended one) and its
private words go as a private follow-up. Nothing the player saw is lost, and the table
is redrawn at once by the answer rather than by an edit.

Only a click whose action changed the table (`Acted`, told by `TableMessages.changed`
as the service tells its listeners, in the click's own task) is answered so: a refusal,
a panel opened, a hint, anything read-only stays one private answer.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bondbot.bot.reply import _EXTRA, Reply

if TYPE_CHECKING:
    from bondbot.tables.service import TableSnapshot

log = logging.getLogger(__name__)


@dataclass
class Acted:
    """The click being handled on a table message, and what its action made of the table."""

    table: int
    message_id: int
    snapshot: TableSnapshot | None = field(default=None)


acted: ContextVar[Acted | None] = ContextVar("acted", default=None)
# The table's own actions that a click on the table message makes as a move (a game's
# own actions are all answered so): the Hero Point spent from the table's Spend button.
ANSWERED_ON_TABLE = frozenset({"hp"})


def note_change(snapshot: TableSnapshot) -> None:
    """The service saved `snapshot`: if the click being handled changed this table, say so."""
    click = acted.get()
    if click is not None and click.table == snapshot.id:
        click.snapshot = snapshot


@dataclass(frozen=True, slots=True)
class TableReply(Reply):
    """A reply to a move clicked on the table message (see the module's doc)."""

    click: Acted | None = None

    async def send(
        self, content: str | None = None, *, ephemeral: bool = True, **kwargs: Any
    ) -> None:
        interaction, click = self.interaction, self.click
        changed = click is not None and click.snapshot is not None
        if not changed or not ephemeral or interaction.response.is_done():
            await Reply.send(self, content, ephemeral=ephemeral, **kwargs)
            return
        from bondbot.bot.tables.messages import table_messages  # it imports the cog's kin

        assert click is not None and click.snapshot is not None
        snapshot = click.snapshot
        if interaction.message is None or interaction.message.id != snapshot.message_id:
            await Reply.send(self, content, ephemeral=ephemeral, **kwargs)
            return
        try:
            await table_messages(interaction).answer(interaction, snapshot)
        except Exception:  # the table goes by an edit (`answer` saw to it); the words go on
            log.exception("table %s: the answer could not redraw the table", snapshot.id)
        await Reply.send(self, content, ephemeral=True, **kwargs)


def answering(reply: Reply, table: int, message_id: int) -> TableReply:
    """The reply for a move clicked on table `table`'s message: kept as the interaction's
    reply (`reply_to` finds it), and the click noted so that the table's changes reach it."""
    click = Acted(table, message_id)
    acted.set(click)
    answer = TableReply(reply.interaction, reply.lang, reply.server_lang, reply.currency, click)
    reply.interaction.extras[_EXTRA] = answer
    return answer
