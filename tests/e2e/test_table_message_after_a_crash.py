"""After a crash, the channel shows exactly one table message, and it is right.

Two crashes leave the database in a state the bot must repair at its next start: stopped
after closing a table and before redrawing its message (the message still shows an open
table with live buttons), or after posting a table message and before saving its id (a
second message would be posted). Each is reproduced by writing that state, then
restarting the bot.
"""

from __future__ import annotations

from e2e_env import BotEnv
from sheet_helpers import query_file
from table_flow import create_cast, le_chiffre, table_message, wait_table

from bondbot.storage.db import Database
from bondbot.storage.settings import get_settings
from bondbot.tables.service import TableService


async def open_a_table(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await fake.slash(world.owner, "gm role", role=world.gm_role)
    await fake.slash(
        world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
    )
    await wait_table(fake, "Le Chiffre")


async def test_a_table_closed_just_before_a_crash_is_redrawn_closed(bot_env: BotEnv) -> None:
    fake = bot_env.fake
    await create_cast(bot_env, {"chiffre": le_chiffre()}, {})
    async with bot_env.run():
        await open_a_table(bot_env)
    # The bot closed the table and died before it could edit the message.
    db = await Database.open(bot_env.database)
    try:
        tables = TableService(
            db, clock=bot_env.clock, guild_settings=lambda guild: _settings(db, guild)
        )
        (table,) = await tables.open_tables()
        await tables.close(table.id, bot_env.world.gm.id)
    finally:
        await db.close()
    assert table_message(fake).components  # still drawn open, buttons live
    async with bot_env.run():
        await wait_table(fake, "This table is closed.")
        # The game's buttons are gone: only the shoes' proof stays.
        buttons = [b["custom_id"].split(":")[3] for b in table_message(fake).buttons()]
        assert buttons == ["verify"]
    async with bot_env.run():  # drawn once: the next start leaves it alone
        edits = table_message(fake).edit_count
    assert table_message(fake).edit_count == edits


async def test_a_table_message_whose_id_was_lost_is_not_posted_twice(bot_env: BotEnv) -> None:
    fake = bot_env.fake
    await create_cast(bot_env, {"chiffre": le_chiffre()}, {})
    async with bot_env.run():
        await open_a_table(bot_env)
        first = table_message(fake)
    async with await Database.open(bot_env.database) as db, db.transaction() as conn:
        await conn.execute("UPDATE card_tables SET message_id = NULL")  # never reached the disk
    async with bot_env.run():
        await wait_table(fake, "Le Chiffre")
        assert table_message(fake).id == first.id  # one message, the same one
        await bot_env.fake.wait_for_message(predicate=lambda m: m.id == first.id)
    rows = await query_file(bot_env.database, "SELECT message_id FROM card_tables")
    assert rows == [(first.id,)]


async def _settings(db: Database, guild_id: int) -> object:
    async with db.read() as conn:
        return await get_settings(conn, guild_id)
