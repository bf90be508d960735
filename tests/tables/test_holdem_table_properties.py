"""Any sequence of actions at a hold'em table, accepted or refused, conserves money and Hero
Points: mostly what the table waits for (the player to act, or the GM's deal), and
players' moves legal or not, spends in any order (PCs sharing a pot included), leaving
and coming back, timeouts, the GM taking the NPC and giving it back; and every stack, pot
and bank stays in whole units (a chip is $1: buy-ins with cents leave them on the sheet,
a bet with cents is refused)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import BOND_OWNER, GM, Clock, assert_conserved, assert_restores_then_closes
from test_holdem_service import LEITER_OWNER, seat_three
from test_table_properties import assert_edges

from bondbot.errors import Refusal
from bondbot.games.holdem.engine import CHIP
from bondbot.storage.db import Database
from bondbot.tables.service import TableService

PLAYERS = (BOND_OWNER, LEITER_OWNER, GM)  # the GM plays the NPC when it is his
MOVES = ("fold", "check", "call", "bet", "raise", "all_in", "sit_out", "sit_in")
# Whoever is to act, by the roll: check or call, bet or raise, all-in, fold.
PREFERRED = (
    (0.7, ("check", "call")),
    (0.85, ("bet", "raise")),
    (0.95, ("all_in",)),
    (1, ("fold",)),
)
ACTIONS = st.one_of(
    *[st.tuples(st.just("act"), st.just(GM), st.none(), st.floats(0, 1))] * 20,
    st.tuples(st.just("move"), st.sampled_from(PLAYERS), st.sampled_from(MOVES), st.floats(0, 1)),
    st.tuples(st.just("spend"), st.sampled_from(PLAYERS[:2]), st.integers(1, 20), st.none()),
    st.tuples(st.just("leave"), st.sampled_from(PLAYERS[:2]), st.none(), st.none()),
    st.tuples(st.just("join"), st.sampled_from(PLAYERS[:2]), st.integers(1, 60_000), st.none()),
    st.tuples(st.just("wait"), st.just(GM), st.integers(1, 120), st.none()),
    st.tuples(st.just("npc"), st.just(GM), st.booleans(), st.none()),
)


async def play(actions: list[tuple[str, int, object, object]], auto: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(Path(folder) / "bond.sqlite3")
        try:
            await db.migrate()
            clock = Clock()
            tables, table, ids = await seat_three(db, clock, [], auto=auto)
            characters = {BOND_OWNER: ids["bond"], LEITER_OWNER: ids["leiter"]}
            for action, user, arg, share in [("act", GM, None, 1.0), *actions]:
                try:
                    snapshot = await tables.snapshot(table)
                    engine = snapshot.state.engine
                    if action == "act" and engine.turn():  # whoever is to act: a legal move
                        seat = engine.turn()[0]
                        legal = {o.kind for o in engine.options() if o.seat == seat}
                        wanted = next(k for top, k in PREFERRED if float(share) <= top)  # type: ignore[arg-type]
                        arg = next(
                            (k for k in wanted if k in legal),
                            "call" if "call" in legal else "check",
                        )
                        owners = {str(c): owner for owner, c in characters.items()}
                        user = owners.get(seat, GM)
                        action = "move"
                    if action == "move":
                        npc = user == GM
                        seat = snapshot.state.npc_key if npc else str(characters[user])
                        option = next(
                            (o for o in engine.options() if o.seat == seat and o.kind == arg),
                            None,
                        )
                        amount = None
                        if option is not None and option.min is not None:
                            top = option.max if option.max is not None else option.min
                            amount = option.min + int((top - option.min) * float(share))  # type: ignore[arg-type]
                            if float(share) < 0.9:  # whole chips, else a bet with cents
                                amount -= (amount - option.min) % CHIP
                        await tables.act(
                            table, user, str(arg), amount=amount, as_gm=npc, for_npc=npc
                        )
                    elif action == "act" and (offers := snapshot.state.offers) and share < 0.5:
                        offer = offers[int(float(share) * 2 * len(offers))]  # type: ignore[arg-type]
                        owner = next(u for u, c in characters.items() if c == offer.character_id)
                        await tables.spend(table, owner, offer.id)  # between hands: a spend
                    elif action == "act":  # or the GM's deal
                        await tables.act(table, GM, "deal", as_gm=True)
                    elif action == "spend":  # his open offer, else any number
                        mine = [
                            o.id
                            for o in snapshot.state.offers
                            if o.character_id == characters[user]
                        ]
                        await tables.spend(table, user, mine[0] if mine else int(arg))  # type: ignore[arg-type]
                    elif action == "leave":
                        await tables.leave(table, user)
                    elif action == "join":
                        await tables.join(table, user, characters[user], int(arg))  # type: ignore[arg-type]
                    elif action == "npc":
                        await tables.set_npc_auto(table, GM, bool(arg))
                    else:
                        clock.advance(int(arg))  # type: ignore[arg-type]
                        await tables.run_due()
                except Refusal:
                    pass
                await assert_conserved(db)
                await assert_whole(tables, table)
            await assert_restores_then_closes(db, clock, tables, table)
            await assert_edges(db)
        finally:
            await db.close()


async def assert_whole(tables: TableService, table: int) -> None:
    """Stacks, the bets and pots in play and the NPC's bank: whole units, never cents."""
    snapshot = await tables.snapshot(table)
    engine = snapshot.state.engine
    assert all(chips % CHIP == 0 for chips in snapshot.chips.values()), snapshot.chips
    assert snapshot.bank is None or snapshot.bank % CHIP == 0
    assert all(amount % CHIP == 0 for amount in engine.chips.values())
    assert all(amount % CHIP == 0 for amount in engine.bets.values())
    assert all(pot.amount % CHIP == 0 for pot in engine.pots())


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(ACTIONS, min_size=40, max_size=150), auto=st.booleans())
def test_any_play_at_holdem_conserves_money_and_points(
    actions: list[tuple[str, int, object, object]], auto: bool
) -> None:
    asyncio.run(play(actions, auto))
