"""The options of `/table open <game>`, declared once as plain data.

Every game's opening takes the options in `COMMON` (the NPC, the limits, the shoe…); a
game adds its own in its `GameSpec.table_options`, where an option named like a common
one replaces it (its own words for `minimum`, a required `big_blind`). The Discord layer
(`bondbot/bot/tables/open_commands.py`) builds the subcommands from these declarations,
with their French names and descriptions, so a new option is one declaration here or in
the game's package, never an edit per game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

# - `int`, `str`, `bool`: given to the game as typed (an `int` within `least`..`most`);
# - `amount`: typed as text (`1,000`, `$2.50`), given as cents, refused when unreadable;
# - `choice`: one of `choices` (their values all `str` or all `int`);
# - `npc`: an NPC's name, completed as typed (the table's own NPC);
# - `character`: any character's name, completed as typed, given as its id (`"12"`).
Kind = Literal["int", "str", "bool", "amount", "choice", "npc", "character"]


@dataclass(frozen=True)
class OptionChoice:
    name: str
    value: str | int
    fr_name: str | None = None  # None: the same in French (`8:1`)


@dataclass(frozen=True)
class TableOption:
    """One option of `/table open <game>`: its name and words in English and French
    (Discord shows the French to a French client), its kind and limits. Discord caps a
    name at 32 characters and a description at 100; every character also counts against
    the 8,000 of the whole `/table` command (tests/e2e/test_command_sizes.py)."""

    name: str
    kind: Kind
    description: str
    fr_name: str
    fr_description: str
    least: int | None = None  # an `int`'s bounds, checked by Discord
    most: int | None = None
    choices: tuple[OptionChoice, ...] = ()
    required: bool = False
    default: object = None  # what the game gets when the GM leaves it empty
    key: str | None = None  # its name in the game's options, when not `name`

    @property
    def option_key(self) -> str:
        return self.key or self.name


NPC = TableOption(
    "npc", "npc", "The NPC who holds the bank", "pnj", "Le PNJ qui tient la banque", required=True
)
MINIMUM = TableOption(
    "minimum", "amount", "Smallest wager", "minimum", "Mise minimale", required=True
)
MAXIMUM = TableOption(
    "maximum", "amount", "Largest wager", "maximum", "Mise maximale", required=True
)
PACKS = TableOption(  # its bounds are the game's `packs_allowed`; absent with only one
    "packs", "int", "Packs in the shoe", "jeux", "Nombre de jeux de cartes dans le sabot"
)
BANKROLL = TableOption(
    "bankroll",
    "amount",
    "The NPC's bankroll (empty: unlimited)",
    "banque",
    "La réserve du PNJ (vide : illimitée)",
)
OTHER_NPCS = TableOption(
    "other_npcs",
    "str",
    "Other NPCs playing, comma-separated (rulebook play only)",
    "autres_pnj",
    "Autres PNJ en jeu, séparés par des virgules (règles du livre seules)",
)
THREAD = TableOption(
    "thread",
    "bool",
    "Play in a thread (false: in the channel)",
    "fil",
    "Jouer dans un fil (faux : dans le salon)",
    default=True,
)
LANGUAGE = TableOption(
    "language",
    "choice",
    "The table's language (default: the server's)",
    "langue",
    "La langue de la table (par défaut : celle du serveur)",
    choices=(OptionChoice("Français", "fr"), OptionChoice("English", "en", "Anglais")),
)

# In this order before the game's own options, but `thread` and `language`, which come last.
COMMON = (NPC, MINIMUM, MAXIMUM, PACKS, BANKROLL, OTHER_NPCS, THREAD, LANGUAGE)
LAST = ("thread", "language")


def opening_options(
    own: tuple[TableOption, ...], packs_allowed: tuple[int, ...]
) -> tuple[TableOption, ...]:
    """A game's whole opening: the common options (those it redeclares in their place, in
    its words), `packs` bounded by the packs it allows (none when it allows one), then
    its own, then `thread` and `language`."""
    mine = {option.name: option for option in own}
    found = []
    for common in COMMON:
        option = mine.pop(common.name, common)
        if option is PACKS:
            if len(packs_allowed) < 2:
                continue
            option = replace(PACKS, least=min(packs_allowed), most=max(packs_allowed))
        found.append(option)
    last = [option for option in found if option.name in LAST]
    return (*[o for o in found if o.name not in LAST], *mine.values(), *last)
