"""What a table needs to know of a character: who plays it and its Gambling numbers."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from bondbot.rules import gambling
from bondbot.storage.sqlite import Connection
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
    cursor = await conn.execute(
        "SELECT id, guild_id, name, kind, owner_id, data FROM characters "
        "WHERE id = ? AND alive = 1",
        (character_id,),
    )
    row = await cursor.fetchone()
    if row is None:
        return None
    data = json.loads(row[5])
    return Person(
        id=int(row[0]),
        guild_id=int(row[1]),
        name=str(row[2]),
        kind=str(row[3]),
        owner_id=row[4],
        perception=int(data.get("characteristics", {}).get("PER", 5)),
        gambling=int(data.get("skills", {}).get(GAMBLING, 0)),
        survival=int(data.get("survival_points", 0)),
    )


async def spend_survival(conn: Connection, character_id: int, points: int) -> None:
    """An NPC's Survival Points cancel a PC's steps (a sheet field, not a ledger balance)."""
    await conn.execute(
        "UPDATE characters SET data = json_set(data, '$.survival_points', "
        "json_extract(data, '$.survival_points') - ?) WHERE id = ?",
        (points, character_id),
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
