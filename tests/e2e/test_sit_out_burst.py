"""Hold'em's Sit out clicked twenty times at once is one move (issue 20, item 3).

Sit out is in the player's seat panel (My seat), not on the table message. Its button
says which way it goes (`sit:out`), and so does the Back in button its answer carries
(`sit:in`, also in his panel while he sits out): repeated clicks never flip him back.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from e2e_env import BotEnv
from table_flow import (
    bond,
    button_id,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    table_message,
    wait_table,
)

from bondbot.i18n import t
from bondbot.local import InteractionResult

BURST = 20


async def test_twenty_sit_out_clicks_at_once_sit_him_out_once(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env,
        {"npc": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)},
        {"bond": world.player, "mathis": world.player_fr},
    )
    async with bot_env.run() as bot:
        await bot.services.guilds.update(world.guild.id, gm_role_id=world.gm_role.id)
        await fake.slash(
            world.gm,
            "table open holdem",
            npc="Le Chiffre",
            minimum="50",
            maximum="500",
            big_blind="10",
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, world.player, "100")
        await join(fake, world.player_fr, "100")
        for user in (world.player, world.player_fr):
            await press(fake, user, "choose", "simulate")
        # Two players in: the table waits for the GM's Deal; Sit out is not on it.
        await fake.wait_until(
            lambda: (
                [b["label"] for b in table_message(fake).buttons()]
                == ["Deal (GM)", "My seat", "GM"]
            ),
            what="the table waits for the deal",
        )
        table = table_message(fake)
        panel = await fake.click(world.player, table, button_id(fake, "seat"))
        table_id = int(panel.custom_ids()[0].split(":")[2])
        sit_out = f"bb:tbl:{table_id}:sit:out"
        assert panel.button_labels() == ["Sit out", "Leave"] and sit_out in panel.custom_ids()

        answers: list[InteractionResult] = list(
            await asyncio.gather(*(fake.click(world.player, panel, sit_out) for _ in range(BURST)))
        )
        contents = Counter(a.content for a in answers)
        assert contents == {
            t("holdem.sat_out", "en"): 1,
            t("holdem.already_out", "en"): BURST - 1,
        }
        assert all(a.ephemeral for a in answers)
        await wait_table(fake, "James Bond")
        snapshot = await bot.services.tables.snapshot(table_id)
        bond_seat = snapshot.state.seat_of_user(world.player.id)
        assert bond_seat is not None
        assert str(bond_seat.character_id) in snapshot.state.engine.sitting_out

        # Back in, from the answer's own button, twenty times at once: back in once.
        back = next(a for a in answers if a.content == t("holdem.sat_out", "en"))
        (back_in,) = back.custom_ids()
        assert back_in == f"bb:tbl:{table_id}:sit:in"
        assert back.button_labels() == ["Back in"]
        again = list(
            await asyncio.gather(*(fake.click(world.player, back, back_in) for _ in range(BURST)))
        )
        assert Counter(a.content for a in again) == {
            t("holdem.sat_in", "en"): 1,
            t("holdem.already_in", "en"): BURST - 1,
        }
        snapshot = await bot.services.tables.snapshot(table_id)
        assert str(bond_seat.character_id) not in snapshot.state.engine.sitting_out
        # In French, from his own panel; sitting out, his panel offers Back in instead.
        panel_fr = await fake.click(world.player_fr, table_message(fake), button_id(fake, "seat"))
        assert panel_fr.button_labels() == ["S'absenter", "Partir"]
        fr = await fake.click(world.player_fr, panel_fr, sit_out)
        assert fr.content == t("holdem.sat_out", "fr") and fr.button_labels() == ["Revenir"]
        panel_fr = await fake.click(world.player_fr, table_message(fake), button_id(fake, "seat"))
        assert f"bb:tbl:{table_id}:sit:in" in panel_fr.custom_ids()
        assert t("holdem.note_sitting_out", "fr") in panel_fr.embeds[0]["description"]
