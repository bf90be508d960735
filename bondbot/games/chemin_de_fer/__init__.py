"""Chemin de fer: baccarat in which the bank passes from player to player (rules/chemin-de-fer.md).

What it shares with baccara à deux tableaux (the drawing rules and seed 004's advice, the
covering of stakes, the pontes' answers, the settlement, much of the table message) is the
baccarat bank's, `games.baccarat_bank`, which `engine.py`, `events.py` and `ui.py` extend;
`tableau.py`, `coverage.py` and `expectation.py` keep the core's names where they were
first written. `npc.py` is the NPC's automatic play.

At the table the NPC sits first, at open, and the PCs after it in the order they join; the
table's minimum is the smallest stake (and bank), its maximum the largest bank in play.
"""

from pydantic import BaseModel, Field

from bondbot.games.baccarat_bank.tableau import Drawing
from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.registry import GameSpec, NewTable
from bondbot.rules import baccarat
from bondbot.rules.shoe import Shoe


class ChemindeFerOptions(BaseModel):
    """What the GM chooses at `/table open chemin_de_fer`, beyond every table's options."""

    drawing: Drawing = "fixed"
    commission: int = Field(0, ge=0, le=5)  # percent of the banker's win, to the house
    npc_bank: int | None = Field(None, gt=0)  # the NPC's bank (None: the table's maximum)
    first_banker: str | None = None  # a seat key; None: drawn at random at the start


def settings_of(table: NewTable) -> Settings:
    options = ChemindeFerOptions.model_validate(table.options.model_dump())
    return Settings(
        drawing=options.drawing,
        commission=options.commission,
        packs=table.packs,
        min_stake=table.min_bet,
        min_bank=table.min_bet,
        max_bank=table.max_bet,
        npc_bank=options.npc_bank or table.max_bet,
    )


def _new_engine(table: NewTable, shoe: Shoe) -> ChemindeFer:
    return ChemindeFer.new(shoe, [table.npc], None, npc=table.npc, settings=settings_of(table))


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return baccarat.new_shoe(table.packs, seed)


GAME = GameSpec(
    key=ChemindeFer.key,
    engine=ChemindeFer,
    options=ChemindeFerOptions,
    packs_allowed=tuple(range(1, 9)),
    default_packs=6,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.chemin_de_fer.ui",
    private_hands=True,
)
