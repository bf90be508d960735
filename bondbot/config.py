"""Settings from `config.toml` and the environment, validated once at start.

Validation errors become one line per bad setting, naming it and how to fix it, so a
newcomer never has to read a traceback to get the bot running.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

TOKEN_ENV = "BONDBOT_TOKEN"
DATABASE_URL_ENV = "BONDBOT_DATABASE_URL"
_DATABASE_URL = re.compile(r"^postgres(?:ql)?://[^\s]+$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class ConfigError(Exception):
    """The configuration cannot be used; the message says what to fix."""


class Settings(BaseModel):
    """Everything the bot reads at start; see config.example.toml for each setting."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    token: str = Field(default="", repr=False, validate_default=True)
    # A SQLite file's path, or a PostgreSQL server's URL (kept as text: a Path would fold
    # its `//`).
    database: Path | str = Path("bondbot.sqlite3")
    default_locale: Literal["fr", "en"] = "fr"
    currency: str = Field(default="$", min_length=1, max_length=4)
    dev_guild_id: int | None = Field(default=None, gt=0, le=2**63 - 1)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    discord_api_base: str | None = None

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database", mode="before")
    @classmethod
    def _usable_path(cls, value: object) -> Path | str:
        if not isinstance(value, str | Path):
            raise ValueError("must be a file path or a postgresql:// URL")
        if _CONTROL.search(str(value)):
            raise ValueError("the path contains a control character")
        if isinstance(value, str) and value.startswith(("postgresql:", "postgres:")):
            if not _DATABASE_URL.match(value):
                raise ValueError("a PostgreSQL URL is postgresql://user@host/database")
            return value
        return Path(value).expanduser()

    @field_validator("currency")
    @classmethod
    def _printable_currency(cls, value: str) -> str:
        if _CONTROL.search(value) or not value.strip():
            raise ValueError("must be printable characters")
        return value

    @field_validator("discord_api_base")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("token")
    @classmethod
    def _token_present(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError(
                f"no bot token: set the {TOKEN_ENV} environment variable "
                "(or `token` in config.toml) to the token of your Discord application's bot"
            )
        return value


_HINTS = {
    "database": (
        'a file path, e.g. database = "bondbot.sqlite3", or a PostgreSQL URL,'
        ' e.g. database = "postgresql://bondbot@localhost/bondbot"'
    ),
    "default_locale": 'one of "fr" or "en"',
    "currency": 'a short symbol, e.g. currency = "$"',
    "dev_guild_id": "the numeric id of your test server (Developer Mode → Copy Server ID)",
    "log_level": 'one of "DEBUG", "INFO", "WARNING", "ERROR"',
    "discord_api_base": "no value: leave it unset (the test suite sets it)",
}


def _describe(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        name = ".".join(str(part) for part in item["loc"]) or "config"
        if item["type"] == "extra_forbidden":
            lines.append(f"config: unknown setting `{name}` (see config.example.toml)")
            continue
        message = item["msg"].removeprefix("Value error, ")
        hint = _HINTS.get(name)
        lines.append(f"config: `{name}`: {message}" + (f" — expected {hint}" if hint else ""))
    return "\n".join(lines)


def load_settings(
    path: Path | None, *, must_exist: bool = False, environ: dict[str, str] | None = None
) -> Settings:
    """Read `path` and the environment; raise ConfigError with what to fix.

    The default `config.toml` may be absent (the token can come from the environment);
    a file named with `--config` must exist.
    """
    environ = dict(os.environ) if environ is None else environ
    data: dict[str, object] = {}
    if path is not None:
        if path.is_dir():
            raise ConfigError(f"config: {path} is a folder: name the configuration file")
        if path.exists():
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
            except tomllib.TOMLDecodeError as exc:
                raise ConfigError(f"config: {path} is not valid TOML: {exc}") from None
            except UnicodeDecodeError as exc:
                raise ConfigError(
                    f"config: {path} is not UTF-8 text (byte {exc.start}): save it as UTF-8"
                ) from None
            except OSError as exc:
                raise ConfigError(f"config: cannot read {path}: {exc.strerror}") from None
        elif must_exist:
            raise ConfigError(f"config: {path} does not exist")
    if environ.get(TOKEN_ENV):
        data["token"] = environ[TOKEN_ENV]
    if environ.get(DATABASE_URL_ENV):
        data["database"] = environ[DATABASE_URL_ENV]
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None
