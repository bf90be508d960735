"""A whole punto banco evening through the fake Discord, with a restart in the middle.

The owner sets the GM role; the GM opens a table with Le Chiffre. Bond simulates
(Gambling 8: two Hero Points), Mathis (a French player) takes the rulebook, Leiter
simulates without the skill. Bond and Leiter lose a coup; after a restart, Bond wins it
back with a Hero Point (his button goes while a roll has taken his last point, a double
click spends once); Leiter, without a point, gets no button. Mathis plays the rulebook contest. Bond
leaves, the GM closes and the revealed seed checks against the commitment shown at the
start.
"""

from __future__ import annotations

import asyncio
import re

from e2e_env import BotEnv
from evening_end import the_end
from table_flow import (
    balances,
    bet,
    bond,
    button_id,
    button_labels,
    by_action,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    redrawn_with,
    said,
    table_message,
    wait_table,
)

from bondbot.local import FakeMessage
from bondbot.rules import baccarat
from bondbot.rules.baccarat import Bet
from bondbot.rules.cards import cards_pretty
from bondbot.rules.shoe import verify
from bondbot.storage import ledger
from bondbot.storage.db import Database


def seed_where_banker_wins() -> bytes:
    for n in range(1000):
        seed = n.to_bytes(32, "big")
        if baccarat.deal_coup(baccarat.new_shoe(8, seed)).winner is Bet.BANKER:
            return seed
    raise AssertionError("no seed")


async def test_a_punto_banco_evening(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),
            "bond": bond(world.player),
            "mathis": mathis(world.player_fr),
            "leiter": {
                "name": "Felix Leiter",
                "kind": "PC",
                "owner_id": world.owner.id,
                "cash": 30_000,
            },
        },
        {"bond": world.player, "mathis": world.player_fr, "leiter": world.owner},
    )
    bot_env.seeds.append(seed_where_banker_wins())

    async with bot_env.run():
        role = await fake.slash(world.owner, "gm role", role=world.gm_role)
        assert role.ephemeral
        refused = await fake.slash(
            world.player,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
        )
        assert refused.ephemeral and not any(
            m.embeds for m in fake.channel_messages()
        )  # no table was opened

        opened = await fake.slash(
            world.gm,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            bankroll="10000",
        )
        assert opened.ephemeral
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)
        message = await wait_table(fake, commitment)
        assert "Le Chiffre" in message.embeds[0]["title"]

        joined = await join(fake, world.player, "200")
        assert joined.ephemeral and (await said(joined)).startswith(
            "You sit down with $200 in chips."
        )
        joined_fr = await join(fake, world.player_fr, "100")
        assert (await said(joined_fr)).startswith("Vous vous asseyez avec 100\u00a0$ en jetons.")
        await join(fake, world.owner, "100")

        chose = await press(fake, world.player, "choose", "simulate")
        assert (
            chose.ephemeral
            and (await said(chose)) == "You simulate the game. Hero Points earned: 2."
        )
        rulebook = await fake.click(
            world.player_fr, joined_fr, by_action(joined_fr, "choose:rulebook")
        )
        assert (await said(rulebook)).startswith("Vous utilisez les règles du livre")
        # His seat's answer still shows Simulate; the choice is final.
        again = await fake.click(
            world.player_fr, joined_fr, by_action(joined_fr, "choose:simulate")
        )
        assert again.ephemeral and "définitif" in (await said(again))
        panel = await press(fake, world.player_fr, "seat")  # no choice left to make there
        assert [b["label"] for b in panel.buttons()] == ["Duel", "Partir"]
        await press(fake, world.owner, "choose", "simulate")

        await fake.wait_until(lambda: "Bet" in button_labels(fake))  # once Bond simulates
        refused_bet = await fake.click(
            world.player_fr, table_message(fake), button_id(fake, "bets")
        )
        assert refused_bet.modal is None  # refused at the click, before any form
        assert refused_bet.ephemeral and "duel" in (await said(refused_bet))
        over = await bet(fake, world.player, "player", "300")
        assert over.ephemeral and (await said(over)) == "You do not have that many chips."
        placed = await bet(fake, world.player, "player", "50")
        assert redrawn_with(placed, "on Player: $50")  # the form's answer: his seat's line
        await bet(fake, world.owner, "player", "20")

        not_gm = await press(fake, world.player, "deal")
        assert not_gm.ephemeral and "GM" in (await said(not_gm))
        await wait_table(fake, "on Player: $20")  # Leiter's wager shown: no edit on its way
        edits = table_message(fake).edit_count
        dealt = await press(fake, world.gm, "deal")
        assert dealt.response_type == 7  # the click's answer is the table message itself
        for _ in range(2):  # at once, and still after the next redraw would have come
            after = table_message(fake)
            assert "James Bond loses $50" in str(after.embeds)
            assert "Felix Leiter loses $20" in str(after.embeds)
            await asyncio.sleep(0.2)
        assert table_message(fake).edit_count == edits + 1  # no second edit followed

    assert (await balances(bot_env, ids))["bond"] == (100_000 - 20_000, 3)

    async with bot_env.run() as bot:  # a restart: new bot object, same database
        # One Spend button for everyone; only a player with a lost hand may use it.
        spend = button_id(fake, "hp")
        stolen = await fake.click(world.player_fr, table_message(fake), spend)
        assert stolen.ephemeral and (await said(stolen)) == (
            "Vous n'avez pas de coup perdu à regagner avec un Point d'Héroïsme en ce moment."
        )
        no_point = await fake.click(world.owner, table_message(fake), spend)  # Leiter, no point
        assert (await said(no_point)) == "You have no lost hand to win back with a Hero Point now."
        assert button_labels(fake).count("Spend a Hero Point") == 1
        # Issue 34: the Hero Points field's one line.
        assert "James Bond ($" in str(table_message(fake).embeds)
        assert "may win back with a Hero Point" in str(table_message(fake).embeds)

        # The GM takes two of Bond's three points and Bond spends his last one on a roll:
        # the table message is redrawn without the button; a point from the GM brings it back.
        def has_spend(message: FakeMessage) -> bool:
            return any(spend == c["custom_id"] for r in message.components for c in r["components"])

        await fake.slash(
            world.gm, "gm hero", character="James Bond", action="take", amount=2, reason="test"
        )
        rolled = await fake.slash(world.player, "roll", skill="Sleight of Hand", secret=True)
        step = next(cid for cid in rolled.custom_ids() if cid.startswith("bb:roll:step:"))
        await fake.click(world.player, rolled, step)
        await fake.wait_until(lambda: not has_spend(table_message(fake)), what="no spend button")
        await fake.slash(
            world.gm, "gm hero", character="James Bond", action="give", amount=1, reason="luck"
        )
        await fake.wait_until(lambda: has_spend(table_message(fake)), what="the spend button")
        first, second = await asyncio.gather(
            fake.click(world.player, table_message(fake), spend),
            fake.click(world.player, table_message(fake), spend),
        )
        answers = sorted([(await said(first)), (await said(second))])
        assert answers in (  # the second click finds the hand spent, or no hand left
            [
                "A Hero Point was already spent on that hand.",
                "You spend a Hero Point and win the hand: the bank pays you $100.",
            ],
            [
                "You have no lost hand to win back with a Hero Point now.",
                "You spend a Hero Point and win the hand: the bank pays you $100.",
            ],
        )
        await wait_table(fake, "James Bond spends a Hero Point and wins the hand.")

        contest = await press(fake, world.player_fr, "contest")
        rolled = await fake.submit_modal(world.player_fr, contest, {"amount": "20"})
        assert rolled.ephemeral and (await said(rolled)).startswith("Votre jet de Jeu")
        settle = next(cid for cid in rolled.custom_ids() if ":csettle:" in cid)
        settled = await fake.click(world.player_fr, rolled, settle)
        assert (await said(settled)) == "Duel réglé : le résultat est sur la table."
        await wait_table(fake, "Rulebook contest for $20")

        again = await press(fake, world.owner, "again")
        assert again.ephemeral and (await said(again)) == "Wager placed: Player, $20."
        await wait_table(fake, "on Player: $20")

        left = await fake.slash(world.player, "table leave")
        assert (await said(left)) == "You leave the table with $250."

        last_coup = str(table_message(fake).embeds)
        closed = await fake.slash(world.gm, "table close")
        seed = re.search(r"seed: `([0-9a-f]{64})`", closed.content).group(1)
        shoe = verify(seed, commitment, 8)  # the seed is the one committed to
        player_hand = cards_pretty([shoe[0], shoe[2]])  # dealt P, B, P, B from the top
        assert f"Player {player_hand}" in last_coup
        await wait_table(fake, "This table is closed.")
        # The closed table keeps one button, the shoes' proof, answered privately.
        assert [b["custom_id"].split(":")[3] for b in table_message(fake).buttons()] == ["verify"]
        proof = await press(fake, world.player_fr, "verify")
        assert proof.ephemeral and f"Graine : `{seed}`" in str(proof.embeds)
        assert f"bondbot verify {seed} {commitment} --packs 8" in str(proof.embeds)

        # The closed table and the summary: everyone by name, Bond too, who left before
        # the close; the NPC's result; the chart counts the hands the summary counts.
        end = await the_end(
            fake, bot, 1, ["James Bond", "René Mathis", "Felix Leiter"], "Le Chiffre"
        )
        assert "🥇 **James Bond**: +$50" in end.closed
        assert end.chart_hands == list(range(end.hands + 1))

    cash, hero = (await balances(bot_env, ids))["bond"]
    assert (cash, hero) == (100_000 + 5_000, 0)
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            rows = await conn.execute_fetchall(
                "SELECT reason, kind, amount FROM ledger WHERE src = ? OR dst = ? ORDER BY id",
                (ledger.sheet_account(ids["bond"]), ledger.sheet_account(ids["bond"])),
            )
    finally:
        await db.close()
    assert [tuple(r) for r in rows] == [
        ("sheet.create", "hero", 1),
        ("sheet.create", "cash", 100_000),
        ("table.buy_in", "cash", 20_000),
        ("award.simulate", "hero", 2),
        ("gm.take", "hero", 2),
        ("roll.step", "hero", 1),
        ("gm.grant", "hero", 1),
        ("spend.win_hand", "hero", 1),
        ("table.cash_out", "cash", 25_000),
    ]


async def test_a_table_that_deals_by_itself(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run() as bot:
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm,
            "table open punto_banco",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            auto_deal=30,
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, world.player, "200")
        await press(fake, world.player, "choose", "simulate")
        await bet(fake, world.player, "tie", "10")
        tables = bot.services.tables
        table = await tables.open_in_channel(world.channel.id)
        bot_env.clock.advance(29)
        await tables.run_due()
        assert (await tables.snapshot(table)).state.hand_no == 0
        bot_env.clock.advance(2)  # the timer's moment: it deals without the GM
        await tables.run_due()
        await wait_table(fake, "Coup 1:")
