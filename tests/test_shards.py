"""The shard settings: which shards a process runs, from config.toml or the environment,
and one clear line for each way they can disagree."""

from __future__ import annotations

from pathlib import Path

import pytest

from bondbot.bot.client import BondBot
from bondbot.config import ConfigError, Settings, load_settings
from bondbot.services import Services
from bondbot.shards import Shards, cluster_shards, shard_of
from bondbot.storage.db import Database


def _settings(tmp_path: Path, toml: str = "", **environ: str) -> Shards:
    path = tmp_path / "config.toml"
    path.write_text(toml, encoding="utf-8")
    return load_settings(path, environ={"BONDBOT_TOKEN": "t", **environ}).shards


def test_unset_is_one_process_owning_every_guild(tmp_path: Path) -> None:
    shards = _settings(tmp_path)
    assert shards == Shards(None, None)
    assert shards.everything and shards.owns(123 << 22)


@pytest.mark.parametrize(
    ("toml", "environ", "expected"),
    [
        ("shard_count = 2\nshard_ids = [1]", {}, Shards(2, (1,))),
        ("shard_count = 4", {}, Shards(4, None)),
        ('shard_count = 8\nshard_ids = "0-2,6"', {}, Shards(8, (0, 1, 2, 6))),
        ("cluster_index = 1\ncluster_size = 2", {}, Shards(2, (1,))),
        ("shard_count = 5\ncluster_index = 1\ncluster_size = 2", {}, Shards(5, (2, 3, 4))),
        ("", {"BONDBOT_SHARD_COUNT": "2", "BONDBOT_SHARD_IDS": "0"}, Shards(2, (0,))),
        ("shard_count = 2", {"BONDBOT_SHARD_IDS": "1"}, Shards(2, (1,))),
        ("", {"BONDBOT_CLUSTER_INDEX": "0", "BONDBOT_CLUSTER_SIZE": "3"}, Shards(3, (0,))),
    ],
)
def test_shards_from_the_config_or_the_environment(
    tmp_path: Path, toml: str, environ: dict[str, str], expected: Shards
) -> None:
    assert _settings(tmp_path, toml, **environ) == expected


@pytest.mark.parametrize(
    ("toml", "says"),
    [
        ("shard_ids = [0]", "`shard_ids` needs `shard_count`"),
        ("shard_count = 2\nshard_ids = [2]", "shards are 0 to 1"),
        ("shard_count = 2\nshard_ids = [-1]", "`shard_ids` [-1] out of range"),
        ("shard_count = 2\nshard_ids = []", "`shard_ids`: "),
        ("shard_count = 4\nshard_ids = [1, 1]", "names a shard twice"),
        ('shard_count = 4\nshard_ids = "1;2"', "cannot read '1;2'"),
        ("shard_count = 0", "`shard_count`: Input should be greater than or equal to 1"),
        ("cluster_index = 0", "go together"),
        ("cluster_index = 2\ncluster_size = 2", "must be below `cluster_size` (2)"),
        ("shard_count = 1\ncluster_index = 0\ncluster_size = 2", "every process needs"),
        ("shard_count = 2\nshard_ids = [0]\ncluster_index = 0\ncluster_size = 2", "not both"),
    ],
)
def test_disagreeing_shard_settings_stop_with_one_line(
    tmp_path: Path, toml: str, says: str
) -> None:
    with pytest.raises(ConfigError) as error:
        _settings(tmp_path, toml)
    (line,) = str(error.value).splitlines()
    assert line.startswith("config: ") and says in line


def test_a_cluster_splits_the_shards_into_contiguous_blocks_covering_each_once() -> None:
    for count in range(1, 20):
        for size in range(1, count + 1):
            blocks = [cluster_shards(count, index, size) for index in range(size)]
            assert all(blocks), (count, size)
            assert [s for block in blocks for s in block] == list(range(count))


def test_a_guild_is_owned_by_the_one_process_of_its_shard() -> None:
    processes = [Shards(3, ids) for ids in ((0,), (1,), (2,))]
    for guild_id in (0, 1 << 22, 2 << 22, 175928847299117063, 2**62 + 12345):
        owners = [p for p in processes if p.owns(guild_id)]
        assert owners == [processes[shard_of(guild_id, 3)]]


async def test_the_bot_runs_the_configured_shards_and_its_tables_serve_them(
    tmp_path: Path,
) -> None:
    settings = Settings(token="t", database=tmp_path / "b.sqlite3", shard_count=4, shard_ids=(1, 3))
    bot = BondBot(settings, freeze_gc=False)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    db = await Database.open(settings.database)
    try:
        assert Services(db, settings).tables.shards == Shards(4, (1, 3))
    finally:
        await db.close()
    single = BondBot(Settings(token="t"), freeze_gc=False)
    assert (single.shard_count, single.shard_ids) == (None, None)  # Discord's recommendation
