"""Makao (piekiełko): trick-taking with exact bids over a cycle of deals, scored (makao.md).

The NPC sits in the game like every simulating PC; a stake, if the table has one, goes
into the pot from each player's chips (the NPC's from its bankroll)."""

from bondbot.games.makao.engine import Makao, MakaoOptions
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import TableOption
from bondbot.rules.shoe import Shoe


def _new_engine(table: NewTable, shoe: Shoe) -> Makao:
    settings = MakaoOptions.model_validate(table.options.model_dump())
    return Makao(shoe=shoe, npc=table.npc, seats=[table.npc], settings=settings)


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return Shoe.shuffled(1, seed)  # a fresh pack every deal: the table replaces it


OPTIONS = (
    TableOption(
        "stake",
        "amount",
        "What each player puts in the pot (empty: no stakes)",
        "enjeu",
        "Ce que chaque joueur met au pot (vide : sans enjeu)",
    ),
)


GAME = GameSpec(
    key=Makao.key,
    engine=Makao,
    options=MakaoOptions,
    packs_allowed=(1,),
    default_packs=1,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.makao.ui",
    private_hands=True,
    open_description="Open a Makao (piekiełko) table (GM)",
    table_options=OPTIONS,
)
