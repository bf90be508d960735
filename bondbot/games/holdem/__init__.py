"""No-limit Texas hold'em (the Casino Royale table): a thin engine over pokerkit.

`engine.py` is the game on the contract, `hand.py` drives pokerkit's hand state and adds
what holdem.md says differently, `names.py` names hands (eval7, or `evaluator.py` where
eval7 is not installed), `npc.py` is the NPC's automatic play, `ui.py` its Discord part.
The table's minimum and maximum bound the buy-in (no-limit: any bet up to a player's
chips).
"""

from dataclasses import replace

from bondbot.games.holdem.engine import Holdem, HoldemOptions
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import BANKROLL, MAXIMUM, MINIMUM, NPC, TableOption
from bondbot.rules.shoe import Shoe


def _new_engine(table: NewTable, shoe: Shoe) -> Holdem:
    """The NPC is a player: seated first, so it holds the first hand's button."""
    rules = HoldemOptions.model_validate(table.options.model_dump())
    return Holdem(shoe=shoe, npc=table.npc, seats=[table.npc], rules=rules)


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return Shoe.shuffled(1, seed)


OPTIONS = (
    replace(
        NPC,
        description="The NPC who plays at the table",
        fr_description="Le PNJ qui joue à la table",
    ),
    replace(MINIMUM, description="Smallest buy-in", fr_description="Cave minimale"),
    replace(MAXIMUM, description="Largest buy-in", fr_description="Cave maximale"),
    replace(
        BANKROLL,
        description="The NPC's chips (empty: it covers every stack)",
        fr_description="Les jetons du PNJ (vide : il couvre chaque tapis)",
    ),
    TableOption(
        "big_blind", "str", "The big blind", "grosse_blinde", "La grosse blinde", required=True
    ),
    TableOption(
        "small_blind",
        "str",
        "The small blind (default: half the big one)",
        "petite_blinde",
        "La petite blinde (par défaut la moitié de la grosse)",
    ),
    TableOption(
        "schedule",
        "str",
        "The next levels, small/big, separated by ';': 20/40; 50/100",
        "paliers",
        "Les paliers suivants, petite/grosse, séparés par « ; » : 20/40 ; 50/100",
    ),
    TableOption(
        "raise_every",
        "int",
        "The blinds go up a level every N hands",
        "hausse_tous_les",
        "Les blindes passent au palier suivant toutes les N mains",
        least=1,
        most=1000,
    ),
)


GAME = GameSpec(
    key=Holdem.key,
    engine=Holdem,
    options=HoldemOptions,
    packs_allowed=(1,),
    default_packs=1,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.holdem.ui",
    private_hands=True,
    buy_in_limits=True,
    open_description="Open a no-limit Texas hold'em table (GM)",
    table_options=OPTIONS,
)
