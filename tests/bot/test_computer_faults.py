"""A computer seat whose move cannot be saved: the table keeps its timer, and a busy store
is waited out (back-off), never read as an illegal move."""

from __future__ import annotations

import asyncio
import logging
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


async def computer_to_move(service: TableService, clock: FakeClock) -> LiveTable:
    """A host and a computer; with seed 3 the computer plays first, once the first upcard's
    buy window (8 s) has closed."""
    table = await service.open_table(1, 2, 100, "p100", {"preset": "standard"})
    await service.add_computer(table.id, 100, "normal")
    await service.start(table.id, 100)
    assert table.game is not None and table.is_computer(table.game.current)
    clock.now += 9
    return table


async def until(condition: object, seconds: float = 2.0) -> bool:
    for _ in range(int(seconds / 0.02)):
        if callable(condition) and condition():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_computer_move_cancelled_mid_commit_leaves_the_table_armed(store: Store) -> None:
    clock = FakeClock()
    service = TableService(store, seed=3, clock=clock, computer_delay=0.05)
    table = await computer_to_move(service, clock)
    original = store.save_action
    saves: list[str] = []
    stuck = asyncio.Event()

    async def slow_once(*args: object, **kwargs: object) -> int:
        saves.append(str(args[3]))
        if len(saves) == 1:
            stuck.set()
            await asyncio.sleep(3600)  # cancelled here, in the middle of the commit
        return await original(*args, **kwargs)  # type: ignore[arg-type]

    store.save_action = slow_once  # type: ignore[method-assign]
    service.timers.arm(table)  # wake the timer for the moved clock
    await asyncio.wait_for(stuck.wait(), 2)
    assert table.timer is not None
    table.timer.cancel()
    await asyncio.sleep(0.05)
    clock.now += 1  # past the computer's delay
    assert await until(lambda: len(saves) >= 2), "nothing re-armed the computer's turn"
    assert await until(lambda: table.version >= 1)
    await service.close()


async def test_a_busy_store_is_retried_later_not_read_as_an_illegal_move(
    store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    service = TableService(store, seed=3, clock=clock, computer_delay=0.05)
    table = await computer_to_move(service, clock)
    original = store.save_action
    saves: list[str] = []

    async def busy_once(*args: object, **kwargs: object) -> int:
        saves.append(str(args[3]))
        if len(saves) == 1:
            raise StoreBusy()
        return await original(*args, **kwargs)  # type: ignore[arg-type]

    store.save_action = busy_once  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO, logger="bot"):
        service.timers.arm(table)
        assert await until(lambda: len(saves) >= 1)
        await asyncio.sleep(0.3)
        assert len(saves) == 1, "a busy store was answered with a fallback move at once"
        assert not any(
            "refused" in r.getMessage() and "move" in r.getMessage() for r in caplog.records
        )
        assert table.alarm is not None and table.backoff.failing
        clock.now += 5  # the back-off's first wait
        service.timers.arm(table)
        assert await until(lambda: len(saves) >= 2)
    assert saves[1] == saves[0]  # the same move, now saved
    assert await until(lambda: table.version >= 1)
    await service.close()
