"""Settings from `config.toml` and the environment, validated once at start.

Validation errors become one line per bad setting, naming it and how to fix it, so a
newcomer never has to read a traceback to get the bot running.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from bondbot.shards import Shards, cluster_shards
from bondbot.storage import pgurl

TOKEN_ENV = "BONDBOT_TOKEN"
# A secret may come from a file instead (`BONDBOT_TOKEN_FILE=/run/secrets/…`: Docker's
# secrets), so that it is in no container's environment (`docker inspect` shows those).
FILE_SUFFIX = "_FILE"
DATABASE_PASSWORD_ENV = "BONDBOT_DATABASE_PASSWORD"
# The shard settings may come from the environment: one config file for every process,
# each started with its own shards (docker-compose.yml).
SHARD_ENV = {
    "BONDBOT_SHARD_COUNT": "shard_count",
    "BONDBOT_SHARD_IDS": "shard_ids",
    "BONDBOT_CLUSTER_INDEX": "cluster_index",
    "BONDBOT_CLUSTER_SIZE": "cluster_size",
}
MAX_SHARDS = 65_536
DATABASE_URL_ENV = "BONDBOT_DATABASE_URL"
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
    # The PostgreSQL password apart from the URL, as it is (no percent-encoding): added to
    # `database` once validated. Without it and without one in the URL, libpq looks in
    # PGPASSWORD and ~/.pgpass.
    database_password: SecretStr | None = Field(default=None, repr=False)
    default_locale: Literal["fr", "en"] = "fr"
    currency: str = Field(default="$", min_length=1, max_length=4)
    dev_guild_id: int | None = Field(default=None, gt=0, le=2**63 - 1)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    discord_api_base: str | None = None
    # Several processes: Discord's shards and which of them this process runs (or its
    # place in a cluster of processes, which derives them); unset, one process runs all.
    shard_count: int | None = Field(default=None, ge=1, le=MAX_SHARDS)
    shard_ids: tuple[int, ...] | None = Field(default=None, min_length=1)
    cluster_index: int | None = Field(default=None, ge=0)
    cluster_size: int | None = Field(default=None, ge=1, le=MAX_SHARDS)

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: object) -> object:
        """`"0,1,4-7"` (an environment variable) as well as a TOML list."""
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if not isinstance(value, str):
            return value
        ids: list[int] = []
        for part in value.replace(" ", "").split(","):
            first, dash, last = part.partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise ValueError(f"cannot read {part!r}")
            ids.extend(range(int(first), int(last if dash else first) + 1))
        return tuple(ids)

    @model_validator(mode="after")
    def _shards_agree(self) -> Self:
        count, ids = self.shard_count, self.shard_ids
        index, size = self.cluster_index, self.cluster_size
        if (index is None) != (size is None):
            raise ValueError("`cluster_index` and `cluster_size` go together: set both or neither")
        if index is not None and size is not None:
            if ids is not None:
                raise ValueError(
                    "set either `shard_ids` or `cluster_index`/`cluster_size`, not both"
                )
            if index >= size:
                raise ValueError(
                    f"`cluster_index` is {index}: it counts from 0, so must be below"
                    f" `cluster_size` ({size})"
                )
            if count is not None and count < size:
                raise ValueError(
                    f"`shard_count` ({count}) is below `cluster_size` ({size}):"
                    " every process needs at least one shard"
                )
        elif ids is not None:
            if count is None:
                raise ValueError("`shard_ids` needs `shard_count`, the total over all processes")
            wrong = sorted({i for i in ids if not 0 <= i < count})
            if wrong:
                raise ValueError(
                    f"`shard_ids` {wrong} out of range: shards are 0 to {count - 1}"
                    f" when `shard_count` is {count}"
                )
            if len(set(ids)) != len(ids):
                raise ValueError("`shard_ids` names a shard twice")
        return self

    @model_validator(mode="after")
    def _password_apart(self) -> Self:
        """The password given apart goes into the URL the storage opens (percent-encoded,
        so any character is fine); `shown` masks it wherever the URL is named."""
        if self.database_password is None:
            return self
        password = self.database_password.get_secret_value()
        if not isinstance(self.database, str) or not pgurl.is_url(self.database):
            raise ValueError(
                "`database_password` (or BONDBOT_DATABASE_PASSWORD) is for a PostgreSQL"
                " database: set `database` to its postgresql:// URL, or remove the password"
            )
        if not password:
            raise ValueError("`database_password` is empty: remove it or give the password")
        if pgurl.has_password(self.database):
            raise ValueError(
                "the database URL holds a password and `database_password` (or"
                " BONDBOT_DATABASE_PASSWORD) gives one too: keep one"
            )
        # Frozen settings: this validator is the one place `database` gets its final value.
        object.__setattr__(self, "database", pgurl.with_password(self.database, password))
        return self

    def __repr_args__(self) -> Iterator[tuple[str | None, object]]:
        """The database URL without its password."""
        for name, value in super().__repr_args__():
            yield name, pgurl.shown(value) if pgurl.is_url(value) else value

    @property
    def shards(self) -> Shards:
        """The shards this process runs, derived from whichever settings were given."""
        if self.cluster_index is not None and self.cluster_size is not None:
            count = self.shard_count or self.cluster_size
            return Shards(count, cluster_shards(count, self.cluster_index, self.cluster_size))
        return Shards(self.shard_count, self.shard_ids)

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
            if not pgurl.is_url(value):
                raise ValueError("a PostgreSQL URL is postgresql://user@host/database")
            problem = pgurl.problem(value) or _unreadable(value)
            if problem:
                raise ValueError(problem)
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


def _unreadable(url: str) -> str | None:
    """What libpq says of a URL it cannot read (any password in its words masked); None
    when it reads it, or when the PostgreSQL driver is not installed."""
    try:
        from psycopg import Error
        from psycopg.conninfo import conninfo_to_dict
    except ImportError:
        return None
    try:
        conninfo_to_dict(url)
    except Error as exc:
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"PostgreSQL cannot read the URL: {pgurl.hide(said, url)}"
    return None


_HINTS = {
    "database": (
        'a file path, e.g. database = "bondbot.sqlite3", or a PostgreSQL URL,'
        ' e.g. database = "postgresql://bondbot@localhost/bondbot"'
    ),
    "database_password": 'the PostgreSQL password as it is, e.g. database_password = "…"',
    "default_locale": 'one of "fr" or "en"',
    "currency": 'a short symbol, e.g. currency = "$"',
    "dev_guild_id": "the numeric id of your test server (Developer Mode → Copy Server ID)",
    "log_level": 'one of "DEBUG", "INFO", "WARNING", "ERROR"',
    "discord_api_base": "no value: leave it unset (the test suite sets it)",
    "shard_count": "a whole number of shards, 1 or more (the same in every process)",
    "shard_ids": 'this process\'s shards, e.g. shard_ids = [0, 1] (or "0-1")',
    "cluster_index": "this process's number, 0 for the first",
    "cluster_size": "how many processes share the shards, 1 or more",
}


def _describe(error: ValidationError) -> str:
    lines = []
    for item in error.errors():
        name = ".".join(str(part) for part in item["loc"]) or "config"
        if not item["loc"]:  # settings that disagree: the message names them
            lines.append(f"config: {item['msg'].removeprefix('Value error, ')}")
            continue
        if item["type"] == "extra_forbidden":
            lines.append(f"config: unknown setting `{name}` (see config.example.toml)")
            continue
        message = item["msg"].removeprefix("Value error, ")
        hint = _HINTS.get(str(item["loc"][0]))
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
    token = _secret(environ, TOKEN_ENV, strip="\r\n\t ")
    if token is not None:
        data["token"] = token
    password = _secret(environ, DATABASE_PASSWORD_ENV)
    if password is not None:
        data["database_password"] = password
    data.update({key: environ[env] for env, key in SHARD_ENV.items() if environ.get(env)})
    if environ.get(DATABASE_URL_ENV):
        data["database"] = environ[DATABASE_URL_ENV]
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc)) from None


def _secret(environ: dict[str, str], name: str, *, strip: str = "\n") -> str | None:
    """`name`'s value from the environment, or the text of the file `name_FILE` names
    (trailing newlines dropped: the postgres image reads the same file so, `$(< file)`);
    None when neither is set."""
    value, path = environ.get(name), environ.get(name + FILE_SUFFIX)
    if value and path:
        raise ConfigError(f"config: set {name} or {name}{FILE_SUFFIX}, not both")
    if not path:
        return value or None
    try:
        text = Path(path).read_text(encoding="utf-8").rstrip(strip)
    except UnicodeDecodeError:
        raise ConfigError(f"config: {name}{FILE_SUFFIX}: {path} is not UTF-8 text") from None
    except OSError as exc:
        raise ConfigError(
            f"config: {name}{FILE_SUFFIX}: cannot read {path}: {exc.strerror}"
        ) from None
    if not text:
        raise ConfigError(f"config: {name}{FILE_SUFFIX}: {path} is empty")
    return text


def password_apart(environ: dict[str, str]) -> str | None:
    """The PostgreSQL password the environment gives apart from any URL, if any."""
    return _secret(environ, DATABASE_PASSWORD_ENV)
