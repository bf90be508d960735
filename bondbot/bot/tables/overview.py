"""`/gm tables`: the server's open tables wherever they are, for a GM to mend them.

Each table shows its channel, game, seats, hand, pause and last move, with two buttons:
**Post the table again** (a fresh table message at the bottom of the table's own channel,
the old one deleted) and **Close** (asked twice). A table never moves to another channel:
its clicks are checked against its channel, and a channel holds one table; so a table
whose channel is gone is closed as `/table close` would, its ledger rows saying why
(bot/tables/orphans.py), and the GM is told.

Every custom id names its effect and what it was drawn for, so twenty identical clicks are
one click: Post again carries the message it replaces (a second click finds it replaced
already), and the Close confirmation carries a token drawn for that table, which the
confirm must match exactly (and the close itself happens once, whoever clicks).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import discord

from bondbot.bot.confirmations import Confirmations
from bondbot.bot.context import require_gm
from bondbot.bot.reply import Reply, reply_to
from bondbot.bot.router import Actions, ButtonSpec, custom_id, view_of
from bondbot.bot.tables import orphans
from bondbot.errors import Refusal
from bondbot.storage.tables import OpenTable
from bondbot.tables.service import TableSnapshot

if TYPE_CHECKING:
    from bondbot.bot.client import BondBot

log = logging.getLogger(__name__)

AREA = "gmtables"
PER_PAGE = 4  # a row of two buttons each, and the pages' row: Discord allows five rows
CONFIRM_TTL_S = 600.0  # how long a Close confirmation can be confirmed
FIELD_MAX = 1024  # Discord's limit for an embed field's value
NAMES_MAX = 600  # of which the seats' names and stacks


@dataclass(frozen=True, slots=True)
class Listed:
    row: OpenTable
    snapshot: TableSnapshot


class Overview:
    """`/gm tables` and its buttons (`bb:gmtables:…`), answered from the database."""

    def __init__(self, bot: BondBot) -> None:
        self.bot = bot
        self._closing = Confirmations(nbytes=6, ttl_s=CONFIRM_TTL_S)  # by table
        self.actions = Actions()
        self.actions.on("page", int, str)(self._page)
        self.actions.on("post", int, int)(self._post)
        self.actions.on("close", int)(self._ask_close)
        self.actions.on("closeyes", int, str)(self._close)
        self.actions.on("keep", int)(self._keep)
        bot.router.register(AREA, self.on_component)

    async def on_component(self, interaction: discord.Interaction, args: list[str]) -> None:
        await require_gm(interaction)
        await self.actions.dispatch(interaction, args[0] if args else "", args[1:])

    # -- the list --------------------------------------------------------------------------

    async def show(self, interaction: discord.Interaction, page: int, *, edit: bool) -> None:
        """A page of the server's open tables (the command, or Previous/Next in place)."""
        await require_gm(interaction)
        reply = await reply_to(interaction)
        guild_id = interaction.guild_id
        assert guild_id is not None  # require_gm refused outside a server
        rows = await self.bot.services.tables.guild_tables(guild_id)
        pages = max(1, -(-len(rows) // PER_PAGE))
        page = min(max(page, 0), pages - 1)
        shown = [
            Listed(row, await self.bot.services.tables.snapshot(row.id))
            for row in rows[page * PER_PAGE : (page + 1) * PER_PAGE]
        ]
        embed = discord.Embed(
            title=reply.t("gm.tables.title", count=len(rows), page=page + 1, pages=pages),
            description=None if rows else reply.t("gm.tables.none"),
        )
        buttons: list[ButtonSpec] = []
        for number, listed in enumerate(shown):
            name, value = _field(listed, reply)
            embed.add_field(name=name, value=value, inline=False)
            table = listed.row.id
            drawn = listed.snapshot.message_id or 0
            buttons += [
                ButtonSpec(
                    reply.t("gm.tables.btn_post", table=table),
                    custom_id(AREA, "post", table, drawn),
                    row=number,
                ),
                ButtonSpec(
                    reply.t("gm.tables.btn_close", table=table),
                    custom_id(AREA, "close", table),
                    style=discord.ButtonStyle.danger,
                    row=number,
                ),
            ]
        if pages > 1:
            buttons += [
                ButtonSpec(
                    reply.t("gm.btn_previous"),
                    custom_id(AREA, "page", page - 1, "p"),
                    disabled=page == 0,
                    row=PER_PAGE,
                ),
                ButtonSpec(
                    reply.t("gm.btn_next"),
                    custom_id(AREA, "page", page + 1, "n"),
                    disabled=page >= pages - 1,
                    row=PER_PAGE,
                ),
            ]
        view = view_of(buttons)
        if edit:
            await interaction.response.edit_message(embed=embed, view=view)
        else:
            await reply.send(embed=embed, view=view)

    async def _page(self, interaction: discord.Interaction, page: int, side: str) -> None:
        """Previous (`p`) or Next (`n`): the side only keeps the two buttons' ids apart."""
        await self.show(interaction, page, edit=True)

    # -- one table -------------------------------------------------------------------------

    async def _table(self, interaction: discord.Interaction, table: int) -> TableSnapshot:
        """The table, open and of this server; else refused, nothing done."""
        snapshot = await self.bot.services.tables.snapshot(table)
        if snapshot.guild_id != interaction.guild_id:
            raise Refusal("gm.tables.not_here")
        if not snapshot.open:
            raise Refusal("gm.tables.already_closed", table=table)
        return snapshot

    async def _gone(self, interaction: discord.Interaction, snapshot: TableSnapshot) -> bool:
        """When the table's channel no longer exists, it is closed (its ledger rows say
        why) and the GM told; True then."""
        guild = interaction.guild
        if guild is None or await orphans.channel_exists(self.bot, guild, snapshot.channel_id):
            return False
        await orphans.close_gone(self.bot, snapshot.id, orphans.CHANNEL_DELETED)
        await (await reply_to(interaction)).say("gm.tables.channel_gone", table=snapshot.id)
        return True

    async def _post(self, interaction: discord.Interaction, table: int, drawn: int) -> None:
        """A fresh table message at the bottom of its channel, through the table messages'
        own posting (a table without a message is posted); the one it replaces deleted."""
        snapshot = await self._table(interaction, table)
        if await self._gone(interaction, snapshot):
            return
        reply = await reply_to(interaction)
        messages = self.bot.get_cog("Tables").messages  # type: ignore[union-attr]
        # Between two writes to the table's message: a redraw under way edits the old one
        # before it goes, and one waiting finds the table without a message and posts it.
        async with messages._writing[table]:
            fresh = await self.bot.services.tables.forget_message(table, drawn or None)
            if fresh is not None and drawn:
                try:  # first: the new post's nonce must not find it alive
                    await self.bot.http.delete_message(snapshot.channel_id, drawn)
                except discord.HTTPException as error:  # gone already, or not allowed
                    log.info("table %s: its old message %s stays (%s)", table, drawn, error)
        if fresh is None:  # another click (or the table itself) posted it again already
            await reply.say("gm.tables.posted_already", table=table, channel=_channel(snapshot))
            return
        await messages.changed(fresh)
        await reply.say("gm.tables.posted", table=table, channel=_channel(snapshot))

    async def _ask_close(self, interaction: discord.Interaction, table: int) -> None:
        """Close, asked once more: the confirmation carries a token drawn for this table
        (the same for every ask while it is valid), which the confirm must match."""
        snapshot = await self._table(interaction, table)
        reply = await reply_to(interaction)
        token = self._closing.ask(table)
        seated = len(snapshot.state.seats)
        view = view_of(
            [
                ButtonSpec(
                    reply.t("gm.tables.btn_confirm_close", table=table),
                    custom_id(AREA, "closeyes", table, token),
                    style=discord.ButtonStyle.danger,
                ),
                ButtonSpec(reply.t("gm.tables.btn_keep"), custom_id(AREA, "keep", table)),
            ]
        )
        text = reply.t(
            "gm.tables.confirm_close", table=table, channel=_channel(snapshot), seated=seated
        )
        await reply.send(text, view=view)

    async def _close(self, interaction: discord.Interaction, table: int, token: str) -> None:
        """The confirmed Close: exactly as `/table close` (the GM told the shoe's seed, the
        evening's story posted); a table whose channel is gone closes without them."""
        if not self._closing.confirms(table, token):
            raise Refusal("gm.tables.confirm_stale", table=table)
        snapshot = await self._table(interaction, table)
        if await self._gone(interaction, snapshot):
            return
        tables_cog = self.bot.get_cog("Tables")
        await tables_cog.close_table(await reply_to(interaction), table)  # type: ignore[union-attr]

    async def _keep(self, interaction: discord.Interaction, table: int) -> None:
        text = (await reply_to(interaction)).t("gm.tables.kept", table=table)
        await interaction.response.edit_message(content=text, view=None)


def _channel(snapshot: TableSnapshot) -> str:
    return f"<#{snapshot.channel_id}>"


def _field(listed: Listed, reply: Reply) -> tuple[str, str]:
    """A table's field: its name, then where it is, who sits, its hand and its last move."""
    state = listed.snapshot.state
    game = reply.t(f"games.{listed.row.game}")
    name = reply.t("gm.tables.table_name", table=listed.row.id, game=game, npc=state.npc_name)
    seats = ", ".join(
        f"{seat.name} ({reply.money(listed.snapshot.chips.get(seat.character_id, 0))})"
        for seat in state.seats
    )
    if len(seats) > NAMES_MAX:
        seats = seats[: NAMES_MAX - 1] + "…"
    lines = [
        reply.t("gm.tables.where", channel=_channel(listed.snapshot)),
        reply.t("gm.tables.seats", seats=seats) if seats else reply.t("gm.tables.nobody"),
        reply.t(
            "gm.tables.hand_in_play" if state.engine.in_hand() else "gm.tables.hand",
            hand=state.hand_no,
        ),
    ]
    if state.paused:
        lines.append(reply.t("gm.tables.paused"))
    when = int(datetime.fromisoformat(listed.row.updated_at).timestamp())
    lines.append(reply.t("gm.tables.last_move", when=f"<t:{when}:R>"))
    return name[:256], "\n".join(lines)[:FIELD_MAX]
