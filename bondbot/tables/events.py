"""What a table action did, as the Discord layer needs it to answer the user.

The game's own events are in each action's `Record`s (`bondbot.games.contract`); these
are the table's: seats, choices, spends, contests.
"""

from __future__ import annotations

from typing import Literal

from bondbot.games.contract import Event, Record
from bondbot.tables.state import Choice, ContestSettled, PotSettled, ShoeRecord


class Opened(Event):
    kind: Literal["opened"] = "opened"


class Closed(Event):
    kind: Literal["closed"] = "closed"
    shoes: tuple[ShoeRecord, ...]


class Joined(Event):
    kind: Literal["joined"] = "joined"
    character_id: int
    buy_in: int


class Left(Event):
    kind: Literal["left"] = "left"
    character_id: int
    chips: int


class Chose(Event):
    kind: Literal["chose"] = "chose"
    character_id: int
    choice: Choice
    award: int


class Spent(Event):
    kind: Literal["spent"] = "spent"
    character_id: int
    name: str
    pay: int
    hand: int
    score: int | None = None  # score games: what the deal is scored instead


class Paused(Event):
    kind: Literal["paused", "resumed"]


class Played(Event):
    """A game move and the automatic steps it set off, in order."""

    kind: Literal["played"] = "played"
    records: tuple[Record, ...]


class NpcControl(Played):
    """The GM gave the NPC's decisions to automatic play (which may act at once) or took
    them back."""

    kind: Literal["npc_control"] = "npc_control"  # type: ignore[assignment]
    auto: bool


class NpcLevel(Event):
    """The GM set the NPC's Gambling level for the evening (the automatic play's strength)."""

    kind: Literal["npc_level"] = "npc_level"
    level: int


class ContestRolled(Event):
    kind: Literal["contest_rolled"] = "contest_rolled"
    character_id: int
    contest: int


class ContestStep(Event):
    kind: Literal["contest_step"] = "contest_step"
    contest: int


class PotOpened(Event):
    kind: Literal["pot_opened"] = "pot_opened"
    pot: int
    players: int


class PotStep(Event):
    kind: Literal["pot_step"] = "pot_step"
    pot: int


__all__ = [
    "Chose",
    "Closed",
    "ContestRolled",
    "ContestSettled",
    "ContestStep",
    "Joined",
    "Left",
    "NpcControl",
    "NpcLevel",
    "Opened",
    "Paused",
    "Played",
    "PotOpened",
    "PotSettled",
    "PotStep",
    "Spent",
]
