"""The restart timer storm (issue 16): after a restart every restored table whose deadline
passed while the bot was down fires its timer at once. Those writes have no player waiting, so
they must not be refused by the limit that keeps a player's click within Discord's 3 s
(``StoreBusy``), and the clicks of players must still get through while they queue.

Here the disk is made slow (every write holds the writer 5 ms longer) and the write limit is
shrunk to 100 ms, so that 60 tables make on any machine the queue that 500 made on the soak's."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.live
import data.sqlite_store
from bot.service import LiveTable, TableService
from data import Seat, SqliteStore, Store, open_store
from data.errors import StoreBusy
from data.store import background_writes
from engine.actions import DrawStock
from tests.clock import FakeClock

TABLES = 60
SHORT_WAIT = 0.1
SLOW_WRITE = 0.005


@pytest.fixture
def short_player_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A short limit for players' writes, and a slow disk under every write."""
    monkeypatch.setattr(data.sqlite_store, "PLAYER_WAIT_SECONDS", SHORT_WAIT)
    begin = SqliteStore._begin

    async def slow_begin(self: SqliteStore, deadline: float) -> None:
        await begin(self, deadline)
        await asyncio.sleep(SLOW_WRITE)  # the write lock is held: the queue behind grows

    monkeypatch.setattr(SqliteStore, "_begin", slow_begin)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await open_store(tmp_path / "db.sqlite3")
    yield store
    await store.close()


async def started(service: TableService, channel: int) -> LiveTable:
    # Setting the tables up is not what is measured: its writes wait as the bot's own do, so
    # a loaded machine cannot refuse them under the shrunk limit for players.
    with background_writes():
        table = await service.open_table(1, channel, 100, "p100", {"preset": "standard"})
        await service.join(table.id, 101, "p101")
        return await service.start(table.id, 100)


async def test_overdue_timers_after_a_restart_are_not_refused_as_busy(
    store: Store, short_player_wait: None, caplog: pytest.LogCaptureFixture
) -> None:
    clock = FakeClock()
    before = TableService(store, seed=3, clock=clock, turn_seconds=90)
    for channel in range(10, 10 + TABLES):
        await started(before, channel)
    await before.close()  # the bot stops; the turns run out while it is down
    clock.now += 91

    after = TableService(store, seed=3, clock=clock, turn_seconds=90)
    with caplog.at_level(logging.WARNING, logger="bot"):
        restored = await after.restore()
        assert len(restored) == TABLES
        for _ in range(400):  # every overdue turn is played for its absent player
            if all(t.version > 0 or t.backoff.failing for t in restored):
                break
            await asyncio.sleep(0.05)
    failed = [t.id for t in restored if t.backoff.failing]
    assert failed == []
    assert all(t.version > 0 for t in restored)
    assert [r.getMessage() for r in caplog.records] == []
    await after.close()


async def test_a_players_write_is_not_queued_behind_the_background_ones(
    store: Store, short_player_wait: None
) -> None:
    tables = []
    for channel in range(10, 10 + TABLES):
        table = await store.create_table(1, channel, "shanghai", 100, [Seat(100, "a")], {})
        tables.append(table)

    async def background(table_id: int) -> None:
        with background_writes():
            await store.set_message(table_id, 1)

    storm = [asyncio.ensure_future(background(t.id)) for t in tables[1:]]
    await asyncio.sleep(0)  # the storm is queued first
    await store.set_message(tables[0].id, 2)  # a player's: within the short limit all the same
    await asyncio.gather(*storm)
    for table in tables:
        record = await store.get_table(table.id)
        assert record is not None and record.message_id == (2 if table is tables[0] else 1)


async def test_a_click_waits_for_its_table_no_longer_than_a_player_may(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table's timer may wait long for a locked database, holding the table: a click on
    that table is then refused as busy within the player's limit, not left to time out on
    Discord, and changes nothing."""
    monkeypatch.setattr(bot.service.live, "CLICK_WAIT_SECONDS", SHORT_WAIT)
    service = TableService(store, seed=3, clock=FakeClock(), turn_seconds=90)
    table = await started(service, 10)
    assert table.game is not None
    player = table.record.seats[table.game.current].user_id
    version = table.version
    async with table.lock:  # the timer holds the table, waiting out the database
        with pytest.raises(StoreBusy):
            await asyncio.wait_for(service.act(table.id, player, DrawStock()), 5)
        with pytest.raises(StoreBusy):
            await asyncio.wait_for(service.play(table.id, player, DrawStock()), 5)
    assert table.version == version
    await service.act(table.id, player, DrawStock())  # once the table is free, it plays
    assert table.version == version + 1
    await service.close()
