"""bench/load/load.py --sweep's search: the highest offered rate whose step passes, within the
precision asked, in bounded steps, whatever the first rate tried."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "load"))

from load_open import Round, sweep
from load_open_bots import Step


class Bot:
    """Passes every step up to `capacity` offered interactions/s, fails above it."""

    def __init__(self, capacity: float) -> None:
        self.capacity = capacity
        self.tried: list[float] = []

    async def step(self, rate: float, seconds: float, rng: random.Random) -> Step:
        self.tried.append(rate)
        slow = rate > self.capacity
        return Step(
            bot="bot",
            rate=rate,
            seconds=seconds,
            offered=int(rate * seconds),
            sent=int(rate * seconds),
            answered=int(rate * seconds),
            latencies=[0.5 if slow else 0.01] * 100,
            misses=0,
            why="",
            cpu_s=0.0,
            others_cpu=0.0,
            bench_cpu=0.0,
        )


def args(**kw: float) -> argparse.Namespace:
    base = {
        "start_rate": 200.0,
        "max_rate": 6400.0,
        "precision": 0.1,
        "max_steps": 12,
        "step_seconds": 1.0,
    }
    return argparse.Namespace(**{**base, **kw})


@pytest.mark.parametrize(
    ("capacity", "hint"), [(437.0, None), (150.0, None), (3000.0, None), (437.0, 500.0)]
)
def test_sweep_brackets_the_capacity(capacity: float, hint: float | None) -> None:
    bot = Bot(capacity)
    found = asyncio.run(sweep(bot, args(), random.Random(1), Round(1, ["bot"]), hint))  # type: ignore[arg-type]
    assert capacity / 1.1 <= found <= capacity
    assert len(bot.tried) <= 12
    assert all(rate <= capacity for rate in bot.tried if rate <= found)


def test_sweep_stops_at_the_highest_rate_it_may_try() -> None:
    bot = Bot(10_000.0)
    found = asyncio.run(sweep(bot, args(), random.Random(1), Round(1, ["bot"]), None))  # type: ignore[arg-type]
    assert found == 6400.0
    assert max(bot.tried) == 6400.0


def test_a_step_with_a_miss_fails_however_fast() -> None:
    step = Bot(1e9).step
    passed = asyncio.run(step(100.0, 1.0, random.Random(1)))
    assert passed.ok
    passed.misses = 1
    assert not passed.ok
