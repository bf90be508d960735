"""The operator's side: configuration errors in one line, migrate, backup, verify."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bondbot.cli import main
from bondbot.config import ConfigError, load_settings
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
