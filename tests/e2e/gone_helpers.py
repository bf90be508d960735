"""What the tests of tables whose channel or server is gone share: waiting for a table's
status in the database, and the ledger checks (every balance equal to its ledger, no chip
left on a table, each close's rows saying why)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sheet_helpers import query

from bondbot.bot.client import BondBot
from bondbot.storage import ledger

POLL_S = 0.02


async def until(check: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    """Until `check()` holds: what the bot does in its own time, off the fake's requests."""
    for _ in range(int(timeout / POLL_S)):
        if check():
            return
        await asyncio.sleep(POLL_S)
    raise AssertionError(f"never: {what}")


async def status(bot: BondBot, table: int) -> str:
    rows = await query(bot, "SELECT status FROM card_tables WHERE id = ?", table)
    return str(rows[0][0])


async def wait_status(bot: BondBot, table: int, wanted: str, timeout: float = 5.0) -> None:
    """Until the table's saved status is `wanted` (the bot closes it in its own time)."""
    for _ in range(int(timeout / POLL_S)):
        if await status(bot, table) == wanted:
            return
        await asyncio.sleep(POLL_S)
    raise AssertionError(f"table {table} is still {await status(bot, table)}, not {wanted}")


async def balances_agree(bot: BondBot) -> None:
    """Every stored balance equals its ledger."""
    assert bot.db is not None
    async with bot.db.read() as conn:
        assert await ledger.stored_balances(conn) == await ledger.recompute_balances(conn)


async def on_the_table(bot: BondBot, table: int, *, bank: bool = True) -> list[tuple[Any, ...]]:
    """The table's accounts still holding money: its stacks, pots and layout, and its NPC's
    bank (`bank=False` for an unlimited one, whose balance is what the NPC won)."""
    return await query(
        bot,
        "SELECT account, balance FROM balances WHERE balance != 0 AND kind = 'cash'"
        " AND (account LIKE ? OR account LIKE ? OR account LIKE ? OR account = ?)",
        f"chips:{table}:%",
        f"pot:{table}:%",
        f"layout:{table}:%",
        f"bank:{table}" if bank else "",
    )


async def idle(bot: BondBot, timeout: float = 5.0) -> None:
    """Until the table messages have no redraw or post under way (the bot's own work)."""
    messages = bot.get_cog("Tables").messages  # type: ignore[union-attr]
    for _ in range(int(timeout / POLL_S)):
        if not messages._running and not messages._posting:
            return
        await asyncio.sleep(POLL_S)
    raise AssertionError("the table messages are still busy")


async def closing_reasons(bot: BondBot, table: int) -> list[str]:
    """The reasons of the table's cash-out and bank-closing rows, in order."""
    rows = await query(
        bot,
        "SELECT reason FROM ledger WHERE table_id = ? AND (reason LIKE 'table.cash_out%'"
        " OR reason LIKE 'table.bank_close%') ORDER BY id",
        table,
    )
    return [str(reason) for (reason,) in rows]


async def sheet_cash(bot: BondBot, character: int) -> int:
    assert bot.db is not None
    async with bot.db.read() as conn:
        return await ledger.balance(conn, ledger.sheet_account(character), "cash")
