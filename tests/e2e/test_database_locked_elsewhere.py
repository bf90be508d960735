"""Another process holds the database's write lock (SQLite's; on PostgreSQL, an EXCLUSIVE
lock on every table, which lets reads through): the bot keeps answering, within Discord's
3 s, says "busy, try again", and applies nothing after it said so."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path

from e2e_env import BotEnv
from sheet_helpers import query_file
from table_flow import (
    bet,
    bond,
    create_cast,
    join,
    le_chiffre,
    mathis,
    press,
    wait_table,
)

LOCK_S = 4.0


TABLES = "ledger, balances, card_tables, characters, active_characters, guild_settings, rolls"


def hold_the_lock(path: Path | str, taken: threading.Event, seconds: float) -> None:
    if isinstance(path, str):
        import psycopg

        with psycopg.connect(path) as pg:  # one transaction, rolled back on exit
            pg.execute(f"LOCK TABLE {TABLES} IN EXCLUSIVE MODE")
            taken.set()
            time.sleep(seconds)
            pg.rollback()
        return
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        taken.set()
        time.sleep(seconds)
        conn.execute("ROLLBACK")
    finally:
        conn.close()


async def test_a_lock_held_elsewhere_is_answered_busy_and_nothing_lands(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        taken = threading.Event()
        holder = threading.Thread(
            target=hold_the_lock, args=(bot_env.database, taken, LOCK_S), daemon=True
        )
        holder.start()
        await asyncio.to_thread(taken.wait, 5)
        started = time.monotonic()
        grant, sheet = await asyncio.gather(
            fake.slash(
                world.gm,
                "gm cash",
                character="James Bond",
                action="give",
                amount="500",
                reason="bribe",
            ),
            fake.slash(world.player, "sheet show"),  # a read: not held up at all
        )
        answered = time.monotonic() - started
        assert grant.ephemeral and "busy" in grant.content
        assert grant.latency is not None and grant.latency < 3.0
        assert sheet.ephemeral and "James Bond" in str(sheet.embeds)
        assert answered < 3.0
        await asyncio.to_thread(holder.join, LOCK_S + 2)
        await asyncio.sleep(0.2)
    rows = await query_file(bot_env.database, "SELECT note FROM ledger WHERE note = 'bribe'")
    assert rows == []  # refused, and never applied once the lock was free


async def test_clicks_queued_behind_each_other_are_each_answered_in_time(bot_env: BotEnv) -> None:
    """Two wagers at one table wait for the lock one after the other: the second is still
    answered "busy" within Discord's 3 s (its time counts from its click, not from the end
    of the first's wait), and neither lands."""
    fake, world = bot_env.fake, bot_env.world
    cast = {"chiffre": le_chiffre(), "bond": bond(world.player), "mathis": mathis(world.player_fr)}
    await create_cast(bot_env, cast, {"bond": world.player, "mathis": world.player_fr})
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        for user in (world.player, world.player_fr):
            await join(fake, user, "100")
            await press(fake, user, "choose", "simulate")
        taken = threading.Event()
        holder = threading.Thread(
            target=hold_the_lock, args=(bot_env.database, taken, 2 * LOCK_S), daemon=True
        )
        holder.start()
        await asyncio.to_thread(taken.wait, 5)
        first, second = await asyncio.gather(
            bet(fake, world.player, "banker", "10"), bet(fake, world.player_fr, "player", "10")
        )
        for answer in (first, second):
            assert answer.ephemeral and answer.latency is not None and answer.latency < 3.0
        assert "busy" in first.content and "occupée" in second.content
        await asyncio.to_thread(holder.join, 2 * LOCK_S + 2)
        await asyncio.sleep(0.2)
    (state,) = await query_file(bot_env.database, "SELECT state FROM card_tables")
    assert json.loads(state[0])["engine"]["wagers"] == {}  # refused, and never placed after
