"""Run one bot for bench/load/load.py in its own process, pointed at the bench's fake Discord.

    python bench/load/load_bot.py bondbot|floor --config CONFIG.toml

`bondbot` is the real BondBot from its configuration (the token from BONDBOT_TOKEN);
`floor` is a bare discord.py bot with one slash command, `/ping`, that answers at once
(ephemeral, no database): the floor the load benchmark compares BondBot with; with
BENCH_TABLE it also answers clicks on a table message by drawing it again (FloorBot).
Both use `discord_api_base` and `dev_guild_id` of the configuration. The gateway URL
comes from BENCH_GATEWAY_URL: discord.py connects to `DiscordWebSocket.DEFAULT_GATEWAY`
without asking Discord, so it is set here. With BENCH_TRACE=FILE it counts and times where
BondBot's time goes (the database lock and its statements, the hot pure-Python steps, the
event loop's lag): SIGUSR1 starts the count afresh, SIGUSR2 writes it to FILE as JSON
(bench/load/load.py --trace does both around the measured phase). BENCH_PROFILE=FILE does the
same with cProfile's stats. With BENCH_GC=FILE it times the garbage collector's pauses
and the loop's stalls the same way (GcWatch), under the setting BENCH_GC_TUNE names, and
counts the objects left in the collector's care at the end, by type. With
BENCH_SEEDS=HEX,HEX,… the first shoes the bot shuffles use these seeds, in order
(bench/faults/clicks.py stacks a blackjack deal that way), then random ones.
SIGTERM or SIGINT closes the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import cProfile
import functools
import gc
import heapq
import json
import logging
import os
import secrets
import signal
import sys
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run from a checkout

from bondbot.config import Settings, load_settings


class FloorBot(discord.Client):
    """The floor: answers at once, with nothing behind the answer. `/ping` says pong.

    With BENCH_TABLE=FILE (a table message as the game bot drew it, its embeds and
    components as JSON), `/post` posts that message, and a click on any of its buttons is
    answered by drawing it again in place (`edit_message`, the same embed and buttons
    built afresh, as the game answers a deal): what discord.py alone costs to answer a
    click on the table.
    """

    def __init__(self, guild_id: int, table: dict[str, Any] | None = None) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.guild_id = guild_id
        self.tree = app_commands.CommandTree(self)
        self.table = table

        @self.tree.command(name="ping", description="Answer at once")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong", ephemeral=True)

        if table is not None:

            @self.tree.command(name="post", description="Post the table message")
            async def post(interaction: discord.Interaction) -> None:
                await interaction.response.send_message(**self.table_message())

    def table_message(self) -> dict[str, Any]:
        assert self.table is not None
        view = discord.ui.View(timeout=None)
        for row, line in enumerate(self.table["components"]):
            for button in line["components"]:
                view.add_item(
                    discord.ui.Button(
                        label=button.get("label"),
                        custom_id=button["custom_id"],
                        style=discord.ButtonStyle(button["style"]),
                        disabled=button.get("disabled", False),
                        row=row,
                    )
                )
        view.stop()
        embeds = [discord.Embed.from_dict(embed) for embed in self.table["embeds"]]
        return {"embeds": embeds, "view": view}

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.table is not None and interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(**self.table_message())

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


class Trace:
    """Counts and times BondBot's database use and hot spots, between two signals."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ticker: asyncio.Task[None] | None = None
        self.kind: contextvars.ContextVar[str] = contextvars.ContextVar("db_kind", default="?")
        self.reset()

    def reset(self) -> None:
        self.started = time.perf_counter()
        self.cpu = time.thread_time()  # the event loop's thread
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self.holds: dict[str, list[float]] = defaultdict(list)
        self.waits: list[float] = []
        self.lags: list[float] = []

    def add(self, key: str, seconds: float) -> None:
        self.seconds[key] += seconds
        self.calls[key] += 1

    def dump(self) -> None:
        data = {
            "wall": time.perf_counter() - self.started,
            "loop_cpu": time.thread_time() - self.cpu,
            "seconds": dict(self.seconds),
            "calls": dict(self.calls),
            "holds": dict(self.holds),
            "waits": self.waits,
            "lags": self.lags,
        }
        self.path.write_text(json.dumps(data), encoding="utf-8")

    def timed(self, key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.add(key, time.perf_counter() - started)

        return wrapper

    def install(self) -> None:
        """Wrap the functions to watch (before the bot loads its cogs)."""
        import aiosqlite

        from bondbot.bot.tables import message
        from bondbot.rules import shoe
        from bondbot.storage.db import Database
        from bondbot.tables.state import TableState

        trace = self
        transaction = Database.transaction
        read = Database.read
        submit = Database.submit

        def held(kind: str, original: Callable[..., Any]) -> Callable[..., Any]:
            """How long a read or a transaction waits for its connection, and holds it."""

            @contextlib.asynccontextmanager
            async def wrapper(db: Database, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
                token = trace.kind.set(kind)
                asked = time.perf_counter()
                try:
                    async with original(db, *args, **kwargs) as conn:
                        got = time.perf_counter()
                        trace.waits.append(got - asked)
                        statements = trace.calls["statement"]
                        try:
                            yield conn
                        finally:
                            trace.holds[kind].append(time.perf_counter() - got)
                            done = trace.calls["statement"] - statements
                            trace.calls[f"{kind} statements"] += done
                finally:
                    trace.kind.reset(token)

            return wrapper

        async def traced_submit(db: Database, job: Any, **kwargs: Any) -> Any:
            """A writer job, from its submission to its batch on disk."""
            started = time.perf_counter()
            try:
                return await submit(db, job, **kwargs)
            finally:
                trace.holds["writer job"].append(time.perf_counter() - started)

        def traced_statement(original: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(original)
            async def wrapper(*args: Any, **kwargs: Any) -> Any:
                started = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    trace.add("statement", time.perf_counter() - started)

            return wrapper

        Database.transaction = held("transaction", transaction)  # type: ignore[method-assign]
        Database.read = held("read", read)  # type: ignore[method-assign]
        Database.submit = traced_submit  # type: ignore[method-assign]
        for name in ("execute", "execute_fetchall", "execute_insert"):
            setattr(
                aiosqlite.Connection, name, traced_statement(getattr(aiosqlite.Connection, name))
            )
        shoe.shuffle_order = self.timed("shuffle_order (Shoe.from_dict)", shoe.shuffle_order)
        validate = TableState.model_validate_json
        TableState.model_validate_json = self.timed(  # type: ignore[method-assign]
            "TableState.model_validate_json", validate
        )
        TableState.model_dump_json = self.timed(  # type: ignore[method-assign]
            "TableState.model_dump_json", TableState.model_dump_json
        )
        message.table_embed = self.timed("table_embed + table_view", message.table_embed)
        message.table_view = self.timed("table_embed + table_view", message.table_view)
        discord.utils._from_json = self.timed("discord.py JSON decode", discord.utils._from_json)
        state = discord.state.ConnectionState
        state.parse_interaction_create = self.timed(  # type: ignore[method-assign]
            "discord.py parse_interaction_create", state.parse_interaction_create
        )

    async def tick(self) -> None:
        """Event loop lag: how late a 5 ms sleep wakes up."""
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            self.lags.append(time.perf_counter() - asked - 0.005)


class Profile:
    """cProfile over the measured phase only (SIGUSR1 starts afresh, SIGUSR2 writes it)."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.profiler = cProfile.Profile()

    def reset(self) -> None:
        self.profiler.disable()
        self.profiler = cProfile.Profile()
        self.profiler.enable()

    def dump(self) -> None:
        self.profiler.disable()
        self.profiler.dump_stats(self.out)


class GcWatch:
    """The garbage collector's pauses and the event loop's stalls, between two signals.

    Every collection is timed through gc.callbacks (by generation), in wall time and in the
    thread's CPU time (which other processes on the machine do not inflate). A 1 ms
    heartbeat records how late it wakes: a stall is everything that held the loop (a
    callback, a collection inside it, and every callback queued before it). Every callback
    the loop runs is timed too (`asyncio.Handle._run`), the longest kept with what ran:
    under a load that keeps the loop busy, the heartbeat mostly measures the queue, and
    the longest callback what held the loop by itself. BENCH_GC_TUNE tries a setting:
    `freeze` (gc.freeze() once the bot is ready: start-up's objects leave the collector's
    generations for good), `freeze-late` (the same when the measured phase starts: after
    the tables were opened, as for a bot that resumed its open tables at start-up),
    `threshold=A,B,C` (gc.set_threshold), joined by `+`: `freeze+threshold=…`.
    """

    def __init__(self, path: Path, tune: str) -> None:
        self.path = path
        self.freeze = self.freeze_late = False
        self._began = self._began_cpu = 0.0
        self.reset()
        for part in filter(None, tune.split("+")):
            if part == "freeze":
                self.freeze = True
            elif part == "freeze-late":
                self.freeze_late = True
            elif part.startswith("threshold="):
                gc.set_threshold(*(int(n) for n in part.removeprefix("threshold=").split(",")))
            else:
                raise SystemExit(f"load_bot: unknown BENCH_GC_TUNE part {part!r}")
        self.tune = tune or "default"
        gc.callbacks.append(self._collected)
        self._time_callbacks()

    def reset(self) -> None:
        if self.freeze_late:
            gc.collect()
            gc.freeze()
        self.started = time.perf_counter()
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.cpu: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.stalls: list[float] = []
        self.callbacks: list[tuple[float, str]] = []  # a heap of the longest, shortest first
        self.callback_count = 0

    def _time_callbacks(self, keep: int = 200) -> None:
        run = asyncio.events.Handle._run

        def timed(handle: asyncio.Handle) -> None:
            began = time.perf_counter()
            run(handle)
            spent = time.perf_counter() - began
            self.callback_count += 1
            if len(self.callbacks) < keep:
                heapq.heappush(self.callbacks, (spent, _callback_name(handle)))
            elif spent > self.callbacks[0][0]:
                heapq.heapreplace(self.callbacks, (spent, _callback_name(handle)))

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]

    def _collected(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)
            self.cpu[info["generation"]].append(time.thread_time() - self._began_cpu)

    async def heartbeat(self, bot: discord.Client) -> None:
        if self.freeze:
            await bot.wait_until_ready()
            gc.collect()
            gc.freeze()
        while True:
            asked = time.perf_counter()
            await asyncio.sleep(0.001)
            self.stalls.append(time.perf_counter() - asked - 0.001)

    def dump(self) -> None:
        data = {
            "tune": self.tune,
            "threshold": gc.get_threshold(),
            "frozen": gc.get_freeze_count(),
            "wall": time.perf_counter() - self.started,
            "pauses": {str(g): p for g, p in self.pauses.items()},
            "cpu": {str(g): p for g, p in self.cpu.items()},
            "stalls": sorted(self.stalls, reverse=True)[:200],
            "stall_count": len(self.stalls),
            "callbacks": sorted(self.callbacks, reverse=True),
            "callback_count": self.callback_count,
            "tracked": tracked_by_type(),
        }
        self.path.write_text(json.dumps(data), encoding="utf-8")


def _callback_name(handle: asyncio.Handle) -> str:
    """What a callback ran: a task's coroutine, else the function."""
    callback = handle._callback  # type: ignore[attr-defined]
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        coro = owner.get_coro()
        return f"task {getattr(coro, '__qualname__', type(coro).__name__)}"
    return getattr(callback, "__qualname__", type(callback).__name__)


def tracked_by_type(top: int = 15) -> dict[str, int]:
    """The collector's objects (the frozen ones apart) by type, the commonest first."""
    counts: dict[str, int] = {}
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        counts[name] = counts.get(name, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    return {"all": sum(counts.values()), **dict(ranked[:top])}


def make_bot(kind: str, settings: Settings) -> discord.Client:
    if settings.discord_api_base:
        discord.http.Route.BASE = settings.discord_api_base
    if kind == "floor":
        if settings.dev_guild_id is None:
            raise SystemExit("load_bot: the floor bot needs dev_guild_id")
        drawn = os.environ.get("BENCH_TABLE")
        table = json.loads(Path(drawn).read_text(encoding="utf-8")) if drawn else None
        return FloorBot(settings.dev_guild_id, table)
    from bondbot.bot.client import BondBot

    seeds = [bytes.fromhex(s) for s in os.environ.get("BENCH_SEEDS", "").split(",") if s]
    if not seeds:
        return BondBot(settings)

    def seed_source() -> bytes:
        return seeds.pop(0) if seeds else secrets.token_bytes(32)

    return BondBot(settings, seed_source=seed_source)


async def serve(
    bot: discord.Client,
    token: str,
    trace: Trace | None = None,
    gc_watch: GcWatch | None = None,
    profile: Profile | None = None,
) -> None:
    """Run `bot` until it stops by itself or a SIGTERM/SIGINT asks it to."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watchers: list[Trace | GcWatch | Profile] = [
        w for w in (trace, gc_watch, profile) if w is not None
    ]

    def reset_all() -> None:
        for watcher in watchers:
            watcher.reset()

    def dump_all() -> None:
        for watcher in watchers:
            watcher.dump()

    if watchers:
        loop.add_signal_handler(signal.SIGUSR1, reset_all)
        loop.add_signal_handler(signal.SIGUSR2, dump_all)
    if trace is not None:
        trace.ticker = asyncio.create_task(trace.tick())
    beating = None if gc_watch is None else asyncio.create_task(gc_watch.heartbeat(bot))
    async with bot:
        running = asyncio.create_task(bot.start(token, reconnect=False), name="bot")
        stopping = asyncio.create_task(stop.wait(), name="stop")
        done, _ = await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if beating is not None:
            beating.cancel()
        if running in done:
            running.result()  # why it stopped
            return
        await bot.close()
        await asyncio.wait({running}, timeout=5)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("bondbot", "floor"))
    parser.add_argument("--config", type=Path, required=True)
    args = parser.parse_args(argv)
    settings = load_settings(args.config, must_exist=True)
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["BENCH_GATEWAY_URL"])
    if os.environ.get("BENCH_REQUESTS_PER_SECOND"):  # --global-limit: the bot's share of it
        from bondbot.bot.tables import messages

        per_process = float(os.environ["BENCH_REQUESTS_PER_SECOND"])
        messages.share = lambda count, ids: per_process  # this process's, already divided
    trace = None
    if os.environ.get("BENCH_TRACE"):
        trace = Trace(Path(os.environ["BENCH_TRACE"]))
        trace.install()
    gc_watch = None
    if os.environ.get("BENCH_GC"):
        gc_watch = GcWatch(Path(os.environ["BENCH_GC"]), os.environ.get("BENCH_GC_TUNE", ""))
    bot = make_bot(args.kind, settings)
    profile = None
    if os.environ.get("BENCH_PROFILE"):
        profile = Profile(Path(os.environ["BENCH_PROFILE"]))
    asyncio.run(serve(bot, settings.token, trace, gc_watch, profile))
    return 0


if __name__ == "__main__":
    sys.exit(main())
