"""Skill rolls by the 007 rules (rulebook.md "Skill roll"), kept so Hero Points can follow.

A roll is stored when made; its PC's owner may then spend Hero Points on it, one step per
point (failure → 4 → 3 → 2 → 1), within the server's Hero Point spend window. Each spend
is one ledger row (`roll.step`) written in the same transaction as a compare-and-set on
the roll's step count, so a double click, two devices or a restart spend at most once per
step the player saw.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Final, Literal

from bondbot.errors import Refusal
from bondbot.rules import gambling
from bondbot.rules.errors import IllegalAction
from bondbot.services.guilds import GuildSettingsService
from bondbot.services.sheets import Actor
from bondbot.sheets import resolve_skill
from bondbot.storage import characters, ledger, repeats
from bondbot.storage import rolls as stored_rolls
from bondbot.storage.characters import Character, CharacterNotFound
from bondbot.storage.conn import Connection
from bondbot.storage.db import Database

Characteristic = Literal["STR", "DEX", "WIL", "PER", "INT"]
CHARACTERISTICS: Final[tuple[Characteristic, ...]] = ("STR", "DEX", "WIL", "PER", "INT")
STEP_REASON = "roll.step"

# The characteristic a skill is rolled with unless the GM says otherwise (docs/decisions.md,
# "Skill rolls"). Gambling uses Perception, as the rulebook says.
DEFAULT_CHARACTERISTIC: Final[dict[str, Characteristic]] = {
    "boating": "DEX",
    "charisma": "WIL",
    "connoisseur": "INT",
    "demolitions": "INT",
    "disguise": "INT",
    "diving": "STR",
    "driving": "DEX",
    "electronics": "INT",
    "evasion": "DEX",
    "fire_combat": "DEX",
    "first_aid": "INT",
    "gambling": "PER",
    "hand_to_hand": "STR",
    "interrogation": "WIL",
    "local_customs": "INT",
    "lockpicking": "DEX",
    "mountaineering": "STR",
    "photography": "PER",
    "piloting": "DEX",
    "riding": "DEX",
    "science": "INT",
    "seduction": "WIL",
    "sixth_sense": "PER",
    "sleight_of_hand": "DEX",
    "stealth": "DEX",
    "torture": "WIL",
}
HOUSE_SKILL_CHARACTERISTIC: Final[Characteristic] = "INT"


def default_characteristic(skill_key: str) -> Characteristic:
    return DEFAULT_CHARACTERISTIC.get(skill_key, HOUSE_SKILL_CHARACTERISTIC)


@dataclass(frozen=True, slots=True)
class Roll:
    """A stored roll, the character it was for, and the Hero Points spent on it so far."""

    id: int
    guild_id: int
    character: Character
    roller_id: int
    spender_id: int | None
    skill: str
    characteristic: Characteristic
    char_value: int
    level: int
    ease: Fraction
    effective_ease: Fraction
    primary_chance: int
    success_chance: int
    d100: int
    quality: int | None  # as rolled; None is a failure
    steps: int
    secret: bool
    created_at: str

    @property
    def result(self) -> int | None:
        """The Quality Result after the Hero Points spent (None: still a failure)."""
        return gambling.improve(self.quality, self.steps)

    @property
    def improvable(self) -> bool:
        """A PC's roll not yet at the best result: its owner may spend a point on it."""
        return self.spender_id is not None and self.result != 1

    def expires_at(self, window_s: int) -> datetime:
        return datetime.fromisoformat(self.created_at) + timedelta(seconds=window_s)


def parse_ease(value: float | int | str | Fraction) -> Fraction:
    """An Ease Factor from a command (`2.5`, `5`, `½`), refused unless ½ … 10 by halves."""
    text = value if isinstance(value, str | Fraction) else str(value)
    try:
        return gambling.ease_factor(text)
    except IllegalAction:
        raise Refusal("roll.bad_ease", ease=str(value)[:16]) from None


class RollService:
    def __init__(
        self,
        db: Database,
        guilds: GuildSettingsService,
        clock: Callable[[], datetime],
        rng: random.Random,
    ) -> None:
        self.db = db
        self.guilds = guilds
        self.clock = clock
        self.rng = rng

    def now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    async def roll(
        self,
        actor: Actor,
        character_id: int,
        skill: str,
        *,
        characteristic: Characteristic | None = None,
        ease: float | int | str | Fraction = gambling.DEFAULT_EASE,
        secret: bool = False,
    ) -> Roll:
        """Roll a skill for a character: his own PC for a player, anyone for the GM."""
        key, wanted_ease = _intent(skill, characteristic, ease)
        now = self.now()
        async with self.db.transaction() as conn:
            character = await _living(conn, actor.guild_id, character_id)
            if not actor.is_gm and (character.kind != "PC" or character.owner_id != actor.user_id):
                raise Refusal("roll.not_yours", name=character.name)
            used = characteristic or default_characteristic(key)
            value = getattr(character.sheet.characteristics, used)
            level = character.sheet.skill_level(key)
            result = gambling.skill_roll(value, level, wanted_ease, gambling.roll_d100(self.rng))
            spender = character.owner_id if character.kind == "PC" else None
            made = stored_rolls.NewRoll(
                guild_id=actor.guild_id,
                character_id=character.id,
                roller_id=actor.user_id,
                spender_id=spender,
                skill=key,
                characteristic=used,
                char_value=value,
                level=level,
                ease=str(wanted_ease),
                effective_ease=str(result.ease_factor),
                primary_chance=result.primary_chance,
                success_chance=result.success_chance,
                d100=result.roll,
                quality=result.quality,
                secret=secret,
            )
            roll_id = await stored_rolls.insert(conn, made, now=now)
            return await _load(conn, roll_id, actor.guild_id)

    async def earlier_same_roll(
        self,
        actor: Actor,
        character_id: int,
        skill: str,
        *,
        characteristic: Characteristic | None = None,
        ease: float | int | str | Fraction = gambling.DEFAULT_EASE,
        secret: bool = False,
    ) -> Roll | None:
        """The same roll by the same user within REPEAT_WINDOW: what a retry after a lost
        answer would roll a second time (docs/decisions.md)."""
        key, wanted_ease = _intent(skill, characteristic, ease)
        since = (self.clock() - repeats.REPEAT_WINDOW).isoformat(timespec="milliseconds")
        async with self.db.read() as conn:
            roll_id = await repeats.latest_same_roll(
                conn,
                guild_id=actor.guild_id,
                roller_id=actor.user_id,
                character_id=character_id,
                skill=key,
                characteristic=characteristic or default_characteristic(key),
                ease=str(wanted_ease),
                secret=secret,
                since=since,
            )
            return None if roll_id is None else await _load(conn, roll_id, actor.guild_id)

    async def get(self, guild_id: int, roll_id: int) -> Roll:
        async with self.db.read() as conn:
            return await _load(conn, roll_id, guild_id)

    async def step(self, guild_id: int, user_id: int, roll_id: int, seen_steps: int) -> Roll:
        """Spend one Hero Point to better the roll one step, if the roll still shows
        `seen_steps` spent (a second click on the same button is refused, not spent)."""
        async with self.db.transaction() as conn:
            roll = await _load(conn, roll_id, guild_id)
            if roll.spender_id != user_id:
                raise Refusal("roll.not_your_button")
            if roll.steps != seen_steps:
                raise Refusal("roll.already_spent")
            if roll.result == 1:
                raise Refusal("roll.best")
            settings = await self.guilds.read(conn, guild_id)
            if self.clock() > roll.expires_at(settings.spend_window_s):
                raise Refusal("roll.window_closed", seconds=settings.spend_window_s)
            character = await _living(conn, guild_id, roll.character.id)
            now = self.now()
            try:
                await ledger.transfer(
                    conn,
                    guild_id=guild_id,
                    kind="hero",
                    amount=1,
                    src=character.account,
                    dst=None,
                    reason=STEP_REASON,
                    actor_id=user_id,
                    note=f"roll {roll_id}",
                    now=now,
                )
            except ledger.InsufficientFunds:
                raise Refusal("roll.no_hero_points", name=character.name) from None
            if not await stored_rolls.add_step(conn, roll_id, seen_steps, now=now):
                # cannot happen under the write lock; undo the spend if it does
                raise Refusal("roll.already_spent")
            return await _load(conn, roll_id, guild_id)


def _intent(
    skill: str, characteristic: str | None, ease: float | int | str | Fraction
) -> tuple[str, Fraction]:
    """The skill's key and the Ease Factor asked for, or the refusal of either."""
    try:
        key = resolve_skill(skill)
    except ValueError:
        raise Refusal("roll.bad_skill") from None
    if characteristic is not None and characteristic not in CHARACTERISTICS:
        raise Refusal("roll.bad_characteristic")
    return key, parse_ease(ease)


async def _living(conn: Connection, guild_id: int, character_id: int) -> Character:
    try:
        return await characters.get_character(conn, character_id, guild_id=guild_id)
    except CharacterNotFound:
        raise Refusal("sheet.gone") from None


async def _load(conn: Connection, roll_id: int, guild_id: int) -> Roll:
    row = await stored_rolls.load(conn, roll_id, guild_id)
    if row is None:
        raise Refusal("roll.gone")
    character = await characters.get_character(conn, row["character_id"], include_dead=True)
    return Roll(
        id=row["id"],
        guild_id=row["guild_id"],
        character=character,
        roller_id=row["roller_id"],
        spender_id=row["spender_id"],
        skill=row["skill"],
        characteristic=row["characteristic"],
        char_value=row["char_value"],
        level=row["level"],
        ease=Fraction(row["ease"]),
        effective_ease=Fraction(row["effective_ease"]),
        primary_chance=row["primary_chance"],
        success_chance=row["success_chance"],
        d100=row["d100"],
        quality=row["quality"],
        steps=row["steps"],
        secret=bool(row["secret"]),
        created_at=row["created_at"],
    )
