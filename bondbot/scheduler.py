"""One scheduler for everything the bot does later: turn timers, auto-deals, the redraw
when a Hero Point window closes, a roll's Hero Point button going.

Each job has a key (a table and what for); scheduling a key again replaces its job, so a
table never has two timers for the same thing. A job does what its key and time say, so
scheduling a key again for the same time keeps the timer it has: a table re-arms its
timers after every action, and most actions leave them where they were. Jobs are plain
callbacks on the event loop, run in a context of their own (`background`: never the
interaction that armed them); what they do is the caller's (they usually start a task).
Nothing here is saved: the table service and the table messages re-arm their jobs from
the tables' state when the bot starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from datetime import datetime

from bondbot import background


class Scheduler:
    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock
        self._jobs: dict[Hashable, tuple[datetime, asyncio.TimerHandle]] = {}

    def at(self, key: Hashable, when: datetime, job: Callable[[], object]) -> None:
        """Run `job` at `when` (at once if past), replacing the job under `key` unless it
        is already due then."""
        if (old := self._jobs.get(key)) is not None and old[0] == when:
            return
        self.cancel(key)
        delay = max((when - self.clock()).total_seconds(), 0.0)

        def run() -> None:
            self._jobs.pop(key, None)
            job()

        self._jobs[key] = (when, background.call_later(delay, run))

    def cancel(self, key: Hashable) -> None:
        if (old := self._jobs.pop(key, None)) is not None:
            old[1].cancel()

    def cancel_all(self) -> None:
        for _, handle in self._jobs.values():
            handle.cancel()
        self._jobs.clear()

    def pending(self, key: Hashable) -> bool:
        return key in self._jobs
