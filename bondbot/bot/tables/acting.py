"""A button on the table message played as a game move: the clicker's own, or the GM's for
the NPC (`turns.whose_turn`).

Games whose buttons sit on the public message (chemin de fer, deux tableaux) check before
anything is sent, and before a modal opens: a stale button (a move count, or a hand number
for buttons several seats answer at once), a seat the game does not wait on, an amount
outside the move's bounds (the bounds are said). The service checks again under the
table's lock.
"""

from __future__ import annotations

from bondbot.bot.context import bot_of
from bondbot.bot.tables.actions import Click
from bondbot.bot.tables.turns import whose_turn
from bondbot.errors import Refusal
from bondbot.games.contract import Option
from bondbot.money import Cents
from bondbot.tables.service import TableSnapshot


async def may_act(
    click: Click, *, moves: int | None = None, hand: int | None = None, on_turn: bool = True
) -> bool:
    """Refuse a stale button, or (`on_turn`) a clicker the game does not wait on; True when
    the click plays for the NPC."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    state = snapshot.state
    stale_moves = moves is not None and moves != state.moves
    if stale_moves or (hand is not None and hand != state.engine.answer_round):
        raise Refusal("table.stale_button")
    if not on_turn:  # a move out of turn (a PC banker withdrawing his bank)
        return False
    return (await whose_turn(click.reply, snapshot)).for_npc


async def may_play(click: Click) -> TableSnapshot:
    """Refuse, before a form opens, a clicker the table already knows cannot play a move:
    no seat, no choice of rule yet, the rulebook's contest instead, a paused table. The
    service checks again when the form comes back."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    state = snapshot.state
    if state.paused:
        raise Refusal("table.paused")
    seat = state.seat_of_user(click.user_id)
    if seat is None:
        raise Refusal("table.not_seated")
    if state.rulebook_only or seat.choice == "rulebook":
        raise Refusal("table.rulebook_player")
    if seat.choice is None:
        raise Refusal("table.choose_first")
    return snapshot


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
    """Play `kind` for whoever the click speaks for (see `may_act`)."""
    npc = await may_act(click, moves=moves, hand=hand, on_turn=on_turn)
    return await bot_of(click.interaction).services.tables.act(
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


def options_now(snapshot: TableSnapshot) -> list[Option]:
    """The legal moves with each seat's chips as they are now: the engine was told the
    stacks at the last move (none before the first), and a Hero Point paid since (no move)
    may have raised one (a Banco he can now afford). The NPC's stack is the one the table
    last told, else its bank (None: unlimited). Every check before a form uses it."""
    engine = snapshot.state.engine
    told = engine.stacks
    now = {str(key): chips for key, chips in snapshot.chips.items()}
    npc = snapshot.state.npc_key
    engine.stacks = {seat: now.get(seat, told.get(seat, 0)) for seat in engine.seats}
    if npc in engine.seats or npc in told:
        engine.stacks[npc] = told.get(npc, snapshot.bank)
    try:
        return engine.options()
    finally:
        engine.stacks = told


async def check_amount(click: Click, kind: str, amount: int, target: str | None = None) -> None:
    """Refuse an amount outside the bounds the game allows the clicker (or the NPC he plays
    for) now, saying them; the game refuses anything else with its own reason."""
    snapshot = await bot_of(click.interaction).services.tables.snapshot(click.table)
    seat = (await whose_turn(click.reply, snapshot)).seat
    for option in options_now(snapshot):
        if option.kind != kind or option.seat != seat or option.min is None:
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


def speaks_for_npc(snapshot: TableSnapshot, user_id: int) -> bool:
    """Whether a move this user just made was the NPC's (the GM acting for it)."""
    seat = snapshot.state.seat_of_user(user_id)
    records = snapshot.records
    return bool(records) and (seat is None or records[0].move.seat != str(seat.character_id))
