"""Whether the database answers, and bringing it back when it does not.

A database server restarts, a volume goes away: the connections the writer and the reader
hold are dead, and without this every request after it failed until the process was
restarted. Here the first failure that means "no connection" (not a refused constraint, not
a lock held elsewhere) marks the database down: one WARNING, every request from then on is
refused at once with `Unreachable` ("nothing was changed"; nothing refused is queued for
later), and a task opens new connections with backoff. When they open, one INFO, and the
requests go on. A request arriving while it is down asks for an attempt at once (at most
every MIN_GAP_S) and waits for it a moment, so the first click after the server is back works.

`down_since` (wall clock) is what the health file reports (`bot.health`): a database
unreachable for long makes the container unhealthy, so it is restarted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bondbot import background
from bondbot.errors import Refusal

log = logging.getLogger(__name__)

FIRST_RETRY_S = 0.25  # the backoff between two attempts: doubled each time, up to MAX_RETRY_S
MAX_RETRY_S = 5.0
MIN_GAP_S = 0.5  # a request asks for an attempt at most this often
WAIT_S = 1.0  # what a request waits for an attempt it asked for (within its deadline)
PROBE_S = 5.0  # while up, how often a watched database is checked (`watch`)


class Unreachable(Refusal):
    """The database cannot be reached (its server stopped, its file gone): nothing of the
    request was applied, and nothing will be later. Answered like any refusal."""

    def __init__(self, reason: object = "") -> None:
        super().__init__("errors.unreachable")
        self.reason = str(reason)


class Link:
    """The state of the connections to one database: up, or down since when.

    `reopen` opens new connections and puts them in place (raising if it cannot);
    `probe` runs a trivial query on the current ones (raising if they are dead); `is_lost`
    says whether an error means the connection is gone."""

    def __init__(
        self,
        name: str,
        reopen: Callable[[], Awaitable[None]],
        probe: Callable[[], Awaitable[None]],
        is_lost: Callable[[BaseException], bool],
    ) -> None:
        self.name = name
        self._reopen = reopen
        self._probe = probe
        self.is_lost = is_lost
        self.down_since: float | None = None  # time.time() of the first failure
        self._down_at = 0.0  # the same, on time.monotonic()
        self.refused = 0  # requests refused during this outage
        self.listeners: list[Callable[[], object]] = []  # told when it goes down or up
        self._attempt: asyncio.Task[bool] | None = None
        self._last_attempt = 0.0
        self._restorer: asyncio.Task[None] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._closed = False  # its connections closed for good: nothing to bring back

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def lost(self, exc: BaseException) -> None:
        """A request found the connection gone: mark the database down (once) and start
        bringing it back."""
        if self.down or self._closed:
            return
        self.down_since, self._down_at = time.time(), time.monotonic()
        self.refused = 0
        log.warning(
            "database %s unreachable (%s): requests are refused until it is back;"
            " reconnecting with backoff",
            self.name,
            _why(exc),
        )
        self._tell()
        self._try()  # at once: a request waiting for it (`available`) finds it under way
        if self._restorer is None or self._restorer.done():
            self._restorer = background.spawn(self._restore(), name="bondbot-db-restore")

    def refuse(self, exc: BaseException | None = None) -> Unreachable:
        """The error for a request refused because the database is down."""
        self.refused += 1
        return Unreachable(exc or "the database is down")

    async def available(self, deadline: float | None) -> bool:
        """Up, or brought back within WAIT_S and before `deadline` (time.monotonic)."""
        if not self.down:
            return True
        budget = WAIT_S if deadline is None else min(WAIT_S, deadline - time.monotonic())
        trying = self._attempt is not None and not self._attempt.done()
        if budget > 0 and (trying or time.monotonic() - self._last_attempt >= MIN_GAP_S):
            attempt = self._try()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(budget):
                    await asyncio.shield(attempt)
        return not self.down

    async def check(self, deadline: float | None = None) -> None:
        """Raise `Unreachable` unless the database is up (or back within the deadline)."""
        if not await self.available(deadline):
            raise self.refuse()

    def watch(self) -> None:
        """Check the connections every PROBE_S while up, so an outage is noticed (and the
        health file says so) even when no request comes."""
        if self._watcher is None:
            self._watcher = background.spawn(self._watch(), name="bondbot-db-watch")

    async def close(self) -> None:
        self._closed = True
        for task in (self._watcher, self._restorer, self._attempt):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._watcher = self._restorer = self._attempt = None

    # -- inside ------------------------------------------------------------------------------

    def _tell(self) -> None:
        for listener in self.listeners:
            try:
                listener()
            except Exception:
                log.exception("database link listener failed")

    def _try(self) -> asyncio.Task[bool]:
        """The attempt under way, or a new one."""
        if self._attempt is None or self._attempt.done():
            self._attempt = background.spawn(self._reconnect(), name="bondbot-db-reconnect")
        return self._attempt

    async def _reconnect(self) -> bool:
        self._last_attempt = time.monotonic()
        try:
            await self._reopen()
        except Exception as exc:
            log.debug("database %s: reconnecting failed: %s", self.name, _why(exc))
            return False
        if self.down:
            took = time.monotonic() - self._down_at
            log.info(
                "database %s reachable again after %.1f s (%d request(s) refused meanwhile)",
                self.name,
                took,
                self.refused,
            )
            self.down_since = None
            self._tell()
        return True

    async def _restore(self) -> None:
        delay = FIRST_RETRY_S
        while self.down and not self._closed:
            if await asyncio.shield(self._try()):
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_RETRY_S)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(PROBE_S)
            if self.down:
                continue
            try:
                await self._probe()
            except Exception as exc:
                if self.is_lost(exc):
                    self.lost(exc)
                else:
                    log.debug("database %s: probe failed: %s", self.name, _why(exc))


def _why(exc: BaseException) -> str:
    """An error in one line, without its backend's class name."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]
