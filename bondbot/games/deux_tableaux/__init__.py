"""Baccara à deux tableaux: one banker against two tables of pontes (rules/deux-tableaux.md).

`engine.py` is the game on the engine contract, `auction.py` the bank's life (the NPC's
bank by default, the GM's auction), `npc.py` the NPC's automatic play, `ui.py` its Discord
part; each extends the baccarat bank's core that chemin de fer shares,
`games.baccarat_bank`.

At the table the NPC sits first, at open, and the PCs after it in the order they join; the
table's minimum is the smallest stake (a bank must cover one on each table), its maximum
the largest bank in play.
"""

from dataclasses import replace

from pydantic import BaseModel, Field

from bondbot.games.deux_tableaux.engine import DeuxTableaux, Settings
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import MAXIMUM, MINIMUM, TableOption
from bondbot.rules import baccarat
from bondbot.rules.shoe import Shoe


class DeuxTableauxOptions(BaseModel):
    """What the GM chooses at `/table open deux_tableaux`, beyond every table's options."""

    npc_bank: int | None = Field(None, gt=0)  # the NPC's bank (None: half the table's maximum)


def settings_of(table: NewTable) -> Settings:
    options = DeuxTableauxOptions.model_validate(table.options.model_dump())
    return Settings(
        packs=table.packs,
        min_stake=table.min_bet,
        min_bank=2 * table.min_bet,
        max_bank=table.max_bet,
        # Half the maximum by default: at an auction the NPC offers its bank, and a PC must
        # still be able to outbid it.
        npc_bank=options.npc_bank or max(table.max_bet // 2, 2 * table.min_bet),
    )


def _new_engine(table: NewTable, shoe: Shoe) -> DeuxTableaux:
    return DeuxTableaux.new(shoe, [table.npc], npc=table.npc, settings=settings_of(table))


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return baccarat.new_shoe(table.packs, seed)


OPTIONS = (
    replace(
        MINIMUM,
        description="Smallest stake (a bank covers one on each table)",
        fr_description="Plus petite mise (une banque en couvre une à chaque tableau)",
    ),
    replace(
        MAXIMUM, description="Largest bank in play", fr_description="Plus grosse banque en jeu"
    ),
    TableOption(
        "npc_bank",
        "amount",
        "The bank the NPC puts up and offers at an auction (default: half the maximum)",
        "banque_pnj",
        "La banque que fait le PNJ et qu'il propose aux enchères (par défaut : la moitié du"
        " maximum)",
    ),
)


GAME = GameSpec(
    key=DeuxTableaux.key,
    engine=DeuxTableaux,
    options=DeuxTableauxOptions,
    packs_allowed=(2, 3),
    default_packs=3,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.deux_tableaux.ui",
    private_hands=True,
    open_description="Open a baccara à deux tableaux table (GM)",
    table_options=OPTIONS,
)
