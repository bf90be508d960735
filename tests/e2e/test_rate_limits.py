"""An evening at a burst rate, Discord's rate limits on (issue 32): the bot's own requests
(the tables redrawn after a restart, each hand's picture, the redraws after private
answers) go through one queue within the buckets, so the bot receives no 429; the table
ends showing its latest state and every picture arrives, late rather than never.

Played with the toy high card game (`high_card.py`), on a small budget: the fake allows
8 requests a second, the bot's tables spend 2 (where Discord allows 50 and the bot 40), and the
tables' channels their real 5 edits in 5 s (`message_interval` 1 s, as the bot runs)."""

from __future__ import annotations

from collections.abc import Iterator

import high_card
import pytest
from e2e_env import BotEnv
from fakediscord import FakeDiscord
from fakediscord.ratelimits import RateLimits
from table_flow import bond, create_cast, join, le_chiffre, press, table_message, wait_table
from test_table_mends import picture, play_a_hand

from bondbot import i18n
from bondbot.bot.tables import messages
from bondbot.games import registry

TABLES = 6  # besides the one played: redrawn together at the restart
HANDS = 6
FAKE_PER_SECOND = 8  # the bot's start takes 5 (login, commands, gateway) outside the queue
BOT_PER_SECOND = 2.0


@pytest.fixture(autouse=True)
def high_card_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(i18n, "_more_folders", [])
    registry.register(high_card.SPEC)
    yield
    i18n.catalog.cache_clear()


def rate_limited(fake: FakeDiscord) -> list[str]:
    return [str(r) for r in fake.requests if r.status == 429]


async def test_an_evening_at_a_burst_rate_receives_no_429(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, world = bot_env.fake, bot_env.world
    bot_env.message_interval = 1.0  # Discord's pace for a channel, as the bot runs
    monkeypatch.setattr(messages, "PER_SECOND", BOT_PER_SECOND, raising=False)
    others = [fake.add_channel(f"table-{n}") for n in range(TABLES)]
    await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        for channel in [*others, world.channel]:
            opened = await fake.slash(
                world.gm,
                "table open high_card",
                _channel=channel,
                npc="Le Chiffre",
                minimum="10",
                maximum="10",
            )
            assert opened.content.startswith("Table opened"), opened.content
        await wait_table(fake, "High card")
        await join(fake, world.player, "100")
        await press(fake, world.player, "choose", "simulate")
    # A restart redraws every table at once; then the players play as fast as answered.
    fake.rate_limits = RateLimits(global_per_second=FAKE_PER_SECOND)
    async with bot_env.run():
        for _ in range(HANDS):
            await play_a_hand(bot_env)
        for hand in range(1, HANDS + 1):  # every picture, in the thread
            await picture(fake, hand)
        last = (await picture(fake, HANDS)).embeds[0]["description"]

        def shows_the_last_hand() -> bool:
            fields = table_message(fake).embeds[0].get("fields", [])
            shown = [f["value"] for f in fields if f["name"] == "Last showdown"]
            return bool(shown) and all(card in last for card in shown[0].split(", "))

        await fake.wait_until(shows_the_last_hand, timeout=30)
        for channel in others:  # each table redrawn after the restart
            await fake.wait_until(
                lambda c=channel: any(m.edit_count for m in fake.channel_messages(c)), timeout=30
            )
    assert rate_limited(fake) == []
    assert fake.rate_limits.limited == 0
