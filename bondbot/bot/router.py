"""Routes clicks and modal submits by `custom_id`, so they keep working after a restart.

A custom id is `bb:<area>:<arg>:<arg>…`; cogs register one handler per area. Views and
modals are only layout: they are sent already stopped, so discord.py keeps no state for
them and every click or submit is answered from the database.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bondbot.errors import Refusal

PREFIX = "bb"
log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction, list[str]], Awaitable[None]]


def custom_id(area: str, *args: object) -> str:
    """The custom id of a component: `bb:area:arg…` (at most 100 characters)."""
    value = ":".join([PREFIX, area, *(str(arg) for arg in args)])
    if len(value) > 100:
        raise ValueError(f"custom id too long: {value}")
    return value


def parse_custom_id(value: str) -> tuple[str, list[str]] | None:
    parts = value.split(":")
    if len(parts) < 2 or parts[0] != PREFIX:
        return None
    return parts[1], parts[2:]


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    disabled: bool = False
    row: int | None = None
    emoji: str | None = None


LABEL_MAX = 80  # Discord's limit for a button's label


def view_of(buttons: Sequence[ButtonSpec]) -> discord.ui.View:
    """A stopped view holding these buttons: layout only, answered by the router. A label
    longer than Discord allows (a long name in it) is cut."""
    view = discord.ui.View(timeout=None)
    for spec in buttons:
        label = spec.label if len(spec.label) <= LABEL_MAX else spec.label[: LABEL_MAX - 1] + "…"
        view.add_item(
            discord.ui.Button(
                label=label,
                custom_id=spec.custom_id,
                style=spec.style,
                disabled=spec.disabled,
                row=spec.row,
                emoji=spec.emoji,
            )
        )
    view.stop()
    return view


def modal_view(title: str, custom: str, fields: Sequence[discord.ui.TextInput]) -> discord.ui.Modal:
    """A stopped modal with these text inputs: its submit reaches the router."""
    modal = discord.ui.Modal(title=title, custom_id=custom, timeout=None)
    for field in fields:
        modal.add_item(field)
    modal.stop()
    return modal


def modal_values(interaction: discord.Interaction) -> dict[str, str]:
    """The submitted text of each input of a modal (a menu's choice), by its custom id."""
    values: dict[str, str] = {}
    for row in (interaction.data or {}).get("components", []):
        for component in row.get("components", [row.get("component", {})]):
            if "custom_id" in component:  # a text input's value, a menu's one choice
                picked = component.get("values")
                value = picked[0] if picked else component.get("value", "")
                values[component["custom_id"]] = value or ""
    return values


_ROUTED = (discord.InteractionType.component, discord.InteractionType.modal_submit)


class Router:
    """Maps an area to its handler; the client calls `dispatch` for every component."""

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def register(self, area: str, handler: Handler) -> None:
        if area in self._handlers:
            raise ValueError(f"area {area} already routed")
        self._handlers[area] = handler

    def resolve(self, interaction: discord.Interaction) -> tuple[Handler, list[str]] | None:
        """The handler of a component's area; for one that belongs to no area (an old
        button of an area an upgrade removed, a forged id), the handler that answers it
        does not exist any more. None for what is not a component (slash commands)."""
        if interaction.type not in _ROUTED or not interaction.data:
            return None
        custom = str(interaction.data.get("custom_id", ""))
        parsed = parse_custom_id(custom)
        handler = None if parsed is None else self._handlers.get(parsed[0])
        if parsed is None or handler is None:
            log.info("no handler for component %.100s", custom)
            return _gone, []
        return handler, parsed[1]


async def _gone(interaction: discord.Interaction, args: list[str]) -> None:
    raise Refusal("errors.unknown_action")


ActionHandler = Callable[..., Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Route:
    handler: ActionHandler
    types: tuple[type, ...]  # each argument's type: int or str

    def arguments(self, raw: Sequence[str]) -> list[Any]:
        """The custom id's arguments, typed; a malformed one is refused, never guessed."""
        if len(raw) != len(self.types):
            raise Refusal("errors.unknown_action")
        try:
            return [kind(value) for kind, value in zip(self.types, raw, strict=True)]
        except ValueError:
            raise Refusal("errors.unknown_action") from None


class Actions:
    """Typed dispatch of one area's clicks and modal submits: each action registered once
    with the types of its arguments, instead of a chain of string comparisons."""

    def __init__(self) -> None:
        self._routes: dict[str, Route] = {}

    def on(self, name: str, *types: type) -> Callable[[ActionHandler], ActionHandler]:
        """Register `handler(click, *args)` for the action `name` and its argument types."""

        def register(handler: ActionHandler) -> ActionHandler:
            if name in self._routes:
                raise ValueError(f"action {name} registered twice")
            self._routes[name] = Route(handler, types)
            return handler

        return register

    def route(self, name: str) -> Route | None:
        return self._routes.get(name)

    async def dispatch(self, click: object, name: str, raw: Sequence[str]) -> None:
        """Run the action `name` with its typed arguments; refuse an unknown one."""
        route = self.route(name)
        if route is None:
            raise Refusal("errors.unknown_action")
        await route.handler(click, *route.arguments(raw))
