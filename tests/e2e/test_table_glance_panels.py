"""Panels that stay true (issue 34): a move clicked in the GM's private panel (a bet size
for Le Chiffre at hold'em) draws that panel again in place, saying it was done, with the
controls of now; no separate "Done." under a panel left with the old buttons."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import (
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    table_message,
    wait_table,
)
from test_holdem_evening import labels, panel_id, seeds


async def test_a_size_clicked_in_the_gm_panel_redraws_it(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    first, second = seeds()
    await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds += [first, second]
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open holdem", npc="Le Chiffre", minimum="50", maximum="500",
            big_blind="10",
        )  # fmt: skip
        await join(fake, world.player, "100")
        await fake.slash(world.player_fr, "table join", buy_in="300")
        for user in (world.player, world.player_fr):
            await press(fake, user, "choose", "simulate")
        await fake.slash(world.gm, "table npc", auto=False)
        await wait_table(fake, "(NPC, played by the GM)")
        await press(fake, world.gm, "deal")
        await wait_table(fake, "To act: **Le Chiffre**")
        gm = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        assert labels(gm)[:2] == ["½ pot: $25", "Pot: $35"]  # Le Chiffre's sizes, his turn
        clicked = await fake.click(world.gm, gm, panel_id(gm, "to"))
        # The GM's panel, drawn again where he clicked: it says it was done, and Le
        # Chiffre's sizes are gone (it is no longer his turn).
        assert clicked.response_type == 7, clicked.content
        assert clicked.embeds and clicked.embeds[0]["title"] == "GM controls"
        assert "Done." in clicked.embeds[0]["description"]
        assert "½ pot: $25" not in labels(clicked)
        await wait_table(fake, "Le Chiffre raises to $25.")
