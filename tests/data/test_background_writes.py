"""The bot's own writes (``data.store.background_writes``, a table's timer) outwait a busy
database that a player's write gives up on: nobody is waiting for their answer, and at a
restart hundreds of them come at once (issue 16's restart timer storm)."""

from __future__ import annotations

import asyncio

import aiosqlite
import pytest

import data.postgres_store
import data.sqlite_store
from data import Store, StoreBusy
from data.store import background_writes, is_background_write

from .conftest import HUMANS, Backend

SHORT_WAIT = 0.1
HELD_FOR = 3 * SHORT_WAIT


@pytest.fixture(autouse=True)
def short_player_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data.sqlite_store, "PLAYER_WAIT_SECONDS", SHORT_WAIT)
    monkeypatch.setattr(data.postgres_store, "PLAYER_WAIT_SECONDS", SHORT_WAIT)


async def _hold_the_database(
    store: Store, backend: Backend, taken: asyncio.Event, release: asyncio.Event
) -> None:
    """Keep every write out from ``taken`` until ``release``: SQLite's write lock from another
    program, or every pooled PostgreSQL connection."""
    if backend.kind == "sqlite":
        async with aiosqlite.connect(backend.database, isolation_level=None) as other:
            await other.execute("BEGIN IMMEDIATE")
            taken.set()
            await release.wait()
            await other.execute("ROLLBACK")
        return
    pool = store._pool  # type: ignore[attr-defined]
    held = [await pool.acquire() for _ in range(data.postgres_store.POOL_SIZE)]
    taken.set()
    try:
        await release.wait()
    finally:
        for conn in held:
            await pool.release(conn)


def test_background_writes_marks_only_its_block() -> None:
    assert not is_background_write()
    with background_writes():
        assert is_background_write()
    assert not is_background_write()


async def test_a_background_write_outwaits_what_a_players_write_gives_up_on(
    store: Store, backend: Backend
) -> None:
    table = await store.create_table(1, 10, "shanghai", 101, HUMANS, {})
    taken, release = asyncio.Event(), asyncio.Event()
    holder = asyncio.ensure_future(_hold_the_database(store, backend, taken, release))
    await taken.wait()

    async def timer_write() -> None:
        with background_writes():
            await store.set_message(table.id, 7)

    background = asyncio.ensure_future(timer_write())
    with pytest.raises(StoreBusy):
        await store.set_message(table.id, 8)  # a player's: refused in time, nothing written
    await asyncio.sleep(HELD_FOR - SHORT_WAIT)
    release.set()
    await holder
    await background  # not refused: it waited past the player's limit
    record = await store.get_table(table.id)
    assert record is not None and record.message_id == 7
