"""Blackjack (rules/blackjack.md), American or European: each simulating PC plays his hands
against the NPC dealer, who plays by fixed rules."""

from bondbot.games.blackjack.engine import BlackjackEngine, BlackjackOptions, rules_of
from bondbot.games.registry import GameSpec, NewTable
from bondbot.rules.blackjack import Blackjack
from bondbot.rules.shoe import Shoe


def _options(table: NewTable) -> BlackjackOptions:
    return BlackjackOptions.model_validate(table.options.model_dump())


def _new_engine(table: NewTable, shoe: Shoe) -> BlackjackEngine:
    return BlackjackEngine(
        game=Blackjack(shoe, rules_of(_options(table), table.packs)),
        npc=table.npc,
        min_bet=table.min_bet,
        max_bet=table.max_bet,
    )


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    rules = rules_of(_options(table), table.packs)
    return Shoe.shuffled(table.packs, seed, rules.penetration)


GAME = GameSpec(
    key=BlackjackEngine.key,
    engine=BlackjackEngine,
    options=BlackjackOptions,
    packs_allowed=tuple(range(1, 9)),
    default_packs=6,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.blackjack.ui",
)
