"""The operator's side: configuration errors in one line, migrate, backup, verify."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bondbot.cli import main
from bondbot.config import ConfigError, load_settings
from bondbot.local import FakeDiscord
from bondbot.rules.shoe import Shoe


def test_missing_token_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as error:
        load_settings(tmp_path / "config.toml", environ={})
    assert str(error.value).startswith("config: `token`: no bot token: set the BONDBOT_TOKEN")
    assert "\n" not in str(error.value)


def test_bad_values_each_get_a_line(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('default_locale = "de"\nlog_level = "LOUD"\ncolour = "red"\n')
    with pytest.raises(ConfigError) as error:
        load_settings(config, environ={"BONDBOT_TOKEN": "t"})
    lines = str(error.value).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("config: `default_locale`") and '"fr" or "en"' in lines[0]
    assert lines[1].startswith("config: `log_level`")
    assert lines[2] == "config: unknown setting `colour` (see config.example.toml)"


def test_the_example_config_is_valid_and_the_environment_gives_the_token() -> None:
    example = Path(__file__).parent.parent / "config.example.toml"
    settings = load_settings(example, must_exist=True, environ={"BONDBOT_TOKEN": " abc "})
    assert settings.token == "abc" and settings.default_locale == "fr"


def test_a_named_config_must_exist(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "elsewhere.toml", must_exist=True, environ={"BONDBOT_TOKEN": "t"})


def test_run_without_token_fails_with_one_clear_line(tmp_path: Path) -> None:
    env = {"PATH": "", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "bondbot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("config: `token`: no bot token")
    assert "Traceback" not in done.stderr


def test_migrate_then_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'database = "{tmp_path / "bond.sqlite3"}"\n')
    assert main(["--config", str(config), "migrate"]) == 0
    assert "applied migrations [1, 2" in capsys.readouterr().out
    assert main(["--config", str(config), "migrate"]) == 0
    assert "applied migrations none" in capsys.readouterr().out
    target = tmp_path / "backup.sqlite3"
    assert main(["--config", str(config), "backup", str(target)]) == 0
    with sqlite3.connect(target) as copy:
        versions = [row[0] for row in copy.execute("SELECT version FROM schema_version")]
    assert versions[:2] == [1, 2]


def test_verify_checks_a_seed_against_its_commitment(capsys: pytest.CaptureFixture[str]) -> None:
    shoe = Shoe.shuffled(6, bytes(range(32)))
    assert main(["verify", bytes(range(32)).hex(), shoe.commitment or "", "--packs", "6"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split()[:3] == [shoe.deal().code, shoe.deal().code, shoe.deal().code]
    assert main(["verify", bytes(32).hex(), shoe.commitment or ""]) == 1
    assert "does not match" in capsys.readouterr().err


@pytest.mark.parametrize("packs", ["0", "-3", "9", "20000", "six"])
def test_verify_accepts_only_the_pack_counts_a_table_can_have(
    packs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shoe = Shoe.shuffled(1, bytes(32))
    with pytest.raises(SystemExit) as stopped:
        main(["verify", bytes(32).hex(), shoe.commitment or "", "--packs", packs])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "argument --packs" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 2  # argparse's usage line and the reason


def _readme_shoe(seed: bytes, packs: int) -> list[str]:
    """The README's recipe ("Checking a shoe"), written from its text alone: no BondBot code."""
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    cards = [rank + suit for _ in range(packs) for suit in "shdc" for rank in ranks]

    def numbers() -> Iterator[int]:
        counter = 0
        while True:
            block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            for start in (0, 8, 16, 24):
                yield int.from_bytes(block[start : start + 8], "big")
            counter += 1

    draw = numbers()
    for i in range(len(cards) - 1, 0, -1):
        x = next(draw)
        while x >= 2**64 - (2**64 % (i + 1)):
            x = next(draw)
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@pytest.mark.parametrize("packs", [1, 6, 8])
def test_the_readme_recipe_gives_the_shoe_bondbot_verify_prints(
    packs: int, capsys: pytest.CaptureFixture[str]
) -> None:
    seed = hashlib.sha256(b"readme %d" % packs).digest()
    commitment = hashlib.sha256(seed).hexdigest()
    assert main(["verify", seed.hex(), commitment, "--packs", str(packs)]) == 0
    printed = capsys.readouterr().out.splitlines()[1].split()
    assert printed == _readme_shoe(seed, packs)


def _config(tmp_path: Path, **settings: str) -> Path:
    config = tmp_path / "config.toml"
    config.write_text(
        "".join(f"{name} = {json.dumps(value)}\n" for name, value in settings.items())
    )
    return config


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("write", "expected"),
    [
        (lambda p: p.write_bytes(b'currency = "\xff\xfe"\n'), "is not UTF-8 text"),
        (lambda p: p.mkdir(), "is a folder"),
        (
            lambda p: p.write_text('currency = "a\\u0000b"\n'),
            "config: `currency`: must be printable",
        ),
        (
            lambda p: p.write_text('database = "a\\u0007b"\n'),
            "config: `database`: the path contains",
        ),
        (lambda p: p.write_text('discord_api_base = "nope"\n'), "config: `discord_api_base`"),
        (lambda p: p.write_text("dev_guild_id = 99999999999999999999\n"), "`dev_guild_id`"),
    ],
)
def test_bad_configs_stop_with_one_line(
    tmp_path: Path, write: Callable[[Path], object], expected: str
) -> None:
    config = tmp_path / "config.toml"
    write(config)
    with pytest.raises(ConfigError) as error:
        load_settings(config, must_exist=True, environ={"BONDBOT_TOKEN": "t"})
    assert expected in _one_line(str(error.value))


def test_a_config_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes('\ufeffcurrency = "€"\n'.encode())
    assert load_settings(config, environ={"BONDBOT_TOKEN": "t"}).currency == "€"


@pytest.mark.parametrize(
    ("database", "expected"),
    [
        ("missing/bond.sqlite3", "the folder"),
        (".", "is a folder"),
        ("", "is a folder"),
        ("junk.sqlite3", "is not a SQLite database"),
        ("x" * 300, "File name too long"),
    ],
)
def test_bad_database_paths_stop_migrate_with_one_line(
    tmp_path: Path, database: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "junk.sqlite3").write_text("this is not a database, not at all\n" * 3)
    config = _config(tmp_path, database=database)
    with contextlib.chdir(tmp_path):
        assert main(["--config", str(config), "migrate"]) == 2
    assert expected in _one_line(capsys.readouterr().err)


def test_migrate_refuses_a_newer_schema_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _config(tmp_path, database=str(tmp_path / "bond.sqlite3"))
    assert main(["--config", str(config), "migrate"]) == 0
    with sqlite3.connect(tmp_path / "bond.sqlite3") as conn:
        conn.execute("INSERT INTO schema_version VALUES (999, 'future', 'later')")
    capsys.readouterr()
    assert main(["--config", str(config), "migrate"]) == 2
    line = _one_line(capsys.readouterr().err)
    assert "[999]" in line and "restore a backup" in line


def test_backup_refuses_bad_targets_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "bond.sqlite3"
    config = _config(tmp_path, database=str(live))
    assert main(["--config", str(config), "migrate"]) == 0
    (tmp_path / "folder").mkdir()
    for target, expected in (
        (live, "is the live database itself"),
        (tmp_path / "nowhere" / "b.sqlite3", "the folder"),
        (tmp_path / "folder", "is a folder"),
    ):
        capsys.readouterr()
        assert main(["--config", str(config), "backup", str(target)]) == 2
        assert expected in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "nowhere").exists()
    with sqlite3.connect(live) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_backup_never_creates_the_database_it_was_asked_to_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Run from the wrong folder: no config.toml here, so the default database is
    # ./bondbot.sqlite3, which does not exist.
    with contextlib.chdir(tmp_path):
        assert main(["backup", "copy.sqlite3"]) == 2
    assert "there is no database at" in _one_line(capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    # An empty file is not a BondBot database either: nothing is copied.
    (tmp_path / "bondbot.sqlite3").touch()
    with contextlib.chdir(tmp_path):
        assert main(["backup", "copy.sqlite3"]) == 2
    assert "holds no BondBot data" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "copy.sqlite3").exists()


def test_run_detects_a_read_only_database_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    live = tmp_path / "bond.sqlite3"
    config = _config(tmp_path, database=str(live))
    assert main(["--config", str(config), "migrate"]) == 0
    capsys.readouterr()

    connect = aiosqlite.connect

    def read_only(path: str | os.PathLike[str], **options: Any) -> aiosqlite.Connection:
        # What SQLite does with a file the bot's user may not write (the tests run as
        # root, who may write any file): it opens it read-only without a word.
        if options.get("uri"):
            return connect(path, **options)
        return connect(f"file:{os.fspath(path)}?mode=ro", uri=True, isolation_level=None)

    monkeypatch.setattr(aiosqlite, "connect", read_only)
    monkeypatch.setenv("BONDBOT_TOKEN", "t")
    assert main(["--config", str(config), "run"]) == 2
    assert "is read-only" in _one_line(capsys.readouterr().err)


async def test_run_in_a_dev_server_the_bot_is_not_in_says_so_in_one_line(
    tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    config = _config(
        tmp_path,
        database=str(tmp_path / "bond.sqlite3"),
        discord_api_base=fake_discord.api_base,
        log_level="ERROR",
    )
    with config.open("a") as file:
        file.write("dev_guild_id = 1234567890\n")
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bondbot",
        "--config",
        str(config),
        "run",
        env={**os.environ, "BONDBOT_TOKEN": "test-token"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(bot.communicate(), timeout=60)
    assert bot.returncode == 2
    assert _one_line(err.decode()).startswith(
        "config: `dev_guild_id`: the bot is not in server 1234567890"
    )
