"""What only the SQLite store does: its connection settings, a private file, and never making a
player wait long when another program (a backup, the sqlite3 shell) holds the database."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest

from data import SqliteStore, StoreBusy, TableRecord
from data.sqlite_commit import RETRY_PAUSE
from data.store import PLAYER_WAIT_SECONDS
from tests.lock_clock import LockClock

from .conftest import HUMANS, FakeClock

#: Issue 16.5: a click must be answered within about 2 s (Discord allows 3).
PLAYER_BOUND = 2.5
#: Real seconds after which an answer that should have come counts as hung: a guard against
#: a test waiting for ever, far beyond any answer's real time.
HUNG = 30.0


async def _playing(store: SqliteStore, channel_id: int = 500) -> TableRecord:
    table = await store.create_table(1, channel_id, "shanghai", 101, HUMANS, {})
    await store.start_game(table.id, table.seats, '{"deal": 1}', None, 1000.0)
    started = await store.get_table(table.id)
    assert started is not None
    return started


@pytest.fixture
async def store(db_path: Path, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    """SQLite only (the shared ``store`` fixture runs on both databases)."""
    opened = await SqliteStore.open(db_path, clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
def other_program(db_path: Path) -> Iterator[sqlite3.Connection]:
    """A second program on the same file, e.g. the sqlite3 shell, closed afterwards."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    yield conn
    if conn.in_transaction:
        conn.rollback()
    conn.close()


async def test_connection_settings(store: SqliteStore) -> None:
    async def pragma(name: str) -> object:
        rows = await store._db.execute_fetchall(f"PRAGMA {name}")
        return next(iter(rows))[0]

    assert await pragma("journal_mode") == "wal"
    assert await pragma("synchronous") == 2  # FULL: an acknowledged move is on disk (25.2)
    assert await pragma("foreign_keys") == 1
    assert int(str(await pragma("busy_timeout"))) > 0


async def test_fast_commits_are_the_admins_choice(tmp_path: Path) -> None:
    fast = await SqliteStore.open(tmp_path / "fast.sqlite3", durable=False)
    try:
        rows = await fast._db.execute_fetchall("PRAGMA synchronous")
        assert next(iter(rows))[0] == 1  # NORMAL
    finally:
        await fast.close()


async def test_database_files_are_private(tmp_path: Path) -> None:
    # Issue 16.10: the file holds every hand; under the usual umask SQLite would make it 0644.
    path = tmp_path / "new" / "bot.sqlite3"
    old_umask = os.umask(0o022)
    try:
        store = await SqliteStore.open(path)
        await _playing(store)  # writes, so the -wal and -shm files exist too
        files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in files if f.exists()}
        await store.close()
    finally:
        os.umask(old_umask)
    assert len(modes) == 3
    assert modes == {name: 0o600 for name in modes}


async def test_write_gives_up_in_time_while_another_program_holds_the_lock(
    store: SqliteStore, other_program: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = LockClock(monkeypatch)
    table = await _playing(store)
    other_program.execute("BEGIN IMMEDIATE")
    write = asyncio.ensure_future(
        store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ())
    )
    await clock.until_retrying()
    assert clock.retrying == [PLAYER_WAIT_SECONDS] and PLAYER_WAIT_SECONDS < PLAYER_BOUND
    clock.advance(PLAYER_WAIT_SECONDS - 2 * RETRY_PAUSE)
    await asyncio.sleep(4 * RETRY_PAUSE)  # a few more attempts, still inside the limit
    assert not write.done()
    clock.advance(2 * RETRY_PAUSE)  # the limit: given up, without another real wait
    with pytest.raises(StoreBusy, match="try again"):
        await asyncio.wait_for(write, HUNG)
    other_program.rollback()
    assert await store.get_table(table.id) == table  # nothing was written
    # Once the other program is done, the same write goes through.
    assert await store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ()) == 1


async def test_writes_queued_behind_a_blocked_write_give_up_in_time_too(
    store: SqliteStore, other_program: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every table's click waits at most the bound in all, not the bound per write ahead of it.
    clock = LockClock(monkeypatch)
    first, second = await _playing(store, 500), await _playing(store, 501)
    other_program.execute("BEGIN IMMEDIATE")
    outcomes = asyncio.gather(
        store.save_action(first.id, 0, 101, "draw", "{}", None, None, ()),
        store.save_action(second.id, 0, 101, "draw", "{}", None, None, ()),
        return_exceptions=True,
    )
    await clock.until_retrying()
    clock.advance(PLAYER_WAIT_SECONDS)  # once, for both: the clock stays there
    answered = await asyncio.wait_for(outcomes, HUNG)
    assert [type(o) for o in answered] == [StoreBusy, StoreBusy]


async def test_reads_do_not_wait_for_a_blocked_write(
    store: SqliteStore, other_program: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = LockClock(monkeypatch)  # stands still: the write waits until the lock comes free
    table = await _playing(store)
    other_program.execute("BEGIN IMMEDIATE")
    blocked = asyncio.create_task(
        store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ())
    )
    await clock.until_retrying()  # the write is now retrying for the lock
    assert not blocked.done()

    async def reads() -> None:
        assert await store.leaderboard(1) == []
        assert await store.player_stats(1, 101) is None
        assert await store.get_table(table.id) == table
        assert await store.get_open_table(500) == table

    # Answered while the write still waits (it cannot end before the rollback below): a read
    # that waited for it would never be answered.
    await asyncio.wait_for(reads(), HUNG)
    assert not blocked.done()
    # The other program lets go in time: the waiting write then succeeds.
    other_program.rollback()
    assert await blocked == 1


async def test_the_worker_thread_is_a_daemon(tmp_path: Path) -> None:
    """``daemon_worker`` reaches into aiosqlite (no public way exists): if aiosqlite renames
    its thread, this fails before a never-closed store keeps a process alive."""
    import threading

    from data.sqlite_connection import daemon_worker

    before = set(threading.enumerate())
    connection = await daemon_worker(aiosqlite.connect(tmp_path / "w.sqlite3"))
    started = [t for t in threading.enumerate() if t not in before]
    try:
        assert started and all(thread.daemon for thread in started)
    finally:
        await connection.close()


async def test_a_function_runs_on_the_connections_own_thread(tmp_path: Path) -> None:
    """``on_worker_thread`` reaches into aiosqlite (its queue to the worker thread): if
    aiosqlite changes it, this fails before a group commit runs its statements elsewhere."""
    import threading

    from data.sqlite_connection import daemon_worker, on_worker_thread

    before = set(threading.enumerate())
    connection = await daemon_worker(aiosqlite.connect(tmp_path / "w.sqlite3"))
    [worker] = [t for t in threading.enumerate() if t not in before]

    def where(conn: sqlite3.Connection) -> tuple[threading.Thread, int]:
        return threading.current_thread(), conn.execute("SELECT 41 + 1").fetchone()[0]

    try:
        assert await on_worker_thread(connection, where) == (worker, 42)
    finally:
        await connection.close()
