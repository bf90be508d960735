"""The bot starts against the fake Discord and syncs commands localised in French."""

from __future__ import annotations

from typing import Any

from e2e_env import BotEnv


def _untranslated(entry: dict[str, Any], path: str) -> list[str]:
    missing = []
    for field in ("name", "description"):
        localised = (entry.get(f"{field}_localizations") or {}).get("fr")
        if not localised:
            missing.append(f"{path} {field}")
    for choice in entry.get("choices") or []:
        if not (choice.get("name_localizations") or {}).get("fr") and not any(
            ch.isdigit() for ch in choice["name"]
        ):
            missing.append(f"{path} choice {choice['name']}")
    for option in entry.get("options") or []:
        missing += _untranslated(option, f"{path} {option['name']}")
    return missing


async def test_every_command_option_and_choice_has_a_french_form(bot_env: BotEnv) -> None:
    async with bot_env.run():
        synced = bot_env.fake.commands(bot_env.world.guild)
    assert {c["name"] for c in synced} >= {"sheet", "gm", "roll", "table"}
    missing = [m for command in synced for m in _untranslated(command, command["name"])]
    assert missing == []


async def test_npc_names_autocomplete_for_the_gm(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(world.gm, "sheet create", name="Le Chiffre", kind="NPC")
        await fake.slash(world.gm, "sheet create", name="Mr. White", kind="NPC")
        choices = await fake.autocomplete(
            world.gm, "table open punto_banco", focused="npc", value="le"
        )
    assert [c["name"] for c in choices] == ["Le Chiffre"]
