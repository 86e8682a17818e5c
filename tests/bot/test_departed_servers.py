"""The data of a server the bot left is deleted after SHANGHAI_DEPARTED_GUILD_DAYS, on a fake
clock: not before, not for a server the bot is back in, and only by the process owning it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.process.lifecycle import DAY, purge_departed
from data import Seat, SqliteStore
from data.shards import ShardSet
from tests.clock import FakeClock


def a_bot(store: Any, days: float, present: set[int], shards: ShardSet) -> Any:
    """What ``purge_departed`` reads of the bot: its store, settings, shards and guilds."""
    return SimpleNamespace(
        store=store,
        settings=SimpleNamespace(departed_guild_days=days),
        shard_set=shards,
        get_guild=lambda guild_id: object() if guild_id in present else None,
    )


async def test_a_departed_servers_data_goes_after_its_days(tmp_path: Path) -> None:
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "db.sqlite3", clock=clock)
    gone, back, other_shard = 2 << 22, 4 << 22, 3 << 22  # shards 0, 0 and 1 of 2
    try:
        for guild in (gone, back, other_shard):
            await store.create_table(guild, guild + 1, "shanghai", 7, [Seat(7, "Ann")], {})
            await store.set_guild_settings(guild, {"preset": "quick"})
            await store.guild_left(guild)
        bot = a_bot(store, 30, present={back}, shards=ShardSet(2, (0,)))
        clock.advance(30 * DAY - 1)
        assert await purge_departed(bot) == []
        clock.advance(1)
        assert await purge_departed(bot) == [gone]
        assert await store.guild_settings(gone) == {}
        assert await store.get_open_table(gone + 1) is None
        # The bot is back in ``back``: kept, and its departure forgotten.
        assert await store.guild_settings(back) == {"preset": "quick"}
        assert await store.get_open_table(back + 1) is not None
        # Another process owns ``other_shard``: left to it.
        assert await store.departed_guilds(30 * DAY) == [other_shard]
        assert await store.guild_settings(other_shard) == {"preset": "quick"}
    finally:
        await store.close()


class FailingOnce:
    """A store whose purge of one guild fails (a broken row, a lost connection)."""

    def __init__(self, store: Any, failing: int) -> None:
        self.store, self.failing = store, failing

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def purge_guild(self, guild_id: int) -> None:
        if guild_id == self.failing:
            raise RuntimeError("the database refused")
        await self.store.purge_guild(guild_id)


async def test_one_servers_failed_purge_is_logged_and_the_next_servers_still_go(
    tmp_path: Path, caplog: Any
) -> None:
    clock = FakeClock()
    store = await SqliteStore.open(tmp_path / "db.sqlite3", clock=clock)
    first, second, third = 2 << 22, 4 << 22, 6 << 22
    try:
        for guild in (first, second, third):
            await store.set_guild_settings(guild, {"preset": "quick"})
            await store.guild_left(guild)
        clock.advance(30 * DAY)
        bot = a_bot(FailingOnce(store, first), 30, present=set(), shards=ShardSet(1, (0,)))
        assert await purge_departed(bot) == [second, third]
        assert "could not delete the data of departed server" in caplog.text
        assert await store.guild_settings(first) == {"preset": "quick"}  # tried again next time
        assert await store.departed_guilds(30 * DAY) == [first]
    finally:
        await store.close()
