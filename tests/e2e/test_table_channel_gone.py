"""A table nobody can reach closes by itself, exactly as `/table close` would (issue 30).

A moderator deletes the table's channel with chips on the table, the channel goes while
the bot is away, the bot is removed from the server: each time every chip goes back to
its sheet, the NPC's bank is settled, the ledger rows say why, every balance equals its
ledger, and the PCs can sit at another table. A Discord outage (the guild unavailable)
changes nothing. A Michigan round in play is ended by the game's own end move first.
"""

from __future__ import annotations

import logging

import pytest
from e2e_env import BotEnv
from gone_helpers import (
    balances_agree,
    closing_reasons,
    idle,
    on_the_table,
    sheet_cash,
    status,
    until,
    wait_status,
)
from sheet_helpers import dump, query
from table_flow import bet, bond, create_cast, join, le_chiffre, mathis, press, said, wait_table

from bondbot.bot.client import BondBot

CASH = {"bond": 100_000, "mathis": 50_000, "vesper": 50_000}
BUY_INS = {"bond": "500", "mathis": "300", "vesper": "199"}  # $999 of chips on the table


def vesper(owner: object) -> dict[str, object]:
    return {"name": "Vesper Lynd", "kind": "PC", "owner_id": owner.id, "cash": 50_000}  # type: ignore[attr-defined]


async def _cast(bot_env: BotEnv) -> dict[str, int]:
    w = bot_env.world
    return await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(w.player), "mathis": mathis(w.player_fr)}
        | {"vesper": vesper(w.owner)},
        {"bond": w.player, "mathis": w.player_fr, "vesper": w.owner},
    )


async def _seated_table(bot_env: BotEnv, bot: BondBot) -> None:
    """Table 1 in the world's channel: three PCs with $999 of chips, Bond's $20 wager on
    the layout, the NPC's $10,000 bankroll."""
    fake, w = bot_env.fake, bot_env.world
    await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
    await fake.slash(
        w.gm,
        "table open punto_banco",
        npc="Le Chiffre",
        minimum="10",
        maximum="500",
        bankroll="10000",
    )
    await wait_table(fake, "Le Chiffre")
    users = {"bond": w.player, "mathis": w.player_fr, "vesper": w.owner}
    for key, user in users.items():
        await join(fake, user, BUY_INS[key])
    await press(fake, w.player, "choose", "simulate")
    placed = await bet(fake, w.player, "player", "20")
    assert placed.response_type in (4, 7), await said(placed)
    assert len(await on_the_table(bot, 1)) == 4  # three stacks and the bank


async def _all_back(bot: BondBot, ids: dict[str, int], table: int, why: str) -> None:
    """Every chip back on its sheet (nothing was played), the bank settled, the rows saying
    why, every balance equal to its ledger."""
    assert await on_the_table(bot, table) == []
    for key in ("bond", "mathis", "vesper"):
        assert await sheet_cash(bot, ids[key]) == CASH[key], key
    assert await closing_reasons(bot, table) == [f"table.cash_out.{why}"] * 3 + [
        f"table.bank_close.{why}"
    ]
    await balances_agree(bot)


async def test_a_deleted_channel_closes_its_table_and_frees_its_players(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    ids = await _cast(bot_env)
    elsewhere = fake.add_channel("casino-royale", guild=w.guild)
    async with bot_env.run() as bot:
        await _seated_table(bot_env, bot)
        await idle(bot)
        sent = len(fake.requests)
        assert await fake.delete_channel(w.channel) == 1
        await wait_status(bot, 1, "closed")
        await _all_back(bot, ids, 1, "channel_deleted")
        # Its closed scoreboard has nowhere to go: nothing is tried there.
        await idle(bot)
        assert [str(r) for r in fake.requests[sent:] if str(w.channel.id) in r.path] == []

        # The PCs are free: they sit at a table elsewhere; /gm tables lists only that one.
        await fake.slash(
            w.gm,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            _channel=elsewhere,
        )
        for user in (w.player, w.player_fr, w.owner):
            sat = await fake.slash(user, "table join", buy_in="100", _channel=elsewhere)
            assert (await said(sat)).startswith(("You sit down", "Vous vous asseyez")), await said(
                sat
            )
        seated = (await bot.services.tables.snapshot(2)).state.seats
        assert sorted(s.character_id for s in seated) == sorted(ids[k] for k in CASH)
        listed = await fake.slash(w.gm, "gm tables", _channel=elsewhere)
        fields = listed.embeds[0]["fields"]
        assert [f["name"] for f in fields] == ["Table 2 · Punto banco — Le Chiffre"]
        assert f"<#{elsewhere.id}>" in fields[0]["value"]
        await balances_agree(bot)


async def test_a_channel_deleted_while_the_bot_was_away(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """At start, a table whose channel Discord no longer knows closes; a table whose
    channel is there stays open. Its redraw at start (which may come first) logs no
    ERROR: Discord's 10003 closes the table as well."""
    fake, w = bot_env.fake, bot_env.world
    ids = await _cast(bot_env)
    kept = fake.add_channel("casino-royale", guild=w.guild)
    async with bot_env.run() as bot:
        await _seated_table(bot_env, bot)
        await fake.slash(
            w.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500",
            _channel=kept,
        )  # fmt: skip
        await wait_table(fake, "Le Chiffre")
    assert await fake.delete_channel(w.channel) == 0  # nobody connected to be told
    async with bot_env.run() as bot:
        await wait_status(bot, 1, "closed")
        await _all_back(bot, ids, 1, "channel_deleted")
        assert await status(bot, 2) == "open"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_removing_the_bot_closes_the_servers_tables(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    ids = await _cast(bot_env)
    async with bot_env.run() as bot:
        await _seated_table(bot_env, bot)
        assert await fake.remove_bot(w.guild) == 1
        await wait_status(bot, 1, "closed")
        await _all_back(bot, ids, 1, "bot_removed")


async def test_an_outage_changes_nothing(bot_env: BotEnv) -> None:
    """GUILD_DELETE with `unavailable: true`, then the guild back: the table is still
    open, nothing was written, and the evening goes on."""
    fake, w = bot_env.fake, bot_env.world
    await _cast(bot_env)
    async with bot_env.run() as bot:
        await _seated_table(bot_env, bot)
        before = await dump(bot)
        await fake.guild_outage(w.guild)
        guild = bot.get_guild(w.guild.id)
        assert guild is not None
        await until(lambda: guild.unavailable, "the guild unavailable")
        await fake.guild_outage(w.guild, back=True)
        await until(lambda: not guild.unavailable, "the guild back")
        assert await dump(bot) == before
        # An interaction comes after the guild's return on the gateway, so the check of
        # its tables' channels that the return set off has started before it.
        left = await fake.slash(w.player_fr, "table leave")
        assert "300" in (await said(left)), await said(left)
        assert await status(bot, 1) == "open"
        assert await closing_reasons(bot, 1) == ["table.cash_out"]  # Mathis's own leave
        await balances_agree(bot)


async def test_a_michigan_round_in_play_is_ended_by_its_own_end(bot_env: BotEnv) -> None:
    """The channel goes mid-round: the game's end move shares the pay cards' chips out
    before everyone is cashed out; no chip stays on the layout."""
    fake, w = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(w.player), "mathis": mathis(w.player_fr)},
        {"bond": w.player, "mathis": w.player_fr},
    )
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        await fake.slash(
            w.gm, "table open michigan", npc="Le Chiffre", minimum="10", maximum="100", chip="1"
        )
        await wait_table(fake, "Michigan — Le Chiffre")
        for user in (w.player, w.player_fr):
            await join(fake, user, "50")
            await press(fake, user, "choose", "simulate")
        dealt = await press(fake, w.gm, "newhand")
        assert (await said(dealt)).startswith("Round 1 dealt"), await said(dealt)
        snapshot = await bot.services.tables.snapshot(1)
        assert snapshot.state.engine.in_hand() and snapshot.held  # chips on the layout
        await fake.delete_channel(w.channel)
        await wait_status(bot, 1, "closed")
        assert await on_the_table(bot, 1, bank=False) == []  # the NPC's bank is unlimited
        shared = await query(
            bot, "SELECT COUNT(*) FROM ledger WHERE table_id = 1 AND reason = 'michigan.share'"
        )
        assert shared[0][0] > 0  # the end move paid the layout out
        total = await sheet_cash(bot, ids["bond"]) + await sheet_cash(bot, ids["mathis"])
        npc_bank = await query(
            bot,
            "SELECT COALESCE(SUM(CASE WHEN dst = 'bank:1' THEN amount ELSE -amount END), 0)"
            " FROM ledger WHERE table_id = 1 AND (src = 'bank:1' OR dst = 'bank:1')"
            " AND reason NOT LIKE 'table.%'",
        )
        assert total + npc_bank[0][0] == 150_000  # what the NPC won, the PCs lost
        await balances_agree(bot)
