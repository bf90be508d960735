"""A blackjack evening to its end through the fake Discord: the closed table, the summary
and the shoes' proof.

Three PCs play three rounds against Le Chiffre; every decision is left to the turn timer
(each hand stands). Bond spends a Hero Point on a lost hand when he has one; Vesper
leaves before the close. Then: the closed table is the final scoreboard (everyone by name,
Vesper too, each one's result and Hero Points, the NPC's result, no lobby), the summary
tells the same and its chart counts the hands it says were played; no message of the
evening ever put a "?" where a name goes; the table message never carried a shoe's hash
in full, while `/table verify`, the closed table's Verify button and `/table history`
give the commitment, the seed and the command, in the asker's language.
"""

from __future__ import annotations

import re

from e2e_env import BotEnv
from evening_end import HASH, NAME_AS_QUESTION_MARK, the_end
from table_flow import (
    bond,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    said,
    table_message,
    wait_table,
)

from bondbot.money import format_amount
from bondbot.storage import ledger
from bondbot.storage.db import Database
from bondbot.tables.context import iso

TURN_TIMER = 30
ROUNDS = 3
SEED = (2).to_bytes(32, "big")


def vesper(owner: object) -> dict[str, object]:
    return {
        "name": "Vesper Lynd",
        "kind": "PC",
        "owner_id": owner.id,  # type: ignore[attr-defined]
        "cash": 50_000,
        "hero_points": 1,
    }


async def test_a_blackjack_evening_ends_with_its_scores_and_its_story(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env,
        {
            "npc": le_chiffre(),
            "bond": bond(world.player),
            "mathis": mathis(world.player_fr),
            "vesper": vesper(world.owner),
        },
        {"bond": world.player, "mathis": world.player_fr, "vesper": world.owner},
    )
    bot_env.seeds.append(SEED)  # the evening is the same every run
    players = {"bond": world.player, "mathis": world.player_fr, "vesper": world.owner}
    names = {"bond": "James Bond", "mathis": "René Mathis", "vesper": "Vesper Lynd"}

    async with bot_env.run() as bot:
        tables = bot.services.tables
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
        )
        commitment = re.search(r"`([0-9a-f]{64})`", opened.content or "").group(1)  # type: ignore[union-attr]
        table = await wait_table(fake, commitment)
        # One short line for the shoe; its commitment in full only where it is asked for.
        assert table.embeds[0]["footer"]["text"] == f"🔒 Shoe sealed · {commitment[:8]}…"
        proof = await fake.slash(world.player_fr, "table verify")
        assert proof.ephemeral and f"Engagement : `{commitment}`" in str(proof.embeds)
        assert "Graine : scellée" in str(proof.embeds)  # not before the shoe is done

        for key in ("bond", "mathis", "vesper"):
            await join(fake, players[key], "200")
            await press(fake, players[key], "choose", "simulate")
        for _ in range(ROUNDS):
            for key in ("bond", "mathis", "vesper"):
                placed = await fake.slash(players[key], "table bet", amount="20")
                assert placed.ephemeral
            dealt = await fake.slash(world.gm, "table deal")
            assert dealt.ephemeral or dealt.response_type in (4, 7)
            for _ in range(20):  # every decision left to the timer: each hand stands
                if not (await tables.snapshot(1)).state.engine.in_hand():
                    break
                bot_env.clock.advance(TURN_TIMER + 1)
                await tables.run_due()
            snapshot = await tables.snapshot(1)
            assert not snapshot.state.engine.in_hand()
            now = iso(bot.services.clock())
            mine = [o for o in snapshot.spendable_offers(now) if o.character_id == ids["bond"]]
            if mine:
                await fake.wait_until(
                    lambda: any(c.endswith(":hp") for c in table_message(fake).custom_ids()),
                    what="the Spend a Hero Point button",
                )
                spent = await press(fake, world.player, "spend", mine[0].id)
                assert (await said(spent)).startswith("You spend a Hero Point")
        left = await fake.slash(world.owner, "table leave")
        assert (await said(left)).startswith("You leave the table")

        history = await fake.slash(world.gm, "table history")
        assert history.ephemeral and f"Commitment: `{commitment}`" in str(history.embeds)
        closed = await fake.slash(world.gm, "table close")
        seed = re.search(r"seed: `([0-9a-f]{64})`", closed.content).group(1)  # type: ignore[union-attr]

        end = await the_end(fake, bot, 1, list(names.values()), "Le Chiffre")
        hands = (await tables.snapshot(1)).state.hand_no
        assert end.hands == hands == ROUNDS
        assert end.chart_hands == list(range(ROUNDS + 1))

        # The closed table keeps one button: the shoes' proof, privately, in French here.
        await wait_table(fake, f"🔓 Shoe revealed · {commitment[:8]}…")
        verify = await press(fake, world.player_fr, "verify")
        assert verify.ephemeral and f"Graine : `{seed}`" in str(verify.embeds)
        assert f"bondbot verify {seed} {commitment} --packs 6" in str(verify.embeds)
        after = await fake.slash(world.player, "table history")  # the closed table's
        assert f"Seed: `{seed}`" in str(after.embeds) and "Round 1:" in str(after.embeds)
        assert HASH.search(str(table_message(fake).embeds)) is None

    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            cash = {
                key: await ledger.balance(conn, ledger.sheet_account(ids[key]), "cash")
                for key in names
            }
    finally:
        await db.close()
    start = {"bond": 100_000, "mathis": 50_000, "vesper": 50_000}
    for key, name in names.items():  # each one's result, as his sheet gained it
        net = cash[key] - start[key]
        shown = "even" if net == 0 else ("+" if net > 0 else "") + format_amount(net)
        assert f"**{name}**: {shown}" in end.closed, end.closed
        assert f"**{name}**: {shown}" in end.summary
    npc = -sum(cash[key] - start[key] for key in names)
    word = "richer" if npc > 0 else "lighter"
    if npc:
        assert f"Le Chiffre leaves {format_amount(abs(npc))} {word}." in end.closed


def test_the_scan_finds_a_question_mark_where_a_name_goes_and_only_there() -> None:
    standing_for_a_name = [
        "Winner: ?",
        "?: +$31",
        "? hits: 3♥ (15).",
        "Winner: **?**",
        "**?**, **?**",
        "Main pot $300 → ?, Le Chiffre",
        "Dealer — ?",
    ]
    questions = [
        "Delete **James Bond**? The sheet disappears",
        "Prendre encore ?",
        "Shows 8♣ 🂠 (?)",
        "Votre annonce : combien des 3 plis ferez-vous exactement ?",
    ]
    assert [t for t in standing_for_a_name if not NAME_AS_QUESTION_MARK.search(t)] == []
    assert [t for t in questions if NAME_AS_QUESTION_MARK.search(t)] == []
