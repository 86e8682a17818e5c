"""What only the PostgreSQL store does: a player's write gives up in time on another session's
lock (issue 16.5), and reads never wait for it."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from data import StoreBusy
from data.postgres_store import POOL_SIZE, PostgresStore
from data.store import PLAYER_WAIT_SECONDS

from .conftest import HUMANS

PLAYER_BOUND = 2.5
#: Real seconds after which an answer that should have come counts as hung: a guard against
#: a test waiting for ever (a read that waited for the row lock would), far beyond any answer.
HUNG = 30.0


async def test_a_write_gives_up_in_time_on_another_sessions_row_lock(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    other = await asyncpg.connect(postgres_url)
    try:
        table = await store.create_table(1, 500, "shanghai", 101, HUMANS, {})
        await store.start_game(table.id, table.seats, "{}", None, None)
        before = await store.get_table(table.id)
        # A maintenance session holds the row (psql: BEGIN; SELECT ... FOR UPDATE; and waits).
        locker = other.transaction()
        await locker.start()
        await other.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)

        # The server refuses the write at the store's limit (its sessions' lock_timeout), not
        # the test's stopwatch: a busy machine slows the answer, never changes it.
        async with store._pool.acquire() as conn:
            assert await conn.fetchval("SHOW lock_timeout") == f"{PLAYER_WAIT_SECONDS:g}s"
        assert PLAYER_WAIT_SECONDS < PLAYER_BOUND
        with pytest.raises(StoreBusy):
            await asyncio.wait_for(
                store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ()), HUNG
            )

        async def reads() -> None:
            assert await store.get_table(table.id) == before  # reads never wait (MVCC)
            assert await store.leaderboard(1) == []

        await asyncio.wait_for(reads(), HUNG)  # answered while the row is still locked

        await locker.rollback()
        assert await store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ()) == 1
    finally:
        await other.close()
        await store.close()


async def test_an_exhausted_pool_is_a_polite_refusal_in_time(postgres_url: str) -> None:
    store = await PostgresStore.open(postgres_url)
    held = [await store._pool.acquire() for _ in range(POOL_SIZE)]
    try:
        started = time.perf_counter()
        with pytest.raises(StoreBusy):
            await store.leaderboard(1)
        with pytest.raises(StoreBusy):
            await store.create_table(1, 500, "shanghai", 101, HUMANS, {})
        assert time.perf_counter() - started < 2 * PLAYER_BOUND
    finally:
        for conn in held:
            await store._pool.release(conn)
    assert await store.get_open_table(500) is None  # nothing was written
    await store.close()


@pytest.mark.parametrize(("durable", "setting"), [(True, "on"), (False, "off")])
async def test_an_acknowledged_commit_waits_for_the_servers_disk(
    postgres_url: str, durable: bool, setting: str
) -> None:
    """Issue 25.2: ``synchronous_commit`` is on unless the admin chose fast commits."""
    store = await PostgresStore.open(postgres_url, fenced=False, durable=durable)
    try:
        async with store._pool.acquire() as conn:
            assert await conn.fetchval("SHOW synchronous_commit") == setting
    finally:
        await store.close()
