"""A table's shoes: a finished one replaced between hands, a shoe's seed revealed.

Every move may need a fresh shoe first (the core hands this to each action's context, for
the engine's automatic moves too), and closing reveals the last one: kept apart from the
modules that play, so none of them imports another for it.
"""

from __future__ import annotations

from collections.abc import Callable

from bondbot.games.registry import NewTable, spec_for
from bondbot.tables.context import TableContext
from bondbot.tables.state import ShoeRecord, TableState


def fresh_shoe(ctx: TableContext, seed_source: Callable[[], bytes]) -> None:
    """Between hands, a finished shoe is replaced (its seed revealed) before any move."""
    state = ctx.state
    engine = state.engine
    if engine.in_hand() or not engine.needs_new_shoe:
        return
    reveal(state)
    spec = spec_for(state.config.game)
    packs = engine.shoe_packs(state.config.packs)
    new = NewTable(
        npc=state.npc_key,
        packs=packs,
        min_bet=state.config.min_bet,
        max_bet=state.config.max_bet,
        options=spec.options.model_validate(state.config.options),
    )
    shoe = spec.live_shoe(new, seed_source())
    engine.replace_shoe(shoe)
    state.shoes.append(ShoeRecord(commitment=shoe.commitment or "", packs=packs))


def reveal(state: TableState) -> None:
    """The current shoe's seed goes on its record, for anyone to check the deal against."""
    shoe = state.engine.current_shoe()
    if state.shoes and shoe is not None and shoe.seed is not None:
        state.shoes[-1].seed = shoe.seed.hex()
