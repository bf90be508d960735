"""Which open card tables a character takes part in, read from their saved state.

The table service owns `card_tables`; other services only need to know whether a
character is at a table (a PC seated with chips, the NPC holding the bank, another NPC of
a rulebook-only table) before they change him, e.g. before his sheet is deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bondbot.storage.conn import Connection, dialect_of

Role = Literal["seat", "npc"]


@dataclass(frozen=True, slots=True)
class AtTable:
    table_id: int
    channel_id: int
    role: Role  # "seat": a seated PC; "npc": the NPC (or one of the NPCs) of the table


_POSTGRESQL = (
    "SELECT t.id, t.channel_id,"
    " EXISTS (SELECT 1 FROM jsonb_array_elements(CAST(t.state AS jsonb) -> 'seats') s"
    "         WHERE s.value -> 'character_id' = to_jsonb(CAST(:c AS BIGINT))) AS seated"
    " FROM card_tables t WHERE t.guild_id = :g AND t.status = 'open' AND ("
    " CAST(t.state AS jsonb) -> 'npc_id' = to_jsonb(CAST(:c AS BIGINT))"
    " OR EXISTS (SELECT 1 FROM jsonb_array_elements(CAST(t.state AS jsonb) -> 'seats') s"
    "            WHERE s.value -> 'character_id' = to_jsonb(CAST(:c AS BIGINT)))"
    " OR EXISTS (SELECT 1 FROM jsonb_array_elements(CAST(t.state AS jsonb) -> 'other_npcs') n"
    "            WHERE n.value -> 'id' = to_jsonb(CAST(:c AS BIGINT))))"
    " ORDER BY t.id"
)


async def open_tables_of(conn: Connection, guild_id: int, character_id: int) -> list[AtTable]:
    """The open tables of the guild this character sits at or plays the NPC of, oldest
    first (the guild's open tables through their index, then each one's seats)."""
    if dialect_of(conn) == "postgresql":
        rows = await conn.execute_fetchall(_POSTGRESQL, {"c": character_id, "g": guild_id})
        return [AtTable(row[0], row[1], "seat" if row[2] else "npc") for row in rows]
    rows = await conn.execute_fetchall(
        "SELECT t.id, t.channel_id,"
        " EXISTS (SELECT 1 FROM json_each(t.state, '$.seats') s"
        "         WHERE json_extract(s.value, '$.character_id') = :c) AS seated"
        " FROM card_tables t WHERE t.guild_id = :g AND t.status = 'open' AND ("
        " json_extract(t.state, '$.npc_id') = :c"
        " OR EXISTS (SELECT 1 FROM json_each(t.state, '$.seats') s"
        "            WHERE json_extract(s.value, '$.character_id') = :c)"
        " OR EXISTS (SELECT 1 FROM json_each(t.state, '$.other_npcs') n"
        "            WHERE json_extract(n.value, '$.id') = :c))"
        " ORDER BY t.id",
        {"c": character_id, "g": guild_id},
    )
    return [AtTable(row[0], row[1], "seat" if row[2] else "npc") for row in rows]
