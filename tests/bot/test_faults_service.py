"""Faults met by the table service (issue 16): unreadable rows, a disk that refuses writes,
kicks that must survive a restart, tables whose channel is gone."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import LiveTable, TableService
from data import Store, open_store
from data.errors import StoreBusy
from tests.clock import FakeClock


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await open_store(tmp_path / "db.sqlite3")
    yield store
    await store.close()


async def started(service: TableService, players: int, channel: int = 2) -> LiveTable:
    table = await service.open_table(1, channel, 100, "p100", {"preset": "standard"})
    for user in range(101, 100 + players):
        await service.join(table.id, user, f"p{user}")
    return await service.start(table.id, 100)


def corrupt(path: Path, table_id: int, column: str, value: str) -> None:
    """Write ``value`` into a table row behind the store's back, as a bad disk or an old
    version of the bot might have left it."""
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE tables SET {column} = ? WHERE id = ?", (value, table_id))


# -- 3: one unreadable row does not stop the others ----------------------------------------------


async def test_restore_ends_an_unreadable_table_and_restores_the_rest(
    tmp_path: Path, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    first = TableService(store, seed=3, clock=clock)
    good = await started(first, 2, channel=2)
    bad_state = await started(first, 2, channel=3)
    bad_options = await started(first, 2, channel=4)
    await first.close()
    corrupt(tmp_path / "db.sqlite3", bad_state.id, "state", '{"not": "a game"}')
    corrupt(tmp_path / "db.sqlite3", bad_options.id, "options", '{"preset": "no-such-preset"}')

    second = TableService(store, seed=3, clock=clock)
    with caplog.at_level(logging.ERROR, logger="bot"):
        restored = await second.restore()
    assert [t.id for t in restored] == [good.id]
    assert second.for_channel(2) is not None
    assert second.for_channel(3) is None and second.for_channel(4) is None
    for table_id in (bad_state.id, bad_options.id):
        record = await store.get_table(table_id)
        assert record is not None and record.status == "ended"
        assert await store.table_results(table_id) == []
        assert any(f"table {table_id}" in r.getMessage() for r in caplog.records)
    # The channels of the broken tables are free again.
    await second.open_table(1, 3, 100, "p100", {"preset": "standard"})
    await second.close()


async def test_restore_ends_a_row_the_store_cannot_decode(
    tmp_path: Path, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    first = TableService(store, seed=3, clock=FakeClock())
    good = await started(first, 2, channel=2)
    bad = await started(first, 2, channel=3)
    await first.close()
    corrupt(tmp_path / "db.sqlite3", bad.id, "seats", '[{"not": "a seat"}]')

    second = TableService(store, seed=3, clock=FakeClock())
    with caplog.at_level(logging.ERROR):
        restored = await second.restore()
    assert [t.id for t in restored] == [good.id]
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:  # the row itself cannot be decoded
        [(status,)] = db.execute("SELECT status FROM tables WHERE id = ?", (bad.id,))
    assert status == "ended"
    assert [t.id for t in await store.open_tables()] == [good.id]
    assert any(f"table {bad.id}" in r.getMessage() for r in caplog.records)
    await second.close()


# -- 4: a kick is saved before the host is answered ------------------------------------------------


async def test_a_kick_survives_a_restart(store: Store) -> None:
    clock = FakeClock()
    first = TableService(store, seed=3, clock=clock)
    table = await started(first, 3)
    await first.kick(table.id, 102)
    await first.close()  # the bot dies before anyone acts again

    second = TableService(store, seed=3, clock=clock)
    [restored] = await second.restore()
    seat = restored.seat_of(102)
    assert seat is not None
    assert seat in restored.removed and restored.is_away(seat)
    await second.close()


# -- 2: a timer whose commit fails backs off instead of spinning -------------------------------


async def test_a_failing_timer_backs_off_and_logs_once(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    service = TableService(store, seed=3, clock=clock, turn_seconds=90)
    table = await started(service, 2)
    game = table.game
    assert game is not None
    seat = game.current
    attempts = 0
    original = store.save_action

    async def disk_full(*args: object, **kwargs: object) -> int:
        nonlocal attempts
        attempts += 1
        raise sqlite3.OperationalError("database or disk is full")

    store.save_action = disk_full  # type: ignore[method-assign]

    async def after(seconds: float) -> None:
        """Move the service's clock on and let the table's timer run what is due."""
        clock.now += seconds
        service.timers.arm(table)  # the alarm counts real time; re-arm it for the new clock
        await asyncio.sleep(0.2)

    with caplog.at_level(logging.INFO, logger="bot"):
        await after(91)  # the turn runs out: the bot's move cannot be saved
        assert attempts == 1
        await after(4)
        assert attempts == 1  # 5 s have not passed
        await after(1)
        assert attempts == 2
        await after(9)
        assert attempts == 2  # now 10 s
        await after(1)
        assert attempts == 3
        for _ in range(6):
            await after(60)
        assert attempts == 9  # doubling stops at a minute
        failures = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(failures) == 1 and f"table {table.id}" in failures[0].getMessage()
        assert failures[0].exc_info is None  # a full disk is not a bug: no traceback

        store.save_action = original  # type: ignore[method-assign]
        await after(60)
    assert table.game is not None and table.game.current != seat  # the turn was played
    assert table.away[seat].timeouts == 1
    assert any("saves again" in r.getMessage() for r in caplog.records)
    await service.close()


async def test_a_timer_whose_store_is_busy_logs_a_warning_not_a_traceback(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    service = TableService(store, seed=3, clock=clock, turn_seconds=90)
    table = await started(service, 2)

    async def busy(*args: object, **kwargs: object) -> int:
        raise StoreBusy()  # the store gave up waiting behind the other writes

    store.save_action = busy  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO, logger="bot"):
        clock.now += 91
        service.timers.arm(table)
        await asyncio.sleep(0.2)
    logged = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(logged) == 1 and logged[0].exc_info is None
    await service.close()
