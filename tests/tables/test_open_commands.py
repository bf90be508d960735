"""`/table open <game>` is built from what each game declares (`GameSpec.opening`): every
declared option, and nothing else, reaches Discord with its kind, bounds, choices,
default and French words, whatever the game."""

from __future__ import annotations

from dataclasses import replace

import pytest
from discord import AppCommandOptionType, Locale, app_commands

from bondbot.bot.tables.open_commands import open_command
from bondbot.bot.translator import CommandTranslator
from bondbot.games.registry import all_games, spec_for
from bondbot.games.table_options import OptionChoice, TableOption

TYPES = {
    "int": AppCommandOptionType.integer,
    "bool": AppCommandOptionType.boolean,
    "str": AppCommandOptionType.string,
    "amount": AppCommandOptionType.string,
    "npc": AppCommandOptionType.string,
    "character": AppCommandOptionType.string,
}


def _check(command: app_commands.Command, options: tuple[TableOption, ...]) -> None:  # type: ignore[type-arg]
    params = {param.name: param for param in command.parameters}
    assert set(params) == {option.name for option in options}
    for option in options:
        param = params[option.name]
        if option.kind == "choice":
            values = [choice.value for choice in param.choices]
            assert values == [choice.value for choice in option.choices], option.name
        else:
            assert param.type is TYPES[option.kind], option.name
        assert param.required is option.required, option.name
        if not option.required:
            assert param.default == option.default, option.name
        assert (param.min_value, param.max_value) == (option.least, option.most), option.name
        assert param.autocomplete is not None or option.kind not in ("npc", "character")


@pytest.mark.parametrize("game", sorted(spec.key for spec in all_games()))
def test_each_game_offers_what_it_declares(game: str) -> None:
    spec = spec_for(game)
    command = open_command(spec)
    assert command.name == game and command.guild_only
    _check(command, spec.opening())


async def test_a_new_option_is_one_declaration_with_its_french() -> None:
    """An option of every kind added to a game's declaration: offered as declared, its
    French given to Discord by the translator, and packs bounded by the game's."""
    more = (
        TableOption("ante", "amount", "Ante", "mise", "La mise de départ"),
        TableOption("rounds", "int", "Rounds", "tours", "Tours", least=1, most=9, default=3),
        TableOption("host", "character", "Host", "hote", "L'hôte"),
        TableOption(
            "deck",
            "choice",
            "Deck",
            "paquet",
            "Le paquet",
            choices=(OptionChoice("Short", 32, "Court"), OptionChoice("Full", 52, "Complet")),
        ),
    )
    base = spec_for("blackjack")
    spec = replace(base, table_options=(*base.table_options, *more), packs_allowed=(2, 4))
    command = open_command(spec)
    _check(command, spec.opening())
    packs = command.get_parameter("packs")
    assert packs is not None and (packs.min_value, packs.max_value) == (2, 4)
    app_commands.Group(name="open", description="Open").add_command(command)  # a subcommand
    payload = await command.get_translated_payload(None, CommandTranslator())  # type: ignore[arg-type]
    deck = next(option for option in payload["options"] if option["name"] == "deck")
    assert deck["name_localizations"] == {Locale.french.value: "paquet"}
    assert deck["description_localizations"] == {Locale.french.value: "Le paquet"}
    assert [c["name_localizations"]["fr"] for c in deck["choices"]] == ["Court", "Complet"]


def test_a_game_with_one_pack_offers_no_packs() -> None:
    assert all(
        open_command(spec).get_parameter("packs") is None
        for spec in all_games()
        if len(spec.packs_allowed) == 1
    )
