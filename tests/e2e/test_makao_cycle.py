"""A whole Makao cycle for four players through the fake Discord, with a restart mid-deal.

Le Chiffre plays with Bond (English), Mathis (French) and Leiter at a table with a $10
stake: 13 deals. The table draws the first dealer. In the one-card deal (a pack chosen
on the pure engine) Bond bids 1 and Mathis 0 from their private panels, Leiter's timer
bids 0 for him; a trump takes the trick, so Bond misses his bid and wins the deal back
with a Hero Point. The bot restarts in the middle of the second deal; from then on the
turn timers play for the PCs (the table says so), the NPC plays by itself. The last deal
is played without trump; once its Hero Point window has closed the cycle ends and the
winner takes the pot. Nothing anyone but a hand's holder could see ever showed one of
its cards.
"""

from __future__ import annotations

import random

from e2e_env import BotEnv
from evening_end import the_end
from privacy import PrivacyWatch
from table_flow import (
    balances,
    bond,
    button_id,
    button_labels,
    create_cast,
    find_button,
    join,
    le_chiffre,
    mathis,
    press,
    table_message,
    wait_table,
)
from table_flow import said as said_to

from bondbot.bot.client import BondBot
from bondbot.games.contract import Move
from bondbot.games.makao.engine import Makao
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeMessage, FakeUser
from bondbot.pictures.cards import result_png
from bondbot.rules.cards import Card
from bondbot.rules.shoe import Shoe
from bondbot.storage import ledger
from bondbot.storage.db import Database

TURN_TIMER = 30
STAKE = 1_000
BUY_IN = 5_000
SEATS = ["npc", "bond", "mathis", "leiter"]  # the game's order: the NPC, then who joined
BIDS = {"bond": 1, "mathis": 0, "leiter": 0}  # Leiter's is his timeout's
NAMES = {"npc": "Le Chiffre", "bond": "James Bond", "mathis": "René Mathis"}
NAMES["leiter"] = "Felix Leiter"


def first_deal(seed: bytes, dealer: str) -> Makao:
    """The one-card deal on the pure engine: the PCs bid BIDS, the NPC by itself."""
    game = Makao(shoe=Shoe.shuffled(1, seed), seats=list(SEATS), npc="npc")
    game.stacks = dict.fromkeys(SEATS, BUY_IN)
    game.apply(Move(kind="deal", target=dealer))
    while turn := game.turn():
        (seat,) = turn
        if game.phase == "bidding" and seat != "npc":
            game.apply(Move(kind="bid", seat=seat, amount=BIDS[seat]))
        else:
            move = game.auto_move(seat)
            assert move is not None
            game.apply(move)
    return game


def find_first_deal(dealer: str) -> tuple[bytes, Makao]:
    """A pack where a trump (not the suit led) takes the trick from Bond, who bid 1."""
    for n in range(5_000):
        seed = n.to_bytes(32, "big")
        game = first_deal(seed, dealer)
        deal = game.deals[0]
        (trick,) = deal.tricks
        players = deal.players
        taker = trick.cards[
            (players.index(trick.winner or "") - players.index(trick.leader)) % len(players)
        ]
        if (
            trick.winner != "bond"
            and deal.trump_suit is not None
            and taker[1] == deal.trump_suit != trick.cards[0][1]
        ):
            return seed, game
    raise AssertionError("no pack for this deal")


def panel_ids(panel: InteractionResult, action: str) -> dict[str, str]:
    """The panel's buttons for `action` (bid, card) by their value."""
    return {cid.split(":")[4]: cid for cid in panel.custom_ids() if cid.split(":")[3] == action}


def deal_field(message: FakeMessage, number: int) -> str:
    fields = message.embeds[0]["fields"]
    return next(f["value"] for f in fields if f["name"].startswith(f"Deal {number} of 13"))


async def test_a_makao_cycle_for_four(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    users = {"bond": world.player, "mathis": world.player_fr, "leiter": world.owner}
    draw = random.Random()
    draw.setstate(bot_env.rng.getstate())
    dealer = draw.choice(SEATS)
    seed, expected = find_first_deal(dealer)
    bot_env.seeds += [seed, *(bytes([n]) * 32 for n in range(1, 13))]  # a pack a deal
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
        users,
    )
    key_of = {str(ids[key]): key for key in SEATS}
    watch = PrivacyWatch(fake)

    async def check_privacy(bot: BondBot) -> None:
        game = (await bot.services.tables.snapshot(1)).state.engine
        hidden = game.hidden_cards()
        watch.check(None, hidden)
        watch.check(world.gm, hidden - set(game.private_cards(str(ids["npc"]))))
        for key, user in users.items():
            watch.check(user, hidden - set(game.private_cards(str(ids[key]))))

    async def engine(bot: BondBot) -> Makao:
        game = (await bot.services.tables.snapshot(1)).state.engine
        assert isinstance(game, Makao)
        return game

    async def turn_of(bot: BondBot) -> str | None:
        turn = (await engine(bot)).turn()
        return key_of[turn[0]] if turn else None

    async def time_out(bot: BondBot) -> None:
        bot_env.clock.advance(TURN_TIMER + 1)
        await bot.services.tables.run_due()

    async def play_button(bot: BondBot, user: FakeUser) -> InteractionResult:
        """Click the table's Bid / Play a card once the message shows the table as it is
        (the button carries the table's move count); only the one to act has it."""
        moves = (await bot.services.tables.snapshot(1)).state.moves
        table = await fake.wait_for_message(
            predicate=lambda m: m.embeds and any(f":hand:{moves}" in c for c in m.custom_ids())
        )
        labels = table.button_labels()
        assert labels[0] in ("Bid", "Play a card") and labels[-2:] == ["My seat", "GM"]
        assert not any("(GM)" in label for label in labels)
        (found,) = [c for c in table.custom_ids() if c.split(":")[3] == "hand"]
        return await fake.click(user, table, found)

    async def deal(bot: BondBot, number: int) -> FakeMessage:
        """The GM deals once the last deal is over on the table message (what it showed is
        read by the privacy watch first)."""
        await fake.wait_for_message(
            predicate=lambda m: m.embeds and any(":newhand" in c for c in m.custom_ids())
        )
        if number > 1:  # the last deal's picture, read by the watch: posted in the thread
            # after it ended, or under the table on the answer that ended it (issue 32)
            title = f"Deal {number - 1}"
            await fake.wait_until(
                lambda: any(
                    m.embeds and title in (m.embeds[0].get("title"), m.embeds[-1].get("title"))
                    for m in fake.messages.values()
                )
            )
        await check_privacy(bot)
        dealt = await press(fake, world.gm, "newhand")
        assert (await said_to(dealt)).startswith(f"Deal {number} of 13 dealt")
        table = await wait_table(fake, f"Deal {number} of 13")
        await check_privacy(bot)
        return table

    async def play_out(bot: BondBot) -> None:
        """The turn timers play the PCs' bids and cards; the NPC plays by itself."""
        while await turn_of(bot) is not None:
            await time_out(bot)

    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        opened = await fake.slash(
            world.gm, "table open makao", npc="Le Chiffre", minimum="10", maximum="100", stake="10"
        )
        assert opened.ephemeral and opened.content.startswith("Table opened")
        await wait_table(fake, "Makao (piekiełko) — Le Chiffre")
        table_command = fake.command("table", world.guild)
        (opening,) = [g for g in table_command["options"] if g["name"] == "open"]
        (makao_fr,) = [o for o in opening["options"] if o["name"] == "makao"]
        stake_option = next(o for o in makao_fr["options"] if o["name"] == "stake")
        assert stake_option["name_localizations"]["fr"] == "enjeu"
        for key in ("bond", "mathis", "leiter"):
            await join(fake, users[key], "50")
            await press(fake, users[key], "choose", "simulate")
        await wait_table(fake, "4 players in the game: a cycle of 13 deals.")
        no_bets = await fake.slash(world.player, "table bet", amount="10")
        assert no_bets.ephemeral and (await said_to(no_bets)).startswith("Makao has no bets")

        # Deal 1: one card each, a trump turned; bids from the panels and a timeout.
        table = await deal(bot, 1)
        trump = expected.deals[0].trump
        assert trump is not None
        # Issue 34: the trump, then what the deal waits for, on its first line.
        assert deal_field(table, 1).startswith(f"Trump: {Card.parse(trump).pretty} · ")
        assert "Pot: $40" in str(table.embeds[0])
        while (key := await turn_of(bot)) is not None and (await engine(bot)).phase == "bidding":
            if key == "leiter":
                await time_out(bot)
                await wait_table(fake, "Time ran out for Felix Leiter")
            elif key != "npc":
                panel = await play_button(bot, users[key])
                hand = (await engine(bot)).hands[str(ids[key])]
                embed = str(panel.embeds[0])
                if key == "mathis":  # his seat panel, in French: his card, the question
                    assert f"Vos cartes : {Card.parse(hand[0]).pretty}" in embed
                    assert "Votre annonce : combien de plis ferez-vous exactement, sur 1 ?" in embed
                    assert panel.button_labels() == ["Annoncer 0", "Annoncer 1"]
                else:
                    assert panel.button_labels() == ["Bid 0", "Bid 1"]
                assert sorted(panel_ids(panel, "bid")) == ["0", "1"]  # one card: 0 or 1
                bid = await fake.click(users[key], panel, panel_ids(panel, "bid")[str(BIDS[key])])
                assert bid.response_type == 7  # the seat panel, drawn again in place
                said = "annonce" if key == "mathis" else "bids"
                assert (await said_to(bid)).startswith(f"{NAMES[key]} {said} {BIDS[key]}.")
                assert not bid.button_labels()  # his bid made, nothing more to do now
        await check_privacy(bot)
        while (key := await turn_of(bot)) is not None:
            if key == "leiter":
                await time_out(bot)
                continue
            (card,) = (await engine(bot)).hands[str(ids[key])]
            # One legal card: the table's Play a card plays it, no panel, no second click.
            played = await play_button(bot, users[key])
            assert played.response_type == 7  # the table redrawn; his words privately after
            verb = "joue" if key == "mathis" else "plays"
            assert ((await said_to(played)) or "").startswith(
                f"{NAMES[key]} {verb} {Card.parse(card).pretty}."
            )
            assert not (await engine(bot)).hands.get(str(ids[key]))
            await check_privacy(bot)
        # The deal is over: the table waits for the GM's next deal, and Bond (who missed
        # his bid) may spend a Hero Point through the table's one Spend button.
        table = await fake.wait_for_message(
            predicate=lambda m: m.embeds and "Spend a Hero Point" in m.button_labels()
        )
        assert table.button_labels() == ["Deal (GM)", "Spend a Hero Point", "My seat", "GM"]
        (trick,) = expected.deals[0].tricks
        fields = {f["name"]: f["value"] for f in table.embeds[0]["fields"]}
        assert fields["Tricks"].startswith("Trick 1: ")
        assert f"— **{NAMES[trick.winner or '']}** takes it" in fields["Tricks"]
        # The deal's picture (issue 34): the trump, then each player's card, labelled with
        # his bid and the tricks he took, as the other games show hands; under the table,
        # on the answer to the Play that ended the deal (issue 32).
        (picture,) = table.embeds[1:]
        assert picture["title"] == "Deal 1"
        first = expected.deals[0]
        leader = first.players.index(trick.leader)
        played = {
            seat: Card.parse(trick.cards[(place - leader) % len(first.players)])
            for place, seat in enumerate(first.players)
        }
        labels = [("", "Trump")] + [
            (NAMES[seat], f"Bid {first.bids[seat]} · took {first.taken(seat)}")
            for seat in first.players
        ]
        assert picture["description"] == "\n".join(
            [f"**Trump**: {Card.parse(trump).pretty}"]
            + [
                f"**{name} · {what}**: {played[seat].pretty}"
                for (name, what), seat in zip(labels[1:], first.players, strict=True)
            ]
        )
        assert "· Bid 1 · took 0**" in picture["description"]  # Bond's missed bid
        (drawn,) = table.attachments
        rows = [[Card.parse(trump)], *([played[seat]] for seat in first.players)]
        assert drawn.data == result_png(rows, labels, "Deal 1")
        spent = await fake.click(world.player, table, button_id(fake, "hp"))
        assert (
            await said_to(spent)
        ) == "You spend a Hero Point: the deal is scored as made (11 points)."
        table = await wait_table(fake, "11★")
        assert "**James Bond** · bid 1 · took 0 → 11 (Hero Point)" in deal_field(table, 1)

        # Deal 2: the bids, then a restart.
        await deal(bot, 2)
        while (await engine(bot)).phase == "bidding":
            await time_out(bot)
        await wait_table(fake, "Time ran out for")
        await wait_table(fake, "To play:")
        await check_privacy(bot)
        bids = dict((await engine(bot)).deals[-1].bids)

    async with bot_env.run() as bot:  # a restart in the middle of the deal
        table = await wait_table(fake, "Deal 2 of 13")
        assert (await engine(bot)).deals[-1].bids == bids
        await check_privacy(bot)
        await play_out(bot)
        for number in range(3, 14):
            table = await deal(bot, number)
            if number == 13:
                assert deal_field(table, 13).startswith("No trump: the cycle's last deal")
            await play_out(bot)
            game = await engine(bot)
            timed = [m for m in game.history if m.seat in (str(ids[k]) for k in users)]
            assert timed and all(m.auto == "timeout" for m in timed)

        table = await wait_table(fake, "The cycle is complete; it ends (and the pot is paid)")
        game = await engine(bot)
        totals, winners = game.totals(), game.winners()
        await check_privacy(bot)
        bot_env.clock.advance(61)  # the last deal's Hero Point window closes
        await bot.services.tables.run_due()
        table = await wait_table(fake, "Game over")
        names = ", ".join(NAMES[key_of[seat]] for seat in winners)
        assert f"Winner: **{names}** with {totals[winners[0]]} points" in str(table.embeds[0])
        share = 4 * STAKE // len(winners)
        chips = (await bot.services.tables.snapshot(1)).chips
        for key in users:
            won = share if str(ids[key]) in winners else 0
            assert chips[ids[key]] == BUY_IN - STAKE + won
        closed = await fake.slash(world.gm, "table close")
        assert closed.content.startswith("Table closed")

    cash = await balances(bot_env, ids)
    assert cash["bond"] == (100_000 - BUY_IN + chips[ids["bond"]], 1 + 2 - 1)
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            assert await ledger.balance(conn, "pot:1:makao", "cash") == 0
    finally:
        await db.close()


async def test_a_cycle_closed_early_names_no_winner(bot_env: BotEnv) -> None:
    """Closed after its first deal, the cycle pays no pot: every stake goes back, every
    PC is even. The closed table and the summary then name no winner (the score sheet's
    leader won nothing), give no medal, and tell a Hero Point spent on a missed bid
    without "($0)"; the deal is a deal there, as at the table."""
    fake, world = bot_env.fake, bot_env.world
    users = {"bond": world.player, "mathis": world.player_fr}
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        users,
    )
    before = await balances(bot_env, ids)
    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        await fake.slash(
            world.gm, "table open makao", npc="Le Chiffre", minimum="10", maximum="100", stake="10"
        )
        await wait_table(fake, "Makao (piekiełko) — Le Chiffre")
        for user in users.values():
            await join(fake, user, "50")
            await press(fake, user, "choose", "simulate")
        await wait_table(fake, "3 players in the game")
        spent, number, leader = "", 0, []
        # Deals until a PC misses his bid (the timer bids 0 for him) and wins it back, on a
        # deal after which the score sheet has a leader (not every seat tied).
        while not (spent and 0 < len(leader) < 3):
            number += 1
            spent = ""
            await fake.wait_until(lambda: "Deal (GM)" in button_labels(fake))
            dealt = await press(fake, world.gm, "newhand")
            assert (await said_to(dealt)).startswith(f"Deal {number} of")
            while (await bot.services.tables.snapshot(1)).state.engine.turn():
                bot_env.clock.advance(TURN_TIMER + 1)  # every bid and card by the timer
                await bot.services.tables.run_due()
            await fake.wait_until(lambda: "Deal (GM)" in button_labels(fake))
            if "Spend a Hero Point" in button_labels(fake):
                for key, user in users.items():  # whoever missed his bid wins it back
                    if find_button(table_message(fake).components, ["hp"]) is None:
                        break  # the last offer spent: the answer took the button away
                    answer = await fake.click(user, table_message(fake), button_id(fake, "hp"))
                    if ((await said_to(answer)) or "").startswith(("You spend", "Vous dépensez")):
                        spent = NAMES[key]
            game = (await bot.services.tables.snapshot(1)).state.engine
            assert isinstance(game, Makao)
            leader = game.winners()  # the score sheet's leader, once it has one
        assert len(game.deals) == number < 13
        assert 0 < len(leader) < len(game.seats)
        closed = await fake.slash(world.gm, "table close")
        assert closed.content.startswith("Table closed")
        end = await the_end(fake, bot, 1, ["James Bond", "René Mathis"], "Le Chiffre")
    for text in (end.closed, end.summary):
        assert "Winner" not in text and "🥇" not in text, text
        assert "**James Bond**: even" in text and "**René Mathis**: even" in text
        assert f"Deals played: {number}." in text and "Hands played" not in text
    assert f"**{spent}** spent a Hero Point and won back deal {number}." in end.summary
    assert "$0" not in end.summary
    assert "Biggest win" not in end.summary  # a stake given back is no win
    after = await balances(bot_env, ids)
    assert [after[key][0] for key in users] == [before[key][0] for key in users]  # all even
