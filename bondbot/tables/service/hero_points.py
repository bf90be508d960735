"""Hero Points at a table: one spent wins a lost hand back, once, whatever the clicks,
devices or restarts; and a PC's Hero Points changing elsewhere redraws his spend buttons."""

from __future__ import annotations

from bondbot.errors import Refusal
from bondbot.games.contract import Event, Move
from bondbot.tables.context import TableContext, iso
from bondbot.tables.events import Spent
from bondbot.tables.service.core import TableCore
from bondbot.tables.service.snapshot import TableSnapshot
from bondbot.tables.state import SpendOffer


async def spend(core: TableCore, table_id: int, user_id: int, offer_id: int) -> TableSnapshot:
    """One Hero Point wins a lost hand: once, whatever the clicks, devices or restarts."""

    async def run(ctx: TableContext) -> Event:
        offer = next((o for o in ctx.state.offers if o.id == offer_id), None)
        if offer is None or offer.expires_at <= iso(ctx.now):
            raise Refusal("table.offer_closed")
        seat = ctx.state.seat_of_character(offer.character_id)
        if seat is None or seat.user_id != user_id:
            raise Refusal("table.not_your_button")
        if offer.spent:
            raise Refusal("table.already_spent")
        ctx.money.hand = offer.hand  # the spend's rows tell which hand it won back
        ctx.spend_hero_point(offer.character_id, "spend.win_hand")
        pay = pay_won_back(ctx, offer)
        offer.spent = True  # paid: no longer owed by the bank
        # A game that keeps its own account of the hand (a score sheet, who won the
        # evening, who shares a pot) is told, by its `won_back` move; if it no longer
        # takes it (the GM ended the game), the hand is closed.
        engine = ctx.state.engine
        if "won_back" in engine.moves:
            core.fresh_shoe(ctx)  # a finished shoe is replaced before any move
            won_back = Move(kind="won_back", target=str(offer.character_id))
            if not engine.can(won_back):
                raise Refusal("table.offer_closed")
            ctx.play(won_back)
        return Spent(
            character_id=offer.character_id,
            name=seat.name,
            pay=pay,
            hand=offer.hand,
            score=offer.score,
        )

    return await core.mutate(table_id, user_id, run)


def pay_won_back(ctx: TableContext, offer: SpendOffer) -> int:
    """Pay a spend: the offer's pay, or what the game reckons it moves now (spenders who
    share a pot: the earlier ones give the NPC back the new one's share). Only between
    the NPC and PCs who spent on that hand; what the spender gets is returned."""
    engine = ctx.state.engine
    pays = engine.won_back_pays(str(offer.character_id))
    if pays is None:
        ctx.money.pay_won_back(offer.character_id, offer.pay, "spend.win_hand")
        return offer.pay
    spenders = {o.character_id for o in ctx.state.offers if o.hand == offer.hand and o.spent}
    pay = pays.get(str(offer.character_id), 0)
    if pay <= 0:
        raise Refusal("table.nothing_to_win_back")
    for seat, amount in pays.items():
        character_id = int(seat)
        if character_id != offer.character_id and character_id not in spenders:
            raise ValueError(f"a spend may not move chips of {seat}, who did not spend")
        if amount < 0:
            ctx.money.give_back(character_id, -amount, "spend.shared")
    for seat, amount in pays.items():
        if amount > 0:
            ctx.money.pay_won_back(int(seat), amount, "spend.win_hand")
    return pay


async def character_changed(core: TableCore, character_id: int) -> None:
    """Redraw the table where this PC sits: his Hero Points decide his spend buttons."""
    await core.load_all()
    for table in core.seating(character_id):
        async with core.turn(table.id, waits=True):  # not under an action
            fresh = await core.snapshot(table.id, fresh=True)
        await core.notify(fresh)
