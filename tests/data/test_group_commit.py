"""Group commit: the writes of different tables that arrive together share one transaction (one
fsync), each in its own savepoint, so one refused write fails alone; and a write is answered
only once its group is committed, so what is acknowledged survives a restart.

Transactions are counted from the database's side (``tests/commit_count.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from data import AwayState, SqliteStore, StaleVersion, Store, StoreBusy, TableRecord
from tests.commit_count import CommitCounter
from tests.lock_clock import LockClock

from .conftest import HUMANS, Backend, FakeClock

#: Real seconds after which a write that should have been answered counts as hung: a guard
#: against a test waiting for ever, far beyond any answer's real time.
HUNG = 30.0

UNIQUE = "(?i)unique"
TABLES = 24


async def _playing_tables(store: Store, count: int) -> list[TableRecord]:
    tables = []
    for index in range(count):
        table = await store.create_table(1, 500 + index, "shanghai", 101, HUMANS, {})
        await store.start_game(table.id, table.seats, '{"deal": 1}', None, 1000.0)
        tables.append(table)
    return tables


async def test_writes_of_many_tables_at_once_share_a_transaction_and_survive(
    backend: Backend, clock: FakeClock
) -> None:
    store = await backend.open(clock)
    tables = await _playing_tables(store, TABLES)
    counter = CommitCounter(store, backend.kind)
    await counter.start()
    held = (AwayState(), AwayState(held="draw stock"))
    writes = [
        store.save_action(t.id, 0, 101, f"move {t.id}", f'{{"s": {t.id}}}', 5.0, 9.0, ())
        if i % 2 == 0
        else store.set_away(t.id, held)  # a held draw's write, as ``TableService._hold`` makes
        for i, t in enumerate(tables)
    ]
    answers = await asyncio.gather(*writes)
    transactions = await counter.count()
    await counter.stop()
    assert answers == [1 if i % 2 == 0 else None for i in range(TABLES)]
    # Today's store: one transaction per write (24, and twice that on PostgreSQL, where each
    # write also resets its pooled connection). Grouped: the first write alone, the rest in one.
    assert transactions <= 4, transactions
    await store.close()

    reopened = await backend.open(clock)  # everything acknowledged is on disk
    for i, t in enumerate(tables):
        record = await reopened.get_table(t.id)
        assert record is not None
        if i % 2 == 0:
            assert (record.version, record.state) == (1, f'{{"s": {t.id}}}')
            assert [a.action for a in await reopened.actions(t.id)] == [f"move {t.id}"]
        else:
            assert record.version == 0 and list(record.away) == list(held)
    await reopened.close()


async def test_a_refused_write_in_a_group_fails_alone(store: Store, backend: Backend) -> None:
    tables = await _playing_tables(store, 8)
    stale, broken = tables[2], tables[5]
    # The broken table's next log row is taken: its UPDATE succeeds, then its INSERT fails,
    # and only its savepoint (not the group) must be taken back.
    await backend.execute(
        "INSERT INTO actions (table_id, seq, user_id, action, created_at) VALUES (?, 1, 0, 'x', 0)",
        broken.id,
    )
    counter = CommitCounter(store, backend.kind)
    await counter.start()

    async def save(table: TableRecord) -> int:
        expected = 7 if table is stale else 0  # another click moved the stale one on
        return await store.save_action(table.id, expected, 101, "go", '{"s": 2}', None, None, ())

    answers = await asyncio.gather(*(save(t) for t in tables), return_exceptions=True)
    transactions = await counter.count()
    await counter.stop()
    assert isinstance(answers[2], StaleVersion)
    assert isinstance(answers[5], Exception)
    with pytest.raises(type(answers[5]), match=UNIQUE):
        raise answers[5]
    assert [a for i, a in enumerate(answers) if i not in (2, 5)] == [1] * 6
    assert transactions <= 3, transactions  # they were grouped, and still failed alone
    for table in tables:
        record = await store.get_table(table.id)
        assert record is not None
        assert record.version == (0 if table in (stale, broken) else 1)
        assert record.state == ('{"deal": 1}' if table in (stale, broken) else '{"s": 2}')
    assert [a.action for a in await store.actions(broken.id)] == ["x"]
    assert await backend.no_open_transaction(store)


async def test_each_member_waits_for_another_programs_lock_no_longer_than_its_own_limit(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two writes queued at different moments go in one group once the lock is free; while
    another program holds it, the earlier one is refused at its own limit (a player's click
    must be answered in time), the later one still gets through when the lock comes free.
    (SQLite's write lock: on PostgreSQL, writes of different tables do not wait for another.)

    The deadlines run on a clock the test steps (``LockClock``), and each step
    waits for the outcome it causes, so a busy machine changes how long this takes in real
    time, never what it finds."""
    import aiosqlite

    import data.sqlite_store

    limit = 0.4
    clock = LockClock(monkeypatch)
    monkeypatch.setattr(data.sqlite_store, "PLAYER_WAIT_SECONDS", limit)
    store = await SqliteStore.open(db_path)
    try:
        tables = await _playing_tables(store, 3)
        async with aiosqlite.connect(db_path, isolation_level=None) as other:
            await other.execute("BEGIN IMMEDIATE")  # a backup, the sqlite3 shell

            async def save(table: TableRecord) -> tuple[bool, float]:
                started = clock()
                try:
                    await store.save_action(table.id, 0, 101, "go", "{}", None, None, ())
                except StoreBusy:
                    return False, clock() - started
                return True, clock() - started

            ahead = asyncio.ensure_future(save(tables[0]))  # a group of its own, waiting
            await clock.until_retrying()  # its group waits for the lock
            assert clock.retrying == [limit]

            async def queued(count: int) -> None:
                """Until ``count`` writes wait in the queue (their deadlines taken now)."""
                while store._groups.waiting < count:
                    await asyncio.sleep(0.005)

            clock.advance(0.1)
            early = asyncio.ensure_future(save(tables[1]))  # these two queue behind it
            await queued(1)
            clock.advance(0.2)
            late = asyncio.ensure_future(save(tables[2]))
            await queued(2)
            assert not ahead.done()  # 0.3 s in: inside its limit, still trying
            clock.advance(0.15)  # 0.45: past "ahead"'s limit, inside "early"'s (0.5)
            ahead_ok, ahead_took = await asyncio.wait_for(ahead, HUNG)
            assert not early.done() and not late.done()
            clock.advance(0.1)  # 0.55: past "early"'s limit, inside "late"'s (0.7)
            # Not kept waiting for "late"'s limit: it would never end while the lock is held.
            early_ok, early_took = await asyncio.wait_for(early, HUNG)
            assert not late.done()
            await other.execute("ROLLBACK")
            late_ok, _ = await asyncio.wait_for(late, HUNG)
    finally:
        await store.close()
    assert not ahead_ok and limit <= ahead_took < limit + 0.1
    assert not early_ok and limit <= early_took < limit + 0.1
    assert late_ok


async def test_a_failed_group_answers_the_writes_it_took_in_while_it_waited(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group waiting for another program's lock takes in the writes queued meanwhile; when
    its transaction then fails as a whole (a full disk), each of them gets the error: none is
    left waiting for ever, with its table's lock held."""
    import sqlite3

    import aiosqlite

    import data.sqlite_commit

    def full_disk(conn: sqlite3.Connection, steps: object) -> list[tuple[bool, object]]:
        raise sqlite3.OperationalError("database or disk is full")

    store = await SqliteStore.open(db_path)
    try:
        tables = await _playing_tables(store, 4)

        def save(table: TableRecord) -> asyncio.Future[int]:
            return asyncio.ensure_future(
                store.save_action(table.id, 0, 101, "go", "{}", None, None, ())
            )

        async with aiosqlite.connect(db_path, isolation_level=None) as other:
            await other.execute("BEGIN IMMEDIATE")  # a backup holds the write lock
            monkeypatch.setattr(data.sqlite_commit, "run_steps", full_disk)
            saves = [save(tables[0])]
            await asyncio.sleep(0.1)  # its group waits for the lock
            saves += [save(table) for table in tables[1:]]  # queued behind, taken in
            await asyncio.sleep(0.1)
            await other.execute("ROLLBACK")
            results = await asyncio.wait_for(asyncio.gather(*saves, return_exceptions=True), 5)
    finally:
        monkeypatch.undo()
        await store.close()
    assert [type(r) for r in results] == [sqlite3.OperationalError] * 4, results
