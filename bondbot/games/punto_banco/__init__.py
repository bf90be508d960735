"""Punto banco (rules/baccarat.md): PCs wager on Player, Banker or Tie against the NPC's
bank; the drawing is fixed, so the NPC takes no decision."""

from bondbot.games.punto_banco.engine import PuntoBanco, PuntoBancoOptions
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import OptionChoice, TableOption
from bondbot.rules import baccarat
from bondbot.rules.shoe import Shoe


def _new_engine(table: NewTable, shoe: Shoe) -> PuntoBanco:
    options = PuntoBancoOptions.model_validate(table.options.model_dump())
    return PuntoBanco(
        shoe=shoe,
        npc=table.npc,
        min_bet=table.min_bet,
        max_bet=table.max_bet,
        tie_pays=options.tie_pays,
        auto_deal_s=options.auto_deal_s,
    )


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    return baccarat.new_shoe(table.packs, seed)


OPTIONS = (
    TableOption(
        "tie_pays",
        "choice",
        "A tie pays 8 or 9 to 1",
        "egalite_paie",
        "L'égalité paie 8 ou 9 contre 1",
        choices=(OptionChoice("8:1", 8), OptionChoice("9:1", 9)),
        default=8,
    ),
    TableOption(
        "auto_deal",
        "int",
        "Deal by itself this many seconds after a coup's first wager",
        "distribution_auto",
        "Distribuer seul ce nombre de secondes après la première mise d'un coup",
        least=5,
        most=600,
        key="auto_deal_s",
    ),
)


GAME = GameSpec(
    key=PuntoBanco.key,
    engine=PuntoBanco,
    options=PuntoBancoOptions,
    packs_allowed=baccarat.PACK_CHOICES,
    default_packs=8,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.punto_banco.ui",
    open_description="Open a punto banco table (GM)",
    table_options=OPTIONS,
)
