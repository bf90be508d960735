"""Arbitrary text and numbers through the /sheet commands of the real bot.

One bot serves every example: the fake Discord and the bot run on an event loop in a
background thread, and the (synchronous) Hypothesis test sends it one command at a time.
Every call must end in a success (an embed, or a modal) or a clear refusal, and a refused
call must leave the database exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from e2e_env import BotEnv
from fakediscord.fixtures import build_default_world
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sheet_helpers import dump, make_gm_role

from bondbot.i18n import catalog, t
from bondbot.local import FakeDiscord, InteractionRejected, InteractionResult
from bondbot.storage import characters, ledger

T = TypeVar("T")


class BackgroundBot:
    """The fake Discord and one running bot, on their own loop in a thread."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.stack = contextlib.AsyncExitStack()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self) -> None:
        self.fake = FakeDiscord()
        self.world = build_default_world(self.fake)
        await self.fake.start()
        self.env = BotEnv(self.fake, self.world, self.database)
        self.bot = await self.stack.enter_async_context(self.env.run())

    async def _stop(self) -> None:
        try:
            await self.stack.aclose()
        finally:
            await self.fake.stop()

    def __enter__(self) -> BackgroundBot:
        self.thread.start()
        self.run(self._start())
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.run(self._stop())
            self.fake.assert_no_unexpected()
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(timeout=10)
            self.loop.close()


NAMES = st.sampled_from(["James Bond", "René Mathis", "Le Chiffre", "jAMES  bond", "Blofeld"])
TEXT = st.text(max_size=70) | NAMES
NUMBER = st.integers(min_value=-3, max_value=25)
OPTIONAL_NUMBER = st.none() | NUMBER
STATS = st.fixed_dictionaries(
    {},
    optional={
        "strength": NUMBER,
        "dexterity": NUMBER,
        "willpower": NUMBER,
        "perception": NUMBER,
        "intelligence": NUMBER,
    },
)
USERS = st.sampled_from(["player", "player_fr", "gm"])


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """(user, command, options) for one /sheet call, or a `sheet edit` modal to submit."""
    user = draw(USERS)
    command = draw(
        st.sampled_from(["sheet create", "sheet set", "sheet skill", "sheet show", "sheet edit"])
    )
    options: dict[str, Any] = {}
    if command == "sheet create":
        options = {"name": draw(TEXT), **draw(STATS)}
        options["kind"] = draw(st.sampled_from(["PC", "NPC"]))
        rank = draw(st.none() | st.sampled_from(["Rookie", "Agent", "00"]))
        if rank is not None:
            options["rank"] = rank
    elif command == "sheet set":
        options = dict(draw(STATS))
        for name in ("rename", "height", "weight", "character"):
            value = draw(st.none() | TEXT)
            if value is not None:
                options[name] = value
        for name in ("fame_points", "survival_points"):
            value = draw(OPTIONAL_NUMBER)
            if value is not None:
                options[name] = value
    elif command == "sheet skill":
        options = {"skill": draw(TEXT), "level": draw(NUMBER)}
    elif command == "sheet show":
        options = {"character": draw(NAMES | TEXT)}
    else:
        options = {
            name: draw(st.text(max_size=40) | NAMES)
            for name in ("height_weight", "appearance", "weaknesses", "notes")
        }
    return user, command, options


ERROR_TEXTS = {t("errors.internal", "en"), t("errors.internal", "fr")}
KEYS = {text.split("{")[0] for lang in ("en", "fr") for text in catalog(lang).values()}


async def _call(bg: BackgroundBot, user: str, command: str, options: dict[str, Any]) -> str:
    """Run one call; return "rejected" (the client would not send it), "ok" or "refused"."""
    fake, member = bg.fake, getattr(bg.world, user)
    result: InteractionResult
    try:
        if command == "sheet edit":
            opened = await fake.slash(member, "sheet edit")
            if opened.modal is None:
                return _judge(opened)
            result = await fake.submit_modal(member, opened, options)
        else:
            result = await fake.slash(member, command, **options)
    except InteractionRejected:
        return "rejected"
    return _judge(result)


def _judge(result: InteractionResult) -> str:
    assert result.response_type is not None, result
    assert result.content not in ERROR_TEXTS, result
    if result.embeds:
        return "ok"
    assert result.ephemeral, result
    assert result.content, result
    # A refusal is one of our messages, not a stray exception text.
    assert any(result.content.startswith(prefix) for prefix in KEYS if prefix), result.content
    return "refused"


async def _consistent(bg: BackgroundBot) -> None:
    """Every stored sheet still validates; every balance equals the ledger."""
    assert bg.bot.db is not None
    async with bg.bot.db.read() as conn:
        await characters.list_characters(conn, bg.world.guild.id)
        assert await ledger.verify_balances(conn) == {}


def test_arbitrary_sheet_options_end_cleanly_and_refusals_change_nothing(tmp_path: Path) -> None:
    with BackgroundBot(tmp_path / "fuzz.sqlite3") as bg:

        async def setup() -> None:
            await make_gm_role(bg.env)
            await bg.fake.slash(bg.world.player, "sheet create", name="James Bond")
            await bg.fake.slash(bg.world.gm, "sheet create", name="Le Chiffre", kind="NPC")

        bg.run(setup())
        outcomes: dict[str, int] = {}

        @settings(
            max_examples=30,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(st.lists(calls(), min_size=1, max_size=3))
        def check(script: list[tuple[str, str, dict[str, Any]]]) -> None:
            for user, command, options in script:
                before = bg.run(dump(bg.bot))
                outcome = bg.run(_call(bg, user, command, options))
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
                if outcome != "ok":
                    assert bg.run(dump(bg.bot)) == before, (user, command, options)
                bg.run(_consistent(bg))

        check()
        assert outcomes.get("ok", 0) + outcomes.get("refused", 0) > 0, outcomes
