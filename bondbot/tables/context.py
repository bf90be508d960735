"""What one table action may do, and the loop that plays a game move at the table.

An action works on a copy of the table's state and on the table's money in memory
(`TableMoney`, kept with the table between actions), reading the database only when it
must (a character joining or rolling); the service writes both, with the ledger rows, in
one writer job only if the action returns. A refusal anywhere discards the copy: nothing
changed.

`play` is how every game move happens, whoever makes it (a player, the GM, a timer, the
NPC's automatic play): the engine is told each seat's stack, applies the move, then the
automatic steps it sets off (the engine's `automation`, the NPC's turn on automatic
play); each record's transfers are settled (losses, then wins), its lost hands open Hero
Point offers, and the two money checks every game shares run once per move: a seat must
still hold what it has staked, and a limited bank must cover what it has accepted.
Between hands a finished shoe is replaced before any move, the automatic ones included
(an NPC banker who keeps his bank right after a coup).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from bondbot.errors import Refusal
from bondbot.games.contract import Move, Record
from bondbot.money import Cents
from bondbot.rules.errors import IllegalAction
from bondbot.storage.conn import JobConnection
from bondbot.storage.db import Database
from bondbot.tables import accounts
from bondbot.tables.money import TableMoney
from bondbot.tables.people import Person, load_person
from bondbot.tables.state import SpendOffer, TableState, TimerKind

AUTOMATIC_STEPS_MAX = 1_000  # a game whose automation never ends is our bug, not a hang


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


@dataclass
class TableContext:
    db: Database  # for the few reads an action needs (a character joining, rolling)
    table_id: int
    guild_id: int
    state: TableState
    money: TableMoney
    now: datetime
    actor_id: int | None
    spend_window: timedelta
    # How long a seat has for a timed decision: the server's turn_timer_s.
    turn_timer: timedelta = timedelta(seconds=90)
    rng: random.Random = field(default_factory=random.Random)
    # Replaces a finished shoe between hands (the service's, which holds the seed source);
    # given the context rather than closing over it, so a context is freed by reference
    # counting and not left for the garbage collector.
    fresh_shoe: Callable[[TableContext], None] = lambda ctx: None
    closed: bool = False  # set by the action that closes the table
    # Writes besides the ledger rows and the table's state (an NPC's Survival Points),
    # committed with them as part of the same writer job.
    writes: list[Callable[[JobConnection], None]] = field(default_factory=list)

    async def person(self, character_id: int) -> Person | None:
        """A character's table-relevant facts, read on the read-only connection."""
        async with self.db.read() as conn:
            return await load_person(conn, character_id)

    # -- chips between a PC and the NPC (contests and pots) --------------------------------

    def move(self, amount: int, src: str | None, dst: str | None, reason: str) -> None:
        self.money.move(amount, src, dst, reason)

    def pay(self, character_id: int, amount: int, reason: str) -> None:
        """The NPC's bank pays a PC's chips."""
        self.move(
            amount,
            accounts.bank(self.table_id),
            accounts.chips(self.table_id, character_id),
            reason,
        )

    def collect(self, character_id: int, amount: int, reason: str) -> None:
        """A PC's chips go to the NPC's bank."""
        self.move(
            amount,
            accounts.chips(self.table_id, character_id),
            accounts.bank(self.table_id),
            reason,
        )

    def chips(self, character_id: int) -> int:
        return self.money.chips(character_id)

    def free_chips(self, character_id: int) -> int:
        """His chips less what he has staked in the game and not yet lost or won."""
        return self.chips(character_id) - self.state.engine.committed(str(character_id))

    def bank_available(self) -> int | None:
        """What the bank can still pay beyond what it has accepted; None when unlimited."""
        bank = self.money.bank()
        if bank is None:
            return None
        return bank - self.state.engine.exposure() - self.offers_due()

    def check_stake(self, character_id: int, amount: int) -> None:
        """Refuse a stake outside the table's limits, beyond his chips or the bank's cover,
        or in part of a chip where chips are whole units (hold'em)."""
        config = self.state.config
        if amount % (chip := self.state.engine.chip_value()):
            raise Refusal("table.whole_chips", chip=Cents(chip))
        if not config.min_bet <= amount <= config.max_bet:
            raise Refusal(
                "table.outside_limits", min=Cents(config.min_bet), max=Cents(config.max_bet)
            )
        if amount > self.free_chips(character_id):
            raise Refusal("table.wager_over_chips")
        available = self.bank_available()
        if available is not None and amount > available:
            raise Refusal("table.bank_cannot_cover", available=Cents(max(available, 0)))

    def offers_due(self) -> int:
        """What the bank may still pay on open Hero Point offers (the next hand closes them)."""
        return sum(offer.pay for offer in self.state.open_offers(iso(self.now)))

    # -- Hero Points -----------------------------------------------------------------------

    def hero_points(self, character_id: int) -> int:
        return self.money.hero_points(character_id)

    def spend_hero_point(self, character_id: int, reason: str) -> None:
        self.money.spend_hero_point(character_id, reason)

    def offer(
        self, character_id: int, label: str, pay: int, score: int | None = None
    ) -> SpendOffer:
        """Open the Hero Point window on a hand this PC lost to the NPC."""
        offer = SpendOffer(
            id=self.state.new_id(),
            character_id=character_id,
            hand=self.state.hand_no,
            label=label,
            pay=pay,
            score=score,
            expires_at=iso(self.now + self.spend_window),
        )
        self.state.offers.append(offer)
        return offer

    # -- playing the game ------------------------------------------------------------------

    def play(self, move: Move) -> list[Record]:
        """Apply `move` and every automatic step after it; refuse (changing nothing) if
        illegal. Between hands a finished shoe is replaced before any move (`fresh_shoe`)."""
        state = self.state
        engine = state.engine
        turn_before = engine.turn()
        hand_before = engine.hand
        records = [self._apply(move)]
        for _ in range(AUTOMATIC_STEPS_MAX):
            step = engine.automation()
            if step is None and state.npc_auto and state.npc_key in engine.turn():
                step = engine.npc_move(self.rng, level=state.npc_level)
                step = None if step is None else step.model_copy(update={"auto": "npc"})
            if step is None:
                break
            records.append(self._apply(step))
        else:
            raise RuntimeError(f"table {self.table_id}: automatic play did not stop")
        if engine.hand != hand_before:  # a new hand closes the older hands' offers
            state.offers = [o for o in state.offers if o.hand == engine.hand]
        for record in records:
            for lost in record.lost:
                self.offer(int(lost.seat), lost.label, lost.pay, lost.score)
        state.moves += 1
        self._time_turn(turn_before, decided=move.seat in turn_before)
        return records

    def _apply(self, move: Move) -> Record:
        engine = self.state.engine
        if not engine.in_hand() and engine.needs_new_shoe:
            self.fresh_shoe(self)  # an automatic move too: an NPC banker's, right after a coup
        engine.stacks = self.stacks()
        exposure = engine.exposure()
        try:
            record = engine.apply(move)
        except IllegalAction as illegal:
            raise self.refusal(illegal) from None
        self.money.hand = engine.hand  # its rows belong to the hand it played in (or dealt)
        self.money.settle(record.transfers)
        for seat in engine.seats:
            if seat != self.state.npc_key and engine.committed(seat) > self.chips(int(seat)):
                raise Refusal("table.no_chips")
        bank = self.money.bank()
        if bank is not None and engine.exposure() > exposure:
            due = self.offers_due()
            if engine.exposure() + due > bank:
                raise Refusal(
                    "table.bank_cannot_cover", available=Cents(max(bank - exposure - due, 0))
                )
        return record

    def stacks(self) -> dict[str, int | None]:
        """Each game seat's chips; the NPC's is what its bank can still pay: its bankroll
        less what it owes on open Hero Point offers (None: unlimited)."""
        engine = self.state.engine
        stacks = self.money.stacks([*engine.seats, self.state.npc_key])
        bank = stacks[self.state.npc_key]
        if bank is not None:
            stacks[self.state.npc_key] = bank - self.offers_due()
        return stacks

    def refusal(self, illegal: IllegalAction) -> Refusal:
        """The engine's reason, with a seat named as people know it."""
        params = dict(illegal.params)
        seat = params.pop("seat", None)
        if seat is not None:
            found = self.state.name_of(int(seat)) if str(seat).isdigit() else None
            params["name"] = found or self.state.npc_name
        return Refusal(illegal.code, **params)

    def _time_turn(self, turn_before: tuple[str, ...], *, decided: bool) -> None:
        """Give the seats whose turn it is the server's turn timer, or arm the game's own
        delayed move, or its move for when the last hand's Hero Point offers have closed.

        The clock restarts after every decision, except while several seats answer the
        same question at once (an insurance): their one clock runs on; a move by someone
        else (a hold'em player sitting out) leaves the turn, and its clock, as it was.
        Deadlines only grow, so a late timer can never take a newer turn's default move.
        """
        state, engine = self.state, self.state.engine
        turn = engine.turn()
        if turn:
            shared = set(turn) < set(turn_before) or (turn == turn_before and not decided)
            if not shared or state.deadline is None or state.deadline_action != "timeout":
                self._set_deadline(self.now + self.turn_timer, "timeout")
            return
        scheduled = engine.scheduled()
        if scheduled is not None:
            if state.deadline_action != "scheduled":
                self._set_deadline(self.now + timedelta(seconds=scheduled[0]), "scheduled")
        elif engine.after_offers() is not None:
            if state.deadline_action != "offers":
                now = iso(self.now)
                closing = max((o.expires_at for o in state.open_offers(now)), default=now)
                self._set_deadline(datetime.fromisoformat(closing), "offers")
        else:
            state.deadline = state.deadline_action = None

    def _set_deadline(self, deadline: datetime, action: TimerKind) -> None:
        state = self.state
        if state.last_deadline is not None:
            after_last = datetime.fromisoformat(state.last_deadline) + timedelta(milliseconds=1)
            deadline = max(deadline, after_last)
        state.deadline = state.last_deadline = iso(deadline)
        state.deadline_action = action
