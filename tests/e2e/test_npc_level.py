"""The NPC's Gambling level through the fake Discord: read from his sheet at the opening,
shown to the GM (open answer and table message), overridden by the GM for the evening with
`/table npc level:`, refused to anyone else and to a level already set."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import create_cast, le_chiffre, table_message, wait_table


async def test_the_npc_level_shows_at_open_and_the_gm_overrides_it(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),  # Gambling 12 on his sheet
            "tourist": {"name": "A Drunk Tourist", "kind": "NPC"},  # no Gambling skill
        },
        {},
    )
    async with bot_env.run() as bot:
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        opened = await fake.slash(
            world.gm, "table open michigan", npc="Le Chiffre", minimum="10", maximum="100"
        )
        assert opened.ephemeral
        assert "Le Chiffre — Gambling 12: a strong player" in opened.content
        await wait_table(fake, "Le Chiffre — Gambling 12: a strong player")
        assert (await bot.services.tables.snapshot(1)).state.npc_level == 12

        refused = await fake.slash(world.player, "table npc", level=14)
        assert refused.ephemeral and "GM" in (refused.content or "")
        assert (await bot.services.tables.snapshot(1)).state.npc_level == 12

        nothing = await fake.slash(world.gm, "table npc")
        assert nothing.content == "Say what to change: auto, level, or both."

        done = await fake.slash(world.gm, "table npc", level=14)
        assert done.ephemeral
        assert done.content == (
            "Le Chiffre plays at Gambling 14 for the evening: a formidable player."
        )
        assert (await bot.services.tables.snapshot(1)).state.npc_level == 14
        await wait_table(fake, "Le Chiffre — Gambling 14: a formidable player")
        assert "Gambling 12" not in str(table_message(fake).embeds)

        again = await fake.slash(world.gm, "table npc", level=14)
        assert again.content == "Le Chiffre already plays at Gambling 14."

        # Both at once: the GM takes the NPC's decisions and sets his level.
        both = await fake.slash(world.gm, "table npc", level=0, auto=False)
        assert both.content.startswith(
            "Le Chiffre plays at Gambling 0 for the evening: a novice.\nYou play Le Chiffre now"
        )
        state = (await bot.services.tables.snapshot(1)).state
        assert (state.npc_level, state.npc_auto) == (0, False)
        await wait_table(fake, "Le Chiffre — Gambling 0: a novice")

        # An NPC without the skill plays at 0, in French for a French GM's answer.
        other = fake.add_channel("back-room", guild=world.guild)
        opened = await fake.slash(
            world.gm,
            "table open michigan",
            npc="A Drunk Tourist",
            minimum="10",
            maximum="100",
            _channel=other,
            _locale="fr",
        )
        assert "A Drunk Tourist — Jeu 0 : un novice" in opened.content
        assert (await bot.services.tables.snapshot(2)).state.npc_level == 0
