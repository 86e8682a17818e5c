"""Which guilds a process owns: Discord's shard formula, and the set of shards a process runs.

Discord delivers every event of a guild to shard ``(guild_id >> 22) % shard_count``, so a
process that runs shards {0, 2} of 4 sees the interactions of exactly those guilds and of no
other. The store uses the same formula to restore only those guilds' tables, and the fence
(``data.fence``) to keep two processes off the same shard.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord delivers ``guild_id``'s events to."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class ShardSet:
    """The shards one process owns out of ``count``; ``ShardSet.everything()`` for one process."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"shard count must be at least 1, not {self.count}")
        if not self.ids:
            raise ValueError("a process must own at least one shard")
        bad = [i for i in self.ids if not 0 <= i < self.count]
        if bad:
            raise ValueError(f"shard ids {bad} are outside 0..{self.count - 1}")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"shard ids {list(self.ids)} repeat")

    @classmethod
    def everything(cls) -> ShardSet:
        """One process, one shard: every guild."""
        return cls(1, (0,))

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> ShardSet:
        """``ids`` of ``count`` shards, sorted; all of them when ``ids`` is ``None``."""
        chosen = range(count) if ids is None else ids
        return cls(count, tuple(sorted(chosen)))

    @property
    def is_everything(self) -> bool:
        """Whether this process owns every guild (no filter needed)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int) -> bool:
        """Whether ``guild_id``'s events come to this process."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"
