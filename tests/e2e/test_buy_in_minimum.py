"""A buy-in that cannot cover one minimum wager is refused, saying the minimum (issue 20,
item 4): joining and the GM's seat alike, in the user's language, at a bank game (the
table's smallest wager), Makao (its stake) and Michigan (a player's ante in chips)."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import (
    bond,
    create_cast,
    join,
    le_chiffre,
    mathis,
    table_message,
    wait_table,
)

from bondbot.i18n import t


async def _cast(bot_env: BotEnv) -> None:
    world = bot_env.world
    await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )


async def _chips(bot_env: BotEnv, bot: object) -> dict[str, int]:
    from sheet_helpers import query

    rows = await query(bot, "SELECT account, cash FROM balances WHERE account LIKE 'chips:%'")
    return {account: cash for account, cash in rows}


async def test_punto_banco_refuses_a_buy_in_below_its_smallest_wager(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await _cast(bot_env)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        cent = await join(fake, world.player, "0.01")
        assert cent.ephemeral and cent.content == t("table.buy_in_below_minimum", "en", min="$10")
        short = await fake.slash(world.player_fr, "table join", buy_in="9,99")
        assert short.content == t("table.buy_in_below_minimum", "fr", min="10\u00a0$")
        seated = await fake.slash(world.gm, "table seat", character="René Mathis", buy_in="5")
        assert seated.content == t("table.buy_in_below_minimum", "en", min="$10")
        assert "James Bond" not in str(table_message(fake).embeds)
        joined = await join(fake, world.player, "10")
        assert joined.content.startswith(t("table.joined", "en", chips="$10"))


async def test_makao_asks_for_its_stake(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await _cast(bot_env)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open makao", npc="Le Chiffre", minimum="1", maximum="100", stake="25"
        )
        await wait_table(fake, "Le Chiffre")
        short = await join(fake, world.player, "20")
        assert short.content == t("table.buy_in_below_minimum", "en", min="$25")
        joined = (await join(fake, world.player, "25")).content or ""
        assert joined.startswith(t("table.joined", "en", chips="$25"))  # then: simulate?


async def test_michigan_asks_for_an_ante(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await _cast(bot_env)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open michigan", npc="Le Chiffre", minimum="1", maximum="100", chip="2"
        )
        await wait_table(fake, "Michigan")
        # A player antes one chip on each of the four pay cards: $8.
        short = await fake.slash(world.player_fr, "table join", buy_in="7")
        assert short.content == t("table.buy_in_below_minimum", "fr", min="8\u00a0$")
        joined = (await fake.slash(world.player_fr, "table join", buy_in="8")).content or ""
        assert joined.startswith(t("table.joined", "fr", chips="8\u00a0$"))  # then: simulate?
