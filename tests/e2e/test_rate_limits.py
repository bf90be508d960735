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
from table_flow import (
    bet,
    bond,
    button_id,
    by_action,
    create_cast,
    join,
    le_chiffre,
    press,
    table_message,
    wait_table,
)
from test_table_mends import picture, play_a_hand

from bondbot import i18n
from bondbot.bot import outgoing
from bondbot.games import registry
from bondbot.local.ratelimits import RateLimits

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
    monkeypatch.setattr(outgoing, "PER_SECOND", BOT_PER_SECOND)  # the bot's share
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


async def test_a_coup_dealt_on_the_table_is_pictured_on_its_answer(bot_env: BotEnv) -> None:
    """The Deal click's answer redraws the table with the coup's picture under it: no post
    counted against the bot's budget. The picture stays through the redraws until the next
    coup's; a coup dealt from the GM's panel (a private answer) is posted in the thread."""
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"npc": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    async with bot_env.run():
        await fake.slash(world.owner, "gm role", role=world.gm_role)
        await fake.slash(
            world.gm, "table open punto_banco", npc="Le Chiffre", minimum="10", maximum="500"
        )
        await wait_table(fake, "Le Chiffre")
        await join(fake, world.player, "200")
        await press(fake, world.player, "choose", "simulate")
        (thread,) = [c for c in fake.channels.values() if c.is_thread]
        for coup in (1, 2):
            await bet(fake, world.player, "player", "10")
            dealt = await fake.click(world.gm, table_message(fake), button_id(fake, "deal"))
            embeds = dealt.response_data["embeds"]
            assert [e.get("title") for e in embeds][1:] == [f"Coup {coup}"]
            assert embeds[1]["image"]["url"] == "attachment://hand.png"
            table = table_message(fake)
            assert [a.filename for a in table.attachments] == ["hand.png"]
        # The redraws after it keep the last picture.
        await bet(fake, world.player, "banker", "10")
        await fake.wait_until(lambda: "on Banker" in str(table_message(fake).embeds[0]))
        assert table_message(fake).embeds[1]["title"] == "Coup 2"
        assert [a.filename for a in table_message(fake).attachments] == ["hand.png"]
        assert fake.channel_messages(thread) == []  # nothing posted for the dealt coups
        pictures = [r for r in fake.requests if "hand.png" in r.files]
        assert all(r.path.startswith("/interactions/") for r in pictures)
        assert len(pictures) == 2
        # Dealt from the GM's panel: its answer is private, so the picture goes to the thread.
        panel = await fake.click(world.gm, table_message(fake), button_id(fake, "gm"))
        await fake.click(world.gm, panel, by_action(panel, "deal"))
        posted = await fake.wait_for_message(thread, predicate=lambda m: bool(m.attachments))
        assert posted.embeds[0]["title"] == "Coup 3"
        # The table no longer shows coup 2 as if it were the last.
        await fake.wait_until(lambda: len(table_message(fake).embeds) == 1)
        await fake.wait_until(lambda: not table_message(fake).attachments)
