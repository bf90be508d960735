"""Punto banco (rules/baccarat.md): PCs wager on Player, Banker or Tie against the NPC's
bank; the drawing is fixed, so the NPC takes no decision."""

from bondbot.games.punto_banco.engine import PuntoBanco, PuntoBancoOptions
from bondbot.games.registry import GameSpec, NewTable
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


GAME = GameSpec(
    key=PuntoBanco.key,
    engine=PuntoBanco,
    options=PuntoBancoOptions,
    packs_allowed=baccarat.PACK_CHOICES,
    default_packs=8,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.punto_banco.ui",
)
