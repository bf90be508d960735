"""A blackjack round through the fake Discord: two PCs against the NPC dealer, a restart.

Le Chiffre deals from a shoe whose seed the test chose (found by replaying the round on
the pure engine). Bond (English) splits his two tens against the hint's advice, busts his
first hand with a double click on Hit (one card, not two), then the bot restarts in the
middle of the round; Bond lets his second hand's timer run out (he stands); Mathis
(French) doubles and the dealer settles. Bond wins his bust hand back with a Hero Point
(a double click spends once). What each user saw, the table message and the ledger are
checked.
"""

from __future__ import annotations

import asyncio
import re

from e2e_env import BotEnv
from table_flow import (
    balances,
    bond,
    button_id,
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

from bondbot.i18n import t
from bondbot.local import FakeDiscord
from bondbot.money import format_amount
from bondbot.rules.blackjack import Action, Blackjack, BlackjackRules, Outcome, hand_total
from bondbot.rules.cards import cards_pretty
from bondbot.rules.shoe import Shoe
from bondbot.storage import ledger
from bondbot.storage.db import Database

BOND_BET, MATHIS_BET = 10_000, 5_000
TURN_TIMER = 30


def policy(game: Blackjack, seat: str, index: int) -> Action:
    """Bond splits, hits his first hand to the end, stands on the second; Mathis doubles."""
    if seat == "mathis":
        return Action.DOUBLE
    if len(game.hands(seat)) == 1:
        return Action.SPLIT
    return Action.HIT if index == 0 else Action.STAND


def find_round() -> tuple[bytes, Blackjack]:
    """The first seed whose round, played by `policy`, has a one-hit bust and a live hand 2."""
    rules = BlackjackRules()
    for n in range(5_000):
        seed = n.to_bytes(32, "big")
        game = Blackjack(Shoe.shuffled(rules.packs, seed, rules.penetration), rules)
        game.place_bet("bond", BOND_BET)
        game.place_bet("mathis", MATHIS_BET)
        game.start_round()
        if game.insurance_open:
            continue
        try:
            while (current := game.current()) is not None:
                game.act(current[0], policy(game, *current))
        except Exception:  # this deal does not allow the policy's move
            continue
        bond = [r for r in game.results if r.seat == "bond"]
        mathis = [r for r in game.results if r.seat == "mathis"]
        if (
            len(bond) == 2
            and bond[0].outcome is Outcome.BUST
            and len(bond[0].cards) == 3
            and len(bond[1].cards) == 2
            and hand_total(bond[1].cards)[0] < 21
            and mathis[0].stake == 2 * MATHIS_BET
        ):
            return seed, game
    raise AssertionError("no seed for this round")


def play_id(fake: FakeDiscord, action: str) -> str:
    """The play button's custom id, whatever move count it carries."""
    for row in table_message(fake).components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return component["custom_id"]
    raise AssertionError(f"no {action} button")


async def redrawn(fake: FakeDiscord, old: str) -> None:
    """Wait until the table message no longer has the button `old` (a newer move count)."""
    await fake.wait_until(
        lambda: all(
            c["custom_id"] != old
            for row in table_message(fake).components
            for c in row["components"]
        ),
        what="the table message redrawn",
    )


async def test_a_blackjack_round_with_a_restart(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    seed, game = find_round()
    bust, second, doubled = game.results
    up = game.dealer_cards[0]
    bond_cards = [bust.cards[0], second.cards[0]]  # the pair he splits
    ids = await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),
            "bond": bond(world.player),
            "mathis": mathis(world.player_fr),
        },
        {"bond": world.player, "mathis": world.player_fr},
    )
    bot_env.seeds.append(seed)

    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        opened = await fake.slash(
            world.gm,
            "table open blackjack",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            bankroll="10000",
            deal="american",
            max_hands=3,
        )
        assert opened.ephemeral
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)
        message = await wait_table(fake, commitment)
        assert message.embeds[0]["title"] == "Blackjack — Le Chiffre holds the bank"

        await join(fake, world.player, "500")
        await join(fake, world.player_fr, "200")
        chose = await press(fake, world.player, "choose", "simulate")
        assert chose.content == "You simulate the game. Hero Points earned: 2."
        chose_fr = await press(fake, world.player_fr, "choose", "simulate")
        assert chose_fr.content == "Vous simulez la partie. Points d'Héroïsme gagnés : 1."

        modal = await press(fake, world.player, "bet")
        assert modal.modal is not None and modal.modal.title == "Bet on the next round"
        placed = await fake.submit_modal(world.player, modal, {"amount": "100"})
        assert redrawn_with(placed, "bets $100")  # the table's form: the table redrawn
        placed_fr = await fake.slash(world.player_fr, "table bet", amount="50")
        assert placed_fr.ephemeral
        assert placed_fr.content == "Mise placée : 50\u00a0$ sur la prochaine donne."
        await wait_table(fake, "bets $50")

        not_gm = await press(fake, world.player, "deal")
        assert not_gm.ephemeral and "GM" in (not_gm.content or "")
        dealt = await press(fake, world.gm, "deal")
        assert dealt.response_type == 7  # the table message, redrawn in place
        deadline = int(bot_env.clock.now.timestamp()) + TURN_TIMER
        table = await wait_table(fake, f"To play: **James Bond** — time runs out <t:{deadline}:R>")
        embed = str(table.embeds[0])
        assert f"Shows {up.pretty} 🂠" in embed  # the hole card stays hidden
        assert f"▶ {cards_pretty(bond_cards)} (20) · $100 · to play" in embed
        # The table: the moves every hand may have; his panel: all of his, and the hint.
        assert [b["label"] for b in table.buttons()] == ["Hit", "Stand", "Double", "My seat", "GM"]
        panel = await press(fake, world.player, "seat")
        assert [b["label"] for b in panel.buttons()] == [
            "Hit",
            "Stand",
            "Double (+$100)",
            "Split (+$100)",
            "Surrender ($50 back)",
            "Hint",
        ]
        # My seat on his turn: his hand and the dealer's card beside his moves (issue 34).
        assert panel.embeds[0]["description"].endswith(
            f"Your hand: {cards_pretty(bond_cards)} (20).\nThe dealer shows {up.pretty} 🂠."
        )

        wrong = await fake.click(world.player_fr, table_message(fake), play_id(fake, "hit"))
        assert wrong.ephemeral and wrong.content == "Ce n'est pas votre tour : James Bond joue."
        hint = await fake.click(
            world.player, panel, next(c for c in panel.custom_ids() if c.endswith(":hint"))
        )
        assert hint.ephemeral
        assert hint.content == (
            f"Basic strategy for {cards_pretty(bond_cards)} (20) against the dealer's "
            f"{up.pretty}: **Stand**."
        )
        not_his = await press(fake, world.player_fr, "seat")  # not his turn: no moves
        assert [b["label"] for b in not_his.buttons()] == []
        assert "Votre main : " in not_his.embeds[0]["description"]  # her hand all the same

        split_id = next(c for c in panel.custom_ids() if ":split:" in c)
        split = await fake.click(world.player, panel, split_id)
        first = cards_pretty(bust.cards[:2])
        assert split.ephemeral
        assert (
            split.content
            == f"You split: your first hand is {first} ({hand_total(bust.cards[:2])[0]})."
        )
        await redrawn(
            fake, play_id(fake, "hit").rsplit(":", 1)[0] + f":{split_id.rsplit(':', 1)[1]}"
        )

        # A double click on Hit: one card, and a refusal for the click that came too late.
        hit_id = play_id(fake, "hit")
        clicks = await asyncio.gather(
            fake.click(world.player, table_message(fake), hit_id),
            fake.click(world.player, table_message(fake), hit_id),
        )
        assert sorted([await said(c) for c in clicks]) == sorted(
            [
                f"You hit: {cards_pretty(bust.cards)} ({hand_total(bust.cards)[0]}) — bust.",
                "The table has moved on since that button was drawn: look at the table again.",
            ]
        )
        await wait_table(fake, "To play: **James Bond**, hand 2")
        hands = (await press(fake, world.player, "seat")).embeds[0]["description"]
        assert (
            f"Your hands:\n1) {cards_pretty(bust.cards)} ({hand_total(bust.cards)[0]})\n▶ 2) "
            in (hands)
        )

    async with bot_env.run() as bot:  # a restart in the middle of the round
        table = await wait_table(fake, f"▶ {cards_pretty(second.cards)}")
        assert "James Bond hits" in str(table.embeds)
        bot_env.clock.advance(TURN_TIMER + 1)
        await bot.services.tables.run_due()
        table = await wait_table(fake, "James Bond did not act in time: stands.")
        assert "To play: **René Mathis**" in str(table.embeds)

        double = await fake.click(world.player_fr, table_message(fake), play_id(fake, "double"))
        mathis_net = game.seat_net("mathis")
        assert await said(double) == "Vous doublez.\n" + t(
            "blackjack.round_over_lost", "fr", net=format_amount(-mathis_net, "$", "fr")
        )

        dealer = game.dealer_cards
        # Issue 34: a settled round shows its results, not its log again.
        table = await wait_table(fake, f"Dealer: {cards_pretty(dealer)}")
        fields = {f["name"]: f["value"] for f in table.embeds[0]["fields"]}
        assert fields["Dealer — Le Chiffre"] == "Bets are open (0 placed); the GM deals."
        assert fields["Round 1"].startswith(
            f"Dealer: {cards_pretty(dealer)} ({hand_total(dealer)[0]})\n"
        )
        embed = str(table.embeds[0])
        assert (
            f"James Bond, hand 1: {cards_pretty(bust.cards)} ({hand_total(bust.cards)[0]})"
            " — bust, loses $100" in embed
        )
        # Issue 34: the offer said once, in the Hero Points field.
        assert "James Bond ($200" in embed and "win back with a Hero Point" in embed
        assert f"René Mathis: {cards_pretty(doubled.cards)}" in embed
        assert [b["label"] for b in table.buttons()].count("Spend a Hero Point") == 1
        lost = sum(1 for r in (bust, second) if r.net < 0)
        pick = await fake.click(world.player, table_message(fake), button_id(fake, "hp"))
        if lost == 1:  # his one lost hand: spent at once
            assert (
                await said(pick)
                == "You spend a Hero Point and win the hand: the bank pays you $200."
            )
        else:  # he picks; a double click on his pick spends once
            assert len(pick.buttons()) == 2
            spend = next(c for c in pick.custom_ids() if c.endswith(":spend:1"))  # his bust
            answers = await asyncio.gather(
                fake.click(world.player, pick, spend), fake.click(world.player, pick, spend)
            )
            assert sorted(a.content for a in answers) == [
                "A Hero Point was already spent on that hand.",
                "You spend a Hero Point and win the hand: the bank pays you $200.",
            ]
        await wait_table(fake, "James Bond spends a Hero Point and wins the hand")

    bond_chips = 50_000 + game.seat_net("bond") + 2 * BOND_BET
    mathis_chips = 20_000 + mathis_net
    assert (await balances(bot_env, ids))["bond"] == (100_000 - 50_000, 2)
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            chips = {
                key: await ledger.balance(conn, f"chips:1:{ids[key]}", "cash")
                for key in ("bond", "mathis")
            }
            bank = await ledger.balance(conn, "bank:1", "cash")
            rows = await conn.execute_fetchall(
                "SELECT reason, src, dst, amount FROM ledger WHERE table_id = 1 AND kind = 'cash'"
                " AND reason NOT LIKE 'table.%' ORDER BY id"
            )
    finally:
        await db.close()
    assert chips == {"bond": bond_chips, "mathis": mathis_chips}
    assert bank == 1_000_000 - game.seat_net("bond") - mathis_net - 2 * BOND_BET
    # Settlement: each hand's net, losses collected before wins are paid; then the spend.
    hands = [(bust, "bond"), (second, "bond"), (doubled, "mathis")]
    reason = {Outcome.BUST: "bust", Outcome.LOSE: "loss", Outcome.WIN: "win"}
    expected = [
        (f"blackjack.{reason[r.outcome]}", f"chips:1:{ids[who]}", "bank:1", -r.net)
        for r, who in hands
        if r.net < 0
    ] + [
        (f"blackjack.{reason[r.outcome]}", "bank:1", f"chips:1:{ids[who]}", r.net)
        for r, who in hands
        if r.net > 0
    ]
    expected.append(("spend.win_hand", "bank:1", f"chips:1:{ids['bond']}", 2 * BOND_BET))
    assert [tuple(r) for r in rows] == expected


async def test_the_bet_command_still_needs_a_side_at_punto_banco(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env,
        {
            "npc": {"name": "Le Chiffre", "kind": "NPC"},
            "bond": {
                "name": "James Bond",
                "kind": "PC",
                "owner_id": world.player.id,
                "cash": 10_000,
            },
        },
        {"bond": world.player},
    )
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="50"
        )
        await wait_table(fake, "Punto banco")
        await join(fake, world.player, "100")
        await press(fake, world.player, "choose", "simulate")
        sideless = await fake.slash(world.player, "table bet", amount="20")
        assert sideless.ephemeral and sideless.content == "Wager on Player, Banker or Tie."
        placed = await fake.slash(world.player, "table bet", amount="20", on="player")
        assert placed.ephemeral and placed.content == "Wager placed: Player, $20."
