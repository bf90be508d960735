"""docker-compose.yml, read as text (no YAML library is a dependency): its bot processes
take settings BondBot reads, the token from the environment, one database, and shards
that cover Discord's count once between them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bondbot.config import SHARD_ENV, TOKEN_ENV, load_settings
from bondbot.storage import pgurl

ROOT = Path(__file__).resolve().parents[1]
DATABASE_ENV = "BONDBOT_DATABASE_URL"  # the PostgreSQL backend's setting
TOKEN_FILE_ENV, PASSWORD_FILE_ENV = "BONDBOT_TOKEN_FILE", "BONDBOT_DATABASE_PASSWORD_FILE"
SERVICE = re.compile(r"^  ([\w-]+):\s*$")
ENTRY = re.compile(r"^\s+([A-Z_][A-Z0-9_]*):\s*(.*?)\s*$")


def services(text: str) -> dict[str, dict[str, str]]:
    """Each service's environment (KEY: value lines under `environment:`), unquoted."""
    found: dict[str, dict[str, str]] = {}
    section = current = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            section, current = line.rstrip(":"), None
            continue
        service = SERVICE.match(line)
        if section == "services" and service:
            current = found.setdefault(service.group(1), {})
            continue
        entry = ENTRY.match(line)
        if current is not None and entry and line.startswith("      "):
            current[entry.group(1)] = entry.group(2).strip("\"'")
    return found


def test_the_bots_share_one_database_and_split_the_shards() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    found = services(text)
    assert "postgres" in found
    bots = {name: env for name, env in found.items() if any(k in env for k in SHARD_ENV)}
    assert len(bots) >= 2, found
    known = {TOKEN_FILE_ENV, DATABASE_ENV, PASSWORD_FILE_ENV, *SHARD_ENV}
    for name, env in bots.items():
        bondbot = {key for key in env if key.startswith("BONDBOT_")}
        assert bondbot <= known, f"{name}: settings BondBot does not read: {bondbot - known}"
        assert env[TOKEN_FILE_ENV].startswith("/run/secrets/"), "the token comes from outside"
        assert env[DATABASE_ENV].startswith("postgresql://")
        assert "@postgres/" in env[DATABASE_ENV]  # the compose file's PostgreSQL service
    assert len({env[DATABASE_ENV] for env in bots.values()}) == 1
    # One service migrates the same database before the bots start (never two at once).
    assert found["migrate"][DATABASE_ENV] == next(iter(bots.values()))[DATABASE_ENV]
    assert 'command: ["bondbot", "migrate"]' in text
    assert "condition: service_completed_successfully" in text
    # Each bot's shards, as BondBot reads them from its environment.
    # (the secrets' files are the containers': the next tests read them)
    shards = [
        load_settings(None, environ={TOKEN_ENV: "t"} | _no_files(env)).shards
        for env in bots.values()
    ]
    counts = {s.count for s in shards}
    assert len(counts) == 1 and None not in counts, "every process has the same shard_count"
    (count,) = counts
    owned = sorted(i for s in shards for i in s.ids or ())
    assert owned == list(range(count)), "the processes cover every shard, each once"


def _no_files(env: dict[str, str]) -> dict[str, str]:
    return {key: value for key, value in env.items() if not key.endswith("_FILE")}


def test_the_image_is_built_with_the_postgresql_extra() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+EXTRAS:\s*postgres\b", text, re.MULTILINE)
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG EXTRAS\b", dockerfile, re.MULTILINE)
    # The dependency layer installs the extras EXTRAS names (tests/test_docker.py runs it).
    assert "os.environ.get('EXTRAS'" in dockerfile
    assert "POSTGRES_PASSWORD:" not in text  # no default password: a secret (tests below)


def test_the_reader_reads_environments() -> None:
    text = 'services:\n  a:\n    environment:\n      X_Y: "1"\n  b:\n    image: z\n'
    assert services(text) == {"a": {"X_Y": "1"}, "b": {}}


# Issue 29, item 6: a fresh volume, the migration's retry, and the secrets.

SECRETS = "/run/secrets/"


def _lines(text: str) -> list[str]:
    return [
        line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
    ]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block(lines: list[str], key: str, indent: int) -> list[str]:
    """The lines under `key:` written at `indent` spaces: its children, as they are."""
    for at, line in enumerate(lines):
        if _indent(line) == indent and line.strip().split(":")[0] == key:
            rest = lines[at + 1 :]
            end = next((n for n, child in enumerate(rest) if _indent(child) <= indent), len(rest))
            return rest[:end]
    return []


def _value(lines: list[str], key: str) -> str | None:
    """`key: value` among `lines` (at any depth), unquoted; None if absent."""
    for line in lines:
        name, colon, value = line.strip().partition(":")
        if colon and name == key and value.strip():
            return value.split(" #")[0].strip().strip("\"'")
    return None


def _anchored(lines: list[str], anchor: str) -> list[str]:
    """The block a top-level `x-…: &anchor` names."""
    for line in lines:
        if _indent(line) == 0 and line.rstrip().endswith(f"&{anchor}"):
            return _block(lines, line.split(":")[0], 0)
    raise AssertionError(f"no anchor &{anchor}")


def _granted(text: str, service: str) -> set[str]:
    """The secrets a service is given, its own and those of the block it merges (`<<:`)."""
    top = _lines(text)
    own = _block(_block(top, "services", 0), service, 2)
    merged = _value(own, "<<")
    blocks = [own] + ([_anchored(top, merged.removeprefix("*"))] if merged else [])
    names: set[str] = set()
    for block in blocks:
        listed = _value(block[:1] + [line for line in block if _indent(line) <= 4], "secrets")
        for item in (listed or "").strip("[]").split(","):
            item = item.strip()
            if item.startswith("*"):
                names.add(_value(_anchored(top, item[1:]), "source") or "")
            elif item:
                names.add(item)
    return names


def _compose() -> str:
    return (ROOT / "docker-compose.yml").read_text(encoding="utf-8")


def test_postgres_is_healthy_only_once_it_answers_over_tcp() -> None:
    """On a fresh volume the image's first server listens on its socket alone (it creates
    the database, then restarts): pg_isready without -h called that ready."""
    postgres = _block(_block(_lines(_compose()), "services", 0), "postgres", 2)
    check = _value(_block(postgres, "healthcheck", 4), "test") or ""
    command = check.strip("[]").split(",")[-1].strip().strip("\"'")
    assert command.startswith("pg_isready "), check
    words = command.split()
    host = words[words.index("-h") + 1] if "-h" in words else None
    assert host == "127.0.0.1", f"pg_isready must ask over TCP: {command}"


def test_the_migration_is_tried_again_when_it_fails() -> None:
    migrate = _block(_block(_lines(_compose()), "services", 0), "migrate", 2)
    assert _value([line for line in migrate if _indent(line) == 4], "restart") == "on-failure"


def test_the_token_and_the_password_reach_the_containers_as_secrets_only() -> None:
    text = _compose()
    top = _lines(text)
    defined = {
        name: _value(_block(_block(top, "secrets", 0), name, 2), "environment")
        for name in ("bondbot_token", "postgres_password")
    }
    assert defined == {"bondbot_token": "BONDBOT_TOKEN", "postgres_password": "POSTGRES_PASSWORD"}
    secret_of = {
        "BONDBOT_TOKEN_FILE": "bondbot_token",
        "BONDBOT_DATABASE_PASSWORD_FILE": "postgres_password",
        "POSTGRES_PASSWORD_FILE": "postgres_password",
    }
    found = services(text)
    for service, env in found.items():
        for key, value in env.items():
            assert key not in {TOKEN_ENV, "POSTGRES_PASSWORD", "BONDBOT_DATABASE_PASSWORD"}
            assert "TOKEN" not in value and "PASSWORD" not in value, f"{service}: {key}"
            if key.endswith("_FILE"):
                assert value == SECRETS + secret_of[key], f"{service}: {key}"
                assert secret_of[key] in _granted(text, service), f"{service} lacks {value}"
        if DATABASE_ENV in env:
            assert not pgurl.has_password(env[DATABASE_ENV]), service
    assert found["postgres"]["POSTGRES_PASSWORD_FILE"] == SECRETS + "postgres_password"


def test_the_bots_read_their_token_and_password_from_the_secrets(tmp_path: Path) -> None:
    """Each bot's and the migration's environment as BondBot reads it, the secrets' files
    in place: the token, and a URL that gives libpq the password as it is."""
    conninfo = pytest.importorskip("psycopg.conninfo")
    password, token = "p@ss/w:rd %25", "the.token"
    (tmp_path / "bondbot_token").write_text(token + "\n")
    (tmp_path / "postgres_password").write_text(password + "\n")
    found = services(_compose())
    for name in ("migrate", *(n for n, env in found.items() if any(k in env for k in SHARD_ENV))):
        env = {k: v.replace(SECRETS, f"{tmp_path}/") for k, v in found[name].items()}
        if TOKEN_FILE_ENV not in env:
            env[TOKEN_ENV] = "offline"  # what `bondbot migrate` sets for itself
        settings = load_settings(None, environ=env)
        assert name == "migrate" or settings.token == token
        assert isinstance(settings.database, str)
        read = conninfo.conninfo_to_dict(settings.database)
        assert read == {
            "user": "bondbot",
            "host": "postgres",
            "dbname": "bondbot",
            "password": password,
        }
