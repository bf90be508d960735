"""Seats: a PC joins with a buy-in, chooses to simulate or play the rulebook, and leaves."""

from __future__ import annotations

from bondbot.errors import Refusal
from bondbot.games.contract import Event
from bondbot.games.registry import spec_for
from bondbot.money import Cents
from bondbot.rules import alternative
from bondbot.rules.errors import IllegalAction
from bondbot.tables import accounts
from bondbot.tables import contest as rulebook_contest
from bondbot.tables.context import TableContext
from bondbot.tables.events import Chose, Joined, Left
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.snapshot import TableSnapshot
from bondbot.tables.state import Choice, Seat, TableState


async def join(
    core: TableCore,
    table_id: int,
    user_id: int,
    character_id: int,
    buy_in: int,
    *,
    by_gm: bool = False,
) -> TableSnapshot:
    """Seat a PC with `buy_in` of his sheet's cash as chips (his owner, or the GM)."""
    await core.load_all()  # where else he sits is read from memory

    async def run(ctx: TableContext) -> Event:
        person = await ctx.person(character_id)
        if person is None or person.guild_id != ctx.guild_id:
            raise Refusal("sheet.not_found")
        if person.kind != "PC":
            raise Refusal("table.only_pcs")
        if not by_gm and person.owner_id != user_id:
            raise Refusal("table.not_your_character")
        if ctx.state.seat_of_character(character_id) is not None:
            raise Refusal("table.already_seated")
        if any(t.id != table_id for t in core.seating(character_id)):
            raise Refusal("table.seated_elsewhere")
        if buy_in <= 0:
            raise Refusal("table.bad_buy_in")
        chip = ctx.state.engine.chip_value()  # whole chips go to the table, cents stay
        chips = buy_in - buy_in % chip
        config = ctx.state.config
        limits = spec_for(config.game).buy_in_limits
        if limits and not config.min_bet <= chips <= config.max_bet:
            raise Refusal(
                "table.buy_in_outside", min=Cents(config.min_bet), max=Cents(config.max_bet)
            )
        least = least_buy_in(ctx.state, character_id)
        if chips < least:
            raise Refusal("table.buy_in_below_minimum", min=Cents(least))
        async with core.db.read() as conn:
            await ctx.money.include(conn, character_id)
        ctx.move(
            chips,
            accounts.sheet(character_id),
            accounts.chips(table_id, character_id),
            "table.buy_in",
        )
        choice = "rulebook" if ctx.state.rulebook_only else ctx.state.chosen.get(character_id)
        ctx.state.seats.append(
            Seat(
                character_id=character_id,
                user_id=person.owner_id or user_id,
                name=person.name,
                choice=choice,
            )
        )
        ctx.state.sat[character_id] = person.name
        if choice == "simulate":
            sit(ctx, character_id)
        return Joined(character_id=character_id, buy_in=chips)

    return await core.mutate(table_id, user_id, run)


def least_buy_in(state: TableState, character_id: int) -> int:
    """What a buy-in must cover: a hand of the game (its smallest wager, an ante, a
    stake), or the table's smallest wager for who plays the rulebook's contest."""
    if state.rulebook_only or state.chosen.get(character_id) == "rulebook":
        return state.config.min_bet
    return state.engine.least_stack()


async def leave(
    core: TableCore, table_id: int, user_id: int, *, character_id: int | None = None
) -> TableSnapshot:
    """A PC leaves with his chips (his owner; the GM names the character to unseat)."""

    async def run(ctx: TableContext) -> Event:
        state = ctx.state
        seat = (
            state.seat_of_user(user_id)
            if character_id is None
            else state.seat_of_character(character_id)
        )
        if seat is None:
            raise Refusal("table.not_seated")
        try:
            state.engine.stand_up(str(seat.character_id))
        except IllegalAction as illegal:
            raise ctx.refusal(illegal) from None
        if (contest := rulebook_contest.pending(state, seat.character_id)) is not None:
            await rulebook_contest.settle_contest(ctx, contest)  # leaving cannot dodge it
        chips = cash_out(ctx, seat)
        state.seats.remove(seat)
        state.offers = [o for o in state.offers if o.character_id != seat.character_id or o.spent]
        return Left(character_id=seat.character_id, chips=chips)

    return await core.mutate(table_id, user_id, run)


async def choose(core: TableCore, table_id: int, user_id: int, choice: Choice) -> TableSnapshot:
    """The owner's final choice for this game: simulate (earning the award) or rulebook."""

    async def run(ctx: TableContext) -> Event:
        seat = ctx.state.seat_of_user(user_id)
        if seat is None:
            raise Refusal("table.not_seated")
        if ctx.state.rulebook_only:
            raise Refusal("table.rulebook_only")
        if seat.choice is not None:
            raise Refusal("table.already_chose")
        seat.choice = ctx.state.chosen[seat.character_id] = choice
        award = 0
        if choice == "simulate":
            sit(ctx, seat.character_id)
            person = await ctx.person(seat.character_id)
            settings = await core.guild_settings(ctx.guild_id)
            awards = (
                alternative.parse_award_table(settings.award_table)
                if settings.award_table
                else alternative.DEFAULT_AWARDS
            )
            award = alternative.hero_points_for(person.gambling if person else 0, awards)
            if award:
                ctx.money.move(
                    award, None, accounts.sheet(seat.character_id), "award.simulate", "hero"
                )
        return Chose(character_id=seat.character_id, choice=choice, award=award)

    return await core.mutate(table_id, user_id, run)


def sit(ctx: TableContext, character_id: int) -> None:
    """A simulating PC takes his place in the game, in the table's seat order."""
    engine = ctx.state.engine
    try:
        engine.sit(str(character_id))
    except IllegalAction as illegal:
        raise ctx.refusal(illegal) from None
    order = {str(seat.character_id): i for i, seat in enumerate(ctx.state.seats)}
    engine.seats.sort(key=lambda key: order.get(key, -1))


def cash_out(ctx: TableContext, seat: Seat, reason: str = "table.cash_out") -> int:
    """The PC's chips go back to his sheet's cash (leaving, or the table closing)."""
    chips = ctx.chips(seat.character_id)
    ctx.move(
        chips,
        accounts.chips(ctx.table_id, seat.character_id),
        accounts.sheet(seat.character_id),
        reason,
    )
    return chips
