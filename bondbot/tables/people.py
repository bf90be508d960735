"""What a table needs to know of a character: who plays it and its Gambling numbers.

Characters are read and written only through `bondbot.storage.characters` (and so the
sheet model's validation); this module picks out what a table uses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bondbot.rules import gambling
from bondbot.storage import characters
from bondbot.storage.conn import Connection
from bondbot.tables.state import ContestRoll

GAMBLING = "gambling"


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    guild_id: int
    name: str
    kind: str
    owner_id: int | None
    perception: int
    gambling: int
    survival: int


async def load_person(conn: Connection, character_id: int) -> Person | None:
    """A living character's table-relevant facts, or None."""
    try:
        found = await characters.get_character(conn, character_id)
    except characters.CharacterNotFound:
        return None
    sheet = found.sheet
    return Person(
        id=found.id,
        guild_id=found.guild_id,
        name=sheet.name,
        kind=sheet.kind,
        owner_id=sheet.owner_id,
        perception=sheet.characteristics.PER,
        gambling=sheet.skills.get(GAMBLING, 0),
        survival=sheet.survival_points,
    )


def gambling_roll(person: Person, ease: int, rng: random.Random) -> ContestRoll:
    """The rulebook's Gambling roll (PER + Gambling level) for a contest, as rolled."""
    result = gambling.skill_roll(person.perception, person.gambling, ease, gambling.roll_d100(rng))
    return ContestRoll(
        character_id=person.id,
        name=person.name,
        level=person.gambling,
        perception=person.perception,
        success_chance=result.success_chance,
        roll=result.roll,
        quality=result.quality,
    )
