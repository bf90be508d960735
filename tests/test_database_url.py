"""A PostgreSQL password with `@`, `/` or `:` (issue 29, item 6): given apart from the URL
(BONDBOT_DATABASE_PASSWORD, a file, config.toml, libpq's PGPASSWORD and .pgpass) or
percent-encoded in it, it reaches a real server that checks it; written as it is in a URL,
it is refused before libpq misreads it; and no part of it is ever printed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from bondbot.cli import main
from bondbot.config import ConfigError, load_settings
from bondbot.local import FakeDiscord
from bondbot.storage import pgurl
from bondbot.storage.db import shown

PASSWORD = "Zq9@Xk7/Wv5:Jm3"  # the issue's three characters, and pieces no message holds
PIECES = re.split(r"[@/:]", PASSWORD)
ISSUE_URL = f"postgresql://postgres:{PASSWORD}@127.0.0.1:5441/bondbot"


def assert_hidden(*texts: str) -> None:
    """No piece of the password (nor the whole) in any of `texts`."""
    for text in texts:
        for piece in [PASSWORD, *PIECES, quote(PASSWORD, safe="")]:
            assert piece not in text, f"{piece!r} printed in {text!r}"


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# The URL as it is: refused in one line that quotes no part of it.


@pytest.mark.parametrize(
    "url",
    [
        ISSUE_URL,
        f"postgresql://bondbot:{PASSWORD.replace('@', '')}@db/bondbot",  # a `/` alone
        "postgresql://bondbot:Zq9@Xk7@db/bondbot",  # two `@`
        "postgresql://bondbot:Zq9%Xk7@db/bondbot",  # a `%` that is not an escape
        "postgresql://bondbot:Zq9 Xk7@db/bondbot",  # a space
    ],
)
def test_a_password_libpq_would_misread_is_refused_without_a_piece_of_it(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ConfigError) as error:
        load_settings(None, environ={"BONDBOT_TOKEN": "t", "BONDBOT_DATABASE_URL": url})
    said = str(error.value)
    assert "\n" not in said and "percent-encoded" in said and "BONDBOT_DATABASE_PASSWORD" in said
    # No chained error either: a traceback would print pydantic's, which quotes the input.
    assert error.value.__cause__ is None and error.value.__suppress_context__
    assert_hidden(said, repr(error.value))
    # The same through the command line: migrate, and copy-database's own URLs.
    config = tmp_path / "config.toml"
    config.write_text(f"database = {_toml(url)}\n")
    assert main(["--config", str(config), "migrate"]) == 2
    assert main(["copy-database", str(tmp_path / "none.sqlite3"), url]) == 2
    assert main(["copy-database", url, str(tmp_path / "new.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert "percent-encoded" in err and "Traceback" not in err
    assert_hidden(out, err, caplog.text)
    assert not (tmp_path / "new.sqlite3").exists()


@pytest.mark.parametrize(
    "url",
    [
        ISSUE_URL,
        f"postgresql://bondbot:{quote(PASSWORD, safe='')}@db:5432/bondbot",
        f"postgres://bondbot@db/bondbot?sslmode=disable&password={quote(PASSWORD, safe='')}",
        f"postgresql://bondbot@db/bondbot?password={PASSWORD}",
        f"postgresql://bondbot:{PASSWORD}@db/bondbot?sslmode=disable",
        pgurl.with_password("postgresql://bondbot@db/bondbot", PASSWORD),
    ],
)
def test_a_url_is_named_without_its_password(url: str) -> None:
    named = shown(url)
    assert_hidden(named)
    assert re.match(r"postgres(ql)?://(bondbot|postgres)[:@]", named) and "***" in named


def test_a_url_without_a_password_is_named_as_it_is() -> None:
    for url in ("postgresql://bondbot@db/bondbot", "postgresql:///bondbot?host=/run/pg"):
        assert shown(url) == url and not pgurl.has_password(url)


@pytest.mark.parametrize(
    "password", [PASSWORD, "%41%", "a&password=b", "é ü ?#'\"\\", "x" * 200, "k=v="]
)
def test_the_password_apart_reaches_libpq_as_it_is(password: str) -> None:
    conninfo = pytest.importorskip("psycopg.conninfo")
    settings = load_settings(
        None,
        environ={
            "BONDBOT_TOKEN": "t",
            "BONDBOT_DATABASE_URL": "postgresql://bondbot@db:5432/bondbot?sslmode=disable",
            "BONDBOT_DATABASE_PASSWORD": password,
        },
    )
    assert isinstance(settings.database, str)
    parsed = conninfo.conninfo_to_dict(settings.database)
    assert parsed == {
        "user": "bondbot",
        "host": "db",
        "port": "5432",
        "dbname": "bondbot",
        "sslmode": "disable",
        "password": password,
    }
    assert password not in repr(settings) and quote(password, safe="") not in repr(settings)


def test_a_password_apart_and_one_in_the_url_is_one_too_many(tmp_path: Path) -> None:
    environ = {
        "BONDBOT_TOKEN": "t",
        "BONDBOT_DATABASE_URL": f"postgresql://u:{quote(PASSWORD, safe='')}@db/bondbot",
        "BONDBOT_DATABASE_PASSWORD": "other",
    }
    with pytest.raises(ConfigError, match="keep one") as error:
        load_settings(None, environ=environ)
    assert_hidden(str(error.value))
    with pytest.raises(ConfigError, match="is for a PostgreSQL database"):
        load_settings(None, environ={"BONDBOT_TOKEN": "t", "BONDBOT_DATABASE_PASSWORD": "x"})
    both = {**environ, "BONDBOT_DATABASE_PASSWORD_FILE": str(tmp_path / "p")}
    with pytest.raises(ConfigError, match="not both"):
        load_settings(None, environ=both)


def test_secret_files_are_read_and_their_faults_named(tmp_path: Path) -> None:
    token, password = tmp_path / "token", tmp_path / "password"
    token.write_text("abc.def\n")
    password.write_text(PASSWORD + "\n")  # `echo … > file`: the newline is not the password
    settings = load_settings(
        None,
        environ={
            "BONDBOT_TOKEN_FILE": str(token),
            "BONDBOT_DATABASE_URL": "postgresql://bondbot@db/bondbot",
            "BONDBOT_DATABASE_PASSWORD_FILE": str(password),
        },
    )
    assert settings.token == "abc.def"
    assert isinstance(settings.database, str)
    assert settings.database.endswith("password=" + quote(PASSWORD, safe=""))
    for environ, said in [
        ({"BONDBOT_TOKEN_FILE": str(tmp_path / "missing")}, "cannot read"),
        ({"BONDBOT_TOKEN_FILE": str(tmp_path)}, "cannot read"),
        ({"BONDBOT_TOKEN_FILE": str(token), "BONDBOT_TOKEN": "x"}, "not both"),
    ]:
        with pytest.raises(ConfigError, match=said) as error:
            load_settings(None, environ=environ)
        assert str(error.value).startswith("config: ") and "\n" not in str(error.value)
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ConfigError, match="is empty"):
        load_settings(None, environ={"BONDBOT_TOKEN_FILE": str(tmp_path / "empty")})


# A real server that checks the password.


@contextlib.contextmanager
def _password_role(url: str) -> Iterator[tuple[str, str]]:
    """A role that may log in over TCP only with PASSWORD (its pg_hba line, prepended to
    the test cluster's, asks for it; `.ci/postgres` trusts everyone else), with the rights
    of `url`'s schema: (the role, `url` for that role, without a password)."""
    import psycopg

    role = f"pw_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        hba = Path(admin.execute("SHOW hba_file").fetchone()[0])  # type: ignore[index]
        schema = admin.execute("SELECT current_schema()").fetchone()[0]  # type: ignore[index]
        try:
            original = hba.read_text()
            hba.write_text(original)
        except OSError:
            pytest.skip("the test cluster's pg_hba.conf cannot be written here")
        literal = PASSWORD.replace("'", "''")
        admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{literal}'")
        admin.execute(f"GRANT ALL ON SCHEMA {schema} TO {role}")
        hba.write_text(
            f"host all {role} 127.0.0.1/32 scram-sha-256\nhost all {role} ::1/128 scram-sha-256\n"
            + original
        )
        admin.execute("SELECT pg_reload_conf()")
        mine = url.replace("postgresql://bondbot@", f"postgresql://{role}@", 1)
        assert mine != url and "@127.0.0.1:" in mine, "the test server is reached over TCP"
        try:
            _until_refused(mine)
            yield role, mine
        finally:
            hba.write_text(original)
            admin.execute("SELECT pg_reload_conf()")
            admin.execute(f"DROP OWNED BY {role} CASCADE")
            admin.execute(f"DROP ROLE {role}")


def _until_refused(url: str) -> None:
    """Wait for the server to have read its new pg_hba.conf: a login without the password
    is refused (the reload signal is handled after pg_reload_conf returns)."""
    import psycopg

    for _ in range(200):
        try:
            psycopg.connect(url, connect_timeout=5).close()
        except psycopg.OperationalError as exc:
            assert "password" in str(exc), exc
            return
        time.sleep(0.05)
    raise AssertionError("the server never asked for the password")


@pytest.fixture
def password_role(postgres_url: str) -> Iterator[tuple[str, str]]:
    with _password_role(postgres_url) as found:
        yield found


def _migrate(config: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["--config", str(config), "migrate"])
    out, err = capsys.readouterr()
    return code, out, err


def _given(how: str, url: str, role: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config.toml (and environment) giving the role's password `how`."""
    for name in ("PGPASSWORD", "PGPASSFILE", "BONDBOT_DATABASE_URL", "BONDBOT_DATABASE_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("BONDBOT_DATABASE_PASSWORD_FILE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.pgpass but the test's
    config = tmp_path / "config.toml"
    database = url
    if how == "environment":
        monkeypatch.setenv("BONDBOT_DATABASE_PASSWORD", PASSWORD)
    elif how == "file":
        (tmp_path / "secret").write_text(PASSWORD + "\n")
        monkeypatch.setenv("BONDBOT_DATABASE_PASSWORD_FILE", str(tmp_path / "secret"))
    elif how == "config":
        config.write_text(f"database_password = {_toml(PASSWORD)}\n")
    elif how == "percent-encoded":
        database = url.replace(f"{role}@", f"{role}:{quote(PASSWORD, safe='')}@", 1)
    elif how == "PGPASSWORD":
        monkeypatch.setenv("PGPASSWORD", PASSWORD)
    elif how == ".pgpass":
        escaped = PASSWORD.replace("\\", "\\\\").replace(":", "\\:")
        pgpass = tmp_path / ".pgpass"
        pgpass.write_text(f"*:*:*:{role}:{escaped}\n")
        pgpass.chmod(0o600)
        monkeypatch.setenv("PGPASSFILE", str(pgpass))
    with config.open("a") as file:
        file.write(f"database = {_toml(database)}\n")
    return config


@pytest.mark.parametrize(
    "how", ["environment", "file", "config", "percent-encoded", "PGPASSWORD", ".pgpass"]
)
def test_a_password_with_at_slash_colon_connects_to_a_server_that_checks_it(
    how: str,
    password_role: tuple[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    role, url = password_role
    config = _given(how, url, role, tmp_path, monkeypatch)
    code, out, err = _migrate(config, capsys)
    assert code == 0, err
    assert "applied migrations [1, 2" in out
    assert_hidden(out, err, caplog.text)


def test_a_wrong_password_is_refused_in_one_line_without_the_password(
    password_role: tuple[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    _, url = password_role
    wrong = PASSWORD[::-1]
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("PGPASSWORD", "PGPASSFILE", "BONDBOT_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BONDBOT_DATABASE_PASSWORD", wrong)
    config = tmp_path / "config.toml"
    config.write_text(f"database = {_toml(url)}\n")
    code, out, err = _migrate(config, capsys)
    assert code == 2
    assert err.startswith("database: cannot use postgresql://") and err.count("\n") == 1
    assert "password authentication failed" in err
    assert_hidden(out, err, caplog.text)
    for piece in re.split(r"[@/:]", wrong):
        assert piece not in out + err + caplog.text
    # copy-database takes the same password apart for a URL without one.
    assert main(["copy-database", url, str(tmp_path / "copy.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert "password authentication failed" in err
    assert_hidden(out, err)
    monkeypatch.setenv("BONDBOT_DATABASE_PASSWORD", PASSWORD)
    assert main(["copy-database", url, str(tmp_path / "copy.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert "holds no BondBot data" in err  # connected: the schema is empty
    assert_hidden(out, err, caplog.text)


def test_offline_commands_need_no_token_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`migrate` in compose's migrate service, `health` in a bot's: the token's file (or its
    absence) is the bot's business, not theirs."""
    monkeypatch.setenv("BONDBOT_TOKEN_FILE", str(tmp_path / "no-such-secret"))
    monkeypatch.delenv("BONDBOT_TOKEN", raising=False)
    monkeypatch.delenv("BONDBOT_DATABASE_URL", raising=False)
    config = tmp_path / "config.toml"
    config.write_text(f"database = {_toml(str(tmp_path / 'bond.sqlite3'))}\n")
    assert main(["--config", str(config), "migrate"]) == 0
    assert "applied migrations [1" in capsys.readouterr().out
    assert main(["--config", str(config), "run"]) == 2
    assert "BONDBOT_TOKEN_FILE: cannot read" in capsys.readouterr().err


def test_copy_database_brings_sqlite_in_with_the_password_from_a_file(
    password_role: tuple[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What the README's `docker compose run … migrate bondbot copy-database` does: the URL
    without a password, the password from the migrate service's secret file."""
    _, url = password_role
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("PGPASSWORD", "PGPASSFILE", "BONDBOT_DATABASE_URL", "BONDBOT_DATABASE_PASSWORD"):
        monkeypatch.delenv(name, raising=False)
    source = tmp_path / "bondbot.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(f"database = {_toml(str(source))}\n")
    assert main(["--config", str(config), "migrate"]) == 0
    (tmp_path / "secret").write_text(PASSWORD + "\n")
    monkeypatch.setenv("BONDBOT_DATABASE_PASSWORD_FILE", str(tmp_path / "secret"))
    capsys.readouterr()
    assert main(["copy-database", str(source), url]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"copied {source} to postgresql://") and "balances equal" in out
    assert_hidden(out, err)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://u@h/db",
        f"postgresql://u:{quote(PASSWORD, safe='')}@h:5432/db?sslmode=disable",
        pgurl.with_password("postgresql://u@h/db?options=-c%20x%3Dy", PASSWORD),
        pgurl.with_password("postgresql://u@h/db", PASSWORD),
        f"postgresql://u@h/db?password={quote(PASSWORD, safe='')}&sslmode=disable",
    ],
)
def test_the_password_comes_out_of_a_url_as_libpq_reads_it(url: str) -> None:
    conninfo = pytest.importorskip("psycopg.conninfo")
    bare, password = pgurl.split_password(url)
    read = conninfo.conninfo_to_dict(url)
    assert password == read.pop("password", None)
    assert conninfo.conninfo_to_dict(bare) == read and not pgurl.has_password(bare)


def test_pg_dump_gets_the_password_in_its_environment_not_its_command_line() -> None:
    pytest.importorskip("psycopg")
    from bondbot.storage.postgres import _dump_target

    dbname, env = _dump_target(pgurl.with_password("postgresql://u@h/db", PASSWORD))
    assert dbname == "postgresql://u@h/db"
    assert env is not None and env["PGPASSWORD"] == PASSWORD
    assert _dump_target("postgresql://u@h/db") == ("postgresql://u@h/db", None)


def test_backup_reaches_a_server_that_checks_the_password(
    password_role: tuple[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import shutil

    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed here")
    role, url = password_role
    config = _given("environment", url, role, tmp_path, monkeypatch)
    assert main(["--config", str(config), "migrate"]) == 0
    target = tmp_path / "bondbot.dump"
    assert main(["--config", str(config), "backup", str(target)]) == 0, capsys.readouterr().err
    out, err = capsys.readouterr()
    assert target.stat().st_size > 0 and "backed up postgresql://" in out
    assert_hidden(out, err)


ROOT = Path(__file__).resolve().parents[1]


def test_the_example_config_s_percent_encoded_url_gives_its_password() -> None:
    """config.example.toml's commented URL, uncommented, reaches libpq with the password
    its comment spells out; and its `database_password` line is a setting BondBot reads."""
    conninfo = pytest.importorskip("psycopg.conninfo")
    text = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    assert "percent-encoded" in text and "BONDBOT_DATABASE_PASSWORD_FILE" in text
    examples = re.findall(r'^# (database = "postgresql://[^"]*%[^"]*")$', text, re.MULTILINE)
    (said,) = re.findall(r'\("([^"]+)" is written', text)
    assert examples, "an example URL with a percent-encoded password"
    for line in examples:
        settings = load_settings(None, environ={"BONDBOT_TOKEN": "t"} | _env(line))
        assert conninfo.conninfo_to_dict(str(settings.database))["password"] == said
    (apart,) = re.findall(r"^# (database_password = .*)$", text, re.MULTILINE)
    url = "postgresql://bondbot@localhost/bondbot"
    settings = load_settings(None, environ={"BONDBOT_TOKEN": "t"} | _env(apart) | _env(url))
    assert conninfo.conninfo_to_dict(str(settings.database))["password"] == said


def _env(line: str) -> dict[str, str]:
    """A `key = "value"` line as the environment would give it."""
    if line.startswith("postgresql://"):
        return {"BONDBOT_DATABASE_URL": line}
    key, _, value = line.partition(" = ")
    name = {"database": "BONDBOT_DATABASE_URL", "database_password": "BONDBOT_DATABASE_PASSWORD"}
    return {name[key]: value.strip('"')}


def test_the_readme_brings_sqlite_into_compose_through_the_service_with_the_password() -> None:
    """The README's `docker compose run … copy-database` names a service of
    docker-compose.yml that has the password's file, and compose's own database URL."""
    from test_deployment import services

    readme = (ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", " ")
    assert "percent-encoded" in readme and "BONDBOT_DATABASE_PASSWORD_FILE" in readme
    assert "armv7" in readme and "libpq5" in readme
    (command,) = re.findall(r"docker compose run [^\n]*copy-database [^\n]*", readme)
    words = command.split()
    service = words[words.index("bondbot") - 1]
    env = services((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))[service]
    assert env["BONDBOT_DATABASE_PASSWORD_FILE"].startswith("/run/secrets/")
    assert words[-1] == env["BONDBOT_DATABASE_URL"]
    assert words[-2].startswith("/import/") and '"$PWD:/import"' in words


async def test_the_bot_runs_on_its_secret_files_and_logs_no_password(
    password_role: tuple[str, str], tmp_path: Path, fake_discord: FakeDiscord
) -> None:
    """`bondbot run` as compose starts it: the token and the password from files, the URL
    without a password; it prepares the database on the server that checks the password,
    logs in to (the fake) Discord, and stops at the first thing it cannot do (a
    development server it is not in), every DEBUG line free of the password."""
    _, url = password_role
    (tmp_path / "token").write_text("test-token\n")
    (tmp_path / "password").write_text(PASSWORD + "\n")
    config = tmp_path / "config.toml"
    config.write_text(
        f"discord_api_base = {_toml(fake_discord.api_base)}\n"
        'log_level = "DEBUG"\ndev_guild_id = 1234567890\n'
    )
    drop = ("BONDBOT_TOKEN", "BONDBOT_DATABASE_PASSWORD", "PGPASSWORD", "PGPASSFILE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env |= {
        "HOME": str(tmp_path),
        "BONDBOT_TOKEN_FILE": str(tmp_path / "token"),
        "BONDBOT_DATABASE_URL": url,
        "BONDBOT_DATABASE_PASSWORD_FILE": str(tmp_path / "password"),
    }
    bot = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bondbot",
        "--config",
        str(config),
        "run",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(bot.communicate(), timeout=120)
    said = err.decode()
    assert bot.returncode == 2, said[-2000:]
    assert said.strip().splitlines()[-1].startswith("config: `dev_guild_id`: the bot is not in")
    assert "applied migrations" in said  # the database was prepared on that server
    assert_hidden(out.decode(), said)
