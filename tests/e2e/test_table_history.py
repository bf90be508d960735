"""`/table history`: the table's hands, newest first, ten a page, each PC's result on each;
its pages are read from the ledger, so they turn after a restart."""

from __future__ import annotations

from e2e_env import BotEnv
from table_flow import (
    bet,
    bond,
    create_cast,
    join,
    le_chiffre,
    press,
    wait_table,
)

from bondbot.storage import ledger
from bondbot.storage.db import Database

COUPS = 12


async def test_the_history_pages_through_every_hand(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    ids = await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        empty = await fake.slash(world.player, "table history")
        assert empty.ephemeral and "No hand has moved chips" in empty.embeds[0]["description"]
        await join(fake, world.player, "500")
        await press(fake, world.player, "choose", "simulate")
        for coup in range(1, COUPS + 1):
            bot_env.clock.advance(1)  # hands are told apart by their time (summary.py)
            await bet(fake, world.player, "tie", "10")  # a tie bet always moves chips
            await press(fake, world.gm, "deal")
            await wait_table(fake, f"Coup {coup}")
        first = await fake.slash(world.player, "table history")
    db = await Database.open(bot_env.database)
    try:
        async with db.read() as conn:
            nets = [
                (row.amount if row.dst == f"chips:1:{ids['bond']}" else -row.amount)
                for row in await ledger.table_entries(conn, 1)
                if row.reason.startswith("baccarat.")
            ]
    finally:
        await db.close()
    assert len(nets) == COUPS
    text = first.embeds[0]["description"].split("\n")
    assert first.embeds[0]["title"].startswith("The last hands (page 1 of 2")
    assert len(text) == 10 and text[0].startswith(f"Coup {COUPS}: James Bond ")
    sign = "+" if nets[-1] > 0 else "−"
    assert text[0] == f"Coup {COUPS}: James Bond {sign}${abs(nets[-1]) // 100:,}"
    async with bot_env.run():  # a restart: the page buttons still turn
        older = next(cid for cid in first.custom_ids() if cid.endswith(":hist:1"))
        second = await fake.click(world.player, first, older)
        assert second.response_type == 7  # the page, turned in place
        lines = second.embeds[0]["description"].split("\n")
        assert [line.split(":")[0] for line in lines] == ["Coup 2", "Coup 1"]
