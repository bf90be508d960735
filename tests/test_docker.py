"""The Docker image, read and run without Docker (no registry is reachable here): the
Dockerfile's user and data folder, what it sends to the daemon, its dependency layer, and
its CMD run as the image runs it: a plain venv, an unprivileged user, a fresh data folder,
up to "cannot reach Discord"."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable, Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), as (KEYWORD, arguments)."""
    text = re.sub(r"\\\n", "", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def _index(keyword: str, containing: str = "") -> int:
    return next(
        n for n, (k, rest) in enumerate(_instructions()) if k == keyword and containing in rest
    )


def test_the_base_image_is_an_exact_tag() -> None:
    (base,) = [rest for keyword, rest in _instructions() if keyword == "FROM"]
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm", base), base


def test_the_data_folder_belongs_to_the_bot_s_user_before_it_takes_over() -> None:
    steps = _instructions()
    user = _index("USER")
    assert steps[user][1] == "bondbot"
    made = _index("RUN", "mkdir /data")
    assert "useradd" in steps[made][1] and "chown bondbot:bondbot /data" in steps[made][1]
    assert made < user < _index("WORKDIR", "/data") < _index("VOLUME")
    assert json.loads(steps[_index("VOLUME")][1]) == ["/data"]
    assert json.loads(steps[_index("CMD")][1]) == ["bondbot", "run"]


def test_the_dependencies_install_before_the_code_is_copied() -> None:
    steps = _instructions()
    dependencies = _index("RUN", "pip install --no-cache-dir -r")
    assert _index("COPY", "pyproject.toml") < dependencies < _index("COPY", "bondbot")
    assert [rest for k, rest in steps[:dependencies] if k == "COPY"] == ["pyproject.toml ./"]
    assert "--no-deps" in steps[_index("RUN", "pip install --no-cache-dir --no-deps .")][1]


@pytest.mark.parametrize("extras", ["", "test"])
def test_the_dependency_step_lists_pyproject_s_dependencies(tmp_path: Path, extras: str) -> None:
    """The step's own shell command, run here: the requirements it writes are pyproject's
    dependencies, the extras named by the EXTRAS build argument, and eval7 (`fast`) only
    on x86_64, where it has a wheel."""
    step = _instructions()[_index("RUN", "pip install --no-cache-dir -r")][1]
    listing = step.split(" && pip install")[0].replace("/tmp/requirements.txt", "requirements")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    python = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{python}:{os.environ.get('PATH', '')}", "EXTRAS": extras}
    subprocess.run(["sh", "-c", listing], cwd=tmp_path, env=env, check=True)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    expected = project["dependencies"] + (optional[extras] if extras else [])
    expected += optional["fast"] if os.uname().machine == "x86_64" else []
    assert (tmp_path / "requirements").read_text().splitlines() == expected
    assert not any(line.startswith("eval7") for line in project["dependencies"])
    assert _index("ARG", "EXTRAS") < _index("RUN", "pip install --no-cache-dir -r")


def test_the_health_check_asks_the_bot() -> None:
    (check,) = [rest for keyword, rest in _instructions() if keyword == "HEALTHCHECK"]
    assert check.endswith('CMD ["bondbot", "health"]')


def _ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule for a path: the last pattern matching it or a folder above it decides."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    verdict = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        pattern = pattern.removeprefix("!").strip("/")
        if any(
            fnmatch(prefix, pattern) or fnmatch(prefix, pattern.removeprefix("**/"))
            for prefix in prefixes
        ):
            verdict = not negated
    return verdict


def test_the_ignore_file_keeps_the_token_databases_and_venv_from_the_daemon() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for secret in (
        "config.toml",
        ".venv/bin/python",
        ".venv/lib/python3.11/site-packages/discord/client.py",
        "bondbot.sqlite3",
        "bondbot.sqlite3-wal",
        "bondbot.sqlite3.alive",
        "data/bondbot.sqlite3",
        "backups/2026-11-26.sqlite3",
        ".git/config",
        "bondbot/__pycache__/cli.cpython-311.pyc",
        ".pytest_cache/v/cache/nodeids",
        ".ruff_cache/CACHEDIR.TAG",
        ".hypothesis/examples/x",
        "bondbot.egg-info/PKG-INFO",
    ):
        assert _ignored(secret, patterns), secret
    for needed in ("pyproject.toml", "README.md", "LICENSE", "bondbot/cli.py"):
        assert not _ignored(needed, patterns), needed
    copied = [rest.split()[0] for keyword, rest in _instructions() if keyword == "COPY"]
    for source in copied:
        assert not _ignored(source, patterns), source


def test_the_readme_says_where_config_toml_goes_in_the_container() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "/data/config.toml" in readme


def _unprivileged_python() -> tuple[str, Callable[[], None] | None]:
    """A Python the image's kind of user (not root) can run, and how to become that user."""
    if os.geteuid() != 0:
        return sys.executable, None

    def drop() -> None:
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    candidates = [sys.executable, shutil.which("python3.11") or "", "/usr/bin/python3"]
    for python in filter(None, candidates):
        try:
            probe = subprocess.run(
                [python, "-c", "import sys, venv; assert sys.version_info >= (3, 11)"],
                preexec_fn=drop,
                capture_output=True,
                cwd="/",
            )
        except OSError:
            continue
        if probe.returncode == 0:
            return python, drop
    pytest.skip("no Python 3.11 an unprivileged user may run")


@pytest.fixture
def public_tmp() -> Iterator[Path]:
    """A temporary folder an unprivileged user may enter (pytest's tmp_path is root's)."""
    with tempfile.TemporaryDirectory(prefix="bondbot-image-") as name:
        folder = Path(name)
        folder.chmod(0o755)
        yield folder


def test_the_image_s_cmd_runs_as_an_unprivileged_user_in_a_fresh_data_folder(
    public_tmp: Path,
) -> None:
    """What the image does, without Docker: COPY the files it copies, install them into a
    plain venv, then run its CMD as a user who is not root, in an empty data folder that
    user owns (with /data/config.toml pointing at a local port where no Discord is)."""
    python, drop = _unprivileged_python()
    app = public_tmp / "app"
    app.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, app)
    shutil.copytree(ROOT / "bondbot", app / "bondbot", ignore=shutil.ignore_patterns("__pycache__"))
    venv = public_tmp / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", str(app)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]
    for path in [public_tmp, *public_tmp.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o044 | (0o011 if path.is_dir() else 0))

    data = public_tmp / "data"
    data.mkdir()
    (data / "config.toml").write_text('discord_api_base = "http://127.0.0.1:9/api/v10"\n')
    if drop is not None:
        os.chown(data, NOBODY, NOBODY)
    cmd = json.loads(_instructions()[_index("CMD")][1])
    done = subprocess.run(
        [str(venv / "bin" / cmd[0]), *cmd[1:]],
        cwd=data,
        env={"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(data), "BONDBOT_TOKEN": "t"},
        preexec_fn=drop,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 3, done.stderr
    assert lines[-1].startswith("discord: cannot reach Discord (Cannot connect to host 127.0.0.1:9")
    assert "Traceback" not in done.stderr and "voice" not in done.stderr
    assert (data / "bondbot.sqlite3").is_file()
    if drop is not None:
        assert (data / "bondbot.sqlite3").stat().st_uid == NOBODY


@pytest.mark.parametrize(
    ("machine", "binary"),
    [("x86_64", True), ("aarch64", True), ("armv7l", False), ("armv8l", False), ("armv6l", False)],
)
def test_the_postgres_extra_asks_for_psycopg_binary_only_where_it_has_wheels(
    machine: str, binary: bool
) -> None:
    """psycopg-binary has no wheel for 32-bit ARM (Raspberry Pi OS armv7): there the extra
    is plain psycopg (and the image installs Debian's libpq, below)."""
    from packaging.requirements import Requirement

    lines = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]["postgres"]
    wanted = [
        requirement
        for requirement in map(Requirement, lines)
        if requirement.marker is None
        or requirement.marker.evaluate({"platform_machine": machine, "sys_platform": "linux"})
    ]
    assert [r.name for r in wanted] == ["psycopg"] * len(wanted) and wanted
    assert any("binary" in r.extras for r in wanted) == binary


@pytest.mark.parametrize(("arch", "libpq"), [("amd64", False), ("arm64", False), ("armhf", True)])
def test_the_system_step_installs_libpq_where_psycopg_has_no_wheel(
    tmp_path: Path, arch: str, libpq: bool
) -> None:
    """The Dockerfile's apt step, run with `dpkg` and `apt-get` stood in for: what it
    installs on each architecture."""
    step = next(rest for k, rest in _instructions() if k == "RUN" and "apt-get install" in rest)
    install = step.split("apt-get update && ", 1)[1].split(" && rm", 1)[0]
    for name, body in (("dpkg", f"echo {arch}"), ("apt-get", 'echo "$@"')):
        stub = tmp_path / name
        stub.write_text(f"#!/bin/sh\n{body}\n")
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ.get('PATH', '')}"}
    done = subprocess.run(["sh", "-c", install], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    packages = done.stdout.split()
    assert "fonts-dejavu-core" in packages
    assert ("libpq5" in packages) == libpq
