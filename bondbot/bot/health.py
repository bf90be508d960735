"""Whether the bot is connected to Discord, for a container's HEALTHCHECK.

While it is connected (ready, its gateway answering heartbeats) the bot touches a file
beside its database every BEAT_S seconds; `bondbot health`, run by Docker in another
process, says the bot is healthy while that file is fresh. A check of the process alone
would call healthy a bot that lost Discord for good or whose event loop stalled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bondbot.storage.db import database_file

if TYPE_CHECKING:  # `bondbot health` runs every 30 s: it does not import discord.py
    import discord

log = logging.getLogger(__name__)

BEAT_S = 30.0
STALE_S = 90.0  # three beats missed: Docker's default retries then call it unhealthy


def heartbeat_path(database: Path | str) -> Path:
    """The file the bot touches while connected: beside its database file, on its volume;
    for a database server, `bondbot.alive` in the working folder (the image's /data)."""
    file = database_file(database)
    return Path("bondbot.alive") if file is None else file.with_name(file.name + ".alive")


def connected(bot: discord.Client) -> bool:
    """Ready, not closed, and its gateway has acknowledged a heartbeat."""
    return bot.is_ready() and not bot.is_closed() and math.isfinite(bot.latency)


async def beat(bot: discord.Client, path: Path, every: float = BEAT_S) -> None:
    """Touch `path` every `every` seconds while `bot` is connected (looking every second
    while it is not, so a fresh connection shows at once); remove it when done."""
    try:
        while not bot.is_closed():
            if connected(bot):
                try:
                    path.touch()
                except OSError as exc:
                    log.warning("cannot write the health file %s: %s", path, exc)
                await asyncio.sleep(every)
            else:
                await asyncio.sleep(min(every, 1.0))
    finally:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def problem(path: Path, now: float | None = None) -> str | None:
    """Why the bot is not healthy, in one line, or None when it is."""
    try:
        touched = path.stat().st_mtime
    except OSError:
        return f"health: not connected to Discord (no {path}: starting, stopped or never logged in)"
    age = (time.time() if now is None else now) - touched
    if age > STALE_S:
        return f"health: not connected to Discord for {age:.0f} s ({path} is stale)"
    return None
