"""Hold'em's Sit out clicked twenty times at once is one move (issue 20, item 3).

The table message's button says which way it goes (`sit:out`), and so does the Back in
button its answer carries (`sit:in`): repeated clicks never flip the player back.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from e2e_env import BotEnv
from fakediscord import InteractionResult
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
        sit_out = button_id(fake, "sit", "out")
        assert [b["label"] for b in table_message(fake).buttons() if b["custom_id"] == sit_out] == [
            "Sit out"
        ]

        answers: list[InteractionResult] = list(
            await asyncio.gather(
                *(fake.click(world.player, table_message(fake), sit_out) for _ in range(BURST))
            )
        )
        contents = Counter(a.content for a in answers)
        assert contents == {
            t("holdem.sat_out", "en"): 1,
            t("holdem.already_out", "en"): BURST - 1,
        }
        assert all(a.ephemeral for a in answers)
        await wait_table(fake, "James Bond")
        table_id = int(sit_out.split(":")[2])
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
        # In French, and the table message's button again.
        fr = await fake.click(world.player_fr, table_message(fake), sit_out)
        assert fr.content == t("holdem.sat_out", "fr") and fr.button_labels() == ["Revenir"]
