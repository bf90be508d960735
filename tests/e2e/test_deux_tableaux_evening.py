"""A baccara à deux tableaux evening through the fake Discord, real discord.py, a restart.

The GM opens the table with Le Chiffre's $300 bank and starts it: the NPC banks. Bond
stakes $100 on each table; the bot restarts; Mathis (French) stakes $50 on the right table.
The coup is dealt by itself, the NPC banker makes its one decision for both tables, and the
bank beats the right table: Bond wins his right-table stake back with a Hero Point, and
Mathis, who has one too, gets his own button for his. The table message, the players'
answers and the ledger are checked.
"""

from __future__ import annotations

import random
import re

from e2e_env import BotEnv
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

from bondbot.games.contract import Move
from bondbot.games.deux_tableaux.engine import DeuxTableaux, Settings
from bondbot.games.deux_tableaux.events import CoupSettled
from bondbot.local.models import FakeMessage
from bondbot.rules import baccarat
from bondbot.rules.cards import cards_pretty, parse_cards
from bondbot.storage import ledger
from bondbot.storage.db import Database

NPC, BOND, MATHIS = "npc", "bond", "mathis"


def empty_headings(message: FakeMessage) -> list[str]:
    """Lines of any version of a message's fields that head a section ("On the **right
    tableau** (half the bank, $150):") with nothing under them: the last line, or one
    followed by another heading."""
    found = []
    for version in [*message.history, message.snapshot()]:
        for embed in version.embeds:
            for field in embed.get("fields", []):
                lines = field["value"].split("\n")
                for line, after in zip(lines, [*lines[1:], None], strict=True):
                    if line.endswith(":") and (after is None or after.endswith(":")):
                        found.append(line)
    return found


def the_coup(seed: bytes) -> CoupSettled | None:
    """The evening's coup on the pure engine; None unless the NPC banker decides (no choice
    at 5, no natural) and the bank beats the right table."""
    rules = Settings(min_stake=1_000, min_bank=2_000, max_bank=50_000, npc_bank=30_000)
    shoe = baccarat.new_shoe(3, seed)
    game = DeuxTableaux.new(shoe, [NPC, BOND, MATHIS], npc=NPC, settings=rules)
    game.stacks = {NPC: 1_000_000, BOND: 50_000, MATHIS: 30_000}
    for move in (
        Move(kind="default_bank"),
        Move(kind="stake", seat=BOND, amount=10_000, target="both"),
        Move(kind="stake", seat=MATHIS, amount=5_000, target="right"),
        Move(kind="deal"),
    ):
        game.apply(move)
    if game.phase != "banker":
        return None
    npc = game.npc_move(random.Random(0))
    assert npc is not None
    game.apply(npc)
    last = game.last
    assert last is not None
    right = next(table for table in last.tables if table.table == "right")
    return last if right.winner == "banker" else None


def find_coup() -> tuple[bytes, CoupSettled]:
    for n in range(20_000):
        seed = n.to_bytes(32, "big")
        if (coup := the_coup(seed)) is not None:
            return seed, coup
    raise AssertionError("no seed for the coup")


def shown(codes: tuple[str, ...]) -> str:
    return cards_pretty(parse_cards(" ".join(codes)))


async def stake(fake, user, on: str, amount: str):  # type: ignore[no-untyped-def]
    modal = await press(fake, user, "stake", on, 0)
    assert modal.modal is not None
    return await fake.submit_modal(user, modal, {"amount": amount})


async def test_a_deux_tableaux_evening(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    seed, coup = find_coup()
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds.append(seed)

    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        opened = await fake.slash(
            world.gm,
            "table open deux_tableaux",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            bankroll="10000",
            npc_bank="300",
        )
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)
        message = await wait_table(fake, commitment)
        assert message.embeds[0]["title"] == "Baccara à deux tableaux — Le Chiffre's table"
        await join(fake, world.player, "500")
        await join(fake, world.player_fr, "300")
        await press(fake, world.player, "choose", "simulate")
        await press(fake, world.player_fr, "choose", "simulate")
        start = "Start: the NPC banks (GM)"  # the one GM action the table waits for
        await fake.wait_until(lambda: button_labels(fake) == [start, "My seat", "GM"])
        refused = await press(fake, world.player, "start")
        assert "GM" in ((await said(refused)) or "")
        auction = await press(fake, world.player, "auction")  # in the GM's panel only
        assert not auction.components and "GM" in ((await said(auction)) or "")
        started = await press(fake, world.gm, "start")
        assert (await said(started)) == "Le Chiffre banks $300."
        table = await wait_table(fake, "**Le Chiffre** holds a bank of **$300**")
        assert "$150 on the right tableau, $150 on the left" in str(table.embeds)
        assert "On the **right tableau** (half" not in str(table.embeds)  # nothing staked

        await fake.wait_until(lambda: "Stake" in button_labels(fake))
        assert button_labels(fake) == ["Stake", "Pass", "My seat", "GM"]  # the moves of now
        form = await press(fake, world.player, "stake", "both", 0)  # the table's Stake: both
        assert form.modal is not None and form.modal.title == "Stake on each tableau"
        assert "Between $10 and $150" in str(form.modal.components)  # its limits, said
        panel = await fake.click(world.player_fr, table_message(fake), button_id(fake, "seat"))
        assert [b["label"] for b in panel.buttons()] == [
            "Ponter à droite",
            "Ponter à gauche",
            "Ponter des deux côtés",
            "Banco (300\u00a0$)",
            "Passer",
        ]
        too_much = await stake(fake, world.player, "both", "200")
        assert (await said(too_much)) == "Now that amount is between $10 and $150."
        staked = await stake(fake, world.player, "both", "100")
        assert (await said(staked)) == "You stake $100 on each tableau."
        table = await wait_table(fake, "James Bond: $100, covered")
        assert str(table.embeds).count("James Bond: $100, covered") == 2  # one per table

    async with bot_env.run():  # a restart with the stakes half answered
        await wait_table(fake, "The table waits for René Mathis")
        staked = await stake(fake, world.player_fr, "right", "50")
        assert (await said(staked)).startswith("Vous pontez 50\u00a0$ sur le tableau de droite.")
        table = await wait_table(fake, "Coup 1: result")
        embed = str(table.embeds[0])
        assert f"Bank (Le Chiffre): {shown(coup.banker)} ({coup.banker_total})" in embed
        decision = "drew a third card" if len(coup.banker) == 3 else "stood"
        assert f"Le Chiffre, the banker, {decision}" in embed
        right = next(t for t in coup.tables if t.table == "right")
        assert (
            f"On the **right tableau**: {shown(right.cards)} ({right.total}) — **the bank wins**"
            in embed
        )
        # Issue 34: the offers said once, in the Hero Points field.
        assert "James Bond loses $100" in embed and "René Mathis loses $50" in embed
        assert "James Bond ($200), René Mathis ($100) may each win back" in embed
        await fake.wait_until(lambda: "Spend a Hero Point" in button_labels(fake))
        assert button_labels(fake).count("Spend a Hero Point") == 1  # one for everyone
        bond_offer = button_id(fake, "hp")
        spent = await fake.click(world.player, table_message(fake), bond_offer)
        assert (
            await said(spent)
        ) == "You spend a Hero Point and win the hand: the bank pays you $200."
        await wait_table(fake, "James Bond loses $100 — James Bond spends a Hero Point")
        await wait_table(fake, "Coup 2")  # the same bank, stakes open again
        # Never a section heading with nothing under it (the tableaux before any stake).
        assert empty_headings(table_message(fake)) == []

    left = next(t for t in coup.tables if t.table == "left")
    left_net = {"ponte": 10_000, "banker": -10_000, "tie": 0}[left.winner]
    assert (await balances(bot_env, ids))["bond"] == (50_000, 2)
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            bond_chips = await ledger.balance(conn, f"chips:1:{ids['bond']}", "cash")
            mathis_chips = await ledger.balance(conn, f"chips:1:{ids['mathis']}", "cash")
            spends = await conn.execute_fetchall(
                "SELECT src, dst, amount FROM ledger WHERE reason = 'spend.win_hand'"
                " AND kind = 'cash'"
            )
    finally:
        await db.close()
    assert bond_chips == 50_000 - 10_000 + left_net + 20_000
    assert mathis_chips == 30_000 - 5_000
    assert [tuple(row) for row in spends] == [("bank:1", f"chips:1:{ids['bond']}", 20_000)]
