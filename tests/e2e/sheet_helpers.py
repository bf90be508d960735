"""Helpers for the sheet, GM and roll end-to-end tests: the GM role, DB reads, dice."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from e2e_env import BotEnv

from bondbot.bot.client import BondBot
from bondbot.i18n import Lang, t
from bondbot.local import InteractionResult
from bondbot.storage.db import Database

TABLES = ("characters", "active_characters", "ledger", "balances", "guild_settings", "rolls")


class ScriptedRandom(random.Random):
    """Dice that roll the given d100 results first, then a seeded sequence."""

    def __init__(self, rolls: Iterable[int] = ()) -> None:
        super().__init__(7)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return super().randint(a, b)


async def make_gm_role(env: BotEnv) -> None:
    """The server's owner (Manage Server) makes the world's "GM" role the GM role."""
    result = await env.fake.slash(env.world.owner, "gm role", role=env.world.gm_role)
    assert result.ephemeral, result


async def dump(bot: BondBot) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables the sheet, GM and roll commands write."""
    assert bot.db is not None
    out: dict[str, list[tuple[Any, ...]]] = {}
    async with bot.db.read() as conn:
        for table in TABLES:
            rows = await conn.execute_fetchall(f"SELECT * FROM {table} ORDER BY 1, 2")
            out[table] = [tuple(row) for row in rows]
    return out


async def query(bot: BondBot, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    assert bot.db is not None
    async with bot.db.read() as conn:
        return [tuple(row) for row in await conn.execute_fetchall(sql, params)]


async def query_file(path: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """Read the database file after the bot stopped."""
    async with await Database.open(path) as db, db.read() as conn:
        return [tuple(row) for row in await conn.execute_fetchall(sql, params)]


def not_gm(result: InteractionResult, lang: Lang = "en") -> bool:
    """The refusal a non-GM gets (the key moved between areas during development)."""
    return result.ephemeral and result.content in {t("errors.not_gm", lang), t("gm.not_gm", lang)}


def refused(result: InteractionResult, key: str, lang: Lang = "en", **params: Any) -> bool:
    return result.ephemeral and result.content == t(key, lang, **params) and not result.embeds
