"""The rulebook contest for a pot, at a table with several NPCs (rulebook.md, step 5).

Everyone seated stakes the same amount into the pot (the NPCs' stakes come from outside
the game), everyone rolls Gambling, the PCs may spend Hero Points to improve their own
result, and the best result takes the pot (equal best results share it). The pot is held
in the table's bank account while the contest is open.
"""

from __future__ import annotations

import random

from bondbot.errors import Refusal
from bondbot.money import Cents
from bondbot.rules import gambling
from bondbot.tables import accounts
from bondbot.tables.context import TableContext
from bondbot.tables.events import PotOpened, PotSettled, PotStep
from bondbot.tables.people import gambling_roll
from bondbot.tables.state import ContestRoll, Pot, TableState


def open_pot(state: TableState) -> Pot | None:
    return next((p for p in state.pots if not p.settled), None)


async def start(ctx: TableContext, stake: int, ease: int, rng: random.Random) -> PotOpened:
    """Collect every stake and roll for everyone; the PCs' rolls stay private until settled."""
    state = ctx.state
    if not state.rulebook_only:
        raise Refusal("table.not_rulebook_only")
    if open_pot(state) is not None:
        raise Refusal("table.pot_pending")
    if not state.config.min_bet <= stake <= state.config.max_bet:
        raise Refusal(
            "table.outside_limits", min=Cents(state.config.min_bet), max=Cents(state.config.max_bet)
        )
    players = [s for s in state.seats if ctx.chips(s.character_id) >= stake]
    if not players:
        raise Refusal("table.pot_no_players")
    bank = accounts.bank(ctx.table_id)
    rolls = []
    for seat in players:
        ctx.move(stake, accounts.chips(ctx.table_id, seat.character_id), bank, "pot.stake")
        person = await ctx.person(seat.character_id)
        assert person is not None
        rolls.append(gambling_roll(person, ease, rng))
    for npc_id in [state.npc_id, *(n.id for n in state.other_npcs)]:
        person = await ctx.person(npc_id)
        if person is None:
            raise Refusal("sheet.gone")
        ctx.move(stake, None, bank, "pot.npc_stake")
        rolls.append(gambling_roll(person, ease, rng))
    pot = Pot(id=state.new_id(), stake=stake, rolls=rolls)
    state.pots = [pot]  # a settled pot lives on in `last_contest`
    return PotOpened(pot=pot.id, players=len(rolls))


def own_roll(state: TableState, user_id: int, pot_id: int) -> ContestRoll:
    pot = next((p for p in state.pots if p.id == pot_id), None)
    if pot is None or pot.settled:
        raise Refusal("table.contest_closed")
    seat = state.seat_of_user(user_id)
    roll = next(
        (r for r in pot.rolls if seat is not None and r.character_id == seat.character_id), None
    )
    if roll is None:
        raise Refusal("table.not_in_pot")
    return roll


async def step(ctx: TableContext, user_id: int, pot_id: int, seen: int) -> PotStep:
    """A PC spends a Hero Point: his result moves one step better (once per `seen`: the
    steps the clicked button showed)."""
    roll = own_roll(ctx.state, user_id, pot_id)
    if roll.steps != seen:
        raise Refusal("table.step_already_spent")
    if gambling.improve(roll.quality, roll.steps) == 1:
        raise Refusal("table.contest_best")
    ctx.spend_hero_point(roll.character_id, "spend.contest_step")
    roll.steps += 1
    return PotStep(pot=pot_id)


async def settle(ctx: TableContext) -> PotSettled:
    """The best results share the pot; an NPC's share leaves the game with him."""
    pot = open_pot(ctx.state)
    if pot is None:
        raise Refusal("table.contest_closed")
    contestants = [
        gambling.Contestant(
            str(r.character_id), r.level, r.perception, gambling.improve(r.quality, r.steps)
        )
        for r in pot.rolls
    ]
    winners = [int(key) for key in gambling.pot_winners(contestants)]
    shares = gambling.split_pot(pot.stake * len(pot.rolls), len(winners))
    state = ctx.state
    seated = {s.character_id for s in state.seats}
    npcs = {state.npc_id, *(n.id for n in state.other_npcs)}
    bank = accounts.bank(ctx.table_id)
    for winner, share in zip(winners, shares, strict=True):
        if winner in npcs:
            destination = None
        elif winner in seated:
            destination = accounts.chips(ctx.table_id, winner)
        else:  # he left the table after rolling: his winnings go to his sheet
            destination = accounts.sheet(winner)
        ctx.move(share, bank, destination, "pot.win")
    pot.settled, pot.winners, pot.shares = True, winners, shares
    event = PotSettled(pot=pot.model_copy(deep=True))
    ctx.state.last_contest = event
    return event
