"""Issue 13.2: two shard processes on one database each restore, time and play only the tables
of their own guilds (on PostgreSQL, the deployment this is for, and on a shared SQLite file)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import TableService
from data import ShardSet, Store, open_store
from engine.actions import DrawStock
from tests.clock import FakeClock


def guild_on_shard(shard: int, count: int, n: int) -> int:
    return ((shard + count * n) << 22) | 7


@pytest.fixture(params=["postgres", "sqlite"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "shared.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


class Process:
    """One shard process's store and service (what ``bot.process.app`` builds), without Discord."""

    def __init__(self, store: Store, service: TableService) -> None:
        self.store = store
        self.service = service

    @classmethod
    async def start(cls, database: str, shards: ShardSet, clock: FakeClock) -> Process:
        store = await open_store(database, clock=clock, shards=shards)
        service = TableService(store, buy_seconds=8, turn_seconds=90, seed=5, clock=clock)
        await service.restore()
        return cls(store, service)

    async def stop(self) -> None:
        await self.service.close()
        await self.store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def processes(database: str, clock: FakeClock) -> AsyncIterator[list[Process]]:
    started = [
        await Process.start(database, ShardSet.of(2, [0]), clock),
        await Process.start(database, ShardSet.of(2, [1]), clock),
    ]
    yield started
    for process in started:
        await process.stop()


async def test_each_process_restores_only_its_own_guilds(
    database: str, clock: FakeClock, processes: list[Process]
) -> None:
    opened: dict[int, list[int]] = {0: [], 1: []}
    for shard, process in enumerate(processes):
        for n in range(3):
            guild = guild_on_shard(shard, 2, n)
            table = await process.service.open_table(guild, guild + 1, 100, "p100", {})
            await process.service.join(table.id, 101, "p101")
            if n < 2:
                await process.service.start(table.id, 100)
            opened[shard].append(table.id)
    # One action on a game of each process, so there is a log to carry on from.
    for shard, process in enumerate(processes):
        live = process.service.tables[opened[shard][0]]
        assert live.game is not None
        await process.service.act(live.id, int(live.game.current_player), DrawStock())

    # Both processes stop (a deploy, or a crash) and start again.
    for process in processes:
        await process.stop()
    processes[:] = [
        await Process.start(database, ShardSet.of(2, [0]), clock),
        await Process.start(database, ShardSet.of(2, [1]), clock),
    ]
    for shard, process in enumerate(processes):
        assert sorted(process.service.tables) == opened[shard]
        for live in process.service.tables.values():
            assert ShardSet.of(2, [shard]).owns(live.record.guild_id)
        # ... and each carries on with its own games.
        live = process.service.tables[opened[shard][0]]
        assert live.version == 1 and live.game is not None
        player = live.game.current_player
        result = await process.service.act(live.id, int(player), live.game.legal_actions(player)[0])
        assert result.version == 2
