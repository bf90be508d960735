"""Chemin de fer: baccarat in which the bank passes from player to player (rules/chemin-de-fer.md).

What it shares with baccara à deux tableaux (the drawing rules and seed 004's advice, the
covering of stakes, the pontes' answers, the settlement, much of the table message) is the
baccarat bank's, `games.baccarat_bank`, which `engine.py`, `events.py` and `ui.py` extend;
`tableau.py`, `coverage.py` and `expectation.py` keep the core's names where they were
first written. `npc.py` is the NPC's automatic play.

At the table the NPC sits first, at open, and the PCs after it in the order they join; the
table's minimum is the smallest stake (and bank), its maximum the largest bank in play.
"""

from dataclasses import replace

from pydantic import BaseModel, Field

from bondbot.games.baccarat_bank.tableau import Drawing
from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import MAXIMUM, MINIMUM, OptionChoice, TableOption
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


OPTIONS = (
    replace(
        MINIMUM,
        description="Smallest stake (and bank)",
        fr_description="Plus petite mise (et plus petite banque)",
    ),
    replace(
        MAXIMUM, description="Largest bank in play", fr_description="Plus grosse banque en jeu"
    ),
    TableOption(
        "drawing",
        "choice",
        "Fixed (the punto banco tableau) or classic (choices at 5 and for the banker)",
        "tirage",
        "Fixe (le tableau du punto banco) ou classique (choix à 5 et pour le banquier)",
        choices=(
            OptionChoice("Fixed", "fixed", "Fixe"),
            OptionChoice("Classic", "classic", "Classique"),
        ),
    ),
    TableOption(
        "commission",
        "int",
        "The house's commission on a banker's win, 0 to 5%",
        "commission",
        "La commission de la maison sur un gain du banquier, de 0 à 5 %",
        least=0,
        most=5,
    ),
    TableOption(
        "npc_bank",
        "amount",
        "The bank the NPC puts up (default: the table's maximum)",
        "banque_pnj",
        "La banque que fait le PNJ (par défaut : le maximum de la table)",
    ),
    TableOption(
        "first_banker",
        "character",
        "Who holds the first bank (empty: drawn at random when you start)",
        "premier_banquier",
        "Qui tient la première banque (vide : tirée au sort au lancement)",
    ),
)


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
    open_description="Open a chemin de fer table (GM)",
    table_options=OPTIONS,
)
