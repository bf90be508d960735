"""The table service: runs a game at a table in a channel, one transaction per action.

Each action loads the table's state, checks who may do what, lets the game adapter
apply the decision, moves chips and Hero Points through the ledger and saves the state,
all in one transaction: a refusal or a crash changes nothing, and a restart resumes
every open table from the database.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bondbot.errors import Refusal
from bondbot.rules import alternative
from bondbot.rules.shoe import SEED_BYTES, Shoe
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.storage.sqlite import Connection, Row
from bondbot.tables import accounts, pot
from bondbot.tables import contest as rulebook_contest
from bondbot.tables.context import TableContext, iso
from bondbot.tables.games import TableGame, game_for
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


@dataclass
class TableSnapshot:
    """A table as it stands after an action, with what that action did."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    status: str
    state: TableState
    chips: dict[int, int]
    bank: int | None
    hero_points: dict[int, int] = field(default_factory=dict)
    event: dict[str, Any] | None = None

    @property
    def open(self) -> bool:
        return self.status == "open"

    def spendable_offers(self, now: str) -> list[SpendOffer]:
        """Open offers whose PC has a Hero Point to spend: those get a button."""
        return [o for o in self.state.open_offers(now) if self.hero_points.get(o.character_id)]


class TableService:
    def __init__(
        self,
        db: Database,
        *,
        clock: Clock,
        guild_settings: Callable[[Connection, int], Awaitable[Any]],
        rng: random.Random | None = None,
        seed_source: Callable[[], bytes] = lambda: secrets.token_bytes(SEED_BYTES),
    ) -> None:
        self.db = db
        self.seed_source = seed_source
        self.clock = clock
        self._guild_settings = guild_settings
        self.rng = rng or random.SystemRandom()
        self.listeners: list[Listener] = []
        self._deadlines: dict[int, tuple[str, str]] = {}
        # The latest snapshot of each table this service wrote or read: it is the only
        # writer of tables, so reads for routing and redrawing need not touch the database.
        self._latest: dict[int, TableSnapshot] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}

    # -- reading ---------------------------------------------------------------------------

    async def open_in_channel(self, channel_id: int) -> int:
        """The id of the open table in this channel; refuses when there is none."""
        async with self.db.read() as conn:
            cursor = await conn.execute(
                "SELECT id FROM card_tables WHERE channel_id = ? AND status = 'open'",
                (channel_id,),
            )
            row = await cursor.fetchone()
        if row is None:
            raise Refusal("table.none_here")
        return int(row[0])

    async def snapshot(self, table_id: int, *, fresh: bool = False) -> TableSnapshot:
        """The table as it stands (from memory unless `fresh`: Hero Points may have moved
        elsewhere, through the GM or a roll)."""
        cached = self._latest.get(table_id)
        if cached is not None and not fresh:
            return cached
        async with self.db.read() as conn:
            row = await self._row(conn, table_id, must_be_open=False)
            state = TableState.model_validate_json(row["state"])
            snapshot = await self._snapshot(conn, row, state, status=row["status"])
        self._remember(snapshot)
        return snapshot

    def _remember(self, snapshot: TableSnapshot) -> None:
        if snapshot.open:
            self._latest[snapshot.id] = snapshot
        else:
            self._latest.pop(snapshot.id, None)

    async def open_tables(self) -> list[TableSnapshot]:
        async with self.db.read() as conn:
            cursor = await conn.execute("SELECT id FROM card_tables WHERE status = 'open'")
            ids = [int(r[0]) for r in await cursor.fetchall()]
        return [await self.snapshot(table_id) for table_id in ids]

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
    ) -> TableSnapshot:
        """Open a table; with other NPCs besides the bank's, only the rulebook is played."""
        adapter = game_for(game)
        packs = adapter.default_packs if packs is None else packs
        if packs not in adapter.packs_allowed:
            raise Refusal("table.bad_packs", allowed=", ".join(map(str, adapter.packs_allowed)))
        if not 0 < min_bet <= max_bet:
            raise Refusal("table.bad_limits")
        config = TableConfig(
            game=game,
            min_bet=min_bet,
            max_bet=max_bet,
            packs=packs,
            bankroll=bankroll,
            options=options or {},
        )
        now = self.clock()
        async with self.db.transaction() as conn:
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
            shoe = adapter.live_shoe(config, self.seed_source())
            state = TableState(
                config=config,
                npc_id=npc.id,
                npc_name=npc.name,
                engine=adapter.new_engine(config, shoe),
                shoes=[ShoeRecord(commitment=shoe.commitment or "", packs=packs)],
                other_npcs=others,
            )
            try:
                cursor = await conn.execute(
                    "INSERT INTO card_tables (guild_id, channel_id, game, status, state, "
                    "created_at, updated_at) VALUES (?, ?, ?, 'open', ?, ?, ?)",
                    (guild_id, channel_id, game, state.model_dump_json(), iso(now), iso(now)),
                )
            except sqlite3.IntegrityError:
                raise Refusal("table.already_open") from None
            table_id = int(cursor.lastrowid or 0)
            bank = accounts.bank(table_id)
            if bankroll is None:
                await ledger.set_unlimited(conn, bank, "cash")
            else:
                await ledger.transfer(
                    conn,
                    guild_id=guild_id,
                    kind="cash",
                    amount=bankroll,
                    src=None,
                    dst=bank,
                    reason="table.bankroll",
                    table_id=table_id,
                    actor_id=actor_id,
                    now=iso(now),
                )
            row = await self._row(conn, table_id)
            snapshot = await self._snapshot(conn, row, state, {"kind": "opened"}, status="open")
        await self._notify(snapshot)
        return snapshot

    async def close(self, table_id: int, actor_id: int) -> TableSnapshot:
        """Cash every PC out, settle the bank, reveal the shoe's seed."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            if pot.open_pot(ctx.state) is not None:
                await pot.settle(ctx)
            for seat in list(ctx.state.seats):
                await self._cash_out(ctx, seat)
            ctx.state.seats = []
            await self._close_bank(ctx)
            self._reveal(ctx.state)
            ctx.state.offers = []
            await ctx.conn.execute(
                "UPDATE card_tables SET status = 'closed', closed_at = ? WHERE id = ?",
                (iso(ctx.now), table_id),
            )
            ctx.closed = True
            return {"kind": "closed", "shoes": [s.model_dump() for s in ctx.state.shoes]}

        return await self._mutate(table_id, actor_id, run)

    async def set_message(self, table_id: int, message_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE card_tables SET message_id = ? WHERE id = ?", (message_id, table_id)
            )
        if (cached := self._latest.get(table_id)) is not None:
            cached.message_id = message_id

    async def pause(self, table_id: int, actor_id: int, paused: bool) -> TableSnapshot:
        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            if ctx.state.paused == paused:
                raise Refusal("table.already_paused" if paused else "table.not_paused")
            ctx.state.paused = paused
            if not paused and ctx.state.deadline is not None:
                # The clock stopped with the game: whoever was to act gets his full time.
                ctx.state.deadline = iso(
                    max(datetime.fromisoformat(ctx.state.deadline), ctx.now + ctx.turn_timer)
                )
            return {"kind": "paused" if paused else "resumed"}

        return await self._mutate(table_id, actor_id, run)

    # -- seats -----------------------------------------------------------------------------

    async def join(
        self, table_id: int, user_id: int, character_id: int, buy_in: int, *, by_gm: bool = False
    ) -> TableSnapshot:
        """Seat a PC with `buy_in` of his sheet's cash as chips (his owner, or the GM)."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            person = await load_person(ctx.conn, character_id)
            if person is None or person.guild_id != ctx.guild_id:
                raise Refusal("sheet.not_found")
            if person.kind != "PC":
                raise Refusal("table.only_pcs")
            if not by_gm and person.owner_id != user_id:
                raise Refusal("table.not_your_character")
            if ctx.state.seat_of_character(character_id) is not None:
                raise Refusal("table.already_seated")
            if await self._tables_seating(ctx.conn, character_id, except_table=table_id):
                raise Refusal("table.seated_elsewhere")
            if buy_in <= 0:
                raise Refusal("table.bad_buy_in")
            try:
                await ledger.transfer(
                    ctx.conn,
                    guild_id=ctx.guild_id,
                    kind="cash",
                    amount=buy_in,
                    src=accounts.sheet(character_id),
                    dst=accounts.chips(table_id, character_id),
                    reason="table.buy_in",
                    table_id=table_id,
                    actor_id=user_id,
                    now=iso(ctx.now),
                )
            except ledger.InsufficientFunds:
                raise Refusal("table.buy_in_over_cash") from None
            ctx.state.seats.append(
                Seat(
                    character_id=character_id,
                    user_id=person.owner_id or user_id,
                    name=person.name,
                    choice="rulebook"
                    if ctx.state.rulebook_only
                    else ctx.state.chosen.get(character_id),
                )
            )
            return {"kind": "joined", "character_id": character_id, "buy_in": buy_in}

        return await self._mutate(table_id, user_id, run)

    async def leave(
        self, table_id: int, user_id: int, *, character_id: int | None = None
    ) -> TableSnapshot:
        """A PC leaves with his chips (his owner; the GM names the character to unseat)."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            seat = (
                ctx.state.seat_of_user(user_id)
                if character_id is None
                else ctx.state.seat_of_character(character_id)
            )
            if seat is None:
                raise Refusal("table.not_seated")
            adapter = game_for(ctx.state.config.game)
            ctx.state.engine = adapter.release(ctx.state.engine, seat.character_id)
            chips = await self._cash_out(ctx, seat)
            ctx.state.seats.remove(seat)
            ctx.state.offers = [
                o for o in ctx.state.offers if o.character_id != seat.character_id or o.spent
            ]
            return {"kind": "left", "character_id": seat.character_id, "chips": chips}

        return await self._mutate(table_id, user_id, run)

    async def choose(self, table_id: int, user_id: int, choice: Choice) -> TableSnapshot:
        """The owner's final choice for this game: simulate (earning the award) or rulebook."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
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
                person = await load_person(ctx.conn, seat.character_id)
                settings = await self._guild_settings(ctx.conn, ctx.guild_id)
                awards = (
                    alternative.parse_award_table(settings.award_table)
                    if settings.award_table
                    else alternative.DEFAULT_AWARDS
                )
                award = alternative.hero_points_for(person.gambling if person else 0, awards)
                if award:
                    await ledger.transfer(
                        ctx.conn,
                        guild_id=ctx.guild_id,
                        kind="hero",
                        amount=award,
                        src=None,
                        dst=accounts.sheet(seat.character_id),
                        reason="award.simulate",
                        table_id=table_id,
                        actor_id=user_id,
                        now=iso(ctx.now),
                    )
            return {
                "kind": "chose",
                "character_id": seat.character_id,
                "choice": choice,
                "award": award,
            }

        return await self._mutate(table_id, user_id, run)

    # -- play ------------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        user_id: int | None,
        action: str,
        args: dict[str, Any] | None = None,
        *,
        as_gm: bool = False,
    ) -> TableSnapshot:
        """A game decision: a seated, simulating PC's own, or the GM's (deal, NPC moves)."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            if ctx.state.paused:
                raise Refusal("table.paused")
            if ctx.state.rulebook_only:
                raise Refusal("table.rulebook_only")
            adapter = game_for(ctx.state.config.game)
            seat = None
            if not as_gm:
                seat = ctx.state.seat_of_user(user_id) if user_id is not None else None
                if seat is None:
                    raise Refusal("table.not_seated")
                if seat.choice is None:
                    raise Refusal("table.choose_first")
                if seat.choice == "rulebook":
                    raise Refusal("table.rulebook_player")
            if as_gm and adapter.needs_new_shoe(ctx.state.engine):
                self._new_shoe(ctx.state, adapter)
            # A new hand closes the previous hand's Hero Point windows.
            hand_before = ctx.state.hand_no
            event = await adapter.act(ctx, seat, action, args or {})
            if ctx.state.hand_no != hand_before:
                ctx.state.offers = [o for o in ctx.state.offers if o.hand == ctx.state.hand_no]
                ctx.state.last = event
            return event

        return await self._mutate(table_id, user_id, run)

    async def spend(self, table_id: int, user_id: int, offer_id: int) -> TableSnapshot:
        """One Hero Point wins a lost hand: once, whatever the clicks, devices or restarts."""

        async def run(ctx: TableContext, row: Row) -> dict[str, Any]:
            offer = next((o for o in ctx.state.offers if o.id == offer_id), None)
            if offer is None or offer.expires_at <= iso(ctx.now):
                raise Refusal("table.offer_closed")
            seat = ctx.state.seat_of_character(offer.character_id)
            if seat is None or seat.user_id != user_id:
                raise Refusal("table.not_your_button")
            if offer.spent:
                raise Refusal("table.already_spent")
            await ctx.spend_hero_point(offer.character_id, "spend.win_hand")
            await ctx.pay(offer.character_id, offer.pay, "spend.win_hand")
            offer.spent = True
            return {
                "kind": "spent",
                "character_id": offer.character_id,
                "name": seat.name,
                "pay": offer.pay,
                "hand": offer.hand,
            }

        return await self._mutate(table_id, user_id, run)

    # -- the rulebook contest (a PC who chose the rulebook; see tables/contest.py) ---------

    async def contest(
        self, table_id: int, user_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        """Both sides roll Gambling for `stake`; the PC sees his roll and may then spend."""
        return await self._mutate(
            table_id,
            user_id,
            lambda ctx, row: rulebook_contest.start(ctx, user_id, stake, ease, self.rng),
        )

    async def contest_step(self, table_id: int, user_id: int, contest_id: int) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx, row: rulebook_contest.step(ctx, user_id, contest_id)
        )

    async def contest_settle(self, table_id: int, user_id: int, contest_id: int) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx, row: rulebook_contest.settle(ctx, user_id, contest_id)
        )

    # -- the pot contest (a table with several NPCs) ---------------------------------------

    async def pot_start(
        self, table_id: int, actor_id: int, stake: int, ease: int = 5
    ) -> TableSnapshot:
        """The GM starts a round: everyone stakes and rolls (see tables/pot.py)."""
        return await self._mutate(
            table_id, actor_id, lambda ctx, row: pot.start(ctx, stake, ease, self.rng)
        )

    async def pot_step(self, table_id: int, user_id: int, pot_id: int) -> TableSnapshot:
        return await self._mutate(
            table_id, user_id, lambda ctx, row: pot.step(ctx, user_id, pot_id)
        )

    async def pot_settle(self, table_id: int, actor_id: int) -> TableSnapshot:
        return await self._mutate(table_id, actor_id, lambda ctx, row: pot.settle(ctx))

    # -- internals -------------------------------------------------------------------------

    def _new_shoe(self, state: TableState, adapter: TableGame) -> None:
        self._reveal(state)
        shoe: Shoe = adapter.live_shoe(state.config, self.seed_source())
        state.engine = adapter.replace_shoe(state.engine, shoe)
        state.shoes.append(ShoeRecord(commitment=shoe.commitment or "", packs=state.config.packs))

    def _reveal(self, state: TableState) -> None:
        seed = game_for(state.config.game).shoe(state.engine).seed
        if state.shoes and seed is not None:
            state.shoes[-1].seed = seed.hex()

    async def _cash_out(self, ctx: TableContext, seat: Seat) -> int:
        chips = await ctx.chips(seat.character_id)
        await ctx.move(
            chips,
            accounts.chips(ctx.table_id, seat.character_id),
            accounts.sheet(seat.character_id),
            "table.cash_out",
        )
        return chips

    async def _close_bank(self, ctx: TableContext) -> None:
        """What is left of a limited bankroll leaves the game with the NPC."""
        if ctx.state.config.bankroll is not None:
            bank = accounts.bank(ctx.table_id)
            await ctx.move(
                await ledger.balance(ctx.conn, bank, "cash"), bank, None, "table.bank_close"
            )

    @staticmethod
    async def _tables_seating(
        conn: Connection, character_id: int, *, except_table: int = 0
    ) -> list[int]:
        """The open tables where this character sits (a PC sits at one at most)."""
        cursor = await conn.execute(
            "SELECT t.id FROM card_tables t, json_each(t.state, '$.seats') s "
            "WHERE t.status = 'open' AND t.id != ? "
            "AND json_extract(s.value, '$.character_id') = ?",
            (except_table, character_id),
        )
        return [int(row[0]) for row in await cursor.fetchall()]

    async def character_changed(self, character_id: int) -> None:
        """Redraw the table where this PC sits: his Hero Points decide his spend buttons."""
        async with self.db.read() as conn:
            tables = await self._tables_seating(conn, character_id)
        for table_id in tables:
            await self._notify(await self.snapshot(table_id, fresh=True))

    async def _row(self, conn: Connection, table_id: int, *, must_be_open: bool = True) -> Row:
        cursor = await conn.execute("SELECT * FROM card_tables WHERE id = ?", (table_id,))
        row = await cursor.fetchone()
        if row is None or (must_be_open and row["status"] != "open"):
            raise Refusal("table.closed")
        return row

    async def _snapshot(
        self,
        conn: Connection,
        row: Row,
        state: TableState,
        event: dict[str, Any] | None = None,
        *,
        status: str,
    ) -> TableSnapshot:
        table_id = int(row["id"])
        wanted = {accounts.bank(table_id)}
        for seat in state.seats:
            wanted |= {
                accounts.chips(table_id, seat.character_id),
                accounts.sheet(seat.character_id),
            }
        balances = await ledger.balances_of(conn, sorted(wanted))
        chips = {
            seat.character_id: balances.get(
                (accounts.chips(table_id, seat.character_id), "cash"), 0
            )
            for seat in state.seats
        }
        hero_points = {
            seat.character_id: balances.get((accounts.sheet(seat.character_id), "hero"), 0)
            for seat in state.seats
        }
        bank = (
            None
            if state.config.bankroll is None
            else balances.get((accounts.bank(table_id), "cash"), 0)
        )
        return TableSnapshot(
            id=table_id,
            guild_id=int(row["guild_id"]),
            channel_id=int(row["channel_id"]),
            message_id=row["message_id"],
            status=status,
            state=state,
            chips=chips,
            bank=bank,
            hero_points=hero_points,
            event=event,
        )

    async def _mutate(
        self,
        table_id: int,
        actor_id: int | None,
        run: Callable[[TableContext, Row], Awaitable[dict[str, Any]]],
    ) -> TableSnapshot:
        now = self.clock()
        async with self.db.transaction() as conn:
            row = await self._row(conn, table_id)
            state = TableState.model_validate_json(row["state"])
            settings = await self._guild_settings(conn, int(row["guild_id"]))
            ctx = TableContext(
                conn=conn,
                table_id=table_id,
                guild_id=int(row["guild_id"]),
                state=state,
                now=now,
                actor_id=actor_id,
                spend_window=timedelta(seconds=settings.spend_window_s),
                turn_timer=timedelta(seconds=settings.turn_timer_s),
            )
            event = await run(ctx, row)
            await conn.execute(
                "UPDATE card_tables SET state = ?, updated_at = ? WHERE id = ?",
                (state.model_dump_json(), iso(now), table_id),
            )
            status = "closed" if ctx.closed else "open"
            snapshot = await self._snapshot(conn, row, state, event, status=status)
        await self._notify(snapshot)
        return snapshot

    # -- timers ----------------------------------------------------------------------------

    def arm(self, snapshot: TableSnapshot) -> None:
        """Schedule the table's pending timed decision, replacing any older one."""
        if old := self._timers.pop(snapshot.id, None):
            old.cancel()
        state = snapshot.state
        if not snapshot.open or state.deadline is None or state.deadline_action is None:
            self._deadlines.pop(snapshot.id, None)
            return
        self._deadlines[snapshot.id] = (state.deadline, state.deadline_action)
        delay = (datetime.fromisoformat(state.deadline) - self.clock()).total_seconds()
        loop = asyncio.get_running_loop()
        self._timers[snapshot.id] = loop.call_later(
            max(delay, 0.0), lambda: loop.create_task(self.run_due())
        )

    async def resume(self) -> list[TableSnapshot]:
        """At start: every open table, with its timers armed again."""
        snapshots = await self.open_tables()
        for snapshot in snapshots:
            self.arm(snapshot)
        return snapshots

    async def run_due(self) -> None:
        """Take every timed decision whose deadline has passed (the timers call this)."""
        now = iso(self.clock())
        for table_id, (deadline, action) in list(self._deadlines.items()):
            if deadline > now:
                continue
            self._deadlines.pop(table_id, None)
            try:
                await self.act(table_id, None, action, {"deadline": deadline}, as_gm=True)
            except Refusal as refusal:  # overtaken by a player's own move: nothing to do
                log.debug("table %s timer %s: %s", table_id, action, refusal.key)
            except Exception:
                log.exception("table %s: timed action %s failed", table_id, action)

    def stop_timers(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def _notify(self, snapshot: TableSnapshot) -> None:
        self._remember(snapshot)
        self.arm(snapshot)
        for listener in self.listeners:
            try:
                await listener(snapshot)
            except Exception:
                log.exception("table %s listener failed", snapshot.id)
