"""A hold'em evening through the fake Discord: Bond and Mathis (in French) against Le Chiffre.

Hand 1, the GM plays Le Chiffre with the table's buttons: the blinds, his raise by the
form (its placeholder states the least and the most), Bond all-in short from his seat
panel, Mathis calls and bets half the pot on the flop from his panel (a double click: one
bet), a side pot between Mathis and Le Chiffre, a showdown Le Chiffre wins. The table
shows only Fold, Check or Call and Raise… (and My seat, GM); the bet sizes are in the
player's panel, the NPC's cards and sizes in the GM's, and Deal is the table's one GM
button between hands. Bond wins the main pot back with a Hero Point (a double click
spends once), then Mathis spends too: he shares the main pot with Bond and takes the
side pot. Hand 2, Le Chiffre plays by
itself: Bond lets his timer run out (he folds), the bot restarts in the middle of the
hand, Mathis calls down. The GM closes; each pack's seed checks against its commitment.
No hole card is visible to anyone but its owner (and the NPC's to the GM) before it is
shown, in any version of any message.
"""

from __future__ import annotations

import asyncio
import re

from e2e_env import BotEnv
from privacy import assert_never_seen
from table_flow import (
    balances,
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    said,
    table_message,
    wait_table,
)

from bondbot.games.holdem.names import strength
from bondbot.local import FakeDiscord
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeMessage, FakeUser
from bondbot.rules.cards import Card, cards_pretty
from bondbot.rules.shoe import Shoe, verify
from bondbot.storage import ledger
from bondbot.storage.db import Database

TURN_TIMER = 30
Holes = list[tuple[Card, Card]]


def deal_of(seed: bytes) -> tuple[Holes, list[Card]]:
    """Three players' hole cards (in order of play) and the board a pack deals."""
    shoe = Shoe.shuffled(1, seed)
    dealt = [shoe.deal() for _ in range(11)]
    return [(dealt[i], dealt[i + 3]) for i in range(3)], dealt[6:]


def seeds() -> tuple[bytes, bytes]:
    """Hand 1 (Bond, Mathis, then Le Chiffre on the button): Le Chiffre beats both. Hand 2:
    no hole card that hand 1 showed, so a card seen in hand 1 never looks like a leak."""
    candidates = (n.to_bytes(32, "big") for n in range(10_000))
    for first in candidates:
        holes, board = deal_of(first)
        values = [strength([*hole, *board]) for hole in holes]
        if values[2] > max(values[:2]):
            break
    shown = {card for hole in holes for card in hole} | set(board)
    second = next(s for s in candidates if not shown & {c for h in deal_of(s)[0] for c in h})
    return first, second


def play_id(fake: FakeDiscord, action: str) -> str:
    """The play button's custom id, whatever move count (and amount) it carries."""
    for row in table_message(fake).components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return component["custom_id"]
    raise AssertionError(f"no {action} button")


def pretty(hole: tuple[Card, Card]) -> str:
    return cards_pretty(list(hole))


def labels(message: FakeMessage | InteractionResult) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]]


async def seat_panel(fake: FakeDiscord, user: FakeUser) -> InteractionResult:
    """The player's private panel (My seat): his cards, chips and moves."""
    panel = await fake.click(user, table_message(fake), button_id(fake, "seat"))
    assert panel.ephemeral and panel.embeds, await said(panel)
    return panel


def panel_id(panel: InteractionResult, action: str) -> str:
    """A panel button's custom id, whatever move count (and amount) it carries."""
    for row in panel.components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return str(component["custom_id"])
    raise AssertionError(f"no {action} button in the panel")


async def test_a_holdem_evening(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    first, second = seeds()
    (bond_hole, mathis_hole, npc_hole), board = deal_of(first)
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds += [first, second]

    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        opened = await fake.slash(
            world.gm,
            "table open holdem",
            npc="Le Chiffre",
            minimum="50",
            maximum="500",
            big_blind="10",
        )
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)
        message = await wait_table(fake, commitment)
        assert message.embeds[0]["title"] == "Texas hold'em — Le Chiffre's table"
        assert "Buy-in $50 to $500" in str(message.embeds)  # issue 34: no bank at poker
        assert "bank unlimited" not in str(message.embeds)

        short = await join(fake, world.player, "20")
        assert (await said(short)) == "The buy-in at this table is between $50 and $500."
        await join(fake, world.player, "100")
        joined = await fake.slash(world.player_fr, "table join", buy_in="300")
        assert (await said(joined)).splitlines()[
            0
        ] == "Vous vous asseyez avec 300\u00a0$ en jetons."
        for user in (world.player, world.player_fr):
            await press(fake, user, "choose", "simulate")
        gm_plays = await fake.slash(world.gm, "table npc", auto=False)
        assert (await said(gm_plays)).startswith("You play Le Chiffre")
        await wait_table(fake, "(NPC, played by the GM)")

        # -- hand 1: the GM plays Le Chiffre ---------------------------------------------
        dealt = await press(fake, world.gm, "deal")
        assert dealt.response_type == 7  # the table message, redrawn in place
        deadline = int(bot_env.clock.now.timestamp()) + TURN_TIMER
        table = await wait_table(
            fake, f"To act: **Le Chiffre**, $10 to call — time runs out <t:{deadline}:R>"
        )
        embed = str(table.embeds[0])
        assert "Hand 1: Le Chiffre deals; blinds $5 (James Bond) and $10 (René Mathis)." in embed
        assert "Hand 1 · blinds $5/$10" in embed
        # The table: the moves of the one to act (the GM, for Le Chiffre), no GM control.
        assert labels(table) == ["Fold", "Call $10", "Raise…", "My seat", "GM"]
        wrong = await fake.click(world.player, table_message(fake), play_id(fake, "fold"))
        assert (
            wrong.ephemeral and (await said(wrong)) == "It is not your turn: Le Chiffre is to act."
        )
        mine = await seat_panel(fake, world.player)
        assert f"Your cards: {pretty(bond_hole)}" in mine.embeds[0]["description"]
        assert labels(mine) == ["Sit out"]  # not his turn: no move, only his own control
        mine_fr = await seat_panel(fake, world.player_fr)
        assert f"Vos cartes : {pretty(mathis_hole)}" in mine_fr.embeds[0]["description"]
        assert labels(mine_fr) == ["S'absenter"]
        peek = await press(fake, world.player, "mine")  # the NPC's cards: the GM's panel
        assert peek.ephemeral and (await said(peek)).startswith("Only the GM can do that")
        gm = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        assert labels(gm)[:2] == ["½ pot: $25", "Pot: $35"]  # Le Chiffre's sizes, his turn
        assert "NPC's cards" in labels(gm) and "Deal (GM)" not in labels(gm)
        npc_cards = await fake.click(world.gm, gm, panel_id(gm, "mine"))
        assert (await said(npc_cards)) == f"Le Chiffre's cards: {pretty(npc_hole)}"

        modal = await fake.click(world.gm, table_message(fake), play_id(fake, "raise"))
        assert modal.modal is not None and modal.modal.title == "Raise to"
        assert "Between $20 and $300" in str(modal.modal.components)
        outside = await fake.submit_modal(world.gm, modal, {"amount": "500"})
        assert (await said(outside)) == (
            "Between $20 and $300, please (what your bet this round comes to)."
        )
        raised = await fake.submit_modal(world.gm, modal, {"amount": "30"})
        assert raised.response_type == 7
        await wait_table(fake, "Le Chiffre raises to $30.")

        # Bond's turn: his panel has his moves with their amounts; all-in is one of them.
        await wait_table(fake, "To act: **James Bond**")
        mine = await seat_panel(fake, world.player)
        # Pot $45, $25 to call: half the pot makes his bet $65; the pot's $100 is all he
        # has, so All-in stands for it.
        assert labels(mine) == [
            "Fold",
            "Call $25",
            "Raise…",
            "½ pot: $65",
            "All-in $95",
            "Sit out",
        ]
        allin = await fake.click(world.player, mine, panel_id(mine, "allin"))
        # Issue 34: his panel drawn again in place, saying it was done, no stale moves.
        assert allin.response_type == 7 and (await said(allin)) == "Done."
        assert "Fold" not in labels(allin)
        await wait_table(fake, "James Bond goes all-in.")
        called = await fake.click(world.player_fr, table_message(fake), play_id(fake, "call"))
        assert called.response_type == 7
        await fake.click(world.gm, table_message(fake), play_id(fake, "call"))
        flop = cards_pretty(board[:3])
        table = await wait_table(fake, f"Flop: {flop}.")
        embed = str(table.embeds[0])
        assert "Main pot $300: James Bond, René Mathis, Le Chiffre" in embed
        assert "To act: **René Mathis**" in embed

        # A double click on ½ pot in Mathis's panel: one bet of $150, the other refused.
        assert "½ pot" not in str(labels(table_message(fake)))  # the sizes are private
        mine_fr = await seat_panel(fake, world.player_fr)
        half = panel_id(mine_fr, "to")
        assert half.endswith(":15000:half")
        clicks = await asyncio.gather(
            fake.click(world.player_fr, mine_fr, half),
            fake.click(world.player_fr, mine_fr, half),
        )
        assert sorted([await said(c) for c in clicks]) == [
            "C'est fait.",
            "La table a avancé depuis que ce bouton a été affiché : regardez de nouveau la table.",
        ]
        await wait_table(fake, "René Mathis bets $150.")
        await fake.click(world.gm, table_message(fake), play_id(fake, "call"))
        table = await wait_table(fake, f"Turn: {cards_pretty(board[3:4])}.")
        assert "Side pot 1 $300: René Mathis, Le Chiffre" in str(table.embeds[0])
        await fake.click(world.player_fr, table_message(fake), play_id(fake, "check"))
        await wait_table(fake, "To act: **Le Chiffre** —")
        await fake.click(world.gm, table_message(fake), play_id(fake, "check"))
        await wait_table(fake, f"River: {cards_pretty(board[4:])}.")
        await fake.click(world.player_fr, table_message(fake), play_id(fake, "check"))
        await wait_table(fake, "To act: **Le Chiffre** —")

        # Before the showdown, nobody has seen a hole card but his own (the GM the NPC's).
        for viewer, theirs in (
            (world.player, [mathis_hole, npc_hole]),
            (world.player_fr, [bond_hole, npc_hole]),
            (world.gm, [bond_hole, mathis_hole]),
            (world.owner, [bond_hole, mathis_hole, npc_hole]),
            (None, [bond_hole, mathis_hole, npc_hole]),
        ):
            assert_never_seen(fake, viewer, [card for hole in theirs for card in hole])

        await fake.click(world.gm, table_message(fake), play_id(fake, "check"))
        table = await wait_table(fake, "Main pot $300 → Le Chiffre $300")
        embed = str(table.embeds[0])
        assert f"Le Chiffre: {pretty(npc_hole)} — " in embed
        assert f"James Bond: {pretty(bond_hole)} — " in embed
        assert "Side pot 1 $300 → Le Chiffre $300" in embed
        # Between hands: Deal, which the table waits for, and one Hero Point button.
        assert labels(table) == ["Deal (GM)", "Spend a Hero Point", "My seat", "GM"]
        not_gm = await fake.click(world.player, table, button_id(fake, "deal"))
        assert (await said(not_gm)).startswith("Only the GM can do that")
        assert "James Bond" in str(table.embeds) and "René Mathis" in str(table.embeds)

        spend = button_id(fake, "hp")  # one lost hand each: the click spends at once
        answers = await asyncio.gather(
            fake.click(world.player, table_message(fake), spend),
            fake.click(world.player, table_message(fake), spend),
        )
        contents = sorted([await said(a) for a in answers])
        # Issue 34: no bank at poker.
        assert contents[1] == "You spend a Hero Point and win the hand: Le Chiffre pays you $300."
        assert contents[0] in (  # the second click, refused once the first has spent
            "A Hero Point was already spent on that hand.",
            "You have no lost hand to win back with a Hero Point now.",
        )
        # Mathis spending now shares the main pot with Bond: half of it, and his side pot.
        spent = await press(fake, world.player_fr, "hp")
        assert (await said(spent)) == (
            "Vous dépensez un Point d'Héroïsme et gagnez la main : Le Chiffre vous paie 450\u00a0$."
        )
        table = await wait_table(fake, "René Mathis spends a Hero Point and takes back $450")
        assert "James Bond spends a Hero Point and takes back $150 from Le Chiffre." in str(
            table.embeds[0]
        )
        assert "**James Bond** (<@" in str(table.embeds[0]) and "· $150 ·" in str(table.embeds[0])

        # -- hand 2: Le Chiffre plays by itself; Bond's timer runs out -------------------
        on = await fake.slash(world.gm, "table npc", auto=True)
        assert (await said(on)) == "Le Chiffre now plays by himself."  # issue 34: as the panel says
        await press(fake, world.gm, "deal")
        table = await wait_table(fake, "To act: **James Bond**")
        # The table shows the new pack's seal in one short line, no hash in full; the
        # previous pack's seed is behind /table verify with its commitment: hand 1 checks.
        assert re.search(r"[0-9a-f]{64}", str(table.embeds)) is None
        assert re.search(r"🔒 Shoe sealed · [0-9a-f]{8}…", table.embeds[0]["footer"]["text"])
        proof = await fake.slash(world.player, "table verify")
        assert proof.ephemeral
        seed1 = re.search(
            r"\*\*Shoe 1\*\* · 1 pack\(s\)\nCommitment: `([0-9a-f]{64})`\nSeed: `([0-9a-f]{64})`",
            proof.embeds[0]["description"],
        )
        assert seed1 is not None and seed1.group(1) == commitment
        shoe2 = proof.embeds[0]["description"].split("**Shoe 2**")[1]
        assert "sealed until" in shoe2 and shoe2.count("`") == 2  # its commitment, no seed
        assert list(verify(seed1.group(2), commitment, 1)[:11]) == [
            *[c for c in (bond_hole[0], mathis_hole[0], npc_hole[0])],
            *[c for c in (bond_hole[1], mathis_hole[1], npc_hole[1])],
            *board,
        ]
        bot_env.clock.advance(TURN_TIMER + 1)
        await bot.services.tables.run_due()
        await wait_table(fake, "James Bond did not act in time: folds.")
        table_id = await bot.services.tables.open_in_channel(world.channel.id)

    async with bot_env.run() as bot:  # a restart in the middle of the hand
        tables = bot.services.tables
        table = await wait_table(fake, "James Bond did not act in time: folds.")
        assert "To act: **René Mathis**, $5 to call" in str(table.embeds[0])
        mathis_key = str(ids["mathis"])
        while (snapshot := await tables.snapshot(table_id)).state.engine.in_hand():
            assert snapshot.state.engine.turn() == (mathis_key,)
            drawn = f":{snapshot.state.moves}"
            action = "call" if snapshot.state.engine.to_call(mathis_key) else "check"
            await fake.wait_until(
                lambda drawn=drawn, action=action: any(
                    c["custom_id"].split(":")[3] == action and c["custom_id"].endswith(drawn)
                    for row in table_message(fake).components
                    for c in row["components"]
                ),
                what="the table redrawn",
            )
            answer = await fake.click(world.player_fr, table_message(fake), play_id(fake, action))
            assert answer.response_type == 7, await said(answer)
        hidden = snapshot.state.engine.hidden_cards()
        bond_hand2 = set(snapshot.state.engine.private_cards(str(ids["bond"])))
        assert bond_hand2 <= hidden  # he folded: never shown
        await wait_table(fake, "Between hands")

        closed = await fake.slash(world.gm, "table close")
        seed2 = re.search(r"seed: `([0-9a-f]{64})`", closed.content).group(1)
        assert seed2 == second.hex()
        assert "This table used 2 shoes" in closed.content

    # Bond's folded cards and every card hidden at the end: never seen by anyone else.
    for viewer in (world.player_fr, world.gm, world.owner, None):
        assert_never_seen(fake, viewer, bond_hand2)
    for viewer in (world.owner, None):
        assert_never_seen(fake, viewer, hidden)

    assert (await balances(bot_env, ids))["bond"][1] == 1 + 2 - 1
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            rows = await conn.execute_fetchall(
                "SELECT reason, src, dst, amount FROM ledger WHERE reason LIKE 'spend.%'"
                " AND kind = 'cash' ORDER BY id"
            )
    finally:
        await db.close()
    bond_chips, mathis_chips = (f"chips:1:{ids[k]}" for k in ("bond", "mathis"))
    assert [tuple(r) for r in rows] == [
        ("spend.win_hand", "bank:1", bond_chips, 30_000),
        ("spend.shared", bond_chips, "bank:1", 15_000),
        ("spend.win_hand", "bank:1", mathis_chips, 45_000),
    ]
