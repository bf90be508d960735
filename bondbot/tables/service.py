"""The table service: runs a game at a table in a channel, one transaction per action.

Each open table's latest state is kept in memory (this service is the only writer of
tables; one action at a time per table). An action takes that state object from the
latest snapshot (which reads from its saved JSON from then on) and works on it and on a
copy of the table's money (`TableContext`), reading through the read-only connection: it
checks who may do what, plays the game's move through the engine (`TableContext.play`),
and returns; then the new state and the action's ledger rows go to the group-commit
writer as one job, and only once they are on disk does the new state become the table's.
A refusal, a busy database or a crash changes nothing, and a restart resumes every open
table.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, TypeVar

from bondbot import background
from bondbot.errors import Refusal
from bondbot.games.contract import GAMBLING_MAX, Event, Move, Record
from bondbot.games.registry import NewTable, spec_for
from bondbot.i18n import Lang
from bondbot.money import Cents
from bondbot.rules import alternative
from bondbot.rules.errors import IllegalAction
from bondbot.rules.shoe import SEED_BYTES
from bondbot.scheduler import Scheduler
from bondbot.shards import Shards, shard_of
from bondbot.storage import ledger
from bondbot.storage import tables as stored
from bondbot.storage.conn import Connection, JobConnection
from bondbot.storage.db import Database, answer_by
from bondbot.storage.link import Unreachable
from bondbot.storage.writer import Busy, WriteFailed, acquire_by
from bondbot.tables import accounts, pot
from bondbot.tables import contest as rulebook_contest
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import (
    Chose,
    Closed,
    Joined,
    Left,
    NpcControl,
    NpcLevel,
    Opened,
    Paused,
    Played,
    Spent,
)
from bondbot.tables.money import TableMoney
from bondbot.tables.people import load_person
from bondbot.tables.state import (
    Choice,
    NpcRef,
    Seat,
    ShoeRecord,
    SpendOffer,
    TableConfig,
    TableState,
)

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
Listener = Callable[["TableSnapshot"], Awaitable[None]]
Action = Callable[[TableContext], Awaitable[Event]]
T = TypeVar("T")


@dataclass
class TableSnapshot:
    """A table as it stands after an action, with what that action did."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    game: str  # the table's game, which never changes (routing a click reads no state)
    chips: dict[int, int]
    bank: int | None
    hero_points: dict[int, int] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)  # chips in pots and on the layout
    event: Event | None = None
    thread_id: int | None = None  # the thread it plays in (0: not allowed to start one)
    money: TableMoney | None = None  # the balances after the action, for the next one
    version: int = 0  # the saved state's version (see storage.tables.save)
    saved: str = ""  # the state as saved
    # When each unspent Hero Point offer closes: read by timers after the state was taken
    offers_close: tuple[str, ...] = ()
    # The state as an object, until the next action takes it (`take_state`); `state` then
    # parses `saved` again, so a snapshot always reads as the table stood after its action.
    _state: TableState | None = field(default=None, repr=False, compare=False)

    @property
    def state(self) -> TableState:
        if self._state is None:
            self._state = TableState.model_validate_json(self.saved)
        return self._state

    def take_state(self) -> TableState:
        """The state for the next action to change: this snapshot's own object, given up.

        An action works on a state object nobody else reads, and most snapshots are never
        read once the next action has begun; so that action takes the object instead of
        parsing a copy of `saved` for itself (the parse was a twentieth of the bot's time
        under load), and a late reader parses one instead. The object is the action's from
        here on: committed, it becomes the new snapshot's state; refused, it is dropped.
        """
        state = self._state
        if state is None:
            return TableState.model_validate_json(self.saved)
        self._state = None
        return state

    @property
    def open(self) -> bool:
        return self.status == "open"

    @property
    def records(self) -> tuple[Record, ...]:
        """The game moves this action made (none for a seat, choice or spend)."""
        return self.event.records if isinstance(self.event, Played) else ()

    def spendable_offers(self, now: str) -> list[SpendOffer]:
        """Open offers whose PC has a Hero Point to spend: those get a button."""
        return [o for o in self.state.open_offers(now) if self.hero_points.get(o.character_id)]


class TableService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock,
        guild_settings: Callable[[int], Awaitable[Any]],
        rng: random.Random | None = None,
        seed_source: Callable[[], bytes] = lambda: secrets.token_bytes(SEED_BYTES),
        scheduler: Scheduler | None = None,
        shards: Shards | None = None,
    ) -> None:
        self.db = db
        # The guilds whose tables are this process's; another process runs the others'.
        self.shards = shards or Shards()
        self.seed_source = seed_source
        self.clock = clock
        self._guild_settings = guild_settings
        self.rng = rng or random.SystemRandom()
        self.listeners: list[Listener] = []
        self.scheduler = scheduler or Scheduler(clock)
        self._latest: dict[int, TableSnapshot] = {}
        self._all_loaded = False  # every open table is in `_latest`
        # One action at a time per table: an action takes the latest state to work on,
        # and two actions must never race to be the next one.
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: Counter[int] = Counter()  # per table: the actions holding or awaiting it
        # A timed move refused while the database was unreachable is made once it is back.
        db.link.listeners.append(self._database_changed)

    # -- reading ---------------------------------------------------------------------------

    async def open_in_channel(self, channel_id: int) -> int:
        """The id of the open table in this channel; refuses when there is none."""
        async with self.db.read() as conn:
            table_id = await stored.open_in_channel(conn, channel_id)
        if table_id is None:
            raise Refusal("table.none_here")
        return table_id

    async def latest_in_channel(self, channel_id: int) -> int:
        """The channel's open table, or else its last closed one (its history and shoes
        stay readable); refuses when the channel never had one."""
        async with self.db.read() as conn:
            table_id = await stored.latest_in_channel(conn, channel_id)
        if table_id is None:
            raise Refusal("table.none_here")
        return table_id

    async def snapshot(self, table_id: int, *, fresh: bool = False) -> TableSnapshot:
        """The table as it stands (from memory unless `fresh`: Hero Points may have moved
        elsewhere, through the GM or a roll)."""
        cached = self._latest.get(table_id)
        if cached is not None and not fresh:
            return cached
        async with self.db.read() as conn:
            row = await self._row(conn, table_id, must_be_open=False)
            state = TableState.model_validate_json(row.state)
            money = await self._money(conn, table_id, state)
        snapshot = self._snapshot(row, state, money, status=row.status)
        self._remember(snapshot)
        return snapshot

    def _remember(self, snapshot: TableSnapshot) -> None:
        if snapshot.open and self.shards.owns(snapshot.guild_id):
            self._latest[snapshot.id] = snapshot
        else:
            self._latest.pop(snapshot.id, None)

    async def open_tables(self) -> list[TableSnapshot]:
        async with self.db.read() as conn:
            ids = await stored.open_ids(conn, **self._filter)
        found = [await self.snapshot(table_id) for table_id in ids]
        self._all_loaded = True
        return found

    @property
    def _filter(self) -> dict[str, Any]:
        """The storage filter keeping this process's guilds' tables."""
        if self.shards.everything:
            return {}
        return {"shard_count": self.shards.count, "shard_ids": self.shards.ids}

    def _refuse_foreign(self, guild_id: int, table_id: int | None = None) -> None:
        """A table of a guild on another process's shard is never touched here: two
        processes acting on one table would race for it (its version check would refuse
        one, but its timers and messages would run twice). Discord does not send such a
        guild's events here; if one comes anyway, the shard settings disagree."""
        if self.shards.owns(guild_id):
            return
        assert self.shards.count is not None
        log.warning(
            "refused: table %s of guild %s is on shard %s, not one of this process's %s;"
            " check that every process has the same shard_count",
            "(new)" if table_id is None else table_id,
            guild_id,
            shard_of(guild_id, self.shards.count),
            self.shards.describe(),
        )
        raise Refusal("table.other_process")

    # -- opening and closing ---------------------------------------------------------------

    async def open_table(
        self,
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
        self._refuse_foreign(guild_id)
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
        now = self.clock()
        async with self.db.read() as conn:
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
        shoe = spec.live_shoe(new, self.seed_source())
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

        table_id, money = await self._commit(job)
        row = stored.TableRow(table_id, guild_id, channel_id, None, "open", saved, 0)
        snapshot = self._snapshot(row, state, money, status="open", event=Opened())
        await self._notify(snapshot)
        return snapshot

    async def close(
        self, table_id: int, actor_id: int | None, *, why: str | None = None
    ) -> TableSnapshot:
        """Cash every PC out, settle the bank, reveal the shoe's seed.

        `why` is a close nobody asked for at the table (`channel_deleted`, `bot_removed`):
        the cash-outs and the bank's settling say it in their reason, and nothing is drawn
        or posted (there is nowhere left to), so the table is marked drawn."""
        cash_out, bank_close = ("table.cash_out", "table.bank_close")
        if why is not None:
            cash_out, bank_close = f"{cash_out}.{why}", f"{bank_close}.{why}"

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
                self._cash_out(ctx, seat, cash_out)
            ctx.state.seats = []
            bankroll = ctx.money.bank()
            if bankroll is not None:  # what is left of it leaves the game with the NPC
                ctx.move(bankroll, accounts.bank(ctx.table_id), None, bank_close)
            if why is not None:
                ctx.writes.append(lambda sql: stored.mark_drawn(sql, ctx.table_id))
            self._reveal(ctx.state)
            ctx.state.offers = []
            ctx.state.deadline = ctx.state.deadline_action = None
            ctx.closed = True
            return Closed(shoes=tuple(ctx.state.shoes))

        return await self._mutate(table_id, actor_id, run, quiet=why is not None)

    async def close_orphan(self, table_id: int, why: str) -> TableSnapshot | None:
        """`close(why)` once, whoever else closes it (another event, another process):
        None when it was closed already."""
        attempts = 3
        for attempt in range(attempts):
            try:
                return await self.close(table_id, None, why=why)
            except Refusal as refusal:  # another process wrote first (its version, or its
                if refusal.key == "table.closed":  # cash-outs emptying these stacks)
                    return None
                if attempt == attempts - 1:  # read again: closed, or refused for good
                    raise
        return None

    async def guild_tables(self, guild_id: int) -> list[stored.OpenTable]:
        """The guild's open tables, wherever they are (`/gm tables`, a removed bot)."""
        async with self.db.read() as conn:
            return await stored.open_of_guild(conn, guild_id)

    def latest_thread(self, table_id: int) -> int | None:
        """The table's thread as last known (None: none asked or not yet started)."""
        cached = self._latest.get(table_id)
        return None if cached is None else cached.thread_id

    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """The thread the table plays in (0: the bot may not start one there)."""
        await self._commit(lambda conn: stored.set_thread(conn, table_id, thread_id))
        if (cached := self._latest.get(table_id)) is not None:
            cached.thread_id = thread_id

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """The table's message (None: to be posted again, at the bottom of its channel)."""
        await self._commit(lambda conn: stored.set_message(conn, table_id, message_id))
        if (cached := self._latest.get(table_id)) is not None:
            cached.message_id = message_id

    async def forget_message(self, table_id: int, shown: int | None) -> TableSnapshot | None:
        """The table's message `shown` is to be posted again: a new snapshot without it,
        for the table's messages to post (taken in the table's turn, as a redraw's); None
        when the table's message is not `shown` any more (posted again already)."""
        async with self._turn(table_id, waits=True):
            if (await self.snapshot(table_id)).message_id != shown:
                return None
            await self.set_message(table_id, None)
            return await self.snapshot(table_id, fresh=True)

    async def pause(self, table_id: int, actor_id: int, paused: bool) -> TableSnapshot:
        async def run(ctx: TableContext) -> Event:
            if ctx.state.paused == paused:
                raise Refusal("table.already_paused" if paused else "table.not_paused")
            ctx.state.paused = paused
            if not paused and ctx.state.deadline is not None:
                # The clock stopped with the game: whoever was to act gets his full time.
                ctx.state.deadline = iso(
                    max(datetime.fromisoformat(ctx.state.deadline), ctx.now + ctx.turn_timer)
                )
                ctx.state.last_deadline = ctx.state.deadline
            return Paused(kind="paused" if paused else "resumed")

        return await self._mutate(table_id, actor_id, run)

    async def set_npc_auto(self, table_id: int, actor_id: int, auto: bool) -> TableSnapshot:
        """The NPC's decisions: the bot's automatic play, or the GM with the game's buttons.

        Handing it back to the bot while the NPC is to act plays its move at once.
        """

        async def run(ctx: TableContext) -> Event:
            state = ctx.state
            if state.npc_auto == auto:
                raise Refusal("table.npc_already_auto" if auto else "table.npc_already_gm")
            state.npc_auto = auto
            records: tuple[Record, ...] = ()
            engine = state.engine
            if auto and not state.paused and state.npc_key in engine.turn():
                move = engine.npc_move(ctx.rng, level=state.npc_level)
                if move is not None:
                    records = tuple(ctx.play(move.model_copy(update={"auto": "npc"})))
            return NpcControl(auto=auto, records=records)

        return await self._mutate(table_id, actor_id, run)

    async def set_npc_level(self, table_id: int, actor_id: int, level: int) -> TableSnapshot:
        """The GM's override of the NPC's Gambling level for the evening: how well the
        automatic play plays from the next decision on (the sheet is not changed)."""
        if not 0 <= level <= GAMBLING_MAX:
            raise Refusal("table.bad_npc_level", max=GAMBLING_MAX)

        async def run(ctx: TableContext) -> Event:
            if ctx.state.npc_level == level:
                raise Refusal("table.npc_level_same", npc=ctx.state.npc_name, level=level)
            ctx.state.npc_level = level
            return NpcLevel(level=level)

        return await self._mutate(table_id, actor_id, run)

    # -- seats -----------------------------------------------------------------------------

    async def join(
        self, table_id: int, user_id: int, character_id: int, buy_in: int, *, by_gm: bool = False
    ) -> TableSnapshot:
        """Seat a PC with `buy_in` of his sheet's cash as chips (his owner, or the GM)."""
        await self._load_all()  # where else he sits is read from memory

        async def run(ctx: TableContext) -> Event:
            person = await ctx.person(character_id)
            if person is None or person.guild_id != ctx.guild_id:
                raise Refusal("sheet.not_found")
            if person.kind != "PC":
                raise Refusal("table.only_pcs")
            if not by_gm and person.owner_id != user_id:
                raise Refusal("table.not_your_character")
            if ctx.state.seat_of_character(character_id) is not None:
                raise Refusal("table.already_seated")
            if any(t.id != table_id for t in self._seating(character_id)):
                raise Refusal("table.seated_elsewhere")
            if buy_in <= 0:
                raise Refusal("table.bad_buy_in")
            chip = ctx.state.engine.chip_value()  # whole chips go to the table, cents stay
            chips = buy_in - buy_in % chip
            config = ctx.state.config
            limits = spec_for(config.game).buy_in_limits
            if limits and not config.min_bet <= chips <= config.max_bet:
                raise Refusal(
                    "table.buy_in_outside", min=Cents(config.min_bet), max=Cents(config.max_bet)
                )
            least = self._least_buy_in(ctx.state, character_id)
            if chips < least:
                raise Refusal("table.buy_in_below_minimum", min=Cents(least))
            async with self.db.read() as conn:
                await ctx.money.include(conn, character_id)
            ctx.move(
                chips,
                accounts.sheet(character_id),
                accounts.chips(table_id, character_id),
                "table.buy_in",
            )
            choice = "rulebook" if ctx.state.rulebook_only else ctx.state.chosen.get(character_id)
            ctx.state.seats.append(
                Seat(
                    character_id=character_id,
                    user_id=person.owner_id or user_id,
                    name=person.name,
                    choice=choice,
                )
            )
            ctx.state.sat[character_id] = person.name
            if choice == "simulate":
                self._sit(ctx, character_id)
            return Joined(character_id=character_id, buy_in=chips)

        return await self._mutate(table_id, user_id, run)

    @staticmethod
    def _least_buy_in(state: TableState, character_id: int) -> int:
        """What a buy-in must cover: a hand of the game (its smallest wager, an ante, a
        stake), or the table's smallest wager for who plays the rulebook's contest."""
        if state.rulebook_only or state.chosen.get(character_id) == "rulebook":
            return state.config.min_bet
        return state.engine.least_stack()

    async def leave(
        self, table_id: int, user_id: int, *, character_id: int | None = None
    ) -> TableSnapshot:
        """A PC leaves with his chips (his owner; the GM names the character to unseat)."""

        async def run(ctx: TableContext) -> Event:
            state = ctx.state
            seat = (
                state.seat_of_user(user_id)
                if character_id is None
                else state.seat_of_character(character_id)
            )
            if seat is None:
                raise Refusal("table.not_seated")
            try:
                state.engine.stand_up(str(seat.character_id))
            except IllegalAction as illegal:
                raise ctx.refusal(illegal) from None
            if (contest := rulebook_contest.pending(state, seat.character_id)) is not None:
                await rulebook_contest.settle_contest(ctx, contest)  # leaving cannot dodge it
            chips = self._cash_out(ctx, seat)
            state.seats.remove(seat)
            state.offers = [
                o for o in state.offers if o.character_id != seat.character_id or o.spent
            ]
            return Left(character_id=seat.character_id, chips=chips)

        return await self._mutate(table_id, user_id, run)

    async def choose(self, table_id: int, user_id: int, choice: Choice) -> TableSnapshot:
        """The owner's final choice for this game: simulate (earning the award) or rulebook."""

        async def run(ctx: TableContext) -> Event:
            seat = ctx.state.seat_of_user(user_id)
            if seat is None:
                raise Refusal("table.not_seated")
            if ctx.state.rulebook_only:
                raise Refusal("table.rulebook_only")
            if seat.choice is not None:
                raise Refusal("table.already_chose")
            seat.choice = ctx.state.chosen[seat.character_id] = choice
            award = 0
            if choice == "simulate":
                self._sit(ctx, seat.character_id)
                person = await ctx.person(seat.character_id)
                settings = await self._guild_settings(ctx.guild_id)
                awards = (
                    alternative.parse_award_table(settings.award_table)
                    if settings.award_table
                    else alternative.DEFAULT_AWARDS
                )
                award = alternative.hero_points_for(person.gambling if person else 0, awards)
                if award:
                    ctx.money.move(
                        award, None, accounts.sheet(seat.character_id), "award.simulate", "hero"
                    )
            return Chose(character_id=seat.character_id, choice=choice, award=award)

        return await self._mutate(table_id, user_id, run)

    @staticmethod
    def _sit(ctx: TableContext, character_id: int) -> None:
        """A simulating PC takes his place in the game, in the table's seat order."""
        engine = ctx.state.engine
        try:
            engine.sit(str(character_id))
        except IllegalAction as illegal:
            raise ctx.refusal(illegal) from None
        order = {str(seat.character_id): i for i, seat in enumerate(ctx.state.seats)}
        engine.seats.sort(key=lambda key: order.get(key, -1))

    # -- play ------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int | None,
        kind: str,
        *,
        amount: int | None = None,
        target: str | None = None,
        moves: int | None = None,
        hand: int | None = None,
        as_gm: bool = False,
        for_npc: bool = False,
    ) -> TableSnapshot:
        """A game move: a seated, simulating PC's own, or the GM's (the table's, or the NPC's).

        `moves` is the move count the clicked button was drawn with: a button drawn
        before the last move is stale and refused, so a double click plays once. Buttons
        that several seats answer at once (stakes) carry `hand` instead, the engine's
        `answer_round`: refused once that round of answers is over (a hand dealt, or one
        nobody played).
        """

        async def run(ctx: TableContext) -> Event:
            state = ctx.state
            if state.paused:
                raise Refusal("table.paused")
            if state.rulebook_only:
                raise Refusal("table.rulebook_only")
            if moves is not None and moves != state.moves:
                raise Refusal("table.stale_button")
            if hand is not None and hand != state.engine.answer_round:
                raise Refusal("table.stale_button")
            seat: str | None = state.npc_key if for_npc else None
            if not as_gm:
                found = state.seat_of_user(user_id) if user_id is not None else None
                if found is None:
                    raise Refusal("table.not_seated")
                if found.choice is None:
                    raise Refusal("table.choose_first")
                if found.choice == "rulebook":
                    raise Refusal("table.rulebook_player")
                seat = str(found.character_id)
            self._fresh_shoe(ctx)
            move = Move(kind=kind, seat=seat, amount=amount, target=target)
            return Played(records=tuple(ctx.play(move)))

        return await self._mutate(table_id, user_id, run)

    async def spend(self, table_id: int, user_id: int, offer_id: int) -> TableSnapshot:
        """One Hero Point wins a lost hand: once, whatever the clicks, devices or restarts."""

        async def run(ctx: TableContext) -> Event:
            offer = next((o for o in ctx.state.offers if o.id == offer_id), None)
            if offer is None or offer.expires_at <= iso(ctx.now):
                raise Refusal("table.offer_closed")
            seat = ctx.state.seat_of_character(offer.character_id)
            if seat is None or seat.user_id != user_id:
                raise Refusal("table.not_your_button")
            if offer.spent:
                raise Refusal("table.already_spent")
            ctx.money.hand = offer.hand  # the spend's rows tell which hand it won back
            ctx.spend_hero_point(offer.character_id, "spend.win_hand")
            pay = self._pay_won_back(ctx, offer)
            offer.spent = True  # paid: no longer owed by the bank
            # A game that keeps its own account of the hand (a score sheet, who won the
            # evening, who shares a pot) is told, by its `won_back` move; if it no longer
            # takes it (the GM ended the game), the hand is closed.
            engine = ctx.state.engine
            if "won_back" in engine.moves:
                self._fresh_shoe(ctx)  # a finished shoe is replaced before any move
                won_back = Move(kind="won_back", target=str(offer.character_id))
                if not engine.can(won_back):
                    raise Refusal("table.offer_closed")
                ctx.play(won_back)
            return Spent(
                character_id=offer.character_id,
                name=seat.name,
                pay=pay,
                hand=offer.hand,
                score=offer.score,
            )

        return await self._mutate(table_id, user_id, run)

    @staticmethod
    def _pay_won_back(ctx: TableContext, offer: SpendOffer) -> int:
        """Pay a spend: the offer's pay, or what the game reckons it moves now (spenders who
        share a pot: the earlier ones give the NPC back the new one's share). Only between
        the NPC and PCs who spent on that hand; what the spender gets is returned."""
        engine = ctx.state.engine
        pays = engine.won_back_pays(str(offer.character_id))
        if pays is None:
            ctx.money.pay_won_back(offer.character_id, offer.pay, "spend.win_hand")
            return offer.pay
        spenders = {o.character_id for o in ctx.state.offers if o.hand == offer.hand and o.spent}
        pay = pays.get(str(offer.character_id), 0)
        if pay <= 0:
            raise Refusal("table.nothing_to_win_back")
        for seat, amount in pays.items():
            character_id = int(seat)
            if character_id != offer.character_id and character_id not in spenders:
                raise ValueError(f"a spend may not move chips of {seat}, who did not spend")
            if amount < 0:
                ctx.money.give_back(character_id, -amount, "spend.shared")
        for seat, amount in pays.items():
            if amount > 0:
                ctx.money.pay_won_back(int(seat), amount, "spend.win_hand")
        return pay

    # -- the rulebook contest (a PC who chose the rulebook; see tables/contest.py) ---------

    async def contest(
        self, table_id: int, user_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        """Both sides roll Gambling for `stake`; the PC sees his roll and may then spend."""
        return await self._mutate(
            table_id,
            user_id,
            lambda ctx: rulebook_contest.start(ctx, user_id, stake, ease, self.rng),
        )

    async def contest_step(
        self, table_id: int, user_id: int, contest_id: int, seen: int
    ) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx: rulebook_contest.step(ctx, user_id, contest_id, seen)
        )

    async def contest_settle(self, table_id: int, user_id: int, contest_id: int) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx: rulebook_contest.settle(ctx, user_id, contest_id)
        )

    # -- the pot contest (a table with several NPCs) ---------------------------------------

    async def pot_start(
        self, table_id: int, actor_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        """The GM starts a round: everyone stakes and rolls (see tables/pot.py)."""
        return await self._mutate(
            table_id, actor_id, lambda ctx: pot.start(ctx, stake, ease, self.rng)
        )

    async def pot_step(self, table_id: int, user_id: int, pot_id: int, seen: int) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx: pot.step(ctx, user_id, pot_id, seen)
        )

    async def pot_settle(self, table_id: int, actor_id: int) -> TableSnapshot:
        return await self._mutate(table_id, actor_id, lambda ctx: pot.settle(ctx))

    # -- internals -------------------------------------------------------------------------

    def _fresh_shoe(self, ctx: TableContext) -> None:
        """Between hands, a finished shoe is replaced (its seed revealed) before any move."""
        state = ctx.state
        engine = state.engine
        if engine.in_hand() or not engine.needs_new_shoe:
            return
        self._reveal(state)
        spec = spec_for(state.config.game)
        packs = engine.shoe_packs(state.config.packs)
        new = NewTable(
            npc=state.npc_key,
            packs=packs,
            min_bet=state.config.min_bet,
            max_bet=state.config.max_bet,
            options=spec.options.model_validate(state.config.options),
        )
        shoe = spec.live_shoe(new, self.seed_source())
        engine.replace_shoe(shoe)
        state.shoes.append(ShoeRecord(commitment=shoe.commitment or "", packs=packs))

    @staticmethod
    def _reveal(state: TableState) -> None:
        shoe = state.engine.current_shoe()
        if state.shoes and shoe is not None and shoe.seed is not None:
            state.shoes[-1].seed = shoe.seed.hex()

    @staticmethod
    def _cash_out(ctx: TableContext, seat: Seat, reason: str = "table.cash_out") -> int:
        chips = ctx.chips(seat.character_id)
        ctx.move(
            chips,
            accounts.chips(ctx.table_id, seat.character_id),
            accounts.sheet(seat.character_id),
            reason,
        )
        return chips

    async def character_changed(self, character_id: int) -> None:
        """Redraw the table where this PC sits: his Hero Points decide his spend buttons."""
        await self._load_all()
        for table in self._seating(character_id):
            async with self._turn(table.id, waits=True):  # not under an action
                fresh = await self.snapshot(table.id, fresh=True)
            await self._notify(fresh)

    async def _load_all(self) -> None:
        """Every open table in memory (done at start by `resume`)."""
        if not self._all_loaded:
            await self.open_tables()

    def _seating(self, character_id: int) -> list[TableSnapshot]:
        """The open tables where this PC sits (at most one), once `_load_all` has run."""
        return [
            t for t in self._latest.values() if t.state.seat_of_character(character_id) is not None
        ]

    @staticmethod
    async def _row(
        conn: Connection, table_id: int, *, must_be_open: bool = True
    ) -> stored.TableRow:
        row = await stored.load(conn, table_id)
        if row is None or (must_be_open and row.status != "open"):
            raise Refusal("table.closed")
        return row

    @staticmethod
    async def _money(conn: Connection, table_id: int, state: TableState) -> TableMoney:
        return await TableMoney.load(
            conn, table_id, state.npc_id, [seat.character_id for seat in state.seats]
        )

    @staticmethod
    def _snapshot(
        row: stored.TableRow,
        state: TableState,
        money: TableMoney,
        *,
        status: str,
        event: Event | None = None,
    ) -> TableSnapshot:
        return TableSnapshot(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            message_id=row.message_id,
            status=status,
            game=state.config.game,
            _state=state,
            chips={seat.character_id: money.chips(seat.character_id) for seat in state.seats},
            bank=money.bank(),
            hero_points={
                seat.character_id: money.hero_points(seat.character_id) for seat in state.seats
            },
            held={**money.held("pot"), **money.held("layout")},
            event=event,
            thread_id=row.thread_id,
            money=money,
            version=row.version,
            saved=row.state,
            offers_close=tuple(o.expires_at for o in state.offers if not o.spent),
        )

    async def _mutate(
        self, table_id: int, actor_id: int | None, run: Action, *, quiet: bool = False
    ) -> TableSnapshot:
        """Run an action on the table's state (taken from its latest snapshot), then commit
        what it wrote in one writer job: the ledger rows, the new state (over the version
        it started from) and any other write it asked for. Only once that is on disk does
        the new state become the table's, so a refused or failed action leaves the table
        as it was (its snapshot parses the saved state again)."""
        async with self._turn(table_id):
            now = self.clock()
            cached = self._latest.get(table_id)
            if cached is None:  # read once; then the table lives in memory
                async with self.db.read() as conn:
                    row = await self._row(conn, table_id)
                    state = TableState.model_validate_json(row.state)
                    money = await self._money(conn, table_id, state)
            else:
                row = stored.TableRow(
                    cached.id,
                    cached.guild_id,
                    cached.channel_id,
                    cached.message_id,
                    "open",
                    cached.saved,
                    cached.version,
                    cached.thread_id,
                )
                state = cached.take_state()
                money = cached.money.copy()
            self._refuse_foreign(row.guild_id, table_id)
            settings = await self._guild_settings(row.guild_id)
            ctx = TableContext(
                db=self.db,
                table_id=table_id,
                guild_id=row.guild_id,
                state=state,
                money=money,
                now=now,
                actor_id=actor_id,
                spend_window=timedelta(seconds=settings.spend_window_s),
                turn_timer=timedelta(seconds=settings.turn_timer_s),
                rng=self.rng,
            )
            ctx.fresh_shoe = self._fresh_shoe
            money.hand = state.hand_no  # until a move says otherwise (TableContext._apply)
            event = await run(ctx)
            saved = state.model_dump_json()

            def job(sql: JobConnection) -> None:
                ctx.money.write(sql, guild_id=row.guild_id, actor_id=actor_id, now=iso(now))
                for write in ctx.writes:
                    write(sql)
                stored.save(
                    sql, table_id, saved, version=row.version, now=iso(now), closed=ctx.closed
                )

            try:
                await self._commit(job)
            except Unreachable:  # nothing written: the table stands as it was
                raise
            except Refusal:  # the database disagreed (a balance, the version): read it again
                self._latest.pop(table_id, None)
                raise
            status = "closed" if ctx.closed else "open"
            row = replace(row, state=saved, version=row.version + 1)
            snapshot = self._snapshot(row, state, ctx.money, status=status, event=event)
            if cached is not None:
                snapshot.message_id = cached.message_id
            self._remember(snapshot)
        await self._notify(snapshot, tell=not quiet)  # quiet: nowhere to draw it
        return snapshot

    @asynccontextmanager
    async def _turn(self, table_id: int, *, waits: bool = False) -> AsyncIterator[None]:
        """The table to this action alone; refused as busy if the others before it hold it
        past the time its interaction must be answered by (`answer_by`), unless it `waits`
        as long as it takes (a redraw, answering no one)."""
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        due = None if waits else answer_by.get()
        ahead = self._queued[table_id]
        self._queued[table_id] = ahead + 1
        try:
            if not ahead:  # nobody holds it or waits for it: taken at once, no timer
                await lock.acquire()
            elif not await acquire_by(lock, due):
                raise Refusal("errors.busy")
            try:
                yield
            finally:
                lock.release()
        finally:
            self._queued[table_id] -= 1

    async def _commit(self, job: Callable[[JobConnection], T]) -> T:
        """A writer job, answered once on disk; a busy or failed database is a refusal."""
        try:
            return await self.db.submit(job)
        except Busy:
            raise Refusal("errors.busy") from None
        except WriteFailed:
            log.exception("a table write failed")
            raise Refusal("errors.not_saved") from None

    # -- timers ----------------------------------------------------------------------------

    def arm(self, snapshot: TableSnapshot) -> None:
        """Schedule the table's pending timed move, replacing any older one."""
        key = ("move", snapshot.id)
        owned = snapshot.open and self.shards.owns(snapshot.guild_id)  # its process arms it
        deadline = snapshot.state.deadline if owned else None
        if deadline is None:
            self.scheduler.cancel(key)
            return
        self.scheduler.at(
            key,
            datetime.fromisoformat(deadline),
            lambda: background.spawn(self.run_timer(snapshot.id, deadline)),
        )

    async def resume(self) -> list[TableSnapshot]:
        """At start: every open table of this process's guilds (shards), with its timers
        armed again, and every closed table whose message was not yet redrawn closed (the
        bot stopped in between). Another process's tables are its own to resume."""
        snapshots = await self.open_tables()
        for snapshot in snapshots:
            self.arm(snapshot)
        async with self.db.read() as conn:
            closed = await stored.closed_undrawn(conn, **self._filter)
        return snapshots + [await self.snapshot(table_id) for table_id in closed]

    async def closed_drawn(self, table_id: int) -> None:
        """The closed table's message shows it closed: nothing to redraw at the next start."""
        await self._commit(lambda conn: stored.mark_drawn(conn, table_id))

    async def run_timer(self, table_id: int, deadline: str) -> TableSnapshot | None:
        """The scheduler's job: the timed move, quietly skipped if it was overtaken."""
        try:
            return await self.timed_move(table_id, deadline)
        except Refusal as refusal:  # overtaken by a player's own move: nothing to do
            log.debug("table %s timer at %s: %s", table_id, deadline, refusal.key)
        except Exception:
            log.exception("table %s: timed move at %s failed", table_id, deadline)
        return None

    async def timed_move(self, table_id: int, deadline: str) -> TableSnapshot:
        """Make the table's timed move; refused unless `deadline` is still the table's own."""

        async def run(ctx: TableContext) -> Event:
            state, engine = ctx.state, ctx.state.engine
            if state.deadline != deadline or state.deadline > iso(ctx.now):
                raise Refusal("table.timer_stale")
            if state.paused:
                raise Refusal("table.paused")
            records: list[Record] = []
            if state.deadline_action == "timeout":
                for seat in engine.turn():
                    move = engine.timeout_move(seat) if seat in engine.turn() else None
                    if move is not None:  # marked, so the table can say a timer played it
                        records += ctx.play(move.model_copy(update={"auto": "timeout"}))
            elif (scheduled := engine.scheduled()) is not None:
                self._fresh_shoe(ctx)
                records += ctx.play(scheduled[1])
            elif state.deadline_action == "offers" and (end := engine.after_offers()):
                records += ctx.play(end)
            if not records:
                raise Refusal("table.timer_stale")
            return Played(records=tuple(records))

        return await self._mutate(table_id, None, run)

    async def run_due(self) -> None:
        """Make every timed move whose deadline has passed (tests call this with a clock)."""
        now = iso(self.clock())
        for snapshot in list(self._latest.values()):
            deadline = snapshot.state.deadline
            if deadline is not None and deadline <= now:
                await self.run_timer(snapshot.id, deadline)

    def _database_changed(self) -> None:
        if not self.db.link.down:
            background.spawn(self.run_due(), name="bondbot-timers-after-outage")

    def stop_timers(self) -> None:
        self.scheduler.cancel_all()

    async def _notify(self, snapshot: TableSnapshot, *, tell: bool = True) -> None:
        self._remember(snapshot)
        self.arm(snapshot)
        for listener in self.listeners if tell else ():
            try:
                await listener(snapshot)
            except Exception:
                log.exception("table %s listener failed", snapshot.id)
