"""Several processes on one database: each restores only its own shards' tables, two processes
never own one shard (PostgreSQL's fence), and a stale writer is refused on both databases."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from data import ShardSet, ShardTaken, StaleVersion, shard_of
from data.errors import FenceLost
from data.fence import ShardCountMismatch
from data.migrations import Migration, SchemaTooNew, load_migrations
from data.postgres_migrations import apply_migrations, schema_version
from data.postgres_store import PostgresStore

from .conftest import HUMANS, Backend


def guild_on_shard(shard: int, count: int, n: int = 0) -> int:
    """A realistic guild id that Discord routes to ``shard`` of ``count``."""
    return ((shard + count * n) << 22) | (1_000 + n)


def test_shard_formula_is_discords() -> None:
    # Discord's documented example: (guild_id >> 22) % num_shards.
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert [shard_of(guild_on_shard(s, 4, n=3), 4) for s in range(4)] == [0, 1, 2, 3]
    assert ShardSet.of(4, [2, 0]).ids == (0, 2)
    assert ShardSet.of(3).is_everything and not ShardSet.of(3, [1]).is_everything
    assert ShardSet.of(4, [1, 3]).owns(guild_on_shard(3, 4)) is True
    assert ShardSet.of(4, [1, 3]).owns(guild_on_shard(2, 4)) is False


@pytest.mark.parametrize(
    ("count", "ids", "match"),
    [(0, [0], "at least 1"), (2, [], "at least one"), (2, [2], "outside"), (2, [1, 1], "repeat")],
)
def test_bad_shard_sets_are_refused(count: int, ids: list[int], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ShardSet(count, tuple(ids))


async def test_each_process_restores_only_its_own_shards(backend: Backend) -> None:
    everything = await backend.open()
    ids = {}
    for shard in range(3):
        for n in range(2):
            table = await everything.create_table(
                guild_on_shard(shard, 3, n), 500 + shard * 10 + n, "shanghai", 101, HUMANS, {}
            )
            ids.setdefault(shard, []).append(table.id)
    await everything.end_table(ids[1][1])  # closed tables are never restored
    await everything.close()

    first = await backend.open(shards=ShardSet.of(3, [0, 2]))
    second = await backend.open(shards=ShardSet.of(3, [1]))
    try:
        assert [t.id for t in await first.open_tables()] == ids[0] + ids[2]
        assert [t.id for t in await second.open_tables()] == ids[1][:1]
        # Where they are, for a restore that reads the rows later: the same tables.
        assert [p.id for p in await first.open_places()] == ids[0] + ids[2]
        assert [p.id for p in await second.open_places()] == ids[1][:1]
    finally:
        await first.close()
        await second.close()


async def test_a_stale_writer_is_refused(backend: Backend) -> None:
    # Two writers on one table (say, a process that lost its fence and still runs): the first
    # save wins, and the second, built on the same version, writes nothing.
    current = await backend.open()
    stale = await backend.open(fenced=False)
    try:
        table = await current.create_table(1, 500, "shanghai", 101, HUMANS, {})
        await current.start_game(table.id, table.seats, "{}", None, None)
        assert await current.save_action(table.id, 0, 101, "draw", '{"a": 1}', None, None, ()) == 1
        with pytest.raises(StaleVersion) as caught:
            await stale.save_action(table.id, 0, 102, "draw", '{"b": 1}', None, None, ())
        assert caught.value.actual_version == 1
        with pytest.raises(StaleVersion):
            await stale.finish_game(table.id, 0, "{}", [])
        after = await current.get_table(table.id)
        assert after is not None and (after.version, after.state) == (1, '{"a": 1}')
        assert [a.user_id for a in await current.actions(table.id)] == [101]
    finally:
        await stale.close()
        await current.close()


# -- PostgreSQL only: the fence and concurrent migrations ----------------------------------


async def test_fence_refuses_a_second_owner_of_a_shard(postgres_url: str) -> None:
    owner = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0]))
    try:
        started = time.monotonic()
        with pytest.raises(ShardTaken, match="shard 0 of 2 is already run") as caught:
            await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0, 1]), fence_wait=0.5)
        assert 0.5 <= time.monotonic() - started < 3
        assert caught.value.shard_id == 0
        # The refused process let go of shard 1 again: another process can take it.
        neighbour = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [1]))
        await neighbour.close()
    finally:
        await owner.close()


async def test_fence_passes_to_a_waiting_process_when_the_owner_stops(postgres_url: str) -> None:
    owner = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [1]))
    successor = asyncio.create_task(
        PostgresStore.open(postgres_url, shards=ShardSet.of(2, [1]), fence_wait=10)
    )
    await asyncio.sleep(0.8)
    assert not successor.done()  # still waiting for shard 1
    await owner.close()  # a crash drops the connection, and the lock, the same way
    store = await asyncio.wait_for(successor, 5)
    assert store.fence is not None and store.fence.is_held
    await store.close()


async def test_fence_refuses_a_different_shard_count(postgres_url: str) -> None:
    owner = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [1]))
    try:
        # Shard 3 of 4 holds guilds that shard 1 of 2 runs too.
        with pytest.raises(ShardCountMismatch, match="SHANGHAI_SHARD_COUNT=4"):
            await PostgresStore.open(postgres_url, shards=ShardSet.of(4, [3]))
    finally:
        await owner.close()


async def test_two_processes_starting_together_migrate_once(postgres_url: str) -> None:
    first, second = await asyncpg.connect(postgres_url), await asyncpg.connect(postgres_url)
    try:
        versions = await asyncio.gather(apply_migrations(first), apply_migrations(second))
        latest = load_migrations(dialect="postgres")[-1].version
        assert versions == [latest, latest]
        rows = await first.fetch("SELECT version FROM schema_migrations ORDER BY version")
        assert [r["version"] for r in rows] == list(range(1, latest + 1))
    finally:
        await first.close()
        await second.close()


async def test_database_newer_than_code_is_refused(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
        assert await schema_version(conn) == 999
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew) as caught:
        await PostgresStore.open(postgres_url)
    assert caught.value.database_version == 999


async def test_snowflakes_and_json_columns_use_postgres_types(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    await store.close()
    conn = await asyncpg.connect(postgres_url)
    try:
        rows = await conn.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_name = 'tables'"
        )
    finally:
        await conn.close()
    types = {r["column_name"]: r["data_type"] for r in rows}
    assert {types[c] for c in ("id", "guild_id", "channel_id", "host_id", "message_id")} == {
        "bigint"
    }
    assert {types[c] for c in ("seats", "options", "away")} == {"jsonb"}


async def test_full_size_snowflakes_round_trip(backend: Backend) -> None:
    # Real ids are 64-bit (about 2**60 today); a 32-bit column would overflow or truncate.
    guild, channel, user, message = 2**62 + 1, 2**62 + 2, 2**62 + 3, 2**63 - 1
    store = await backend.open()
    try:
        seats = (HUMANS[0].__class__(user, "Big"),)
        table = await store.create_table(guild, channel, "shanghai", user, seats, {})
        await store.set_message(table.id, message)
        again = await store.get_open_table(channel)
        assert again is not None
        assert (again.guild_id, again.host_id, again.message_id) == (guild, user, message)
        assert again.seats[0].user_id == user
    finally:
        await store.close()


async def _drop_fence_connection(store: PostgresStore, url: str) -> None:
    """What a server restart or a network blip does to the fence's session."""
    assert store.fence is not None
    pid = store.fence._conn.get_server_pid()
    admin = await asyncpg.connect(url)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()
    for _ in range(100):
        if not store.fence.is_held:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the dropped fence connection went unnoticed")


async def test_a_dropped_fence_is_taken_back_when_nobody_else_took_it(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0]))
    try:
        await _drop_fence_connection(store, postgres_url)
        table = await store.create_table(1, 500, "shanghai", 101, HUMANS, {})  # takes it back
        assert store.fence is not None and store.fence.is_held
        assert await store.get_table(table.id) == table
        with pytest.raises(ShardTaken):  # and holds it again against a newcomer
            await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0]))
    finally:
        await store.close()


async def test_a_process_whose_shard_was_taken_over_writes_nothing(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0]))
    table = await store.create_table(1, 500, "shanghai", 101, HUMANS, {})
    try:
        await _drop_fence_connection(store, postgres_url)
        successor = await PostgresStore.open(postgres_url, shards=ShardSet.of(2, [0]))
        try:
            with pytest.raises(FenceLost, match="another process took them"):
                await store.update_lobby(table.id, HUMANS[:1], {})
            with pytest.raises(FenceLost):  # for good, not just once
                await store.end_table(table.id)
            after = await successor.get_table(table.id)
            assert after is not None and after.seats == HUMANS and after.status == "lobby"
        finally:
            await successor.close()
    finally:
        await store.close()


async def test_a_slow_migration_does_not_time_out_a_process_starting_beside_it(
    postgres_url: str,
) -> None:
    # The store's sessions give up on locks after 2 s; waiting for another process's
    # migrations at start-up must not.
    script = "SELECT pg_sleep(2.5); CREATE TABLE t (n int);"
    slow = [Migration.from_sql(1, "slow", script, "postgres")]
    settings = {"lock_timeout": "2000"}
    first = await asyncpg.connect(postgres_url, server_settings=settings)
    second = await asyncpg.connect(postgres_url, server_settings=settings)
    try:
        assert await asyncio.gather(
            apply_migrations(first, slow), apply_migrations(second, slow)
        ) == [1, 1]
    finally:
        await first.close()
        await second.close()
