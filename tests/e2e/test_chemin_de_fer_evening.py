"""A chemin de fer evening through the fake Discord, real discord.py, with a restart.

Le Chiffre takes the first bank (the GM's choice at the opening), classic drawing. Coup 1:
Bond stakes $100, Mathis (French) passes; the bank shows a natural and wins: Bond wins his
stake back with a Hero Point (a double click spends once). Coup 2: Bond calls banco on the
whole $500 and the ponte's natural wins it: the bank passes to Bond. Coup 3: Bond banks
$200; Mathis stakes $50 and the NPC, on the banker's right after him, stakes $200 of which
$150 is covered. Mathis holds the hand at 5; the bot restarts; his timer runs out and the
table draws for him, as advised, and says so. Bond sees his hand and the advice privately
and follows it; the pontes win, and Bond wins back, with a Hero Point, only what the NPC
won from him, never Mathis's win. The table message, what each player saw and the ledger
are checked, and no hidden card ever reached anyone who should not see it.
"""

from __future__ import annotations

import asyncio
import random
import re

from e2e_env import BotEnv
from privacy import assert_never_seen
from table_flow import (
    balances,
    bond,
    button_id,
    button_labels,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    said,
    table_message,
    wait_table,
)

from bondbot.games.chemin_de_fer.engine import ChemindeFer, Settings
from bondbot.games.chemin_de_fer.events import CoupSettled
from bondbot.games.contract import Move
from bondbot.rules import baccarat
from bondbot.rules.cards import cards_pretty, parse_cards
from bondbot.storage import ledger
from bondbot.storage.db import Database

TURN_TIMER = 30
NPC, BOND, MATHIS = "npc", "bond", "mathis"


def evening(seed: bytes) -> list[CoupSettled] | None:
    """The three coups of the scene on the pure engine; None unless they go as told."""
    rules = Settings(
        drawing="classic", min_stake=1_000, min_bank=1_000, max_bank=50_000, npc_bank=50_000
    )
    shoe = baccarat.new_shoe(6, seed)
    game = ChemindeFer.new(shoe, [NPC, BOND, MATHIS], NPC, npc=NPC, settings=rules)
    game.stacks = {NPC: 1_000_000, BOND: 100_000, MATHIS: 30_000}

    def play(kind: str, seat: str | None = None, amount: int | None = None) -> None:
        game.apply(Move(kind=kind, seat=seat, amount=amount))
        while (step := game.automation()) is not None:
            game.apply(step)

    play("bank", NPC, 50_000)
    play("stake", BOND, 10_000)
    play("pass", MATHIS)
    coups = [game.last]
    if game.last is None or game.last.winner != "banker" or not game.last.natural:
        return None
    play("keep", NPC)
    play("banco", BOND)
    play("pass", MATHIS)
    coups.append(game.last)
    if game.last.winner != "ponte" or not game.last.natural or game.banker != BOND:
        return None
    play("bank", BOND, 20_000)
    if game.npc_move(random.Random(0)) != Move(kind="stake", seat=NPC, amount=20_000):
        return None
    play("stake", NPC, 20_000)
    play("stake", MATHIS, 5_000)
    if game.phase != "ponte" or game.coup is None or game.coup.holder != MATHIS:
        return None
    play("draw", MATHIS)  # the timer's default at 5
    if game.phase != "banker":
        return None
    play("draw" if game.advice() else "stand", BOND)
    if game.last.winner != "ponte":
        return None
    return [*coups, game.last]  # type: ignore[list-item]


def find_evening() -> tuple[bytes, list[CoupSettled]]:
    for n in range(50_000):
        seed = n.to_bytes(32, "big")
        coups = evening(seed)
        if coups is not None:
            return seed, coups
    raise AssertionError("no seed for the evening")


def shown(codes: tuple[str, ...]) -> str:
    return cards_pretty(parse_cards(" ".join(codes)))


async def click_id(fake, user, action: str) -> object:  # type: ignore[no-untyped-def]
    """Click the button whose action is `action`, whatever its arguments: on the table
    message, else in the clicker's seat panel."""
    for row in table_message(fake).components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return await fake.click(user, table_message(fake), component["custom_id"])
    panel = await seat_panel(fake, user)
    for button in panel.buttons():
        if button["custom_id"].split(":")[3] == action:
            return await fake.click(user, panel, button["custom_id"])
    raise AssertionError(f"no {action} button: {[b['label'] for b in panel.buttons()]}")


def action_id(answer, action: str) -> str:  # type: ignore[no-untyped-def]
    """The custom id of the answer's button for `action`, whatever its arguments."""
    return next(c for c in answer.custom_ids() if c.split(":")[3] == action)


async def seat_panel(fake, user):  # type: ignore[no-untyped-def]
    """His seat panel (My seat): his chips, his cards and the note on them, his moves."""
    return await fake.click(user, table_message(fake), button_id(fake, "seat"))


async def test_a_chemin_de_fer_evening(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    seed, (first, second, third) = find_evening()
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds.append(seed)

    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        opened = await fake.slash(
            world.gm,
            "table open chemin_de_fer",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            bankroll="10000",
            drawing="classic",
            first_banker="Le Chiffre",
        )
        assert opened.ephemeral
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)
        message = await wait_table(fake, commitment)
        assert message.embeds[0]["title"] == "Chemin de fer — Le Chiffre's table"
        assert "the first bank goes to Le Chiffre" in str(message.embeds)

        await join(fake, world.player, "500")
        await join(fake, world.player_fr, "300")
        await press(fake, world.player, "choose", "simulate")
        await press(fake, world.player_fr, "choose", "simulate")
        not_gm = await press(fake, world.player, "start")
        assert not_gm.ephemeral and "GM" in ((await said(not_gm)) or "")
        started = await press(fake, world.gm, "start")
        assert (await said(started)) == "The first bank goes to Le Chiffre."
        table = await wait_table(fake, "**Le Chiffre** holds a bank of **$500**.")
        assert table.embeds[0]["title"] == "Chemin de fer — Le Chiffre's table"
        await fake.wait_until(lambda: button_labels(fake) == ["Stake", "Pass", "My seat", "GM"])
        panel = await seat_panel(fake, world.player)  # his moves, Banco with its amount
        assert [b["label"] for b in panel.buttons()] == [
            "Stake",
            "Banco ($500)",
            "Pass",
            "Leave",  # between coups
        ]
        assert "From the banker's right: James Bond, René Mathis" in str(table.embeds)

        # Coup 1: Bond stakes $100, Mathis passes; the bank's natural wins.
        modal = await click_id(fake, world.player, "stake")
        assert modal.modal is not None and modal.modal.title == "Stake against the bank"
        assert "Between $10 and $500" in str(modal.modal.components)  # the limits, said
        over = await fake.submit_modal(world.player, modal, {"amount": "600"})
        assert (await said(over)) == "Now that amount is between $10 and $500."
        modal = await click_id(fake, world.player, "stake")
        staked = await fake.submit_modal(world.player, modal, {"amount": "100"})
        assert (await said(staked)) == "You stake $100 against the bank."
        await wait_table(fake, "James Bond: $100, covered")
        passed = await click_id(fake, world.player_fr, "pass")
        assert (await said(passed)).startswith("Vous passez ce coup.")
        table = await wait_table(fake, "Coup 1: result")
        embed = str(table.embeds[0])
        assert (
            f"Ponte (James Bond): {shown(first.ponte)} ({first.ponte_total}) · "
            f"Bank (Le Chiffre): {shown(first.banker)} ({first.banker_total})"
        ) in embed
        assert f"Abattage: the bank shows a natural {first.banker_total}." in embed
        # Issue 34: the offer said once, in the Hero Points field, not on the result line.
        assert "James Bond loses $100" in embed
        assert "James Bond ($200) may win back with a Hero Point" in embed
        await fake.wait_until(lambda: "Spend a Hero Point" in button_labels(fake))
        spend = button_id(fake, "hp")
        answers = await asyncio.gather(
            fake.click(world.player, table_message(fake), spend),
            fake.click(world.player, table_message(fake), spend),
        )
        contents = sorted([await said(a) for a in answers])
        assert contents[1] == "You spend a Hero Point and win the hand: the bank pays you $200."
        assert contents[0] in (  # the double click spends once
            "A Hero Point was already spent on that hand.",
            "You have no lost hand to win back with a Hero Point now.",
        )
        await wait_table(fake, "James Bond spends a Hero Point and wins the hand")

        # Coup 2: the NPC kept its bank by itself; Bond calls banco from his panel, wins it.
        banco = await click_id(fake, world.player, "banco")
        assert (await said(banco)) == "Banco: you take on the whole bank alone."
        await wait_table(fake, "James Bond: **banco** ($500)")
        await click_id(fake, world.player_fr, "pass")
        table = await wait_table(fake, "Coup 2: result")
        assert f"Abattage: the ponte shows a natural {second.ponte_total}." in str(table.embeds)
        assert "James Bond wins $500" in str(table.embeds)
        assert "The bank comes to **James Bond**: put it up (from $10)" in str(table.embeds)

        # Coup 3: Bond banks $200; the NPC ponte stakes by itself, Mathis stakes $50.
        modal = await click_id(fake, world.player, "bank")
        assert modal.modal is not None and modal.modal.title == "Put up the bank"
        banked = await fake.submit_modal(world.player, modal, {"amount": "200"})
        assert (await said(banked)) == "You put up a bank of $200."
        await wait_table(fake, "Le Chiffre: $200, covered")
        modal = await click_id(fake, world.player_fr, "stake")
        staked = await fake.submit_modal(world.player_fr, modal, {"amount": "50"})
        assert (await said(staked)) == "Vous pontez 50\u00a0$ contre la banque."
        table = await wait_table(fake, "René Mathis speaks: draw or stand.")
        embed = str(table.embeds[0])
        assert "René Mathis: $50, covered" in embed
        assert "Le Chiffre: $200, $150 covered, $50 not in play" in embed
        wrong = await click_id(fake, world.player, "draw")
        assert (await said(wrong)) == "It is not your turn: René Mathis is to play."
        mine = (await seat_panel(fake, world.player_fr)).embed["description"]
        assert f"Vos cartes : {shown(third.ponte[:2])}\nLa main compte 5." in mine
        assert mine.endswith("Conseil : **tirer**.")

    async with bot_env.run() as bot:  # a restart while Mathis holds 5
        await wait_table(fake, "René Mathis speaks: draw or stand.")
        bot_env.clock.advance(TURN_TIMER + 1)
        await bot.services.tables.run_due()
        table = await wait_table(
            fake, "René Mathis did not answer in time: the table follows the advice and draws."
        )
        assert "James Bond, the banker, speaks: draw or stand." in str(table.embeds)
        bank_cards = parse_cards(" ".join(third.banker[:2]))
        assert_never_seen(fake, world.player_fr, bank_cards)
        assert_never_seen(fake, None, bank_cards)
        panel = await seat_panel(fake, world.player)
        advice = panel.embed["description"]
        assert (
            f"Your cards: {cards_pretty(bank_cards)}\n"
            f"The hand counts {baccarat.hand_value(bank_cards)}.\n"
            f"The ponte drew {shown(third.ponte[2:])}: seed 004's table draws on 0 to "
        ) in advice
        assert [b["label"] for b in panel.buttons()] == ["Draw", "Stand"]  # playable here
        advised = "draw" if "Advised: **draw**" in advice else "stand"
        other = (await seat_panel(fake, world.player_fr)).embed["description"]
        assert "Conseil" not in other and "La main compte" in other  # no advice: not his turn
        decided = await fake.click(world.player, panel, action_id(panel, advised))
        assert (await said(decided)).endswith("The coup is settled: you lose $200.")
        table = await wait_table(fake, "Coup 3: result")
        embed = str(table.embeds[0])
        assert "René Mathis wins $50" in embed
        assert "Le Chiffre wins $150" in embed  # issue 34: the offer in its field
        assert "James Bond ($300) may win back with a Hero Point" in embed
        await fake.wait_until(lambda: "Spend a Hero Point" in button_labels(fake))
        spent = await press(fake, world.player, "spend", 2)  # his one lost stake: at once
        assert (
            await said(spent)
        ) == "You spend a Hero Point and win the hand: the bank pays you $300."
        await wait_table(fake, "Le Chiffre wins $150 — James Bond spends a Hero Point")

    bond_chips = 50_000 - 10_000 + 20_000 + 50_000 - 20_000 + 30_000
    mathis_chips = 30_000 + 5_000
    assert (await balances(bot_env, ids))["bond"] == (100_000 - 50_000, 1)
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            chips = {
                key: await ledger.balance(conn, f"chips:1:{ids[key]}", "cash")
                for key in ("bond", "mathis")
            }
            rows = await conn.execute_fetchall(
                "SELECT reason, src, dst, amount FROM ledger WHERE table_id = 1 AND kind = 'cash'"
                " AND reason NOT LIKE 'table.%' ORDER BY id"
            )
    finally:
        await db.close()
    assert chips == {"bond": bond_chips, "mathis": mathis_chips}
    bank, b, m = "bank:1", f"chips:1:{ids['bond']}", f"chips:1:{ids['mathis']}"
    assert [tuple(r) for r in rows] == [
        ("chemin_de_fer.stake_lost", b, bank, 10_000),
        ("spend.win_hand", bank, b, 20_000),
        ("chemin_de_fer.stake_won", bank, b, 50_000),
        ("chemin_de_fer.stake_won", b, m, 5_000),
        ("chemin_de_fer.stake_won", b, bank, 15_000),
        ("spend.win_hand", bank, b, 30_000),  # from the NPC: never from Mathis
    ]


def banker_decides(seed: bytes) -> bool:
    """Classic drawing, Le Chiffre banking against Bond: no natural, the ponte's play forced
    (not at 5), so the banker has the coup's only decision."""
    rules = Settings(drawing="classic", min_stake=1_000, min_bank=1_000, max_bank=50_000)
    shoe = baccarat.new_shoe(6, seed)
    game = ChemindeFer.new(shoe, [NPC, BOND], NPC, npc=NPC, settings=rules)
    game.stacks = {NPC: None, BOND: 100_000}
    game.apply(Move(kind="bank", seat=NPC, amount=30_000))
    game.apply(Move(kind="stake", seat=BOND, amount=10_000))
    game.apply(Move(kind="deal"))
    return game.phase == "banker"


async def test_the_gm_plays_the_npc_with_the_players_buttons(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    seed = next(s for s in (n.to_bytes(32, "big") for n in range(1_000)) if banker_decides(s))
    bot_env.seeds.append(seed)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm,
            "table open chemin_de_fer",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            drawing="classic",
            first_banker="Le Chiffre",
        )
        await wait_table(fake, "Le Chiffre's table")
        await join(fake, world.player, "500")
        await press(fake, world.player, "choose", "simulate")
        taken = await fake.slash(world.gm, "table npc", auto=False)
        assert (await said(taken)).startswith("You play Le Chiffre now")
        started = await fake.slash(world.gm, "table deal")  # the GM's start, as a command
        assert (await said(started)) == "The first bank goes to Le Chiffre."
        # The deal's redraw: `/table npc`'s own redraw already said the GM plays him.
        table = await wait_table(fake, "The table waits for Le Chiffre")
        assert "The GM plays Le Chiffre's decisions." in str(table.embeds)
        not_his = await click_id(fake, world.player, "bank")
        assert (await said(not_his)) == "It is not your turn: Le Chiffre is to play."
        modal = await click_id(fake, world.gm, "bank")
        banked = await fake.submit_modal(world.gm, modal, {"amount": "300"})
        assert (await said(banked)) == "For Le Chiffre: puts up a bank of $300."
        await wait_table(fake, "**Le Chiffre** holds a bank of **$300**.")
        staked = await fake.slash(world.player, "table bet", amount="100")
        assert (await said(staked)) == "You stake $100 against the bank."
        table = await wait_table(fake, "Le Chiffre, the banker, speaks: draw or stand.")
        advice = await press(fake, world.gm, "mine")  # the NPC's cards in his panel, the advice
        assert (await said(advice)).startswith("Le Chiffre's cards: ")
        assert "Advised: **" in ((await said(advice)) or "")
        advised = "draw" if "Advised: **draw**" in ((await said(advice)) or "") else "stand"
        decided = await click_id(fake, world.gm, advised)
        assert (await said(decided)).startswith("For Le Chiffre: ")
        await wait_table(fake, "Coup 1: result")
        handed = await fake.slash(world.gm, "table npc", auto=True)
        assert (
            await said(handed)
        ) == "Le Chiffre now plays by himself."  # issue 34: as the panel says
        await wait_table(fake, "Coup 2")  # the NPC kept its bank by itself at once


async def test_the_first_bank_is_drawn_with_the_tables_generator(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    seats = [str(ids[key]) for key in ("npc", "bond", "mathis")]  # the NPC first, then joins
    names = {str(ids["npc"]): "Le Chiffre", str(ids["bond"]): "James Bond"}
    names[str(ids["mathis"])] = "René Mathis"
    drawn = names[random.Random(7).choice(seats)]  # the bot's generator in these tests
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open chemin_de_fer", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "the first bank is drawn at random among the players")
        await join(fake, world.player, "500")
        await join(fake, world.player_fr, "300")
        for user in (world.player, world.player_fr):
            await press(fake, user, "choose", "simulate")
        await fake.wait_until(lambda: button_labels(fake) == ["Start (GM)", "My seat", "GM"])
        panel = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        started = await press(fake, world.gm, "start")  # the one the table waits for
        assert (await said(started)) == f"The first bank goes to {drawn}."
        again = await fake.click(world.gm, panel, action_id(panel, "start"))  # his panel's
        assert (
            await said(again)
        ) == "The game has started: the bank goes round the table by itself."
        await fake.wait_until(lambda: "Start (GM)" not in button_labels(fake))
        panel = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        assert not any(c.split(":")[3] == "start" for c in panel.custom_ids())
