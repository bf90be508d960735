"""`/gm tables`: the server's open tables wherever they are, to mend (issue 30).

Tables in two channels are listed with their channel, game, seats, hand and last move;
Post the table again puts a fresh table message at the bottom of its channel (the old one
deleted, later redraws on the new one); Close asks, then closes exactly as `/table close`
(a forged confirmation closes nothing); twenty identical clicks are one click; a non-GM is
refused everything; with 26 tables every page stays within Discord's limits.
"""

from __future__ import annotations

import asyncio
import re

from e2e_env import BotEnv
from fakediscord import FakeDiscord
from gone_helpers import balances_agree, closing_reasons, idle, on_the_table, sheet_cash, status
from sheet_helpers import dump, not_gm
from table_flow import bond, create_cast, join, le_chiffre, mathis, wait_table

from bondbot.i18n import t
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeChannel, FakeMessage

TABLE_NAME = re.compile(r"Table (\d+) · ")


def table_messages(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The live public table messages of a channel (the table's embed has its game)."""
    return [
        m
        for m in fake.channel_messages(channel)
        if m.ephemeral_for is None and m.embeds and "Punto banco" in str(m.embeds[0])
    ]


def ids_of(result: InteractionResult, action: str) -> list[str]:
    return [c for c in result.custom_ids() if c.split(":")[2] == action]


async def test_gm_tables_lists_posts_again_and_closes(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(w.player), "mathis": mathis(w.player_fr)},
        {"bond": w.player, "mathis": w.player_fr},
    )
    casino = fake.add_channel("casino-royale", guild=w.guild)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        for channel in (w.channel, casino):
            await fake.slash(
                w.gm,
                "table open punto_banco",
                npc="Le Chiffre",
                minimum="10",
                maximum="500",
                bankroll="10000",
                _channel=channel,
            )
        await wait_table(fake, "Le Chiffre")
        await join(fake, w.player, "500")
        await fake.slash(w.player_fr, "table join", buy_in="300", _channel=casino)
        refused = await fake.slash(w.player, "gm tables")
        assert not_gm(refused)

        listed = await fake.slash(w.gm, "gm tables")
        assert listed.ephemeral
        embed = listed.embeds[0]
        assert embed["title"] == "Open tables: 2 (page 1/1)"
        one, two = embed["fields"]
        assert one["name"] == "Table 1 · Punto banco — Le Chiffre"
        assert two["name"] == "Table 2 · Punto banco — Le Chiffre"
        assert f"In <#{w.channel.id}>" in one["value"] and f"In <#{casino.id}>" in two["value"]
        assert "Seated: James Bond ($500)" in one["value"]
        assert "Seated: René Mathis ($300)" in two["value"]
        assert "Hand 0, between hands" in one["value"] and "Last move <t:" in one["value"]
        old = table_messages(fake, casino)
        assert len(old) == 1
        post, close = f"bb:gmtables:post:2:{old[0].id}", "bb:gmtables:close:1"
        assert post in listed.custom_ids() and close in listed.custom_ids()
        # The GM's buttons, had a player got them (a forwarded id): refused, nothing done.
        mine = refused.message
        assert mine is not None
        mine.components = listed.message.components  # type: ignore[union-attr]
        assert not_gm(await fake.click(w.player, mine, post))
        assert not_gm(await fake.click(w.player, mine, close))

        # Post again, clicked twenty times at once: one fresh message at the bottom of the
        # table's channel, the old one deleted; the later clicks are told it was done.
        before = await dump(bot)
        clicks = await asyncio.gather(*(fake.click(w.gm, listed, post) for _ in range(20)))
        posted = t("gm.tables.posted", "en", table=2, channel=f"<#{casino.id}>")
        again = t("gm.tables.posted_already", "en", table=2, channel=f"<#{casino.id}>")
        assert sorted(c.content for c in clicks) == sorted([posted] + [again] * 19)
        await fake.wait_until(lambda: bool(table_messages(fake, casino)), what="the new table")
        await idle(bot)
        (new,) = table_messages(fake, casino)
        assert new.id > old[0].id and old[0].deleted
        assert fake.last_message(casino) is new
        assert (await bot.services.tables.snapshot(2)).message_id == new.id
        assert await dump(bot) == before  # no money moved
        # Later redraws go to the new message.
        await fake.slash(w.player_fr, "table leave", _channel=casino)
        await fake.wait_until(lambda: "Nobody is seated yet." in str(new.embeds), what="redraw")

        # Close: asked first; a forged confirmation closes nothing.
        asked = await fake.click(w.gm, listed, close)
        text = t("gm.tables.confirm_close", "en", table=1, channel=f"<#{w.channel.id}>", seated=1)
        assert asked.ephemeral and asked.content == text
        (confirm,) = ids_of(asked, "closeyes")
        assert re.fullmatch(r"bb:gmtables:closeyes:1:[0-9a-f]{12}", confirm)
        assert ids_of(await fake.click(w.gm, listed, close), "closeyes") == [confirm]
        forged = confirm[:-4] + ("0000" if not confirm.endswith("0000") else "1111")
        message = asked.message
        assert message is not None
        real = message.components
        message.components = [
            {"type": 1, "components": [{"type": 2, "style": 4, "label": "x", "custom_id": forged}]}
        ]
        stale = await fake.click(w.gm, message, forged)
        assert stale.content == t("gm.tables.confirm_stale", "en", table=1)
        assert await status(bot, 1) == "open"
        message.components = real
        # Confirmed twenty times at once: closed once, as /table close would.
        yes = await asyncio.gather(*(fake.click(w.gm, message, confirm) for _ in range(20)))
        answers = sorted(c.content or "" for c in yes)
        assert sum(a.startswith("Table closed; every player was cashed out.") for a in answers) == 1
        assert answers.count(t("table.closed", "en")) == 19, answers
        assert await status(bot, 1) == "closed"
        assert await closing_reasons(bot, 1) == ["table.cash_out", "table.bank_close"]
        assert await on_the_table(bot, 1) == []
        assert await sheet_cash(bot, ids["bond"]) == 100_000
        await balances_agree(bot)
        await wait_table(fake, "This table is closed.")  # its message shows it closed

        # The list no longer has it; Keep on the confirmation of table 2 does nothing.
        after = await fake.slash(w.gm, "gm tables")
        assert [f["name"] for f in after.embeds[0]["fields"]] == [two["name"]]
        ask_two = await fake.click(w.gm, after, "bb:gmtables:close:2")
        kept = await fake.click(w.gm, ask_two, "bb:gmtables:keep:2")
        assert kept.content == t("gm.tables.kept", "en", table=2) and not kept.custom_ids()
        assert await status(bot, 2) == "open"


async def test_gm_tables_pages_26_tables_within_discord_limits(bot_env: BotEnv) -> None:
    fake, w = bot_env.fake, bot_env.world
    ids = await create_cast(bot_env, {"npc": le_chiffre()}, {})
    channels = [fake.add_channel(f"table-{n}", guild=w.guild) for n in range(26)]
    async with bot_env.run() as bot:
        await bot.services.guilds.update(w.guild.id, gm_role_id=w.gm_role.id)
        for channel in channels:
            await bot.services.tables.open_table(
                guild_id=w.guild.id,
                channel_id=channel.id,
                actor_id=w.gm.id,
                game="punto_banco",
                npc_id=ids["npc"],
                min_bet=1_000,
                max_bet=50_000,
            )
        page = await fake.slash(w.gm, "gm tables", _locale="fr")
        seen: list[int] = []
        for number in range(1, 8):
            embed = page.embeds[0]
            assert embed["title"] == f"Tables ouvertes : 26 (page {number}/7)"
            seen += [int(TABLE_NAME.match(f["name"]).group(1)) for f in embed["fields"]]  # type: ignore[union-attr]
            message = page.message
            assert message is not None and len(message.components) <= 5
            assert all(len(row["components"]) <= 5 for row in message.components)
            assert len(str(embed)) < 6000
            nexts = [c for c in page.custom_ids() if c.startswith("bb:gmtables:page:")]
            if number < 7:
                page = await fake.click(w.gm, page, nexts[1], _locale="fr")
                assert page.response_type == 7  # the same message, its next page
        assert seen == list(range(1, 27))
        assert page.message is not None and page.message.find_component(nexts[1])["disabled"]
