"""Per-guild settings: one row per guild, created on first change; defaults until then.

The defaults for language and currency come from the operator's config (`default_locale`,
`currency`), so a server that never ran a settings command still follows it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bondbot.sheets import SheetInvalid, field_errors
from bondbot.storage.conn import Connection

Lang = Literal["fr", "en"]
DEFAULT_SPEND_WINDOW_S = 60
DEFAULT_TURN_TIMER_S = 90
_COLUMNS = ("gm_role_id", "locale", "currency", "spend_window_s", "turn_timer_s", "award_table")


class SettingsInvalid(SheetInvalid):
    """A settings change failed validation; `messages(locale)` says what to fix."""


class GuildSettings(BaseModel):
    """A guild's settings; `award_table` None means the seed's table (rules/alternative.py)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, str_strip_whitespace=True)

    guild_id: int
    gm_role_id: int | None = Field(default=None, ge=1)
    locale: Lang = "fr"
    currency: str = Field(default="$", min_length=1, max_length=8)
    spend_window_s: int = Field(default=DEFAULT_SPEND_WINDOW_S, ge=5, le=3600)
    turn_timer_s: int = Field(default=DEFAULT_TURN_TIMER_S, ge=10, le=3600)
    award_table: str | None = Field(default=None, min_length=1, max_length=200)


async def get_settings(
    conn: Connection,
    guild_id: int,
    *,
    default_locale: Lang = "fr",
    default_currency: str = "$",
) -> GuildSettings:
    """The guild's settings, or the defaults if it never changed any."""
    rows = list(
        await conn.execute_fetchall(
            f"SELECT {', '.join(_COLUMNS)} FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
    )
    if not rows:
        return GuildSettings(guild_id=guild_id, locale=default_locale, currency=default_currency)
    return GuildSettings(guild_id=guild_id, **dict(zip(_COLUMNS, rows[0], strict=True)))


async def update_settings(
    conn: Connection,
    guild_id: int,
    *,
    default_locale: Lang = "fr",
    default_currency: str = "$",
    **changes: Any,
) -> GuildSettings:
    """Change some settings (validated: SettingsInvalid says what is wrong); return them all.

    Callers validate `award_table` with `rules.alternative.parse_award_table` first: here it
    is only bounded text. Pass `award_table=None` to go back to the default table.
    """
    unknown = sorted(set(changes) - set(_COLUMNS))
    if unknown:
        raise ValueError(f"unknown guild settings: {unknown}")
    current = await get_settings(
        conn, guild_id, default_locale=default_locale, default_currency=default_currency
    )
    try:
        updated = GuildSettings.model_validate({**current.model_dump(), **changes})
    except ValidationError as exc:
        raise SettingsInvalid(field_errors(exc)) from None
    values = [getattr(updated, column) for column in _COLUMNS]
    await conn.execute(
        f"INSERT INTO guild_settings (guild_id, {', '.join(_COLUMNS)})"
        f" VALUES (?, {', '.join('?' for _ in _COLUMNS)})"
        " ON CONFLICT (guild_id) DO UPDATE SET "
        + ", ".join(f"{column} = excluded.{column}" for column in _COLUMNS),
        (guild_id, *values),
    )
    return updated
