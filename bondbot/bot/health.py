"""Whether the bot is connected to Discord and its database, for a container's HEALTHCHECK.

While it is connected (ready, its gateway answering heartbeats) the bot rewrites a file
beside its database every BEAT_S seconds, and at once when its database goes away or comes
back; `bondbot health`, run by Docker in another process, says the bot is healthy while
that file is fresh and does not say the database has been unreachable for more than
UNREACHABLE_S. A check of the process alone would call healthy a bot that lost Discord or
its database for good, or whose event loop stalled. The file is named for the process's
shards, so processes sharing a folder (on PostgreSQL) each have their own, and `bondbot
health` with the same settings finds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bondbot.shards import Shards
from bondbot.storage.db import database_file

if TYPE_CHECKING:  # `bondbot health` runs every 30 s: it does not import discord.py
    import discord

    from bondbot.storage.link import Link

log = logging.getLogger(__name__)

BEAT_S = 30.0
STALE_S = 90.0  # three beats missed: Docker's default retries then call it unhealthy
# A database unreachable this long makes the bot unhealthy (its container is restarted);
# shorter outages (a server's restart) the bot rides out by itself.
UNREACHABLE_S = 30.0


def heartbeat_path(database: Path | str, shards: Shards | None = None) -> Path:
    """The file the bot writes while connected: beside its database file, on its volume;
    for a database server, in the working folder (the image's /data). A process serving
    some shards only names them (`bondbot.shards-0-1.alive`): one file per process, as one
    process serves a shard (`storage.leases`)."""
    file = database_file(database)
    stem = "bondbot" if file is None else file.name
    if shards is not None and shards.ids is not None and not shards.everything:
        stem += ".shards-" + "-".join(str(shard) for shard in sorted(shards.ids))
    name = stem + ".alive"
    return Path(name) if file is None else file.with_name(name)


def connected(bot: discord.Client) -> bool:
    """Ready, not closed, and its gateway has acknowledged a heartbeat."""
    return bot.is_ready() and not bot.is_closed() and math.isfinite(bot.latency)


def write(path: Path, database_down_since: float | None) -> None:
    """The health file, whole or not at all (`bondbot health` may read it meanwhile)."""
    text = json.dumps({"pid": os.getpid(), "database_unreachable_since": database_down_since})
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text + "\n", encoding="utf-8")
    os.replace(partial, path)


async def beat(
    bot: discord.Client, path: Path, link: Link | None = None, every: float = BEAT_S
) -> None:
    """Write `path` every `every` seconds while `bot` is connected (looking every second
    while it is not, so a fresh connection shows at once), and at once when the database
    (`link`) goes away or comes back; remove it when done."""
    changed = asyncio.Event()
    if link is not None:
        link.listeners.append(changed.set)
    try:
        while not bot.is_closed():
            if connected(bot):
                try:
                    write(path, None if link is None else link.down_since)
                except OSError as exc:
                    log.warning("cannot write the health file %s: %s", path, exc)
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(every):
                        await changed.wait()
            else:
                await asyncio.sleep(min(every, 1.0))
    finally:
        if link is not None:
            link.listeners.remove(changed.set)
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def problem(path: Path, now: float | None = None) -> str | None:
    """Why the bot is not healthy, in one line, or None when it is."""
    try:
        touched = path.stat().st_mtime
    except OSError:
        return f"health: not connected to Discord (no {path}: starting, stopped or never logged in)"
    now = time.time() if now is None else now
    age = now - touched
    if age > STALE_S:
        return f"health: not connected to Discord for {age:.0f} s ({path} is stale)"
    try:
        since = json.loads(path.read_text(encoding="utf-8")).get("database_unreachable_since")
    except (OSError, ValueError, AttributeError):
        since = None  # an older bot's empty file, or one being replaced: Discord says enough
    if isinstance(since, int | float) and now - since > UNREACHABLE_S:
        return (
            f"health: the database has been unreachable for {now - since:.0f} s"
            " (the bot retries by itself; see its log)"
        )
    return None
