"""A table's life: found in its channel, opened, its message and thread kept track of,
closed (by the GM, or for good when its channel or the bot is gone), and resumed at start."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bondbot.errors import Refusal
from bondbot.games.contract import GAMBLING_MAX, Event, Move
from bondbot.games.registry import NewTable, spec_for
from bondbot.i18n import Lang
from bondbot.storage import ledger
from bondbot.storage import tables as stored
from bondbot.storage.conn import JobConnection
from bondbot.tables import accounts, pot
from bondbot.tables import contest as rulebook_contest
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import Closed, Opened
from bondbot.tables.money import TableMoney
from bondbot.tables.people import load_person
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.seating import cash_out
from bondbot.tables.service.shoes import reveal
from bondbot.tables.service.snapshot import TableSnapshot, snapshot_of
from bondbot.tables.service.timers import arm
from bondbot.tables.state import NpcRef, ShoeRecord, TableConfig, TableState

# -- finding ---------------------------------------------------------------------------


async def open_in_channel(core: TableCore, channel_id: int) -> int:
    """The id of the open table in this channel; refuses when there is none."""
    async with core.db.read() as conn:
        table_id = await stored.open_in_channel(conn, channel_id)
    if table_id is None:
        raise Refusal("table.none_here")
    return table_id


async def latest_in_channel(core: TableCore, channel_id: int) -> int:
    """The channel's open table, or else its last closed one (its history and shoes
    stay readable); refuses when the channel never had one."""
    async with core.db.read() as conn:
        table_id = await stored.latest_in_channel(conn, channel_id)
    if table_id is None:
        raise Refusal("table.none_here")
    return table_id


async def guild_tables(core: TableCore, guild_id: int) -> list[stored.OpenTable]:
    """The guild's open tables, wherever they are (`/gm tables`, a removed bot)."""
    async with core.db.read() as conn:
        return await stored.open_of_guild(conn, guild_id)


# -- opening and closing ---------------------------------------------------------------


async def open_table(
    core: TableCore,
    *,
    guild_id: int,
    channel_id: int,
    actor_id: int,
    game: str,
    npc_id: int,
    min_bet: int,
    max_bet: int,
    packs: int | None = None,
    bankroll: int | None = None,
    options: dict[str, Any] | None = None,
    other_npc_ids: Sequence[int] = (),
    thread: bool = True,
    language: Lang | None = None,
) -> TableSnapshot:
    """Open a table; with other NPCs besides the bank's, only the rulebook is played.
    `language` is its public messages' (None: the server's, whatever it is then)."""
    core.refuse_foreign(guild_id)
    spec = spec_for(game)
    packs = spec.default_packs if packs is None else packs
    if packs not in spec.packs_allowed:
        raise Refusal("table.bad_packs", allowed=", ".join(map(str, spec.packs_allowed)))
    if not 0 < min_bet <= max_bet:
        raise Refusal("table.bad_limits")
    chosen = {key: value for key, value in (options or {}).items() if value is not None}
    try:
        game_options = spec.options.model_validate(chosen)
    except ValueError:
        raise Refusal("table.bad_options") from None
    config = TableConfig(
        game=game,
        min_bet=min_bet,
        max_bet=max_bet,
        packs=packs,
        bankroll=bankroll,
        thread=thread,
        language=language,
        options=game_options.model_dump(),
    )
    now = core.clock()
    async with core.db.read() as conn:
        npc = await load_person(conn, npc_id)
        if npc is None or npc.guild_id != guild_id or npc.kind != "NPC":
            raise Refusal("table.not_an_npc")
        others = []
        for other_id in dict.fromkeys(other_npc_ids):
            other = await load_person(conn, other_id)
            if other is None or other.guild_id != guild_id or other.kind != "NPC":
                raise Refusal("table.not_an_npc")
            if other.id != npc.id:
                others.append(NpcRef(id=other.id, name=other.name))
    new = NewTable(
        npc=str(npc.id), packs=packs, min_bet=min_bet, max_bet=max_bet, options=game_options
    )
    shoe = spec.live_shoe(new, core.seed_source())
    try:
        engine = spec.new_engine(new, shoe)
    except ValueError:  # the game refuses these limits with its options (a bank too small)
        raise Refusal("table.bad_options") from None
    if bankroll is not None and bankroll % engine.chip_value():  # the bank holds whole chips
        bankroll -= bankroll % engine.chip_value()
        if bankroll <= 0:
            raise Refusal("table.bad_options")
        config = config.model_copy(update={"bankroll": bankroll})
    state = TableState(
        config=config,
        npc_id=npc.id,
        npc_name=npc.name,
        npc_level=min(npc.gambling, GAMBLING_MAX),
        engine=engine,
        shoes=[ShoeRecord(commitment=shoe.commitment or "", packs=packs)],
        other_npcs=others,
    )
    saved = state.model_dump_json()

    def job(conn: JobConnection) -> tuple[int, TableMoney]:
        table_id = stored.insert(
            conn, guild_id=guild_id, channel_id=channel_id, game=game, state=saved, now=iso(now)
        )
        money = TableMoney(table_id, npc.id)
        if bankroll is None:
            ledger.mark_unlimited(conn, accounts.bank(table_id), "cash")
            money.unlimited.add((accounts.bank(table_id), "cash"))
        else:
            money.move(bankroll, None, accounts.bank(table_id), "table.bankroll")
            money.write(conn, guild_id=guild_id, actor_id=actor_id, now=iso(now))
        return table_id, money

    table_id, money = await core.commit(job)
    row = stored.TableRow(table_id, guild_id, channel_id, None, "open", saved, 0)
    snapshot = snapshot_of(row, state, money, status="open", event=Opened())
    await core.notify(snapshot)
    return snapshot


async def close(
    core: TableCore, table_id: int, actor_id: int | None, *, why: str | None = None
) -> TableSnapshot:
    """Cash every PC out, settle the bank, reveal the shoe's seed.

    `why` is a close nobody asked for at the table (`channel_deleted`, `bot_removed`):
    the cash-outs and the bank's settling say it in their reason, and nothing is drawn
    or posted (there is nowhere left to), so the table is marked drawn."""
    cash_out_reason, bank_close = ("table.cash_out", "table.bank_close")
    if why is not None:
        cash_out_reason, bank_close = f"{cash_out_reason}.{why}", f"{bank_close}.{why}"

    async def run(ctx: TableContext) -> Event:
        # A game with an end of its own plays it first, so the chips it holds in pots or
        # on the layout go back to the players before they are cashed out.
        end = Move(kind="end")
        if "end" in ctx.state.engine.moves and ctx.state.engine.can(end):
            ctx.play(end)
        if pot.open_pot(ctx.state) is not None:
            await pot.settle(ctx)
        for seat in list(ctx.state.seats):
            if (contest := rulebook_contest.pending(ctx.state, seat.character_id)) is not None:
                await rulebook_contest.settle_contest(ctx, contest)
            cash_out(ctx, seat, cash_out_reason)
        ctx.state.seats = []
        bankroll = ctx.money.bank()
        if bankroll is not None:  # what is left of it leaves the game with the NPC
            ctx.move(bankroll, accounts.bank(ctx.table_id), None, bank_close)
        if why is not None:
            ctx.writes.append(lambda sql: stored.mark_drawn(sql, ctx.table_id))
        reveal(ctx.state)
        ctx.state.offers = []
        ctx.state.deadline = ctx.state.deadline_action = None
        ctx.closed = True
        return Closed(shoes=tuple(ctx.state.shoes))

    return await core.mutate(table_id, actor_id, run, quiet=why is not None)


async def close_orphan(core: TableCore, table_id: int, why: str) -> TableSnapshot | None:
    """`close(why)` once, whoever else closes it (another event, another process):
    None when it was closed already."""
    attempts = 3
    for attempt in range(attempts):
        try:
            return await close(core, table_id, None, why=why)
        except Refusal as refusal:  # another process wrote first (its version, or its
            if refusal.key == "table.closed":  # cash-outs emptying these stacks)
                return None
            if attempt == attempts - 1:  # read again: closed, or refused for good
                raise
    return None


async def closed_drawn(core: TableCore, table_id: int) -> None:
    """The closed table's message shows it closed: nothing to redraw at the next start."""
    await core.commit(lambda conn: stored.mark_drawn(conn, table_id))


async def resume(core: TableCore) -> list[TableSnapshot]:
    """At start: every open table of this process's guilds (shards), with its timers
    armed again, and every closed table whose message was not yet redrawn closed (the
    bot stopped in between). Another process's tables are its own to resume."""
    snapshots = await core.open_tables()
    for snapshot in snapshots:
        arm(core, snapshot)
    async with core.db.read() as conn:
        closed = await stored.closed_undrawn(conn, **core.filter)
    return snapshots + [await core.snapshot(table_id) for table_id in closed]


# -- its message and thread --------------------------------------------------------------


def latest_thread(core: TableCore, table_id: int) -> int | None:
    """The table's thread as last known (None: none asked or not yet started)."""
    cached = core.latest.get(table_id)
    return None if cached is None else cached.thread_id


async def set_thread(core: TableCore, table_id: int, thread_id: int) -> None:
    """The thread the table plays in (0: the bot may not start one there)."""
    await core.commit(lambda conn: stored.set_thread(conn, table_id, thread_id))
    if (cached := core.latest.get(table_id)) is not None:
        cached.thread_id = thread_id


async def set_message(core: TableCore, table_id: int, message_id: int | None) -> None:
    """The table's message (None: to be posted again, at the bottom of its channel)."""
    await core.commit(lambda conn: stored.set_message(conn, table_id, message_id))
    if (cached := core.latest.get(table_id)) is not None:
        cached.message_id = message_id


async def forget_message(core: TableCore, table_id: int, shown: int | None) -> TableSnapshot | None:
    """The table's message `shown` is to be posted again: a new snapshot without it,
    for the table's messages to post (taken in the table's turn, as a redraw's); None
    when the table's message is not `shown` any more (posted again already)."""
    async with core.turn(table_id, waits=True):
        if (await core.snapshot(table_id)).message_id != shown:
            return None
        await set_message(core, table_id, None)
        return await core.snapshot(table_id, fresh=True)
