"""Typed dispatch of the table message's clicks and modal submits.

A table component's custom id is `bb:tbl:<table>:<action>:<arg>…` (unchanged since the
first tables, so buttons already posted keep working after an upgrade and a restart).
Each action is registered once, by the table cog for what every table has (join, spend,
contests) or by a game's Discord part for its own (bet, hit), with the types of its
arguments: `dispatch` finds the handler, converts the arguments and hands it a `Click`.
An unknown action or a malformed argument is refused, never guessed at.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bondbot.bot.reply import Reply
from bondbot.errors import Refusal


@dataclass(frozen=True, slots=True)
class Click:
    """One click or modal submit on a table's component, with its reply context."""

    interaction: discord.Interaction
    reply: Reply
    table: int
    values: dict[str, str]  # a modal's inputs by custom id; empty for a click

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def submitted(self) -> bool:
        return self.interaction.type is discord.InteractionType.modal_submit


Handler = Callable[..., Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Route:
    handler: Handler
    types: tuple[type, ...]  # each argument's type: int or str


class TableActions:
    """The actions one part of the table answers, by name."""

    def __init__(self) -> None:
        self._routes: dict[str, Route] = {}

    def on(self, name: str, *types: type) -> Callable[[Handler], Handler]:
        """Register `handler(click, *args)` for `bb:tbl:<table>:<name>:<args>`."""

        def register(handler: Handler) -> Handler:
            if name in self._routes:
                raise ValueError(f"table action {name} registered twice")
            self._routes[name] = Route(handler, types)
            return handler

        return register

    def route(self, name: str) -> Route | None:
        return self._routes.get(name)


def convert(route: Route, raw: list[str]) -> list[Any]:
    if len(raw) != len(route.types):
        raise Refusal("table.unknown_action")
    try:
        return [kind(value) for kind, value in zip(route.types, raw, strict=True)]
    except ValueError:
        raise Refusal("table.unknown_action") from None
