"""An answered interaction is freed at once, by reference counting, not left for the garbage
collector: discord.py's Interaction and its response refer to each other, and each carries
the table message with its buttons, so under load the collector's passes over them took a
fifth of the bot's time (bench/load/load.py --gc)."""

from __future__ import annotations

import asyncio
import gc

import discord
from e2e_env import BotEnv
from table_flow import bet, bond, create_cast, join, le_chiffre, press

COUPS = 5


def live_interactions() -> int:
    return sum(isinstance(o, discord.Interaction) for o in gc.get_objects())


async def test_clicks_modals_and_commands_leave_no_interaction_behind(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await fake.wait_for_message(predicate=lambda m: "Le Chiffre" in str(m.embeds))
        await join(fake, world.player, "500")
        await press(fake, world.player, "choose", "simulate")
        await asyncio.sleep(0.1)  # the handlers' tasks end just after their answers
        gc.collect()
        before = live_interactions()
        gc.disable()  # what is left now is what reference counting could not free
        try:
            for _ in range(COUPS):
                await bet(fake, world.player, "banker", "10")  # a click, then a modal
                await press(fake, world.gm, "deal")
                history = await fake.slash(world.player, "table history")
                assert history.ephemeral
            await asyncio.sleep(0.1)
            left = live_interactions() - before
        finally:
            gc.enable()
    assert left == 0, f"{left} of {4 * COUPS} interactions wait for the garbage collector"
