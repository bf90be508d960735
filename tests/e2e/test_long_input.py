"""A refusal that quotes what the user typed stays within Discord's limits: the quote is
cut, so the user always gets an answer (Discord drops a reply over 2,000 characters)."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import bond, create_cast, le_chiffre, wait_table

from bondbot.bot.context import ECHO_MAX
from bondbot.i18n import t
from bondbot.money import EXAMPLES

LONG = "Blofeld " * 700  # 5,600 characters: Discord lets a string option carry 6,000


async def test_long_input_is_quoted_short_and_always_answered(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    await create_cast(bot_env, {"npc": le_chiffre(), "bond": bond(w.player)}, {"bond": w.player})
    quoted = LONG.strip()[: ECHO_MAX - 1] + "…"
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        npc = await fake.slash(w.gm, "table open punto_banco", npc=LONG, minimum="1", maximum="9")
        await fake.slash(w.gm, "table open blackjack", npc="Le Chiffre", minimum="1", maximum="9")
        await wait_table(fake, "Le Chiffre")
        seat = await fake.slash(w.gm, "table seat", character=LONG, buy_in="5")
        buy_in = await fake.slash(w.player, "table join", buy_in=LONG)
        others = await fake.slash(
            w.gm,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="1",
            maximum="9",
            other_npcs=LONG,
        )
    not_found = t("characters.not_found", "en", name=quoted)
    answers = {
        "npc": (npc, not_found),
        "seat": (seat, not_found),
        "buy_in": (buy_in, t("errors.amount.format", "en", text=quoted, example=EXAMPLES["en"])),
        "other_npcs": (others, not_found),
    }
    for option, (answer, expected) in answers.items():
        assert answer.ephemeral and answer.content == expected, option
        assert len(answer.content) <= 2000
