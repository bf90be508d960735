"""The whole state of a table, saved as one JSON document after every action.

Everything a restart needs is here: seats and choices, the game's engine (a typed model
with its shoe, see `bondbot.games.contract`), open Hero Point offers with their
deadlines, rulebook contests, the pending timer. Chips are not here: they are ledger
balances (`bondbot.tables.money`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializeAsAny,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bondbot.games.contract import GAMBLING_MAX, Engine, Event
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang

Choice = Literal["simulate", "rulebook"]


class TableConfig(BaseModel):
    """What the GM chose when opening the table."""

    game: str
    min_bet: int
    max_bet: int
    packs: int
    bankroll: int | None = None  # None: the NPC's bank is unlimited
    thread: bool = True  # the table plays in a public thread started from its message
    # What its public messages are written in (`bot.tables.language.table_lang`); None for
    # a table saved before the option existed: the server's language.
    language: Lang | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class Seat(BaseModel):
    """A PC at the table (the NPC is the table's own, `TableState.npc_id`)."""

    character_id: int
    user_id: int
    name: str
    choice: Choice | None = None


class SpendOffer(BaseModel):
    """A hand a PC lost to the NPC, which one Hero Point can win until `expires_at`."""

    id: int
    character_id: int
    hand: int  # the number of the coup or round it belongs to
    label: str  # what was lost, for the table message (e.g. "banker 50")
    pay: int  # what the NPC pays the PC if he spends (his stake back plus the win)
    score: int | None = None  # score games: what the deal is scored instead
    expires_at: str
    spent: bool = False


class ContestRoll(BaseModel):
    """One side of a rulebook gambling contest, as rolled (private until settled)."""

    character_id: int
    name: str
    level: int
    perception: int
    success_chance: int
    roll: int
    quality: int | None
    steps: int = 0  # Hero Point steps bought (PC) or cancelled (NPC, as a negative)


class Contest(BaseModel):
    """A rulebook PC's contest against the NPC for a stake he named."""

    id: int
    stake: int
    pc: ContestRoll
    npc: ContestRoll
    settled: bool = False
    winner: int | None = None  # character id of the winner, None for a push


class Pot(BaseModel):
    """The rulebook contest of a table with several NPCs: one stake each, best result takes all."""

    id: int
    stake: int
    rolls: list[ContestRoll]
    settled: bool = False
    winners: list[int] = Field(default_factory=list)
    shares: list[int] = Field(default_factory=list)


class NpcRef(BaseModel):
    id: int
    name: str


class ShoeRecord(BaseModel):
    """A shoe's published commitment, and its seed once revealed."""

    commitment: str
    packs: int
    seed: str | None = None


class ContestSettled(Event):
    kind: Literal["contest_settled"] = "contest_settled"
    contest: Contest
    pc_quality: int | None
    cancels: int


class PotSettled(Event):
    kind: Literal["pot_settled"] = "pot_settled"
    pot: Pot


TimerKind = Literal["timeout", "scheduled", "offers"]


class TableState(BaseModel):
    config: TableConfig
    npc_id: int
    npc_name: str
    seats: list[Seat] = Field(default_factory=list)
    # Everyone who ever sat here, by character id: a seat is gone once its PC is cashed
    # out, but his name stays for what the table still tells of him (the last hand, the
    # game's winner, the closed table's scores, the history).
    sat: dict[int, str] = Field(default_factory=dict)
    # Each PC's choice is final for the table: it outlives his leaving, so coming back
    # neither earns the award twice nor changes sides.
    chosen: dict[int, Choice] = Field(default_factory=dict)
    engine: SerializeAsAny[Engine]
    shoes: list[ShoeRecord] = Field(default_factory=list)
    offers: list[SpendOffer] = Field(default_factory=list)
    contests: list[Contest] = Field(default_factory=list)
    # More than one NPC at the table: simulation is not allowed (alternative rule §1), and
    # everyone plays the rulebook's contest for a pot.
    other_npcs: list[NpcRef] = Field(default_factory=list)
    pots: list[Pot] = Field(default_factory=list)
    next_id: int = 1
    moves: int = 0  # game moves accepted so far: a button carrying an older count is stale
    paused: bool = False
    # The NPC's decisions: the bot's automatic play, or the GM with the same buttons.
    npc_auto: bool = True
    # How well the automatic play plays (games/skill.py): the NPC's Gambling level read
    # from his sheet at the opening, or the GM's override for the evening. A table saved
    # before the field existed played its game's one fixed policy, which level 15 keeps
    # (at least as strong): so it goes on facing the opponent it opened with, never a
    # weaker one mid-evening; `/table npc level:` sets it.
    npc_level: int = Field(default=GAMBLING_MAX, ge=0, le=GAMBLING_MAX)
    # What the table does by itself at `deadline`: the default moves of the seats whose
    # turn it is ("timeout"), the game's own delayed move ("scheduled", an auto-deal), or
    # its move for when the last hand's Hero Point offers have closed ("offers").
    deadline: str | None = None
    deadline_action: TimerKind | None = None
    last_deadline: str | None = None  # every deadline is later than the one before
    last_contest: ContestSettled | PotSettled | None = Field(default=None, discriminator="kind")

    @field_validator("engine", mode="before")
    @classmethod
    def _engine_of_the_game(cls, value: Any, info: ValidationInfo) -> Engine:
        if isinstance(value, Engine):
            return value
        return spec_for(info.data["config"].game).engine.model_validate(value)

    @model_validator(mode="after")
    def _seated_have_sat(self) -> TableState:
        """A state saved before `sat` existed: its seats at least are known."""
        for seat in self.seats:
            self.sat.setdefault(seat.character_id, seat.name)
        return self

    def name_of(self, character_id: int) -> str | None:
        """The name of anyone at this table, now or earlier, the NPCs included."""
        if character_id == self.npc_id:
            return self.npc_name
        seat = self.seat_of_character(character_id)
        if seat is not None:
            return seat.name
        if character_id in self.sat:
            return self.sat[character_id]
        return next((n.name for n in self.other_npcs if n.id == character_id), None)

    @property
    def rulebook_only(self) -> bool:
        return bool(self.other_npcs)

    @property
    def hand_no(self) -> int:
        """Hands started at this table (a hand's offers close when the next one starts)."""
        return self.engine.hand

    @property
    def npc_key(self) -> str:
        return str(self.npc_id)

    def seat_of_character(self, character_id: int) -> Seat | None:
        return next((s for s in self.seats if s.character_id == character_id), None)

    def seat_of_user(self, user_id: int) -> Seat | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def new_id(self) -> int:
        value = self.next_id
        self.next_id += 1
        return value

    def open_offers(self, now: str) -> list[SpendOffer]:
        return [o for o in self.offers if not o.spent and o.expires_at > now]
