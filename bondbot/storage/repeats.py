"""Finding the same intent committed a moment ago: a retried command after a lost answer.

When Discord loses the answer to a command (the bot restarted after the commit, or
answered too late), the user sees "This interaction failed" and runs it again. These
queries find what the first run already stored, so it is shown instead of done twice.
"""

from __future__ import annotations

from datetime import timedelta

from bondbot.storage.conn import Connection
from bondbot.storage.ledger import LedgerEntry

# How long an identical command counts as a retry: long enough for a restart and a
# retry, short enough that the same reward a session later is not questioned.
REPEAT_WINDOW = timedelta(minutes=10)

_ENTRY = (
    "SELECT id, guild_id, kind, amount, src, dst, reason, table_id, actor_id, note, created_at"
    " FROM ledger"
)


async def ledger_entry(conn: Connection, guild_id: int, entry_id: int) -> LedgerEntry | None:
    """One row of this guild's ledger."""
    rows = list(
        await conn.execute_fetchall(f"{_ENTRY} WHERE id = ? AND guild_id = ?", (entry_id, guild_id))
    )
    return LedgerEntry(*rows[0]) if rows else None


async def latest_same_move(
    conn: Connection,
    *,
    guild_id: int,
    actor_id: int,
    kind: str,
    amount: int,
    src: str | None,
    dst: str | None,
    reason: str,
    note: str,
    since: str,
) -> LedgerEntry | None:
    """The newest row since `since` moving the same amount between the same ends for the
    same reason and note, written by the same user."""
    rows = list(
        await conn.execute_fetchall(
            f"{_ENTRY} WHERE guild_id = ? AND actor_id = ? AND kind = ? AND amount = ?"
            " AND src IS ? AND dst IS ? AND reason = ? AND note = ? AND created_at >= ?"
            " ORDER BY id DESC LIMIT 1",
            (guild_id, actor_id, kind, amount, src, dst, reason, note, since),
        )
    )
    return LedgerEntry(*rows[0]) if rows else None


async def same_move_after(conn: Connection, entry: LedgerEntry) -> bool:
    """Whether a later row repeats `entry` (same ends, amount, reason and note)."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT 1 FROM ledger WHERE guild_id = ? AND id > ? AND kind = ? AND amount = ?"
            " AND src IS ? AND dst IS ? AND reason = ? AND note IS ? LIMIT 1",
            (
                entry.guild_id,
                entry.id,
                entry.kind,
                entry.amount,
                entry.src,
                entry.dst,
                entry.reason,
                entry.note,
            ),
        )
    )
    return bool(rows)


async def latest_same_roll(
    conn: Connection,
    *,
    guild_id: int,
    roller_id: int,
    character_id: int,
    skill: str,
    characteristic: str,
    ease: str,
    secret: bool,
    since: str,
) -> int | None:
    """The id of the newest roll since `since` by the same user, for the same character,
    skill, characteristic, Ease Factor and secrecy."""
    rows = list(
        await conn.execute_fetchall(
            "SELECT id FROM rolls WHERE guild_id = ? AND roller_id = ? AND character_id = ?"
            " AND skill = ? AND characteristic = ? AND ease = ? AND secret = ?"
            " AND created_at >= ? ORDER BY id DESC LIMIT 1",
            (guild_id, roller_id, character_id, skill, characteristic, ease, int(secret), since),
        )
    )
    return int(rows[0][0]) if rows else None
