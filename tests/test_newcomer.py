"""A newcomer's first steps from a fresh clone: what the operator's commands print when
something is wrong (one line, never a traceback), what `--help` says, a quiet start, and
the licence."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Callable
from importlib.metadata import metadata
from pathlib import Path

import discord
import pytest

from bondbot.cli import main
from bondbot.config import load_settings
from bondbot.rules.shoe import Shoe
from bondbot.storage import preflight

ROOT = Path(__file__).resolve().parents[1]
NOBODY = 65534


def _bondbot(
    *args: str, cwd: Path, preexec: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bondbot", *args],
        cwd=cwd,
        env={**os.environ, "BONDBOT_TOKEN": "t"},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=preexec,
    )


@pytest.mark.parametrize("command", ["migrate", "run"])
def test_a_folder_nobody_may_write_stops_with_one_line(tmp_path: Path, command: str) -> None:
    """/proc refuses a new file to every user, root included: SQLite's open fails as it does
    in a folder the bot's user may not write. aiosqlite's thread used to print a 24-line
    "Event loop is closed" traceback after the line (not every time: run several)."""
    config = tmp_path / "config.toml"
    config.write_text('database = "/proc/bondbot.sqlite3"\n')
    for _ in range(3):
        done = _bondbot("--config", str(config), command, cwd=tmp_path)
        assert done.returncode == 2
        assert done.stderr == (
            "database: cannot open /proc/bondbot.sqlite3: check the path and its permissions\n"
        )


def test_a_database_that_fails_to_open_leaves_no_thread_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The root of the traceback: aiosqlite's worker thread outlived the failed open and
    answered a closed event loop (about 3 runs in 4 before the fix)."""
    died: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda hook: died.append(hook.exc_value))
    before = set(threading.enumerate())
    for _ in range(20):
        with pytest.raises(preflight.DatabaseProblem, match="cannot open"):
            asyncio.run(preflight.open_database(Path("/proc/bondbot.sqlite3"), create=True))
        assert set(threading.enumerate()) <= before
    assert died == []


def _as_nobody() -> Callable[[], None]:
    """A preexec_fn that drops to an unprivileged user, or skip when this Python cannot run
    as one (not root, or an interpreter in a folder only root may read)."""
    if os.geteuid() != 0:
        pytest.skip("dropping to another user needs root")

    def drop() -> None:
        os.setgid(NOBODY)
        os.setuid(NOBODY)

    try:
        probe = subprocess.run(
            [sys.executable, "-c", "import bondbot.cli"], preexec_fn=drop, capture_output=True
        )
    except PermissionError:
        probe = None
    if probe is None or probe.returncode != 0:
        pytest.skip("this Python cannot run as an unprivileged user")
    return drop


@pytest.mark.parametrize("command", ["migrate", "run"])
def test_a_root_owned_folder_stops_an_unprivileged_bot_with_one_line(command: str) -> None:
    drop = _as_nobody()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        folder.chmod(0o755)  # root's: others may enter, not create
        for _ in range(3):
            done = _bondbot(command, cwd=folder, preexec=drop)
            assert done.returncode == 2
            assert done.stderr == (
                "database: cannot open bondbot.sqlite3: check the path and its permissions\n"
            )


@pytest.mark.parametrize(
    ("seed", "commitment", "said"),
    [
        (
            "zz",
            "00",
            "verify: a seed is written in hexadecimal digits (0-9, a-f) only: 'zz' is not",
        ),
        ("ab", "00", "verify: a seed is 32 bytes, 64 hexadecimal digits; this one has 2"),
        ("ab" * 33, "00", "verify: a seed is 32 bytes, 64 hexadecimal digits; this one has 66"),
        (
            "ab" * 32,
            "00",
            "verify: a commitment (SHA-256) is 32 bytes, 64 hexadecimal digits; this one has 2",
        ),
        (
            "ab" * 32,
            "g" * 64,
            "verify: a commitment (SHA-256) is written in hexadecimal digits (0-9, a-f) only: "
            f"'{'g' * 64}' is not",
        ),
        ("ab" * 32, "00" * 32, "verify: the seed does not match the commitment"),
    ],
)
def test_verify_says_what_a_seed_and_a_commitment_are(
    seed: str, commitment: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", seed, commitment]) == 1
    assert capsys.readouterr().err == said + "\n"


def test_verify_takes_what_a_closed_table_shows_in_either_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seed = bytes(range(32))
    commitment = Shoe.shuffled(1, seed).commitment or ""
    assert main(["verify", seed.hex().upper(), f" {commitment.upper()} ", "--packs", "1"]) == 0
    assert capsys.readouterr().out.startswith("seed matches the commitment")


def _help(*command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        main([*command, "--help"])
    assert stopped.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("run", ["Start the bot", "BONDBOT_TOKEN", "database"]),
        ("migrate", ["migrations", "without starting the bot"]),
        ("backup", ["online backup", "safe while the bot runs", "--config"]),
        ("verify", ["seed", "commitment"]),
    ],
)
def test_each_command_s_help_says_what_it_does(
    command: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    text = _help(command, capsys=capsys)
    description = " ".join(text.split("\n\n")[1].split())  # between usage and arguments
    assert not description.startswith(("options:", "positional arguments:")), text
    for word in words:
        assert word in description, (command, word)


def test_backup_s_path_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    text = _help("backup", capsys=capsys)
    (line,) = [line for line in text.splitlines() if line.strip().startswith("PATH")]
    assert "the backup file to write" in line


def test_a_start_says_nothing_about_voice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py warns once per process that voice is unsupported; the bot has no voice."""
    from bondbot.bot.client import BondBot

    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(discord.VoiceClient, flag):
            monkeypatch.setattr(discord.VoiceClient, flag, True)
    settings = load_settings(tmp_path / "config.toml", environ={"BONDBOT_TOKEN": "t"})
    with caplog.at_level(logging.DEBUG):
        BondBot(settings)
        logging.getLogger("discord.client").warning("a warning that is not about voice")
    said = [record.getMessage() for record in caplog.records if record.name == "discord.client"]
    assert said == ["a warning that is not about voice"]


def test_the_licence_is_mit_and_named_where_a_reader_looks() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 The BondBot authors\n")
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in licence
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert metadata("bondbot")["License-Expression"] == "MIT"
    assert "[LICENSE](LICENSE)" in (ROOT / "README.md").read_text(encoding="utf-8")
