"""Macao (`rules/macao.md`): baccarat's cousin where every player wagers against the banker
on private two-card hands, naturals pay up to three times and the bank can rotate."""

from bondbot.games.macao.engine import MAX_PACKS, Bank, Macao, MacaoRules
from bondbot.games.registry import GameSpec, NewTable
from bondbot.games.table_options import OptionChoice, TableOption
from bondbot.rules.shoe import Shoe


def rules_of(table: NewTable) -> MacaoRules:
    """The game's rules: the GM's options, with the table's limits as the stakes' bounds."""
    chosen = table.options.model_dump()
    return MacaoRules.model_validate(
        {**chosen, "min_stake": table.min_bet, "max_stake": table.max_bet}
    )


def _new_engine(table: NewTable, shoe: Shoe) -> Macao:
    rules = rules_of(table)
    # At a rotating bank the NPC is a seat like the others: it banks in its turn and
    # plays (automatically, or by the GM) when another seat banks.
    seats = [table.npc] if rules.bank is Bank.ROTATE else []
    return Macao(shoe=shoe, npc=table.npc, seats=seats, rules=rules)


def _live_shoe(table: NewTable, seed: bytes) -> Shoe:
    """Dealt to its end: the engine asks for a new shoe when it cannot serve a coup."""
    return Shoe.shuffled(table.packs, seed)


OPTIONS = (
    TableOption(
        "counting",
        "choice",
        "Above 9: minus 9 (the default), modulo 10, or the hand is bust",
        "compte",
        "Au-dessus de 9 : moins 9 (par défaut), modulo 10, ou la main crève",
        choices=(
            OptionChoice("Minus 9", "minus9", "Moins 9"),
            OptionChoice("Modulo 10", "modulo10", "Modulo 10"),
            OptionChoice("Bust", "bust", "Crève"),
        ),
    ),
    TableOption(
        "bank",
        "choice",
        "The NPC holds the bank (the default), or it passes from player to player",
        "banque_tenue_par",
        "Le PNJ tient la banque (par défaut), ou elle tourne de joueur en joueur",
        choices=(
            OptionChoice("The NPC", "npc", "Le PNJ"),
            OptionChoice("Rotating", "rotate", "Tournante"),
        ),
    ),
    TableOption(
        "tie_pays",
        "int",
        "A tie pays this many to 1 (8 by default)",
        "egalite_paie",
        "L'égalité paie tant contre 1 (8 par défaut)",
        least=1,
        most=20,
    ),
    TableOption(
        "coups",
        "int",
        "How many coups the evening lasts (empty: the GM ends it)",
        "coups",
        "Nombre de coups de la soirée (vide : le MJ la termine)",
        least=1,
        most=1000,
    ),
)


GAME = GameSpec(
    key=Macao.key,
    engine=Macao,
    options=MacaoRules,
    packs_allowed=tuple(range(1, MAX_PACKS + 1)),
    default_packs=1,  # the first shoe, for a table nobody sits at yet; then by its size
    new_engine=_new_engine,
    live_shoe=_live_shoe,
    ui="bondbot.games.macao.ui",
    private_hands=True,
    open_description="Open a Macao table (GM)",
    table_options=OPTIONS,
)
