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


@dataclass(frozen=True, slots=True)
class FormField:
    """One input of a form the bot draws, as its submit must carry it back."""

    name: str  # the input's custom id
    max_length: int  # as the form drew it (Discord enforces it on an honest client)
    required: bool = True  # False: may come back empty (never missing)
    choices: frozenset[str] | None = None  # a menu: the values it offered


class BadForm(Refusal):
    """A form's submit that does not match the form drawn: refused, nothing changed."""

    def __init__(self) -> None:
        super().__init__("errors.bad_form")


def form_values(interaction: discord.Interaction, fields: Sequence[FormField]) -> dict[str, str]:
    """The fields of a submitted form, each as the form drew it: the one way every form
    handler reads what came back. A client can send any payload, so a field missing, one
    the form does not have, a value over its length, a required one empty, or a menu's
    value it did not offer is refused (`errors.bad_form`) before anything is read or
    changed."""
    wanted = {field.name: field for field in fields}
    got: dict[str, str] = {}
    data = interaction.data if isinstance(interaction.data, dict) else {}
    rows = data.get("components", [])
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, dict):
            raise BadForm()
        inner = row.get("components", [row.get("component")])
        for component in inner if isinstance(inner, list) else []:
            if not isinstance(component, dict) or "custom_id" not in component:
                continue  # layout (a text display) carries nothing back
            name = component["custom_id"]
            picked = component.get("values")
            value = component.get("value") if picked is None else picked
            if isinstance(value, list):  # a menu: one choice
                if len(value) > 1:
                    raise BadForm()
                value = value[0] if value else ""
            if name not in wanted or name in got or not isinstance(value, str | None):
                raise BadForm()
            got[name] = value or ""
    for name, field in wanted.items():
        value = got.get(name)
        if value is None or len(value) > field.max_length:
            raise BadForm()
        if field.required and not value.strip():
            raise BadForm()
        if field.choices is not None and value and value not in field.choices:
            raise BadForm()
    return got


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
    optional: int = 0  # the last arguments an older id may lack (the handler's defaults)
    form: bool = False  # its submit is a form's (it opens one): only then one may come back

    def arguments(self, raw: Sequence[str]) -> list[Any]:
        """The custom id's arguments, typed; a malformed one is refused, never guessed."""
        if not len(self.types) - self.optional <= len(raw) <= len(self.types):
            raise Refusal("errors.unknown_action")
        try:
            return [kind(value) for kind, value in zip(self.types, raw, strict=False)]
        except ValueError:
            raise Refusal("errors.unknown_action") from None


class Actions:
    """Typed dispatch of one area's clicks and modal submits: each action registered once
    with the types of its arguments, instead of a chain of string comparisons."""

    def __init__(self) -> None:
        self._routes: dict[str, Route] = {}

    def on(
        self, name: str, *types: type, optional: int = 0, form: bool = False
    ) -> Callable[[ActionHandler], ActionHandler]:
        """Register `handler(click, *args)` for the action `name` and its argument types;
        the last `optional` ones may be missing (ids drawn before they were added); `form`:
        the action opens a form and reads its submit (any other action refuses one)."""

        def register(handler: ActionHandler) -> ActionHandler:
            if name in self._routes:
                raise ValueError(f"action {name} registered twice")
            self._routes[name] = Route(handler, types, optional, form)
            return handler

        return register

    def route(self, name: str) -> Route | None:
        return self._routes.get(name)

    async def dispatch(self, click: object, name: str, raw: Sequence[str]) -> None:
        """Run the action `name` with its typed arguments; refuse an unknown one."""
        route = self.route(name)
        if route is None:
            raise Refusal("errors.unknown_action")
        interaction = getattr(click, "interaction", click)  # a table's Click, or the interaction
        submitted = getattr(interaction, "type", None) is discord.InteractionType.modal_submit
        if submitted and not route.form:  # a form forged under a button's id
            raise BadForm()
        await route.handler(click, *route.arguments(raw))
