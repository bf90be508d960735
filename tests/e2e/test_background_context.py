"""Work the bot starts by itself never carries the interaction that started it.

An interaction's writes are due 2.5 s after it starts (`storage.db.answer_by`); a timer
armed by a click, or a redraw a click started, runs later than that. Carrying the click's
context, the timer's move and the closed table's mark were refused "busy" (issue 20 §1).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest
from e2e_env import BotEnv
from table_flow import (
    bond,
    create_cast,
    join,
    le_chiffre,
    press,
    wait_table,
)

from bondbot.bot.client import BondBot
from bondbot.local.models import FakeUser
from bondbot.storage import tables as stored
from bondbot.storage.db import WRITE_DEADLINE_S, Database
from bondbot.tables.events import Played

TURN_TIMER = 10  # seconds, the least a server may set: the click's deadline is long past
assert TURN_TIMER > WRITE_DEADLINE_S


def cast(player: FakeUser) -> dict[str, dict[str, Any]]:
    return {"npc": le_chiffre(), "bond": bond(player)}


async def _seat_bond_at_holdem(bot_env: BotEnv, bot: BondBot, turn_timer: int) -> None:
    fake, world = bot_env.fake, bot_env.world
    await bot.services.guilds.update(
        world.guild.id, gm_role_id=world.gm_role.id, turn_timer_s=turn_timer
    )
    await fake.slash(
        world.gm,
        "table open holdem",
        npc="Le Chiffre",
        minimum="50",
        maximum="500",
        big_blind="10",
        thread=False,
    )
    await wait_table(fake, "Le Chiffre")
    await join(fake, world.player, "100")
    await press(fake, world.player, "choose", "simulate")


async def test_a_turn_timer_armed_by_a_click_fires_and_plays_its_move(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run() as bot:
        await _seat_bond_at_holdem(bot_env, bot, TURN_TIMER)
        # The GM plays Le Chiffre: whoever acts first, the table waits for him, by the timer.
        await fake.slash(world.gm, "table npc", auto=False)
        await wait_table(fake, "(NPC, played by the GM)")  # with Deal, which it waits for
        tables = bot.services.tables
        table = await tables.open_in_channel(world.channel.id)
        with caplog.at_level(logging.DEBUG, logger="bondbot"):
            # The GM's click deals and arms the first player's turn timer; nobody calls
            # run_due.
            await press(fake, world.gm, "deal")
            await wait_table(fake, "To act: **")
            dealt = (await tables.snapshot(table)).state.moves
            bot_env.clock.advance(TURN_TIMER + 1)  # the bot's clock, for the move's own check
            for _ in range((TURN_TIMER + 5) * 10):
                if (snapshot := await tables.snapshot(table)).state.moves > dealt:
                    break
                await asyncio.sleep(0.1)
            assert isinstance(snapshot.event, Played)
            assert snapshot.event.records[0].move.auto == "timeout"
        assert not [r for r in caplog.records if "errors.busy" in r.getMessage()]


async def test_a_redraw_started_by_a_click_long_after_its_deadline_still_writes(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """A click starts the table's redraw loop, which waits `message_interval` between two
    edits; `/table close` comes within it, so the loop started by the click (past its
    deadline by then) draws the closed table and marks it drawn."""
    fake, world = bot_env.fake, bot_env.world
    bot_env.message_interval = WRITE_DEADLINE_S + 1
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run() as bot:
        await _seat_bond_at_holdem(bot_env, bot, 30)
        with caplog.at_level(logging.INFO):
            closed = await fake.slash(world.gm, "table close")
            assert closed.content and "seed" in closed.content.lower()
            await fake.wait_for_message(
                predicate=lambda m: m.embeds and "closed" in str(m.embeds).lower(),
                timeout=bot_env.message_interval + 5,
            )

            async def undrawn() -> list[int]:
                db = await Database.open(bot_env.database)
                try:
                    async with db.read() as conn:
                        return await stored.closed_undrawn(conn)
                finally:
                    await db.close()

            for _ in range(100):
                if not await undrawn():
                    break
                await asyncio.sleep(0.1)
            assert await undrawn() == []
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [], [r.getMessage() for r in errors]
