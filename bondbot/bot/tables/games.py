"""Each game's Discord part, found through the game's registration.

A game's `ui` module (named in its `GameSpec`) has a `UI` object with this shape: its part
of the table message, its buttons and the actions they trigger, and what `/table bet` and
`/table deal` do at its tables (its `/table open` subcommand is built from the options its
`GameSpec` declares: bot/tables/open_commands.py).
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import TableActions
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang
from bondbot.tables.service import TableSnapshot


class GameUI(Protocol):
    actions: TableActions  # its buttons' and modals' actions

    def seat_extra(
        self, snapshot: TableSnapshot, character_id: int, lang: Lang, money: str
    ) -> str | None:
        """What follows a seat's line (his wager, his hands)."""
        ...

    def public_fields(
        self, snapshot: TableSnapshot, lang: Lang, money: str
    ) -> list[tuple[str, str]]:
        """Embed fields after the seats: the last hand, the dealer's cards…"""
        ...

    def buttons(self, snapshot: TableSnapshot, lang: Lang, money: str) -> list[ButtonSpec]:
        """The moves someone at the table may make now, on the public message (the seat
        panel, the GM panel and Hero Points are the table's own buttons); amounts on them
        are shown with the server's currency, `money`. Rows are laid out by the table."""
        ...

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        """`/table bet`: a wager (`on` is what it is on, where the game asks)."""
        ...

    async def deal(self, reply: Reply, table: int) -> None:
        """`/table deal` (the GM); the Deal button redraws the table message instead."""
        ...

    # Optional, looked up with getattr (see `optional` below), so a game writes only what
    # it has:
    # - `hand_note(snapshot, seat, lang) -> str | None`: a line after a seat's private
    #   cards in his seat panel (its total, what it may do now);
    # - `gm_waits(snapshot, lang, money) -> ButtonSpec | None`: the one GM action the
    #   table waits for now (Deal once the wagers are in), shown on the table message;
    # - `gm_buttons(snapshot, lang, money) -> list[ButtonSpec]`: the game's controls in
    #   the GM's private panel (deal, auction, the NPC's cards);
    # - `panel_buttons(snapshot, seat, lang, money) -> list[ButtonSpec]`: in a player's
    #   private seat panel, his legal moves now with their amounts, and his own controls
    #   (sit out, repeat a bet);
    # - `opening_options(options, given, lang) -> dict`: the options its engine gets at
    #   open, from its declared ones (`options`, by key, amounts in cents) and all the GM
    #   gave (`given`, by name);
    # - `async opened(interaction, snapshot)`: once its table is open (a word to the GM).


def optional(game: GameUI, name: str, default: Any) -> Any:
    """A game's optional hook (see `GameUI`), or a stand-in returning `default`."""
    hook = getattr(game, name, None)
    return hook if hook is not None else (lambda *args: default)


def ui_for(game: str) -> GameUI:
    return importlib.import_module(spec_for(game).ui).UI  # type: ignore[no-any-return]
