"""Which guilds this process serves: Discord's shards, split across processes.

Discord sends each guild's events to one shard, `(guild_id >> 22) % shard_count`; a process
that runs some of the shards owns exactly their guilds, and only it may touch their tables
(resume them, arm their timers, apply their actions). Pure: no discord, no database.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends this guild's events to."""
    return (guild_id >> 22) % shard_count


def cluster_shards(shard_count: int, index: int, size: int) -> tuple[int, ...]:
    """Process `index` of `size`'s shards: a contiguous block, as even as can be."""
    return tuple(range(index * shard_count // size, (index + 1) * shard_count // size))


@dataclass(frozen=True, slots=True)
class Shards:
    """This process's shards; `count` None is today's single process (Discord's recommended
    count, every shard here), and `ids` None means every shard of `count`."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def everything(self) -> bool:
        """Whether this process owns every guild (no filter to apply)."""
        return self.count is None or self.ids is None or len(set(self.ids)) == self.count

    def owns(self, guild_id: int) -> bool:
        if self.everything:
            return True
        assert self.count is not None and self.ids is not None
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        if self.count is None:
            return "every shard (Discord's recommended count)"
        if self.ids is None:
            return f"every shard of {self.count}"
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"
