"""A character at an open table cannot be deleted: his chips would be stranded on a
deleted sheet, and the table would lose its NPC."""

from __future__ import annotations

from e2e_env import BotEnv
from sheet_helpers import dump, query, refused
from table_flow import bond, create_cast, join, le_chiffre, mathis, wait_table


async def test_a_character_at_an_open_table_cannot_be_deleted(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(w.player), "mathis": mathis(w.player_fr)},
        {"bond": w.player, "mathis": w.player_fr},
    )
    channel = f"<#{w.channel.id}>"
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        await fake.slash(
            w.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        # Mathis asks to delete his sheet, then sits down before he confirms.
        prompt = await fake.slash(w.player_fr, "sheet delete", character="René Mathis")
        assert prompt.custom_ids() == [
            f"bb:sheet:del:{ids['mathis']}",
            f"bb:sheet:keep:{ids['mathis']}",
        ]
        await join(fake, w.player, "300")
        await join(fake, w.player_fr, "100")
        before = await dump(bot)

        asked = await fake.slash(w.player, "sheet delete", character="James Bond")
        assert refused(asked, "sheet.delete_seated", name="James Bond", channel=channel)
        by_gm = await fake.slash(w.gm, "sheet delete", character="James Bond", _locale="fr")
        assert refused(by_gm, "sheet.delete_seated", "fr", name="James Bond", channel=channel)
        confirmed = await fake.click(w.player_fr, prompt, f"bb:sheet:del:{ids['mathis']}")
        assert refused(confirmed, "sheet.delete_seated", "fr", name="René Mathis", channel=channel)
        npc = await fake.slash(w.gm, "sheet delete", character="Le Chiffre")
        assert refused(npc, "sheet.delete_table_npc", name="Le Chiffre", channel=channel)
        assert await dump(bot) == before

        # Once he has left with his chips, his sheet goes; the cash-out is on it.
        await fake.slash(w.player, "table leave")
        gone = await fake.slash(w.player, "sheet delete", character="James Bond")
        deleted = await fake.click(w.player, gone, f"bb:sheet:del:{ids['bond']}")
        assert deleted.response_type == 7
        assert await query(bot, "SELECT alive FROM characters WHERE id = ?", ids["bond"]) == [(0,)]
        assert await query(
            bot,
            "SELECT account, balance FROM balances WHERE account LIKE ? AND kind = 'cash'"
            " ORDER BY account",
            f"%:{ids['bond']}",
        ) == [(f"chips:1:{ids['bond']}", 0), (f"sheet:{ids['bond']}", 100_000)]
