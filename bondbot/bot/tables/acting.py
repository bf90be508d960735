"""A game button's click as a game move: the clicker's own, or the GM's for the NPC.

The GM plays the NPC with the players' own buttons (`/table npc automatic:false`): a GM's
click counts for the NPC when the game waits on the NPC and not on the GM's own seat. A
button that only the seats the game waits on may use answers anyone else with their
names. The stale checks come first, so a double click hears that the table moved on; the
service checks them again under the table's lock.
"""

from __future__ import annotations

from bondbot.bot.context import bot_of, is_gm
from bondbot.bot.tables.actions import Click
from bondbot.bot.tables.common import names
from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.tables.service import TableSnapshot


async def act(
    click: Click,
    kind: str,
    *,
    amount: int | None = None,
    target: str | None = None,
    moves: int | None = None,
    hand: int | None = None,
    on_turn: bool = True,
) -> TableSnapshot:
    """Play `kind` for whoever the click speaks for; `on_turn`: only the seats the game
    waits on may make this move (others are told whose turn it is)."""
    tables = bot_of(click.interaction).services.tables
    npc = await may_act(click, moves=moves, hand=hand, on_turn=on_turn)
    return await tables.act(
        click.table,
        click.user_id,
        kind,
        amount=amount,
        target=target,
        moves=moves,
        hand=hand,
        as_gm=npc,
        for_npc=npc,
    )


async def may_act(
    click: Click, *, moves: int | None = None, hand: int | None = None, on_turn: bool = True
) -> bool:
    """Refuse a stale button, or a seat the game does not wait on (before a modal opens, or
    a move is sent); True when the click plays for the NPC."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    state = snapshot.state
    stale_moves = moves is not None and moves != state.moves
    if stale_moves or (hand is not None and hand != state.engine.hand):
        raise Refusal("table.stale_button")
    turn = state.engine.turn()
    seat = state.seat_of_user(click.user_id)
    mine = seat is not None and str(seat.character_id) in turn
    npc = await for_npc(click, snapshot)
    if on_turn and turn and seat is not None and not mine and not npc:
        who = names(snapshot)
        waiting = ", ".join(who.get(int(key), "?") for key in turn)
        raise Refusal("table.not_your_turn", names=waiting)
    return npc


async def check_amount(click: Click, kind: str, amount: int, target: str | None = None) -> None:
    """Refuse an amount outside the bounds the game allows the clicker (or the NPC he plays
    for) now, saying them; the game refuses anything else with its own reason."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    state = snapshot.state
    seat = state.seat_of_user(click.user_id)
    key = state.npc_key if await for_npc(click, snapshot) else seat and str(seat.character_id)
    for option in state.engine.options():
        if option.kind != kind or option.seat != key or option.min is None:
            continue
        if option.targets and target not in option.targets:
            continue
        high = option.max
        if amount < option.min or (high is not None and amount > high):
            raise Refusal(
                "table.amount_between",
                min=Cents(option.min),
                max=Cents(high) if high is not None else "∞",
            )


async def for_npc(click: Click, snapshot: TableSnapshot) -> bool:
    """Whether this click is the GM's for the NPC: the game waits on the NPC, not on him."""
    state = snapshot.state
    turn = state.engine.turn()
    seat = state.seat_of_user(click.user_id)
    if seat is not None and str(seat.character_id) in turn:
        return False
    return state.npc_key in turn and await is_gm(click.interaction)


def speaks_for_npc(snapshot: TableSnapshot, user_id: int) -> bool:
    """Whether a move this user just made was the NPC's (the GM acting for it)."""
    seat = snapshot.state.seat_of_user(user_id)
    records = snapshot.records
    return bool(records) and (seat is None or records[0].move.seat != str(seat.character_id))
