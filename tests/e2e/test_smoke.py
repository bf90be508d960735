"""The bot starts against the fake Discord and syncs localised commands."""

from __future__ import annotations

from e2e_env import BotEnv


async def test_bot_starts_and_syncs_localised_commands(bot_env: BotEnv) -> None:
    async with bot_env.run():
        names = {c["name"] for c in bot_env.fake.commands(bot_env.world.guild)}
        assert "table" in names
        table = next(c for c in bot_env.fake.commands(bot_env.world.guild) if c["name"] == "table")
        assert table["name_localizations"]["fr"] == "table"
