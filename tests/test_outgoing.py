"""The outgoing queue (issue 32): the bot's own requests within the global and per-channel
budgets, the table message first, a picture late but never lost."""

from __future__ import annotations

import asyncio

import pytest

from bondbot.bot import outgoing
from bondbot.bot.outgoing import Outgoing, Turn


async def test_the_table_goes_before_a_picture_that_came_first() -> None:
    queue = Outgoing(per_second=1)
    await queue.turn(1, Turn.TABLE)  # the second's budget is spent
    order: list[str] = []

    async def wait(channel: int, turn: Turn, name: str) -> None:
        await queue.turn(channel, turn)
        order.append(name)

    picture = asyncio.create_task(wait(2, Turn.PICTURE, "picture"))
    await asyncio.sleep(0.05)
    table = asyncio.create_task(wait(3, Turn.TABLE, "table"))
    await asyncio.gather(picture, table)
    assert order == ["table", "picture"]


async def test_a_channel_takes_its_five_while_others_go_on() -> None:
    queue = Outgoing(per_second=100, per_channel=2, window=60)
    await queue.turn(1)
    await queue.turn(1)  # channel 1 is spent for a minute
    later = asyncio.create_task(queue.turn(1))
    await queue.turn(2)  # another channel is not held up behind it
    await asyncio.sleep(0.05)
    assert not later.done() and queue.waiting == 1
    later.cancel()


async def test_a_picture_waits_behind_tables_at_most_its_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(outgoing, "AGED_S", 0.3)
    queue = Outgoing(per_second=2)
    order: list[str] = []
    stop = asyncio.Event()

    async def tables() -> None:  # a table redraw always waiting: more than the budget
        n = 0
        while not stop.is_set():
            await queue.turn(100 + n % 50, Turn.TABLE)
            order.append("table")
            n += 1

    async def picture() -> None:
        await queue.turn(1, Turn.PICTURE)
        order.append("picture")

    busy = [asyncio.create_task(tables()) for _ in range(3)]
    await asyncio.sleep(0.05)
    await asyncio.wait_for(picture(), timeout=10)  # served once aged, not starved
    stop.set()
    for task in busy:
        task.cancel()
    assert "picture" in order and order.index("picture") > 0


async def test_a_turn_given_back_is_taken_by_the_next_at_once() -> None:
    """A redraw that found the table already drawn (a click's answer redrew it) spends
    nothing of the budget: its turn goes to the next request of that channel."""
    queue = Outgoing(per_second=100, per_channel=1, window=60)
    turn = await queue.turn(1)  # channel 1 is spent for a minute...
    later = asyncio.create_task(queue.turn(1))
    await asyncio.sleep(0.05)
    assert not later.done()
    queue.unused(1, turn)  # ...unless that turn was not used
    await asyncio.wait_for(later, 1)
    held = asyncio.create_task(queue.turn(1))  # the next one waits again
    await asyncio.sleep(0.05)
    assert not held.done()
    held.cancel()


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        (None, None, outgoing.PER_SECOND),  # one process, the shards Discord asks for
        (4, None, outgoing.PER_SECOND),  # every shard here
        (4, [0, 1], outgoing.PER_SECOND / 2),  # half of them: half the budget
        (4, [3], outgoing.PER_SECOND / 4),
    ],
)
def test_a_process_spends_its_shards_share_of_the_budget(
    count: int | None, ids: list[int] | None, expected: float
) -> None:
    assert outgoing.share(count, ids) == pytest.approx(expected)


async def test_the_turn_given_back_is_that_one_not_the_channels_latest() -> None:
    """A request granted after the unused turn did go: the window keeps its time, so the
    channel is not freed before that request's own window ends."""
    clock = [0.0]
    queue = Outgoing(per_second=100, per_channel=2, window=5, clock=lambda: clock[0])
    unused = await queue.turn(1)
    clock[0] = 4.0
    await queue.turn(1)  # sent at 4 s: the channel holds it until 9 s
    queue.unused(1, unused)
    clock[0] = 6.0
    await asyncio.wait_for(queue.turn(1), 1)  # the freed place
    held = asyncio.create_task(queue.turn(1))  # the one sent at 4 s still counts
    await asyncio.sleep(0.05)
    assert not held.done()
    held.cancel()
