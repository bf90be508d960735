"""The scheduler: one job per key, re-armed after every table action."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bondbot.scheduler import Scheduler

NOW = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


def scheduler() -> Scheduler:
    return Scheduler(lambda: NOW)


async def test_arming_a_key_again_for_the_same_time_keeps_its_one_job() -> None:
    jobs = scheduler()
    ran: list[str] = []
    when = NOW + timedelta(milliseconds=20)
    jobs.at("table", when, lambda: ran.append("first"))
    jobs.at("table", when, lambda: ran.append("again"))  # an action that left it there
    await asyncio.sleep(0.08)
    assert ran == ["first"]
    assert not jobs.pending("table")


async def test_arming_a_key_for_another_time_replaces_its_job() -> None:
    jobs = scheduler()
    ran: list[str] = []
    jobs.at("table", NOW + timedelta(milliseconds=20), lambda: ran.append("old"))
    jobs.at("table", NOW + timedelta(milliseconds=40), lambda: ran.append("new"))
    await asyncio.sleep(0.1)
    assert ran == ["new"]


async def test_a_job_that_ran_runs_again_when_armed_again() -> None:
    jobs = scheduler()
    ran: list[int] = []
    when = NOW - timedelta(seconds=1)  # past: at once
    jobs.at("table", when, lambda: ran.append(1))
    await asyncio.sleep(0.01)
    jobs.at("table", when, lambda: ran.append(2))
    await asyncio.sleep(0.01)
    assert ran == [1, 2]


async def test_cancelled_jobs_never_run() -> None:
    jobs = scheduler()
    ran: list[str] = []
    jobs.at("a", NOW + timedelta(milliseconds=10), lambda: ran.append("a"))
    jobs.at("b", NOW + timedelta(milliseconds=10), lambda: ran.append("b"))
    jobs.cancel("a")
    await asyncio.sleep(0.05)
    assert ran == ["b"]
    jobs.at("c", NOW + timedelta(milliseconds=10), lambda: ran.append("c"))
    jobs.cancel_all()
    await asyncio.sleep(0.05)
    assert ran == ["b"]
