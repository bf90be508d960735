"""No-limit Texas hold'em (the Casino Royale table): a thin engine over pokerkit.

`engine.py` is the game on the contract, `hand.py` drives pokerkit's hand state and adds
what holdem.md says differently, `names.py` names hands (eval7, or `evaluator.py` where
eval7 is not installed), `npc.py` is the NPC's automatic play, `ui.py` its Discord part.
The table's minimum and maximum bound the buy-in (no-limit: any bet up to a player's
chips).
"""

from bondbot.games.holdem.engine import Holdem, HoldemOptions
from bondbot.games.registry import GameSpec, NewTable
from bondbot.rules.shoe import Shoe


def _new_engine(table: NewTable, shoe: Shoe) -> Holdem:
    """The NPC is a player: seated first, so it holds the first hand's button."""
    rules = HoldemOptions.model_validate(table.options.model_dump())
    return Holdem(shoe=shoe, npc=table.npc, seats=[table.npc], rules=rules)


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return Shoe.shuffled(1, seed)


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
)
