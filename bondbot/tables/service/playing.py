"""The game's moves and what governs them: a player's or the GM's move, the NPC's
automatic play and its level, and the pause that stops the game (and its clock)."""

from __future__ import annotations

from datetime import datetime

from bondbot.errors import Refusal
from bondbot.games.contract import GAMBLING_MAX, Event, Move, Record
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import NpcControl, NpcLevel, Paused, Played
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.snapshot import TableSnapshot


async def act(
    core: TableCore,
    table_id: int,
    user_id: int | None,
    kind: str,
    *,
    amount: int | None = None,
    target: str | None = None,
    moves: int | None = None,
    hand: int | None = None,
    as_gm: bool = False,
    for_npc: bool = False,
) -> TableSnapshot:
    """A game move: a seated, simulating PC's own, or the GM's (the table's, or the NPC's).

    `moves` is the move count the clicked button was drawn with: a button drawn
    before the last move is stale and refused, so a double click plays once. Buttons
    that several seats answer at once (stakes) carry `hand` instead, the engine's
    `answer_round`: refused once that round of answers is over (a hand dealt, or one
    nobody played).
    """

    async def run(ctx: TableContext) -> Event:
        state = ctx.state
        if state.paused:
            raise Refusal("table.paused")
        if state.rulebook_only:
            raise Refusal("table.rulebook_only")
        if moves is not None and moves != state.moves:
            raise Refusal("table.stale_button")
        if hand is not None and hand != state.engine.answer_round:
            raise Refusal("table.stale_button")
        seat: str | None = state.npc_key if for_npc else None
        if not as_gm:
            found = state.seat_of_user(user_id) if user_id is not None else None
            if found is None:
                raise Refusal("table.not_seated")
            if found.choice is None:
                raise Refusal("table.choose_first")
            if found.choice == "rulebook":
                raise Refusal("table.rulebook_player")
            seat = str(found.character_id)
        core.fresh_shoe(ctx)
        move = Move(kind=kind, seat=seat, amount=amount, target=target)
        return Played(records=tuple(ctx.play(move)))

    return await core.mutate(table_id, user_id, run)


async def pause(core: TableCore, table_id: int, actor_id: int, paused: bool) -> TableSnapshot:
    """The GM stops the game (no move, no timer) or lets it go on."""

    async def run(ctx: TableContext) -> Event:
        if ctx.state.paused == paused:
            raise Refusal("table.already_paused" if paused else "table.not_paused")
        ctx.state.paused = paused
        if not paused and ctx.state.deadline is not None:
            # The clock stopped with the game: whoever was to act gets his full time.
            ctx.state.deadline = iso(
                max(datetime.fromisoformat(ctx.state.deadline), ctx.now + ctx.turn_timer)
            )
            ctx.state.last_deadline = ctx.state.deadline
        return Paused(kind="paused" if paused else "resumed")

    return await core.mutate(table_id, actor_id, run)


async def set_npc_auto(core: TableCore, table_id: int, actor_id: int, auto: bool) -> TableSnapshot:
    """The NPC's decisions: the bot's automatic play, or the GM with the game's buttons.

    Handing it back to the bot while the NPC is to act plays its move at once.
    """

    async def run(ctx: TableContext) -> Event:
        state = ctx.state
        if state.npc_auto == auto:
            raise Refusal("table.npc_already_auto" if auto else "table.npc_already_gm")
        state.npc_auto = auto
        records: tuple[Record, ...] = ()
        engine = state.engine
        if auto and not state.paused and state.npc_key in engine.turn():
            move = engine.npc_move(ctx.rng, level=state.npc_level)
            if move is not None:
                records = tuple(ctx.play(move.model_copy(update={"auto": "npc"})))
        return NpcControl(auto=auto, records=records)

    return await core.mutate(table_id, actor_id, run)


async def set_npc_level(core: TableCore, table_id: int, actor_id: int, level: int) -> TableSnapshot:
    """The GM's override of the NPC's Gambling level for the evening: how well the
    automatic play plays from the next decision on (the sheet is not changed)."""
    if not 0 <= level <= GAMBLING_MAX:
        raise Refusal("table.bad_npc_level", max=GAMBLING_MAX)

    async def run(ctx: TableContext) -> Event:
        if ctx.state.npc_level == level:
            raise Refusal("table.npc_level_same", npc=ctx.state.npc_name, level=level)
        ctx.state.npc_level = level
        return NpcLevel(level=level)

    return await core.mutate(table_id, actor_id, run)
