"""Games played in turns from private hands: who may act now, and the deal.

A player acts from his own private panel (his hand and only his legal moves, answered to
him alone); the GM acts from the same panel for the NPC when the NPC's turn waits for
him (its automatic play switched off). Anyone else is told whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from bondbot.bot.context import bot_of, is_gm, require_gm
from bondbot.bot.reply import Reply
from bondbot.bot.tables.common import names
from bondbot.errors import Refusal
from bondbot.tables.service import TableSnapshot


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat whose decision the game waits for, and who is making it."""

    seat: str  # the game's seat key
    name: str
    for_npc: bool  # the GM, for the NPC


async def whose_turn(reply: Reply, snapshot: TableSnapshot) -> Turn:
    """The clicker's own turn, or the NPC's if he is the GM; refused for anyone else."""
    state = snapshot.state
    waiting = state.engine.turn()
    if not waiting:
        raise Refusal("table.no_turn")
    mine = state.seat_of_user(reply.interaction.user.id)
    if mine is not None and str(mine.character_id) in waiting:
        return Turn(str(mine.character_id), mine.name, for_npc=False)
    if state.npc_key in waiting and await is_gm(reply.interaction):
        return Turn(state.npc_key, state.npc_name, for_npc=True)
    who = names(snapshot)
    raise Refusal("table.not_your_turn", name=", ".join(who.get(int(s), "?") for s in waiting))


async def act(
    reply: Reply,
    table: int,
    turn: Turn,
    kind: str,
    *,
    moves: int,
    amount: int | None = None,
    target: str | None = None,
) -> TableSnapshot:
    """Make `turn`'s move from a panel drawn at move count `moves` (stale: refused)."""
    return await bot_of(reply.interaction).services.tables.act(
        table,
        reply.interaction.user.id,
        kind,
        amount=amount,
        target=target,
        moves=moves,
        as_gm=turn.for_npc,
        for_npc=turn.for_npc,
    )


async def deal(reply: Reply, table: int) -> TableSnapshot:
    """The GM deals; the table draws the first deal's dealer at random among the seats."""
    await require_gm(reply.interaction)
    tables = bot_of(reply.interaction).services.tables
    engine = (await tables.snapshot(table)).state.engine
    first = engine.hand == 0 and bool(engine.seats)
    target = tables.rng.choice(engine.seats) if first else None
    return await tables.act(table, reply.interaction.user.id, "deal", target=target, as_gm=True)
