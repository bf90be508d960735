"""A Macao evening of two coups through the fake Discord: two PCs against Le Chiffre's bank.

The shoe's seed was chosen by playing the evening on the pure engine first. Between coups
the table shows the GM's Deal, End the evening is in his panel. Coup 1: each player sees
only his own cards, in his seat panel (My seat) with his wagers and Pass; the table shows
the wagers ("Bet on my hand", not to be taken for My seat), whose form states the
limits, and a second wager is refused at the click. Bond (English) holds a natural 9 and
wagers on his own hand, Mathis (French) wagers on a tie; Bond's natural is shown and paid
three times at once. The bot restarts while Mathis is to draw; he double-clicks Draw in
his panel, beside his cards (one card); the NPC banker plays by itself, the tie wager
loses, and Mathis wins it back with the table's one Hero Point button. Coup 2: the GM
takes Le Chiffre over; Bond wagers with /table bet, Mathis passes (from his panel);
Bond's turn timer runs out (he draws, as advised, and the table says so); the GM sees the
NPC's cards and plays its draw. The evening ends after its two coups with its winner.
Throughout, nothing the channel or the other player could ever see holds a card that was
still face down (`privacy.assert_never_seen`, every version of every message).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

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

from bondbot.games.contract import Move
from bondbot.games.macao import GAME
from bondbot.games.macao.counting import Counting, hand_total
from bondbot.games.macao.engine import Macao, MacaoRules, Phase
from bondbot.games.registry import NewTable
from bondbot.local import FakeDiscord
from bondbot.local.client import InteractionResult
from bondbot.local.models import FakeMessage, FakeUser
from bondbot.rules.cards import Card, cards_pretty
from bondbot.storage import ledger
from bondbot.storage.db import Database

NPC, BOND, MATHIS = "1", "2", "3"  # the cast's character ids, in creation order
BOND_STAKE, TIE_STAKE, SECOND_STAKE = 10_000, 1_000, 1_000
TURN_TIMER = 30


@dataclass
class Evening:
    """The evening as the pure engine plays it, for the test to expect."""

    seed: bytes
    engine: Macao
    coup1: dict[str, list[Card]]  # each hand's first two cards, the bank's as "bank"
    coup2: dict[str, list[Card]]
    mathis_third: Card
    bond_third: Card
    banker_draws: bool  # the NPC banker's advised move in coup 2, which the GM plays
    nets: dict[str, int]  # each PC's net over the evening


def total(cards: list[Card]) -> int:
    return hand_total(cards, Counting.MINUS9)


def settle(engine: Macao, rng: random.Random) -> None:
    """What the table does by itself after a move: automations, the NPC on automatic."""
    while (step := engine.automation() or engine.npc_move(rng)) is not None:
        engine.apply(step)


def evening(seed: bytes) -> Evening | None:
    table = NewTable(npc=NPC, packs=1, min_bet=1_000, max_bet=50_000, options=MacaoRules(coups=2))
    engine = GAME.new_engine(table, GAME.live_shoe(table, seed))
    assert isinstance(engine, Macao)
    for seat in (BOND, MATHIS):
        engine.sit(seat)
    engine.stacks = {BOND: 50_000, MATHIS: 20_000, NPC: 1_000_000}
    rng = random.Random(0)
    nets = {BOND: 0, MATHIS: 0}

    engine.apply(Move(kind="deal"))
    coup1 = {hand.seat: list(hand.cards) for hand in engine.players} | {
        "bank": list(engine.bank_cards)
    }
    if total(coup1[BOND]) != 9 or total(coup1[MATHIS]) > 4 or total(coup1["bank"]) >= 7:
        return None
    engine.apply(Move(kind="wager", seat=BOND, amount=BOND_STAKE, target="own"))
    engine.apply(Move(kind="wager", seat=MATHIS, amount=TIE_STAKE, target="tie"))
    settle(engine, rng)
    engine.apply(Move(kind="draw", seat=MATHIS))
    settle(engine, rng)
    first, second = engine.players
    if engine.phase is not Phase.IDLE or second.net != -TIE_STAKE:
        return None
    mathis_third = second.cards[2]
    nets[BOND] += first.net or 0
    nets[MATHIS] += 9 * TIE_STAKE - TIE_STAKE  # lost, then won back at the tie's odds

    engine.apply(Move(kind="deal"))  # the GM plays the NPC from here: no automatic play
    coup2 = {hand.seat: list(hand.cards) for hand in engine.players} | {
        "bank": list(engine.bank_cards)
    }
    if total(coup2[BOND]) > 4 or total(coup2["bank"]) >= 7:
        return None
    engine.apply(Move(kind="wager", seat=BOND, amount=SECOND_STAKE, target="own"))
    engine.apply(Move(kind="pass", seat=MATHIS))
    engine.apply(Move(kind="naturals"))
    engine.apply(Move(kind="draw", seat=BOND, auto="timeout"))
    if engine.phase is not Phase.BANKER:
        return None
    banker = engine.timeout_move(NPC)
    assert banker is not None
    engine.apply(banker)
    settle(engine, rng)
    if engine.phase is not Phase.OVER or not engine.players[0].net:
        return None
    nets[BOND] += engine.players[0].net or 0
    return Evening(
        seed,
        engine,
        coup1,
        coup2,
        mathis_third,
        engine.players[0].cards[2],
        banker.kind == "draw",
        nets,
    )


def find_evening() -> Evening:
    for n in range(200_000):
        found = evening(n.to_bytes(32, "big"))
        if found is not None:
            return found
    raise AssertionError("no seed for this evening")


def labels(message: FakeMessage | InteractionResult) -> list[str]:
    return [b["label"] for row in message.components for b in row["components"]]


async def seat_panel(fake: FakeDiscord, user: FakeUser) -> InteractionResult:
    """The player's private panel (My seat): his cards as a picture, his total, his moves."""
    panel = await fake.click(user, table_message(fake), button_id(fake, "seat"))
    assert panel.ephemeral and panel.embeds, await said(panel)
    return panel


def panel_id(panel: InteractionResult, action: str) -> str:
    for row in panel.components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return str(component["custom_id"])
    raise AssertionError(f"no {action} button in the panel")


def play_id(fake: FakeDiscord, action: str) -> str:
    """A button's custom id, whatever move count it carries."""
    for row in table_message(fake).components:
        for component in row["components"]:
            if component["custom_id"].split(":")[3] == action:
                return component["custom_id"]
    raise AssertionError(f"no {action} button")


async def test_a_macao_evening(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    plan = find_evening()
    c1, c2 = plan.coup1, plan.coup2
    ids = await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    assert (str(ids["npc"]), str(ids["bond"]), str(ids["mathis"])) == (NPC, BOND, MATHIS)
    bot_env.seeds.append(plan.seed)

    async with bot_env.run() as bot:
        await bot.services.guilds.update(
            world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=TURN_TIMER
        )
        opened = await fake.slash(
            world.gm,
            "table open macao",
            npc="Le Chiffre",
            minimum="10",
            maximum="500",
            bankroll="10000",
            coups=2,
        )
        assert opened.ephemeral and opened.content.startswith("Table opened.")
        told = await opened.wait_followup()
        assert "a wager on his own hand: the bank loses 1.13%" in (await said(told))
        assert "takes about **83.92%** of every stake" in (await said(told))
        table_fr = fake.command("table", world.guild)
        macao_fr = next(
            o
            for group in table_fr["options"]
            for o in group.get("options", [])
            if o["name"] == "macao"
        )
        assert {o.get("name_localizations", {}).get("fr") for o in macao_fr["options"]} >= {
            "compte",
            "banque_tenue_par",
            "egalite_paie",
            "coups",
        }
        table = await wait_table(fake, "Counting **minus 9**")
        assert table.embeds[0]["title"] == "Macao — Le Chiffre holds the bank"

        await join(fake, world.player, "500")
        await join(fake, world.player_fr, "200")
        for user in (world.player, world.player_fr):
            await press(fake, user, "choose", "simulate")

        # -- coup 1 -----------------------------------------------------------------------
        # Between coups: the table waits for the GM's Deal; his other controls are private.
        await fake.wait_until(
            lambda: labels(table_message(fake)) == ["Deal (GM)", "My seat", "GM"],
            what="the table waits for the deal",
        )
        gm = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        assert labels(gm)[0] == "End the game, keep the table open"  # issue 34
        refused = await press(fake, world.player, "end")
        assert (await said(refused)).startswith("Only the GM can do that")
        dealt = await press(fake, world.gm, "deal")
        assert dealt.response_type == 7  # the table message, redrawn in place
        table = await wait_table(fake, "waiting for James Bond, René Mathis")
        wagers = ["Bet on my hand", "Bet on the banker", "Bet on a tie"]
        assert labels(table) == [*wagers, "My seat", "GM"]
        mine = await seat_panel(fake, world.player)
        assert mine.embeds[0]["description"].endswith(
            f"Your cards: {cards_pretty(c1[BOND])}\nTotal **9** (minus 9). A natural 9! "
            "Wager on your own hand, the banker's hand or a tie — or pass."
        )
        assert mine.embeds[0]["image"]["url"] == "attachment://hand.png"
        assert labels(mine) == [*wagers, "Pass"]
        mine_fr = await seat_panel(fake, world.player_fr)
        assert mine_fr.embeds[0]["description"].endswith(
            f"Vos cartes : {cards_pretty(c1[MATHIS])}\nTotal **{total(c1[MATHIS])}** "
            "(moins 9). Misez sur votre main, sur celle du banquier ou sur l'égalité — ou passez."
        )
        assert labels(mine_fr) == [
            "Miser sur ma main",
            "Miser sur le banquier",
            "Miser sur l'égalité",
            "Passer",
        ]
        outsider = await press(fake, world.owner, "mine")  # the NPC's cards: the GM's panel
        assert (await said(outsider)).startswith("Only the GM can do that")

        modal = await fake.click(world.player, mine, panel_id(mine, "wager"))  # from his panel
        assert modal.modal is not None and modal.modal.title == "Wager on your own hand"
        # His $500 in chips must cover the worst a wager can lose (three times it, to a
        # banker's natural 9): the form says so before he types, in whole dollars that
        # are allowed ($166.66 is the exact most: issue 34).
        assert "Between $10 and $166" in str(modal.modal.components)
        assert "166.66" not in str(modal.modal.components)
        placed = await fake.submit_modal(world.player, modal, {"amount": "100"})
        assert placed.ephemeral and (await said(placed)) == "Wager placed: $100 on your own hand."
        await wait_table(fake, "$100 on his own hand")
        again = await press(fake, world.player, "wager", "tie")  # refused before any form
        assert again.modal is None
        assert (await said(again)) == "You have already wagered or passed on this coup."
        assert_never_seen(fake, None, [*c1[BOND], *c1[MATHIS], *c1["bank"]])
        assert_never_seen(fake, world.player_fr, [*c1[BOND], *c1["bank"]])
        assert_never_seen(fake, world.player, [*c1[MATHIS], *c1["bank"]])
        assert_never_seen(fake, world.gm, [*c1[BOND], *c1[MATHIS]])  # he sees the NPC's only

        modal = await press(fake, world.player_fr, "wager", "tie")
        assert modal.modal is not None and modal.modal.title == "Miser sur l'égalité"
        placed = await fake.submit_modal(world.player_fr, modal, {"amount": "10"})
        assert (await said(placed)) == "Mise placée : 10\u00a0$ sur l'égalité."
        table = await wait_table(fake, "To draw or stand: **René Mathis**")
        shown = str(table.embeds)
        assert f"James Bond shows a natural 9: {cards_pretty(c1[BOND])}." in shown
        assert f"James Bond: {cards_pretty(c1[BOND])} (9) — $100 on his own hand: wins $300" in (
            shown
        )
        assert_never_seen(fake, None, [*c1[MATHIS], *c1["bank"]])
        assert_never_seen(fake, world.player, [*c1[MATHIS], *c1["bank"]])

    async with bot_env.run() as bot:  # a restart while Mathis is to draw
        await wait_table(fake, "To draw or stand: **René Mathis**")
        # Mathis's panel: his cards and his turn's moves; a double click on Draw draws once.
        mine_fr = await seat_panel(fake, world.player_fr)
        assert labels(mine_fr) == ["Tirer", "Rester"]
        assert mine_fr.embeds[0]["image"]["url"] == "attachment://hand.png"
        draw = panel_id(mine_fr, "draw")
        clicks = await asyncio.gather(
            fake.click(world.player_fr, mine_fr, draw),
            fake.click(world.player_fr, mine_fr, draw),
        )
        cards = [*c1[MATHIS], plan.mathis_third]
        assert sorted([await said(c) for c in clicks]) == sorted(
            [
                "La table a avancé depuis que ce bouton a été affiché : regardez de nouveau "
                "la table.",
                f"Vous tirez {plan.mathis_third.pretty} : {cards_pretty(cards)}, total "
                f"{total(cards)}.\nLe coup est réglé : vous perdez 10\u00a0$.",
            ]
        )
        table = await wait_table(fake, f"René Mathis draws {plan.mathis_third.pretty}.")
        shown = str(table.embeds)
        assert f"René Mathis: {cards_pretty(cards)} ({total(cards)}) — $10 on a tie: loses $10" in (
            shown
        )
        assert labels(table) == ["Deal (GM)", "Spend a Hero Point", "My seat", "GM"]
        spend = button_id(fake, "hp")
        stolen = await fake.click(world.player, table_message(fake), spend)
        assert (await said(stolen)) == "You have no lost hand to win back with a Hero Point now."
        spent = await fake.click(world.player_fr, table_message(fake), spend)
        assert (await said(spent)) == (
            "Vous dépensez un Point d'Héroïsme et gagnez le coup : la banque vous paie 90\u00a0$."
        )
        await wait_table(fake, "René Mathis spends a Hero Point and wins the hand ($90 paid)")

        # -- coup 2: the GM plays Le Chiffre ---------------------------------------------
        took = await fake.slash(world.gm, "table npc", auto=False)
        assert (await said(took)).startswith("You play Le Chiffre now")
        await press(fake, world.gm, "deal")
        await wait_table(fake, "Coup 2 of 2")
        wager = await fake.slash(world.player, "table bet", amount="10", on="player")
        assert (await said(wager)) == "Wager placed: $10 on your own hand."
        assert "pass" not in str(table_message(fake).components)  # Pass: in his panel
        passed = await press(fake, world.player_fr, "pass")
        assert (await said(passed)) == "Vous passez : vous ne jouez pas ce coup."
        await wait_table(fake, "To draw or stand: **James Bond**")
        assert_never_seen(fake, None, [*c2[BOND], *c2[MATHIS], *c2["bank"]])
        assert_never_seen(fake, world.player_fr, [*c2[BOND], *c2["bank"]])
        assert_never_seen(fake, world.player, [*c2[MATHIS], *c2["bank"]])
        assert_never_seen(fake, world.gm, [*c2[BOND], *c2[MATHIS]])

        bot_env.clock.advance(TURN_TIMER + 1)
        await bot.services.tables.run_due()
        table = await wait_table(
            fake, f"James Bond did not act in time: draws, as advised: {plan.bond_third.pretty}."
        )
        assert "The banker, **Le Chiffre**, may draw" in str(table.embeds)
        assert "Le Chiffre is played by the GM." in str(table.embeds)
        not_his = await fake.click(world.player, table_message(fake), play_id(fake, "stand"))
        assert (await said(not_his)) == "It is not your turn: Le Chiffre is to draw."
        advice = "draw" if plan.banker_draws else "stand"
        npc_cards = await press(fake, world.gm, "mine")
        assert npc_cards.ephemeral and (await said(npc_cards)) == (
            f"Le Chiffre's cards: {cards_pretty(c2['bank'])}\n"
            f"Total **{total(c2['bank'])}** (minus 9). "
            f"You may draw or stand; advised: **{advice}**."
        )
        assert_never_seen(fake, None, c2["bank"])  # the GM's eyes only, until the showdown
        assert_never_seen(fake, world.player, c2["bank"])
        played = await fake.click(world.gm, table_message(fake), play_id(fake, advice))
        assert "The coup is settled: you " in (await said(played))
        table = await wait_table(fake, "Winner of the evening")
        shown = str(table.embeds)
        assert "The evening is over after 2 coups." in shown
        bank = plan.engine.bank_cards
        assert f"Banker Le Chiffre: {cards_pretty(bank)} ({total(bank)})" in shown
        chips = {BOND: 50_000 + plan.nets[BOND], MATHIS: 20_000 + plan.nets[MATHIS]}
        best = max(chips.values())
        winner = "James Bond" if chips[BOND] == best else "René Mathis"
        assert f"Winner of the evening: **{winner}** with ${best // 100:,}" in shown
        assert labels(table) == ["My seat", "GM"]  # the evening is over: nothing to play

        # Mathis passed coup 2: his cards were never shown to anyone but him.
        assert_never_seen(fake, None, c2[MATHIS])
        assert_never_seen(fake, world.player, c2[MATHIS])
        assert_never_seen(fake, world.gm, c2[MATHIS])

    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)
            held = {seat: await ledger.balance(conn, f"chips:1:{seat}", "cash") for seat in chips}
            bank = await ledger.balance(conn, "bank:1", "cash")
    finally:
        await db.close()
    assert held == chips
    assert bank == 1_000_000 - plan.nets[BOND] - plan.nets[MATHIS]
    assert await balances(bot_env, ids) == {
        "npc": (0, 0),
        "bond": (100_000 - 50_000, 3),  # 1 + 2 for simulating
        "mathis": (50_000 - 20_000, 0),  # 1 for simulating, spent
    }
