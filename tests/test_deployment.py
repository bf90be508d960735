"""docker-compose.yml, read as text (no YAML library is a dependency): its bot processes
take settings BondBot reads, the token from the environment, one database, and shards
that cover Discord's count once between them."""

from __future__ import annotations

import re
from pathlib import Path

from bondbot.config import SHARD_ENV, TOKEN_ENV, load_settings

ROOT = Path(__file__).resolve().parents[1]
DATABASE_ENV = "BONDBOT_DATABASE_URL"  # the PostgreSQL backend's setting
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
    known = {TOKEN_ENV, DATABASE_ENV, *SHARD_ENV}
    for name, env in bots.items():
        bondbot = {key for key in env if key.startswith("BONDBOT_")}
        assert bondbot <= known, f"{name}: settings BondBot does not read: {bondbot - known}"
        assert env[TOKEN_ENV].startswith("${BONDBOT_TOKEN"), "the token comes from outside"
        assert env[DATABASE_ENV].startswith("postgresql://")
        assert "@postgres/" in env[DATABASE_ENV]  # the compose file's PostgreSQL service
    assert len({env[DATABASE_ENV] for env in bots.values()}) == 1
    # One service migrates the same database before the bots start (never two at once).
    assert found["migrate"][DATABASE_ENV] == next(iter(bots.values()))[DATABASE_ENV]
    assert 'command: ["bondbot", "migrate"]' in text
    assert "condition: service_completed_successfully" in text
    # Each bot's shards, as BondBot reads them from its environment.
    shards = [load_settings(None, environ={TOKEN_ENV: "t", **env}).shards for env in bots.values()]
    counts = {s.count for s in shards}
    assert len(counts) == 1 and None not in counts, "every process has the same shard_count"
    (count,) = counts
    owned = sorted(i for s in shards for i in s.ids or ())
    assert owned == list(range(count)), "the processes cover every shard, each once"


def test_the_image_is_built_with_the_postgresql_extra() -> None:
    text = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+EXTRAS:\s*postgres\b", text, re.MULTILINE)
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG EXTRAS\b", dockerfile, re.MULTILINE)
    # The dependency layer installs the extras EXTRAS names (tests/test_docker.py runs it).
    assert "os.environ.get('EXTRAS'" in dockerfile
    assert re.search(r"\$\{POSTGRES_PASSWORD:\?", text)  # no default password


def test_the_reader_reads_environments() -> None:
    text = 'services:\n  a:\n    environment:\n      X_Y: "1"\n  b:\n    image: z\n'
    assert services(text) == {"a": {"X_Y": "1"}, "b": {}}
