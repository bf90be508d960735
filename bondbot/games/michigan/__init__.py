"""Michigan (Newmarket): a shedding game with chips on four pay cards, no bank (michigan.md).

The NPC sits in the game like every simulating PC; its chips are its bankroll."""

from bondbot.games.michigan.engine import Michigan, MichiganOptions
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import TableOption
from bondbot.rules.shoe import Shoe


def _new_engine(table: NewTable, shoe: Shoe) -> Michigan:
    settings = MichiganOptions.model_validate(table.options.model_dump())
    return Michigan(shoe=shoe, npc=table.npc, seats=[table.npc], settings=settings)


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return Shoe.shuffled(1, seed)  # one pack a round: the table replaces it for each deal


OPTIONS = (
    TableOption(
        "chip",
        "amount",
        "What one chip is worth (default 1)",
        "jeton",
        "Ce que vaut un jeton (1 par défaut)",
    ),
)


GAME = GameSpec(
    key=Michigan.key,
    engine=Michigan,
    options=MichiganOptions,
    packs_allowed=(1,),
    default_packs=1,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.michigan.ui",
    private_hands=True,
    open_description="Open a Michigan table (GM)",
    table_options=OPTIONS,
)
