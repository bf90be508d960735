"""Skill rolls in SQLite: each roll kept so its owner can spend Hero Points on it later.

`steps` only grows, by compare-and-set (`add_step`) in the same transaction as the Hero
Point's ledger row, so a double click can never spend twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from bondbot.storage.conn import Connection, Row

_SELECT = (
    "SELECT id, guild_id, character_id, roller_id, spender_id, skill, characteristic,"
    " char_value, level, ease, effective_ease, primary_chance, success_chance, d100, quality,"
    " steps, secret, created_at FROM rolls"
)


@dataclass(frozen=True, slots=True)
class NewRoll:
    """A roll as it was made, before it is stored."""

    guild_id: int
    character_id: int
    roller_id: int
    spender_id: int | None  # the only user who may spend on it: the PC's owner
    skill: str
    characteristic: str
    char_value: int
    level: int
    ease: str  # a fraction: `5`, `5/2`
    effective_ease: str
    primary_chance: int
    success_chance: int
    d100: int
    quality: int | None
    secret: bool


async def insert(conn: Connection, roll: NewRoll, *, now: str) -> int:
    cursor = await conn.execute(
        "INSERT INTO rolls (guild_id, character_id, roller_id, spender_id, skill,"
        " characteristic, char_value, level, ease, effective_ease, primary_chance,"
        " success_chance, d100, quality, steps, secret, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
        (
            roll.guild_id,
            roll.character_id,
            roll.roller_id,
            roll.spender_id,
            roll.skill,
            roll.characteristic,
            roll.char_value,
            roll.level,
            roll.ease,
            roll.effective_ease,
            roll.primary_chance,
            roll.success_chance,
            roll.d100,
            roll.quality,
            int(roll.secret),
            now,
            now,
        ),
    )
    roll_id = cursor.lastrowid
    await cursor.close()
    assert roll_id is not None
    return roll_id


async def load(conn: Connection, roll_id: int, guild_id: int) -> Row | None:
    """The stored roll of this guild, by its columns (None if there is none)."""
    rows = list(
        await conn.execute_fetchall(f"{_SELECT} WHERE id = ? AND guild_id = ?", (roll_id, guild_id))
    )
    return rows[0] if rows else None


async def add_step(conn: Connection, roll_id: int, seen_steps: int, *, now: str) -> bool:
    """One more step, only if the roll still has `seen_steps`; False when it had moved."""
    cursor = await conn.execute(
        "UPDATE rolls SET steps = steps + 1, updated_at = ? WHERE id = ? AND steps = ?",
        (now, roll_id, seen_steps),
    )
    changed = cursor.rowcount
    await cursor.close()
    return changed == 1
