"""One queue for the requests the bot makes by itself: table redraws and posts, the hands'
pictures, the evenings' summaries, new threads (issue 32).

Discord gives a bot about 50 requests a second in all (interaction answers apart) and a
channel about 5 posts and 5 edits in 5 s. discord.py paces each route on Discord's
headers, but not the global limit: a burst of tables (a start, a busy evening) would meet
it as a storm of 429s, each counted against the bot's invalid-request limit. Here every
such request first waits its turn: at most `per_second` a second in all (a share of the
global limit, the rest left for what goes around the queue: commands, reads, shard
sessions), and `per_channel` in `window` seconds in each channel, counted by the bot
itself, a little under Discord's so the fake's (or Discord's) own clock never sees one
too many.

Turns go by priority: the table message players wait on first, then pictures, then
summaries; under pressure a picture or a summary waits, but never more than `AGED_S`
behind newer table redraws: after that it goes in the order of its arrival with them.
Late, never lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntEnum

from bondbot import background


def share(shard_count: int | None, shard_ids: list[int] | None) -> float:
    """This process's turns a second: the token's budget is shared by every shard (and so
    by every process); a process spends the part of its shards, all of it when it runs
    every shard."""
    count = max(1, shard_count or 1)
    mine = count if not shard_ids else min(len(shard_ids), count)
    return PER_SECOND * mine / count


class Turn(IntEnum):
    """What a request is for, in the order turns are given."""

    TABLE = 0
    PICTURE = 1
    SUMMARY = 2


PER_SECOND = 40.0  # of Discord's 50 a second for a bot token
PER_CHANNEL = 5  # posts and edits in one channel (a thread is a channel) …
WINDOW_S = 5.25  # … in this many seconds (Discord: 5 in 5 s; a margin for the clocks)
AGED_S = 20.0  # the longest a picture or summary waits behind newer table redraws


@dataclass(order=True)
class _Waiter:
    priority: Turn
    seq: int
    channel: int = field(compare=False)
    since: float = field(compare=False)
    granted: asyncio.Future[float] = field(compare=False)  # when it was granted


class Outgoing:
    """Turns for the bot's own requests, within the global and per-channel budgets."""

    def __init__(
        self,
        per_second: float = PER_SECOND,
        per_channel: int = PER_CHANNEL,
        window: float = WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_second, self.per_channel, self.window = per_second, per_channel, window
        self.clock = clock
        self._sent: deque[float] = deque()  # the last second's turns, all channels
        self._by_channel: defaultdict[int, deque[float]] = defaultdict(deque)
        self._waiting: list[_Waiter] = []
        self._seq = itertools.count()
        self._wake = asyncio.Event()
        self._pump: asyncio.Task[None] | None = None
        self.waited_max = dict.fromkeys(Turn, 0.0)  # seconds, for the logs

    def limit(self, per_second: float) -> None:
        """Spend at most `per_second` requests a second in all (a process's share)."""
        self.per_second = per_second

    async def turn(self, channel: int, priority: Turn = Turn.TABLE) -> float:
        """Wait until a request to `channel` may go now; it is counted as sent. Returns the
        turn's time, for `unused`."""
        waiter = _Waiter(
            priority,
            next(self._seq),
            channel,
            self.clock(),
            asyncio.get_running_loop().create_future(),
        )
        self._waiting.append(waiter)
        self._wake.set()
        if self._pump is None or self._pump.done():
            self._pump = background.spawn(self._serve(), name="outgoing")
        try:
            return await waiter.granted
        except asyncio.CancelledError:
            if waiter in self._waiting:
                self._waiting.remove(waiter)
            raise

    def unused(self, channel: int, when: float) -> None:
        """The turn granted on `channel` at `when` was not spent (nothing to send: a click's
        answer redrew the table meanwhile, the database or a permission is missing): it is
        given back. That very turn, not the channel's latest, so the window keeps the times
        of the requests that did go."""
        for times in (self._by_channel.get(channel), self._sent):
            with contextlib.suppress(ValueError):
                if times is not None:
                    times.remove(when)
        if self._waiting:
            self._wake.set()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    def _order(self, now: float) -> list[_Waiter]:
        """Tables first; a picture or summary that waited `AGED_S` goes as a table would,
        by its arrival."""
        return sorted(
            self._waiting,
            key=lambda w: (0 if now - w.since >= AGED_S else w.priority, w.seq),
        )

    async def _serve(self) -> None:
        while self._waiting:
            self._wake.clear()
            now = self.clock()
            sent, window = self._sent, self.window
            while sent and sent[0] <= now - 1.0:
                sent.popleft()
            next_free = now + 1.0
            for waiter in self._order(now):
                if waiter.granted.done():  # cancelled
                    self._waiting.remove(waiter)
                    continue
                if len(sent) >= self.per_second:
                    next_free = min(next_free, sent[0] + 1.0)
                    break
                mine = self._by_channel[waiter.channel]
                while mine and mine[0] <= now - window:
                    mine.popleft()
                if len(mine) >= self.per_channel:
                    next_free = min(next_free, mine[0] + window)
                    continue
                sent.append(now)
                mine.append(now)
                self._waiting.remove(waiter)
                waited = now - waiter.since
                self.waited_max[waiter.priority] = max(self.waited_max[waiter.priority], waited)
                waiter.granted.set_result(now)
            for channel in [c for c, times in self._by_channel.items() if not times]:
                del self._by_channel[channel]
            if not self._waiting:
                return
            # Until a budget frees up, a waiter ages into a table's turn, or a new one comes.
            aging = min(
                (w.since + AGED_S for w in self._waiting if w.priority and w.since + AGED_S > now),
                default=next_free,
            )
            delay = max(0.001, min(next_free, aging) - self.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), delay)
