"""Blackjack (rules/blackjack.md), American or European: each simulating PC plays his hands
against the NPC dealer, who plays by fixed rules."""

from bondbot.games.blackjack.engine import BlackjackEngine, BlackjackOptions, rules_of
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import OptionChoice, TableOption
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


OPTIONS = (
    TableOption(
        "deal",
        "choice",
        "American (hole card, peek) or European (no hole card)",
        "donne",
        "Américaine (carte cachée, le croupier vérifie) ou européenne",
        choices=(
            OptionChoice("American", "american", "Américaine"),
            OptionChoice("European", "european", "Européenne"),
        ),
    ),
    TableOption(
        "european_lose_all",
        "bool",
        "European deal: a dealer blackjack takes doubles and splits",
        "europeenne_tout_perdu",
        "Donne européenne : un blackjack du croupier prend aussi doubles et séparations",
    ),
    TableOption(
        "hit_soft_17",
        "bool",
        "The dealer hits a soft 17",
        "tire_17_souple",
        "Le croupier tire sur 17 souple",
    ),
    TableOption(
        "split_by",
        "choice",
        "Pairs by value (any two tens) or by rank only",
        "paires_par",
        "Paires par valeur (deux bûches quelconques) ou par rang seulement",
        choices=(OptionChoice("Value", "value", "Valeur"), OptionChoice("Rank", "rank", "Rang")),
    ),
    TableOption(
        "max_hands",
        "int",
        "Most hands after splits (2 to 4)",
        "mains_max",
        "Nombre maximal de mains après séparations (2 à 4)",
        least=2,
        most=4,
    ),
    TableOption("surrender", "bool", "Late surrender allowed", "abandon", "Abandon tardif permis"),
)


GAME = GameSpec(
    key=BlackjackEngine.key,
    engine=BlackjackEngine,
    options=BlackjackOptions,
    packs_allowed=tuple(range(1, 9)),
    default_packs=6,
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.blackjack.ui",
    open_description="Open a blackjack table (GM)",
    table_options=OPTIONS,
)
