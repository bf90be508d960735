"""`background`: the bot's own work runs without the context of the interaction that
started it (issue 20 §1), and nothing else in the bot starts a task or arms a loop timer."""

from __future__ import annotations

import asyncio
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import bondbot
from bondbot import background
from bondbot.scheduler import Scheduler
from bondbot.storage.db import answer_by

SOURCE = Path(bondbot.__file__).parent
STARTS = re.compile(r"(?<!background)\.(create_task|ensure_future|call_later|call_soon|call_at)\(")


async def test_a_spawned_task_does_not_inherit_the_interaction_deadline() -> None:
    answer_by.set(time.monotonic() - 1)  # a click, already past its deadline

    async def seen() -> float | None:
        return answer_by.get()

    assert await background.spawn(seen()) is None
    assert answer_by.get() is not None  # the click's own context is left as it was


async def test_a_scheduled_job_runs_without_the_context_that_armed_it() -> None:
    scheduler = Scheduler(lambda: datetime.now(UTC))
    ran: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
    answer_by.set(time.monotonic() - 1)
    scheduler.at(
        "job",
        datetime.now(UTC) + timedelta(milliseconds=5),
        lambda: ran.set_result(answer_by.get()),
    )
    assert await asyncio.wait_for(ran, 2) is None


def test_only_background_starts_tasks_and_timers() -> None:
    found = [
        f"{path.relative_to(SOURCE)}:{number}: {line.strip()}"
        for path in sorted(SOURCE.rglob("*.py"))
        if path.name != "background.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if STARTS.search(line)
    ]
    assert found == []
