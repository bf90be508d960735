"""Discord localisations of slash commands, from the `commands` catalog.

Code declares commands in English; French names and descriptions are looked up by the
command's qualified name (`commands.sheet.create.name`), parameters under `options`,
and choices by value under `commands.choices`. A string built with its French
(`locale_str(english, fr=...)`, as `/table open <game>`'s options are) gives it instead.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bondbot.i18n import catalog


def _command_key(context: app_commands.TranslationContextTypes) -> str | None:
    data = context.data
    location = context.location
    if location in (Where.command_name, Where.group_name):
        return f"commands.{data.qualified_name}.name"
    if location in (Where.command_description, Where.group_description):
        return f"commands.{data.qualified_name}.description"
    if location in (Where.parameter_name, Where.parameter_description):
        field = "name" if location is Where.parameter_name else "description"
        return f"commands.{data.command.qualified_name}.options.{data.name}.{field}"
    if location is Where.choice_name:
        return f"commands.choices.{data.value}"
    return None


class CommandTranslator(app_commands.Translator):
    """Gives Discord the French form of every command string the catalog knows."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not Locale.french:
            return None
        if "fr" in string.extras:
            return str(string.extras["fr"])
        key = _command_key(context)
        if key is None:
            return None
        french = catalog("fr")
        found = french.get(key.replace(" ", "."))
        if found is None and context.location in (
            Where.parameter_name,
            Where.parameter_description,
        ):
            # Options every subcommand of a group shares (`/table open <game>`'s npc, …)
            # are translated once, under the group.
            command, _, rest = key.partition(".options.")
            group = command.rsplit(" ", 1)[0]
            if group != command:
                found = french.get(f"{group}.options.{rest}".replace(" ", "."))
        return found
