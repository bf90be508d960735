"""Work the bot starts by itself: timers, redraws, thread posts, summaries, any task that
outlives the handler that started it.

asyncio copies the current context into every task and timer callback, so work started
while an interaction is being handled would carry that interaction's per-interaction
context: above all `storage.db.answer_by`, the moment its writes must be on disk. A turn
timer armed by a click then fired long after that moment and had its move refused as
"busy"; the redraw after `/table close` could not mark the table drawn. Here such work
starts in an empty context of its own: no deadline, no reply language, no user. It is the
only place in the bot that starts a task or arms a loop timer (a test checks).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

# Strong references: the loop keeps only weak ones, and a task nobody holds may be
# collected before it finishes.
_running: set[asyncio.Task[Any]] = set()


def spawn(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Run `coro` as a task of its own, in an empty context, held until it is done."""
    task = asyncio.get_running_loop().create_task(coro, name=name, context=contextvars.Context())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return task


def call_later(delay: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
    """Call `callback` after `delay` seconds on the running loop, in an empty context."""
    loop = asyncio.get_running_loop()
    return loop.call_later(delay, callback, context=contextvars.Context())
