"""Makao: Deal clicked on a table message not yet redrawn, while the deal is being bid, is
refused for what it is, not for the pack (issue 20, item 4)."""

from __future__ import annotations

import copy

from e2e_env import BotEnv
from table_flow import (
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    said,
    table_message,
    wait_table,
)

from bondbot.i18n import t


async def test_deal_on_a_stale_message_during_the_bidding_says_a_deal_is_in_play(
    bot_env: BotEnv,
) -> None:
    fake, world = bot_env.fake, bot_env.world
    users = {"bond": world.player, "mathis": world.player_fr}
    await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        users,
    )
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open makao", npc="Le Chiffre", minimum="10", maximum="100", stake="10"
        )
        await wait_table(fake, "Le Chiffre")
        for user in users.values():
            await join(fake, user, "50")
            await press(fake, user, "choose", "simulate")
        await wait_table(fake, "3 players in the game")
        message = table_message(fake)
        stale = copy.deepcopy(message.components)
        newhand = button_id(fake, "newhand")
        dealt = await fake.click(world.gm, message, newhand)
        assert (await said(dealt)).startswith("Deal 1 of")
        await wait_table(fake, "Deal 1 of")
        snapshot = await bot.services.tables.snapshot(int(newhand.split(":")[2]))
        assert snapshot.state.engine.phase in ("bidding", "playing")
        message.components = stale  # the message as a GM still sees it before its redraw
        again = await fake.click(world.gm, message, newhand)
        assert again.ephemeral and (await said(again)) == t("makao.deal_in_play", "en")
        fr = await fake.click(world.gm, message, newhand, _locale="fr")
        assert (await said(fr)) == t("makao.deal_in_play", "fr")
