"""Each game's Discord part, found through the game's registration.

A game's `ui` module (named in its `GameSpec`) has a `UI` object with this shape: its part
of the table message, its buttons and the actions they trigger, its `/table open`
subcommand, and what `/table bet` and `/table deal` do at its tables.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from discord import app_commands

from bondbot.bot.reply import Reply
from bondbot.bot.router import ButtonSpec
from bondbot.bot.tables.actions import TableActions
from bondbot.games.registry import spec_for
from bondbot.i18n import Lang
from bondbot.tables.service import TableSnapshot


class GameUI(Protocol):
    actions: TableActions  # its buttons' and modals' actions
    open_command: app_commands.Command  # type: ignore[type-arg]  # /table open <game>

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
        """The game's own buttons (rows 1 and 2 of the message); amounts on them are shown
        with the server's currency, `money`."""
        ...

    async def bet(self, reply: Reply, table: int, on: str | None, amount: str) -> None:
        """`/table bet`: a wager (`on` is what it is on, where the game asks)."""
        ...

    async def deal(self, reply: Reply, table: int) -> None:
        """`/table deal` (the GM); the Deal button redraws the table message instead."""
        ...

    # Optional: `hand_note(snapshot, seat, lang) -> str | None`, a line after a seat's
    # private cards in the My cards answer (its total, what it may do now). Looked up
    # with getattr, so a game without private hands need not write it.


def ui_for(game: str) -> GameUI:
    return importlib.import_module(spec_for(game).ui).UI  # type: ignore[no-any-return]
