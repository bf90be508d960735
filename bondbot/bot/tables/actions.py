"""Typed dispatch of the table message's clicks and modal submits.

A table component's custom id is `bb:tbl:<table>:<action>:<arg>…` (unchanged since the
first tables, so buttons already posted keep working after an upgrade and a restart).
Each action is registered once (`bot.router.Actions`), by the table cog for what every
table has (join, spend, contests) or by a game's Discord part for its own (bet, hit),
with the types of its arguments; the handler gets a `Click`.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bondbot.bot.reply import Reply
from bondbot.bot.router import Actions, FormField, form_values


@dataclass(frozen=True, slots=True)
class Click:
    """One click or modal submit on a table's component, with its reply context."""

    interaction: discord.Interaction
    reply: Reply
    table: int

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def submitted(self) -> bool:
        return self.interaction.type is discord.InteractionType.modal_submit

    def form(self, *fields: FormField) -> dict[str, str]:
        """A submitted form's fields, each as the form drew it (`router.form_values`: what
        is missing, unknown or malformed is refused and changes nothing)."""
        return form_values(self.interaction, fields)


# The registry of a table's actions: the common ones (bot/cogs/tables.py) and each game's.
TableActions = Actions
