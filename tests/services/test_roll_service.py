"""RollService: the 007 roll on a stored sheet, and Hero Point steps that spend at most once."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from bondbot.config import Settings
from bondbot.errors import Refusal
from bondbot.services.gm import GmService
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.rolls import (
    DEFAULT_CHARACTERISTIC,
    RollService,
    default_characteristic,
    parse_ease,
)
from bondbot.services.sheets import Actor, SheetService
from bondbot.sheets import STANDARD_SKILLS
from bondbot.storage import ledger
from bondbot.storage.db import Database

GUILD, PLAYER, OTHER, GM = 10, 111, 222, 999
player, other, gm = Actor(GUILD, PLAYER), Actor(GUILD, OTHER), Actor(GUILD, GM, is_gm=True)


@contextlib.contextmanager
def refused(key: str) -> Iterator[None]:
    """The block raises the Refusal `key` (exactly that key)."""
    with pytest.raises(Refusal) as caught:
        yield
    assert caught.value.key == key, caught.value


class Dice(random.Random):
    def __init__(self, *rolls: int) -> None:
        super().__init__(1)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 2, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def world(db: Database, *rolls: int) -> tuple[RollService, int, int, Clock]:
    clock = Clock()
    guilds = GuildSettingsService(db, Settings(token="t"))
    sheets = SheetService(db, clock)
    bond = await sheets.create(
        player, name="James Bond", fields={"characteristics": {"PER": 9, "DEX": 7}}
    )
    await sheets.set_skill(player, bond.id, "Jeu", 8)
    await GmService(db, guilds, clock).move(gm, bond.id, "hero", 2, give=True, reason="r")
    npc = await sheets.create(gm, name="Le Chiffre", kind="NPC")
    return RollService(db, guilds, clock, Dice(*rolls)), bond.id, npc.id, clock


def test_every_standard_skill_has_a_default_characteristic() -> None:
    assert set(DEFAULT_CHARACTERISTIC) == {skill.key for skill in STANDARD_SKILLS}
    assert default_characteristic("gambling") == "PER"
    assert default_characteristic("Baccarat lore") == "INT"


def test_ease_factors() -> None:
    assert parse_ease(2.5) == Fraction(5, 2) and parse_ease("½") == Fraction(1, 2)
    for bad in (0.3, 11, "x", 2.25):
        with refused("roll.bad_ease"):
            parse_ease(bad)


async def test_a_roll_is_stored_and_improved_one_step_per_point(db: Database) -> None:
    rolls, bond, _, _ = await world(db, 90)
    made = await rolls.roll(player, bond, "Gambling")
    assert (made.primary_chance, made.success_chance, made.d100, made.quality) == (17, 85, 90, None)
    assert made.spender_id == PLAYER and made.improvable
    step = await rolls.step(GUILD, PLAYER, made.id, 0)
    assert (step.steps, step.result, step.character.hero_points) == (1, 4, 1)
    with refused("roll.already_spent"):
        await rolls.step(GUILD, PLAYER, made.id, 0)
    with refused("roll.not_your_button"):
        await rolls.step(GUILD, OTHER, made.id, 1)
    step = await rolls.step(GUILD, PLAYER, made.id, 1)
    assert (step.result, step.character.hero_points) == (3, 0)
    with refused("roll.no_hero_points"):
        await rolls.step(GUILD, PLAYER, made.id, 2)
    assert (await rolls.get(GUILD, made.id)).steps == 2
    async with db.read() as conn:
        assert await ledger.verify_balances(conn) == {}


async def test_concurrent_clicks_spend_once(db: Database) -> None:
    rolls, bond, _, _ = await world(db, 50)
    made = await rolls.roll(player, bond, "gambling")
    results = await asyncio.gather(
        *(rolls.step(GUILD, PLAYER, made.id, 0) for _ in range(5)), return_exceptions=True
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(
        isinstance(r, Refusal) and r.key == "roll.already_spent"
        for r in results
        if isinstance(r, Exception)
    )
    stored = await rolls.get(GUILD, made.id)
    assert (stored.steps, stored.result, stored.character.hero_points) == (1, 3, 1)


async def test_who_rolls_for_whom_and_the_spend_window(db: Database) -> None:
    rolls, bond, npc, clock = await world(db, 3, 40, 60)
    best = await rolls.roll(player, bond, "Jeu")
    assert best.result == 1 and not best.improvable
    with refused("roll.best"):
        await rolls.step(GUILD, PLAYER, best.id, 0)
    with refused("roll.not_yours"):
        await rolls.roll(other, bond, "Jeu")
    with refused("roll.not_yours"):
        await rolls.roll(player, npc, "Jeu")
    villain = await rolls.roll(gm, npc, "Jeu", characteristic="INT", ease=10)
    assert villain.spender_id is None and not villain.improvable
    assert (villain.level, villain.effective_ease, villain.success_chance) == (0, 7, 35)
    for_bond = await rolls.roll(gm, bond, "Driving", ease="1/2")
    assert for_bond.spender_id == PLAYER and for_bond.effective_ease == Fraction(1, 2)
    assert for_bond.success_chance == 3 and for_bond.quality is None
    clock.now += timedelta(seconds=61)
    with refused("roll.window_closed"):
        await rolls.step(GUILD, PLAYER, for_bond.id, 0)
    with refused("roll.gone"):
        await rolls.step(GUILD + 1, PLAYER, for_bond.id, 0)
    with refused("roll.bad_skill"):
        await rolls.roll(player, bond, "\n")
    with refused("roll.bad_characteristic"):
        await rolls.roll(player, bond, "Jeu", characteristic="LUCK")  # type: ignore[arg-type]
