"""The games the bot can run, each registered once by its package.

A `GameSpec` is everything the table service needs to run a game without knowing it:
its engine class, how to make a new engine and a live shoe from the table's options, and
where its Discord part lives, and the options its table opens with (plain data: the bot
layer makes them a `/table open <game>` subcommand). The Discord part (`ui`) is imported
only by the bot layer.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from bondbot.games.contract import Engine
from bondbot.games.table_options import TableOption, opening_options
from bondbot.i18n import add_locale_folder
from bondbot.rules.shoe import Shoe

BUILTIN = (
    "bondbot.games.punto_banco",
    "bondbot.games.blackjack",
    "bondbot.games.macao",
    "bondbot.games.michigan",
    "bondbot.games.makao",
    "bondbot.games.holdem",
    "bondbot.games.chemin_de_fer",
    "bondbot.games.deux_tableaux",
)


@dataclass(frozen=True)
class NewTable:
    """What the table tells a game when it opens."""

    npc: str  # the NPC's seat key
    packs: int
    min_bet: int
    max_bet: int
    options: BaseModel


@dataclass(frozen=True)
class GameSpec:
    key: str
    engine: type[Engine]
    options: type[BaseModel]  # the game's own table options, validated at open
    packs_allowed: tuple[int, ...]
    default_packs: int
    new_engine: Callable[[NewTable, Shoe], Engine]
    live_shoe: Callable[[NewTable, bytes], Shoe]  # a shuffled shoe from a secret seed
    ui: str  # the module of its Discord part
    private_hands: bool = False  # seats hold cards only they may see ("My cards")
    # The table's minimum and maximum bound the buy-in, not a wager (a no-limit poker
    # table: any bet up to a player's chips).
    buy_in_limits: bool = False
    # Its words, `<locales>/<lang>/*.toml`, for a game outside `bondbot.games` (those
    # inside have theirs in `bondbot/games/<game>/locales/`, found without registering).
    locales: Path | None = None
    # `/table open <game>`: what it says it does, and the game's own options (and those
    # of `table_options.COMMON` it words its way); the Discord layer builds it from these.
    open_description: str = ""
    table_options: tuple[TableOption, ...] = ()

    def opening(self) -> tuple[TableOption, ...]:
        """Every option of its `/table open`, in their order."""
        return opening_options(self.table_options, self.packs_allowed)


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game from outside `bondbot.games` (the shipped ones are listed in BUILTIN)."""
    if _GAMES.get(spec.key, spec) is not spec:
        raise ValueError(f"game {spec.key} registered twice")
    _GAMES[spec.key] = spec
    if spec.locales is not None:
        add_locale_folder(spec.locales)
    return spec


def _load_builtin() -> None:
    """The games shipped with the bot: each package's `GAME`."""
    for module in BUILTIN:
        spec: GameSpec = importlib.import_module(module).GAME
        _GAMES.setdefault(spec.key, spec)


def spec_for(key: str) -> GameSpec:
    if key not in _GAMES:
        _load_builtin()
    try:
        return _GAMES[key]
    except KeyError:
        raise ValueError(f"no such game {key}") from None


def all_games() -> list[GameSpec]:
    _load_builtin()
    return list(_GAMES.values())
