"""`/table open <game>`, built from the options each game declares (`GameSpec.opening`).

discord.py reads a command's options from its callback's signature: each subcommand's
callback takes `**given` and carries a generated `__signature__` (one keyword parameter
an option, typed by its kind), and the decorators discord.py offers (`describe`,
`rename`, `choices`, `autocomplete`) are applied to it as to a hand-written one. Names,
descriptions and choices are `locale_str`s carrying their French (`fr=`), which
`CommandTranslator` gives Discord.

A game's Discord part may shape what reaches its engine, with two optional hooks on its
`UI`: `opening_options(options, given, lang) -> options` (hold'em makes its blind levels)
and `async opened(interaction, snapshot)` (Macao tells the GM the bank's expectation).
"""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bondbot.bot.context import bot_of, require_gm
from bondbot.bot.reply import Reply, reply_to
from bondbot.bot.tables.games import ui_for
from bondbot.bot.tables.modals import parse_amount_or_refuse
from bondbot.bot.tables.opening import character_names, npc_names, open_table
from bondbot.games.registry import GameSpec
from bondbot.games.table_options import COMMON, TableOption

COMMON_NAMES = frozenset(option.name for option in COMMON)  # open_table's own


def _words(english: str, french: str | None) -> locale_str:
    return locale_str(english) if french is None else locale_str(english, fr=french)


def _annotation(option: TableOption) -> Any:
    """The Python type discord.py makes the option's Discord type from."""
    if option.kind == "bool":
        kind: Any = bool
    elif option.kind == "int" and (option.least is not None or option.most is not None):
        kind = app_commands.Range[int, option.least, option.most]
    elif option.kind == "int" or (
        option.kind == "choice" and all(isinstance(c.value, int) for c in option.choices)
    ):
        kind = int
    else:
        kind = str
    return kind if option.required or option.default is not None else kind | None


def _signature(options: tuple[TableOption, ...]) -> inspect.Signature:
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Signature(
        [
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            ),
            *(
                inspect.Parameter(
                    option.name,
                    keyword,
                    annotation=_annotation(option),
                    default=inspect.Parameter.empty if option.required else option.default,
                )
                for option in options
            ),
        ]
    )


async def _value(reply: Reply, option: TableOption, value: Any) -> Any:
    """What the game gets of what the GM gave: an amount in cents, a character's id."""
    if value is None:
        return None
    if option.kind == "amount":
        return parse_amount_or_refuse(value, reply.lang)
    if option.kind == "character":
        if not value.strip():
            return None
        sheets = bot_of(reply.interaction).services.sheets
        return str(await sheets.find_id(reply.interaction.guild_id, value.strip()))
    return value


async def open_game(
    interaction: discord.Interaction, spec: GameSpec, given: dict[str, Any]
) -> None:
    """Open `spec`'s table with the options the GM `given` (by name)."""
    await require_gm(interaction)
    reply = await reply_to(interaction)
    ui = ui_for(spec.key)
    options = {
        option.option_key: await _value(reply, option, given.get(option.name))
        for option in spec.opening()
        if option.name not in COMMON_NAMES
    }
    shape = getattr(ui, "opening_options", None)
    if shape is not None:
        options = shape(options, given, reply.lang)
    snapshot = await open_table(
        interaction,
        spec.key,
        npc=given["npc"],
        minimum=given["minimum"],
        maximum=given["maximum"],
        packs=given.get("packs"),
        bankroll=given.get("bankroll"),
        other_npcs=given.get("other_npcs"),
        options=options,
        thread=given.get("thread", True),
        language=given.get("language"),
    )
    opened = getattr(ui, "opened", None)
    if opened is not None:
        await opened(interaction, snapshot)


def open_command(spec: GameSpec) -> app_commands.Command:  # type: ignore[type-arg]
    """`/table open <game>` for `spec`, its options as the game declares them."""
    options = spec.opening()

    async def callback(interaction: discord.Interaction, **given: Any) -> None:
        await open_game(interaction, spec, given)

    callback.__signature__ = _signature(options)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"open_{spec.key}"
    descriptions = {o.name: _words(o.description, o.fr_description) for o in options}
    app_commands.describe(**descriptions)(callback)
    app_commands.rename(**{o.name: _words(o.name, o.fr_name) for o in options})(callback)
    choices = {
        o.name: [
            app_commands.Choice(name=_words(c.name, c.fr_name), value=c.value) for c in o.choices
        ]
        for o in options
        if o.choices
    }
    if choices:
        app_commands.choices(**choices)(callback)
    completions = {"npc": npc_names, "character": character_names}
    completed = {o.name: completions[o.kind] for o in options if o.kind in completions}
    if completed:
        app_commands.autocomplete(**completed)(callback)
    description = spec.open_description or f"Open a {spec.key} table (GM)"
    command = app_commands.Command(name=spec.key, description=description, callback=callback)
    return app_commands.guild_only()(command)
