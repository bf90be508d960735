"""A table as it stands after an action: what the service hands its callers and keeps."""

from __future__ import annotations

from dataclasses import dataclass, field

from bondbot.games.contract import Event, Record
from bondbot.storage import tables as stored
from bondbot.tables.events import Played
from bondbot.tables.money import TableMoney
from bondbot.tables.state import SpendOffer, TableState


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


def snapshot_of(
    row: stored.TableRow,
    state: TableState,
    money: TableMoney,
    *,
    status: str,
    event: Event | None = None,
) -> TableSnapshot:
    """The snapshot of a table row with its state (as an object) and its balances."""
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
