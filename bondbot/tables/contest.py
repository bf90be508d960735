"""The rulebook's gambling contest of a PC who chose it, against the table's NPC.

The PC names his stake; both roll Gambling at once. He sees his own roll privately and
may spend Hero Points on it, one step each; when he settles, the NPC on automatic play
spends the fewest Survival Points that keep him from winning (none if even all of them
would not), and the winner takes the other's stake (rulebook.md, step 5).
"""

from __future__ import annotations

import random

from bondbot.errors import Refusal
from bondbot.rules import gambling
from bondbot.storage.characters import survival_points_job
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import ContestRolled, ContestSettled, ContestStep
from bondbot.tables.people import gambling_roll
from bondbot.tables.state import Contest, TableState


async def start(
    ctx: TableContext, user_id: int, stake: int, ease: int, rng: random.Random
) -> ContestRolled:
    state = ctx.state
    seat = state.seat_of_user(user_id)
    if seat is None:
        raise Refusal("table.not_seated")
    if state.rulebook_only:
        raise Refusal("table.rulebook_only")
    if seat.choice != "rulebook":
        raise Refusal("table.not_rulebook")
    if pending(state, seat.character_id) is not None:
        raise Refusal("table.contest_pending")
    ctx.check_stake(seat.character_id, stake)
    pc = await ctx.person(seat.character_id)
    npc = await ctx.person(state.npc_id)
    if pc is None or npc is None:
        raise Refusal("sheet.gone")
    contest = Contest(
        id=state.new_id(),
        stake=stake,
        pc=gambling_roll(pc, ease, rng),
        npc=gambling_roll(npc, ease, rng),
    )
    state.contests = [c for c in state.contests if not c.settled] + [contest]
    return ContestRolled(character_id=seat.character_id, contest=contest.id)


def own_contest(state: TableState, user_id: int, contest_id: int) -> Contest:
    contest = next((c for c in state.contests if c.id == contest_id), None)
    if contest is None or contest.settled:
        raise Refusal("table.contest_closed")
    seat = state.seat_of_character(contest.pc.character_id)
    if seat is None or seat.user_id != user_id:
        raise Refusal("table.not_your_button")
    return contest


def pending(state: TableState, character_id: int) -> Contest | None:
    """The PC's contest that is rolled and not yet settled, if any."""
    return next(
        (c for c in state.contests if c.pc.character_id == character_id and not c.settled), None
    )


async def step(ctx: TableContext, user_id: int, contest_id: int, seen: int) -> ContestStep:
    """The PC spends a Hero Point: his result moves one step better.

    `seen` is how many steps the clicked button showed: a second click on the same button
    (or a stale copy of it) is refused, so one click buys one step."""
    contest = own_contest(ctx.state, user_id, contest_id)
    if contest.pc.steps != seen:
        raise Refusal("table.step_already_spent")
    if gambling.improve(contest.pc.quality, contest.pc.steps) == 1:
        raise Refusal("table.contest_best")
    ctx.spend_hero_point(contest.pc.character_id, "spend.contest_step")
    contest.pc.steps += 1
    return ContestStep(contest=contest.id)


def npc_cancels(contest: Contest, survival: int) -> int:
    """Automatic play: the fewest Survival Points that keep the PC from winning, if any do."""
    if contest.pc.steps == 0 or survival == 0:
        return 0
    npc = gambling.Contestant("npc", contest.npc.level, contest.npc.perception, contest.npc.quality)
    for cancels in range(min(survival, contest.pc.steps) + 1):
        quality = gambling.improve_contested(contest.pc.quality, contest.pc.steps, cancels)
        pc = gambling.Contestant("pc", contest.pc.level, contest.pc.perception, quality)
        if gambling.contest_winner(pc, npc) != "pc":
            return cancels
    return 0


async def settle(ctx: TableContext, user_id: int, contest_id: int) -> ContestSettled:
    """Survival Points first, then the stake goes to the winner (nothing moves on a push)."""
    return await settle_contest(ctx, own_contest(ctx.state, user_id, contest_id))


async def settle_contest(ctx: TableContext, contest: Contest) -> ContestSettled:
    """Settle a contest as it stands (also when its PC leaves, or the table closes)."""
    npc = await ctx.person(ctx.state.npc_id)
    cancels = npc_cancels(contest, npc.survival if npc else 0)
    if cancels and npc is not None:
        ctx.writes.append(survival_points_job(npc.id, npc.survival - cancels, now=iso(ctx.now)))
        contest.npc.steps = -cancels
    pc_quality = gambling.improve_contested(contest.pc.quality, contest.pc.steps, cancels)
    winner = gambling.contest_winner(
        gambling.Contestant("pc", contest.pc.level, contest.pc.perception, pc_quality),
        gambling.Contestant("npc", contest.npc.level, contest.npc.perception, contest.npc.quality),
    )
    if winner == "pc":
        ctx.pay(contest.pc.character_id, contest.stake, "contest.win")
        contest.winner = contest.pc.character_id
    elif winner == "npc":
        ctx.collect(contest.pc.character_id, contest.stake, "contest.loss")
        contest.winner = contest.npc.character_id
    contest.settled = True
    event = ContestSettled(
        contest=contest.model_copy(deep=True), pc_quality=pc_quality, cancels=cancels
    )
    ctx.state.last_contest = event
    return event
