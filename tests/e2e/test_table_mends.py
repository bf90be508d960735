"""What moderators and Discord do to a table, mended by the bot by itself (issue 30, items
1, 2, 4 and 7): a deleted table message or scoreboard is posted again, a deleted or locked
thread replaced, a refused permission told once and not tried again until it changes, a
redraw Discord rate-limits tried again until the table shows its latest state.

Played with the toy high card game (`high_card.py`): a hand is an ante, Deal and Show.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import high_card
import pytest
from e2e_env import BotEnv
from sheet_helpers import query_file
from table_flow import (
    STORIES,
    bond,
    button_id,
    by_action,
    create_cast,
    join,
    le_chiffre,
    press,
    said,
    wait_table,
)

from bondbot import i18n
from bondbot.games import registry
from bondbot.local import FakeDiscord
from bondbot.local.models import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    FakeChannel,
    FakeMessage,
    FakeUser,
    Overwrite,
)

EDITS = r"/channels/\d+/messages/\d+"


@pytest.fixture(autouse=True)
def high_card_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(i18n, "_more_folders", [])
    registry.register(high_card.SPEC)
    yield
    i18n.catalog.cache_clear()


def tables(fake: FakeDiscord) -> list[FakeMessage]:
    """The table messages in the channel (live ones: a deleted message is gone)."""
    return [
        m
        for m in fake.channel_messages()
        if m.embeds and m.ephemeral_for is None and m.embeds[0].get("title") not in STORIES
    ]


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def open_table(bot_env: BotEnv, **more: object) -> None:
    fake, world = bot_env.fake, bot_env.world
    await create_cast(
        bot_env, {"chiffre": le_chiffre(), "bond": bond(world.player)}, {"bond": world.player}
    )
    await fake.slash(world.owner, "gm role", role=world.gm_role)
    opened = await fake.slash(
        world.gm, "table open high_card", npc="Le Chiffre", minimum="10", maximum="10", **more
    )
    assert opened.content.startswith("Table opened"), opened.content
    await wait_table(fake, "High card")
    await join(fake, world.player, "100")
    await press(fake, world.player, "choose", "simulate")


async def play_a_hand(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    anted = await press(fake, world.player, "ante")
    assert await said(anted) == "You ante."
    await press(fake, world.gm, "deal")
    assert await gm_shows(fake, world.gm) == "Cards shown."


async def gm_shows(fake: FakeDiscord, gm: FakeUser) -> str:
    """The GM shows the cards from his panel: a private answer, so the hand's picture goes
    to the thread (shown from the table, it would ride the click's answer, issue 32)."""
    panel = await fake.click(gm, tables(fake)[0], button_id(fake, "gm"))
    shown = await fake.click(gm, panel, by_action(panel, "show"))
    return shown.content or ""


async def picture(fake: FakeDiscord, hand: int) -> FakeMessage:
    """The picture of hand `hand`, wherever it was posted."""

    def found() -> list[FakeMessage]:
        return [
            m
            for m in fake.messages.values()
            if not m.deleted and m.embeds and m.embeds[0].get("title") == f"Hand {hand}"
        ]

    await fake.wait_until(lambda: bool(found()), what=f"the picture of hand {hand}")
    (message,) = found()
    return message


async def posted_again(fake: FakeDiscord, deleted: FakeMessage) -> FakeMessage:
    """The one table message in the channel, once it is not `deleted`."""
    await fake.wait_until(lambda: [m.id for m in tables(fake)] not in ([], [deleted.id]))
    (again,) = tables(fake)
    return again


def threads(fake: FakeDiscord) -> list[FakeChannel]:
    return [c for c in fake.channels.values() if c.is_thread]


async def test_a_deleted_table_message_is_posted_again_and_plays_on(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env)
        await press(fake, world.player, "ante")
        await press(fake, world.gm, "deal")
        (first,) = tables(fake)
        await fake.delete_message(first)  # a moderator, mid-hand
        again = await posted_again(fake, first)
        assert "James Bond" in str(again.embeds)  # one table message, at the bottom
        assert fake.channel_messages()[-1].id == again.id
        assert await gm_shows(fake, world.gm) == "Cards shown."  # its buttons answer
        await picture(fake, 1)
        await play_a_hand(bot_env)
        await picture(fake, 2)
        await fake.wait_until(lambda: "Last showdown" in str(tables(fake)[0].embeds))
        assert tables(fake) == [again]
    rows = await query_file(bot_env.database, "SELECT message_id FROM card_tables")
    assert rows == [(again.id,)]  # a restart redraws the new one
    async with bot_env.run():
        await fake.wait_until(lambda: again.edit_count > 0)
        assert tables(fake) == [again]
    assert errors(caplog) == []


async def test_a_deleted_closed_scoreboard_is_posted_again(bot_env: BotEnv) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env, thread=False)
        await fake.slash(world.gm, "table close")
        closed = await wait_table(fake, "This table is closed.")
        await fake.delete_message(closed)
        again = await posted_again(fake, closed)
        assert "This table is closed." in str(again.embeds)
        assert [b["custom_id"].split(":")[3] for b in again.buttons()] == ["verify"]


async def test_a_deleted_thread_is_replaced_and_the_evening_told_in_full(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env)
        (thread,) = threads(fake)
        await play_a_hand(bot_env)
        assert (await picture(fake, 1)).channel_id == thread.id
        await fake.delete_thread(thread)  # a moderator
        await play_a_hand(bot_env)
        second = await picture(fake, 2)
        (new,) = threads(fake)
        assert new is not thread and second.channel_id == new.id  # from the table message
        assert new.parent_id == world.channel.id
        await fake.slash(world.gm, "table close")
        story = await fake.wait_for_message(
            new, lambda m: bool(m.embeds) and m.embeds[0].get("title") in STORIES
        )
        assert "James Bond" in story.embeds[0]["description"]
        await fake.wait_until(lambda: new.archived, what="the new thread archived")
    rows = await query_file(bot_env.database, "SELECT thread_id FROM card_tables")
    assert rows == [(new.id,)]
    assert errors(caplog) == []


async def test_a_locked_thread_is_replaced(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake = bot_env.fake
    async with bot_env.run():
        await open_table(bot_env)
        (thread,) = threads(fake)
        await fake.lock_thread(thread)  # archived and locked: 50083 on a post
        await play_a_hand(bot_env)
        posted = await picture(fake, 1)
        (new,) = [c for c in threads(fake) if c.id != thread.id]
        assert posted.channel_id == new.id
    assert errors(caplog) == []


async def test_without_threads_a_lost_thread_goes_on_in_the_channel(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env)
        (thread,) = threads(fake)
        no_threads = Overwrite(id=fake.bot_user.id, type=1, deny=CREATE_PUBLIC_THREADS)
        await fake.set_permissions(world.channel, [no_threads])
        await fake.delete_thread(thread)
        await play_a_hand(bot_env)
        assert (await picture(fake, 1)).channel_id == world.channel.id
        assert threads(fake) == []
        await fake.slash(world.gm, "table close")
        story = await fake.wait_for_message(
            predicate=lambda m: bool(m.embeds) and m.embeds[0].get("title") in STORIES
        )
        assert "James Bond" in story.embeds[0]["description"]
    assert errors(caplog) == []


async def test_a_refused_summary_is_said_on_the_closed_table(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env, thread=False)
        await play_a_hand(bot_env)
        mute = Overwrite(id=fake.bot_user.id, type=1, deny=SEND_MESSAGES)
        await fake.set_permissions(world.channel, [mute])
        await fake.slash(world.gm, "table close")
        closed = await wait_table(
            fake, "⚠️ I can't post the evening's summary here: give BondBot Send Messages."
        )
        assert "This table is closed." in str(closed.embeds)
        assert not [
            m for m in fake.messages.values() if m.embeds and m.embeds[0].get("title") in STORIES
        ]
    assert errors(caplog) == []


@pytest.mark.parametrize(
    ("denied", "named"),
    [(ATTACH_FILES, "Attach Files"), (SEND_MESSAGES_IN_THREADS, "Send Messages in Threads")],
)
async def test_a_refused_permission_is_told_once_and_tried_again_when_it_changes(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture, denied: int, named: str
) -> None:
    fake, world = bot_env.fake, bot_env.world
    line = f"⚠️ I can't post the hands' pictures here: give BondBot {named}."
    async with bot_env.run():
        await open_table(bot_env)
        (thread,) = threads(fake)
        bot_overwrite = Overwrite(id=fake.bot_user.id, type=1, deny=denied)
        await fake.set_permissions(world.channel, [bot_overwrite])
        await play_a_hand(bot_env)
        await wait_table(fake, line)  # on the table
        panel = await press(fake, world.gm, "gm")
        assert panel.embed is not None and line in panel.embed["description"]
        again = await press(fake, world.gm, "gm")  # told once
        assert again.embed is not None and line not in again.embed["description"]
        await play_a_hand(bot_env)  # the table plays on; the refused post is not tried
        assert not [m for m in fake.channel_messages(thread) if m.attachments]

        await fake.set_permissions(world.channel, [])  # the GM gives the permission back
        await fake.wait_until(lambda: line not in str(tables(fake)[0].embeds))
        await play_a_hand(bot_env)
        assert (await picture(fake, 3)).channel_id == thread.id  # pictures resume
    refused = [str(r) for r in fake.requests if r.code == 50013]
    assert len(refused) == 1, refused  # hand 1's, not hand 2's: Discord said no once
    assert errors(caplog) == []


async def test_a_permission_given_back_through_the_roles_resumes_the_pictures(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    line = "⚠️ I can't post the hands' pictures here: give BondBot Attach Files."
    roles = [world.guild.everyone, world.guild.bot_role]
    granted = {role.id: role.permissions for role in roles}
    async with bot_env.run():
        await open_table(bot_env)
        for role in roles:  # the server takes Attach Files from everyone
            await fake.set_role_permissions(role, role.permissions & ~ATTACH_FILES)
        await play_a_hand(bot_env)
        await wait_table(fake, line)
        for role in roles:
            await fake.set_role_permissions(role, granted[role.id])
        await fake.wait_until(lambda: line not in str(tables(fake)[0].embeds))
        await play_a_hand(bot_env)
        assert (await picture(fake, 2)).attachments
    assert errors(caplog) == []


async def test_a_redraw_through_a_429_storm_ends_showing_the_latest_state(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    fake, world = bot_env.fake, bot_env.world
    async with bot_env.run():
        await open_table(bot_env)
        # More 429s on message edits than discord.py's five tries of one request.
        storm = fake.inject("PATCH", EDITS, 429, count=8, retry_after=0.05)
        paused = await fake.slash(world.gm, "table pause")  # redrawn by an edit, not an answer
        assert paused.ephemeral
        await wait_table(fake, "Paused by the GM.")
        assert storm.served == 8
    assert errors(caplog) == []


async def test_a_picture_through_a_5xx_is_posted(
    bot_env: BotEnv, caplog: pytest.LogCaptureFixture
) -> None:
    """What already held and must hold still: a 502 on a post is tried again."""
    fake = bot_env.fake
    async with bot_env.run():
        await open_table(bot_env)
        (thread,) = threads(fake)
        outage = fake.inject("POST", rf"/channels/{thread.id}/messages", 502, count=1)
        await play_a_hand(bot_env)
        assert (await picture(fake, 1)).channel_id == thread.id
        assert outage.served == 1
    assert errors(caplog) == []
