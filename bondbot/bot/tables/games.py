"""Each game's part of the table message and of its buttons, found by the game's key."""

from __future__ import annotations

from typing import Protocol

import discord

from bondbot.bot.router import ButtonSpec
from bondbot.i18n import Lang
from bondbot.tables.service import TableSnapshot


class GameUI(Protocol):
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

    def buttons(self, snapshot: TableSnapshot, lang: Lang) -> list[ButtonSpec]:
        """The game's own buttons (rows 1 and 2 of the message)."""
        ...

    async def bet(
        self, interaction: discord.Interaction, table: int, on: str | None, amount: str
    ) -> None:
        """`/table bet`: a wager (`on` is what it is on, where the game asks)."""
        ...

    async def deal(self, interaction: discord.Interaction, table: int) -> None:
        """`/table deal` (the GM); the Deal button redraws the table message instead."""
        ...

    async def handle(
        self,
        interaction: discord.Interaction,
        table: int,
        action: str,
        args: list[str],
        values: dict[str, str],
    ) -> bool:
        """Answer a click or modal submit of this game's; False if the action is not its."""
        ...


def ui_for(game: str) -> GameUI:
    from bondbot.bot.tables.blackjack import BlackjackUI
    from bondbot.bot.tables.punto_banco import PuntoBancoUI

    games: dict[str, GameUI] = {"punto_banco": PuntoBancoUI(), "blackjack": BlackjackUI()}
    return games[game]
