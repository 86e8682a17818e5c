"""Tables that leave memory while nobody uses them, and come back the same from the store: on a
click, a command or their own wake; and a restart that answers a click before it has restored
every table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.service import Change, LiveTable, TableService
from bot.service.snapshot import seat_snapshot
from bot.service.table_snapshot import TableSnapshot
from data import SqliteStore
from engine.actions import DrawStock
from tests.clock import FakeClock

from .helpers import button_labels, open_table, start, text_of


class Told:
    """A listener that counts the changes it is told of, by kind."""

    def __init__(self) -> None:
        self.changes: list[Change] = []

    def table_changed(self, change: Change) -> None:
        self.changes.append(change)

    def watched(self, table_id: int) -> set[int]:
        return set()

    def kinds(self, table_id: int) -> list[str]:
        return [c.kind for c in self.changes if c.table.record.id == table_id]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    opened = await SqliteStore.open(tmp_path / "db.sqlite3")
    yield opened
    await opened.close()


def service_on(store: SqliteStore, clock: FakeClock, **options: Any) -> TableService:
    return TableService(store, seed=3, clock=clock, listener=Told(), **options)


async def started(service: TableService, channel: int = 2, **options: Any) -> LiveTable:
    host = 100 + channel * 10
    table = await service.open_table(1, channel, host, "host", {"preset": "standard", **options})
    for k in range(1, 4):
        await service.join(table.id, 100 + channel * 10 + k, f"p{k}")
    return await service.start(table.id, 100 + channel * 10)


async def settled(service: TableService, clock: FakeClock, table: LiveTable) -> None:
    """The first upcard's buy window is over: only the (day-long) turn limit is ahead."""
    clock.advance(60)
    await service.run_due(table.id)


def rest_now(service: TableService, clock: FakeClock) -> int:
    """Nobody has clicked for longer than the residency waits: the resting tables leave."""
    clock.advance(service.residency.rest_after + 1)
    return service.rest()


#: Stands for the row in a compared snapshot (``everything_seen``).
TABLE_ROW: Any = None


def everything_seen(table: LiveTable, now: float) -> tuple[Any, ...]:
    """The public snapshot and every seat's screen, as the listener and the hands draw them.
    Of the row only what is drawn from it: memory keeps the row as the lobby left it (the
    game's state and deadlines live in fields of their own), the store the latest."""
    public = TableSnapshot.of(table, now)
    record = public.record
    drawn = (record.id, record.channel_id, record.status, record.host_id, record.message_id)
    seats = [seat_snapshot(table, user, now) for user in table.seat_ids]
    return replace(public, record=TABLE_ROW), drawn, record.seats, dict(record.options), seats


async def test_a_table_that_left_memory_comes_back_the_same_and_takes_the_next_action(
    store: SqliteStore,
) -> None:
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        table = await started(service)
        await settled(service, clock, table)  # and a nudge is allowed
        player = int(table.game.current_player)  # type: ignore[union-attr]
        if player != table.record.host_id:
            await service.nudge(table.id, table.record.host_id)  # memory only: kept
        await service.act(table.id, player, DrawStock())
        assert rest_now(service, clock) == 1
        assert table.id not in service.tables and service.residency.is_asleep(table.id)
        assert service.for_channel(table.channel_id) is None  # not in memory...
        before = everything_seen(table, clock())
        back = await service.resident_in(table.channel_id)  # ...but its channel leads to it
        assert back is not None and back is not table and service.tables[table.id] is back
        assert everything_seen(back, clock()) == before
        assert back.nudges == table.nudges and back.last_person == table.last_person
        version = back.version
        game = back.game
        assert game is not None
        action = service.legal_actions(back.id, player)[-1]
        await service.act(back.id, player, action)
        stored = await store.get_table(back.id)
        assert stored is not None and stored.version == back.version == version + 1
    finally:
        await service.close()


async def test_a_table_that_is_used_or_due_soon_stays_in_memory(store: SqliteStore) -> None:
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        used, resting = await started(service, channel=2), await started(service, channel=3)
        for table in (used, resting):
            await settled(service, clock, table)
        due_soon = await started(service, channel=4, turn_seconds=60.0)
        clock.advance(service.residency.rest_after + 1)
        service.get(used.id)  # a click just now
        assert service.rest() == 1
        assert set(service.tables) == {used.id, due_soon.id}
        assert set(service.residency.sleepers) == {resting.id}
    finally:
        await service.close()


async def test_many_clicks_at_once_bring_a_table_back_once(store: SqliteStore) -> None:
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        table = await started(service)
        await settled(service, clock, table)
        assert rest_now(service, clock) == 1
        backs = await asyncio.gather(*(service.resident(table.id) for _ in range(5)))
        assert all(b is backs[0] for b in backs) and backs[0] is not None
        assert service.tables[table.id] is backs[0]
        assert service.timers.waiting == 1  # one wake, armed once
    finally:
        await service.close()


async def test_the_wake_of_a_table_out_of_memory_still_comes(store: SqliteStore) -> None:
    """The turn runs out while the table sleeps: the wheel brings it back and the bot plays
    the turn, as if it had stayed (the residency lets tables with a wake this near sleep)."""
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=0.05)
    service.residency.rest_after, service.residency.horizon = 0.0, 0.0
    try:
        tables = [await started(service, channel=c) for c in (2, 3, 4)]
        versions = [t.version for t in tables]
        assert service.rest() == 3 and not service.tables
        clock.advance(1)  # past the turn limit; the wakes are 50 ms away on the loop's clock
        for _ in range(500):  # until each is back and its wake has committed
            now_in = [service.tables.get(t.id) for t in tables]
            if all(b is not None and b.version > v for b, v in zip(now_in, versions, strict=True)):
                break
            await asyncio.sleep(0.01)
        for table, version in zip(tables, versions, strict=True):
            back = service.tables[table.id]
            assert back.version > version and back.away[table.game.current].timeouts == 1  # type: ignore[union-attr]
            assert "timeout" in service.listener.kinds(table.id)  # type: ignore[union-attr]
    finally:
        await service.close()


async def test_a_restart_answers_a_click_before_every_table_is_back(store: SqliteStore) -> None:
    clock = FakeClock()
    first = service_on(store, clock, turn_seconds=24 * 3600.0)
    ids = [(await started(first, channel=c)).id for c in range(2, 202)]
    await first.close()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        restoring = await service.restore_lazily()
        last = ids[-1]
        table = await service.resident(last)  # the click's table first
        assert table is not None
        player = int(table.game.current_player)  # type: ignore[union-attr]
        result = await service.act(last, player, DrawStock())
        assert result.version == table.version and not restoring.done()
        restored = await restoring
        told: Told = service.listener  # type: ignore[assignment]
        assert restored == len(ids) - 1  # the clicked one was back already
        assert all(told.kinds(i).count("restore") == 1 for i in ids)  # told once each
        assert set(service.tables) | set(service.residency.sleepers) == set(ids)
    finally:
        await service.close()


async def test_a_closed_table_is_not_brought_back(store: SqliteStore) -> None:
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        table = await started(service)
        await settled(service, clock, table)
        assert rest_now(service, clock) == 1
        await store.end_table(table.id)  # ended behind the bot's back (another process)
        assert await service.resident(table.id) is None
        assert not service.residency.is_asleep(table.id) and table.id not in service.tables
    finally:
        await service.close()


async def test_a_table_out_of_memory_times_out_and_opens_on_a_click(
    env: simcord.Env, make_bot: Callable[[], Any]
) -> None:
    """Through Discord, on simcord's clock: the table leaves memory; its turn limit still plays
    for the absent player, and the next player's My hand opens it again."""
    world = await open_table(env, 2)
    await start(world)
    service = world.service
    service.residency.rest_after = 0.0
    service.residency.horizon = 30.0  # the 90 s turn limit is further away than that
    absent = world.current()
    assert service.rest() == 1 and world.table is None
    await env.advance_time(91)
    history = "\n".join(text_of(m) for m in world.channel.history())
    assert f"Out of time, **{absent.name}**" in history
    assert world.table is not None  # back in memory for its wake
    nxt = world.current()
    assert nxt.id != absent.id
    assert service.rest() == 1 and world.table is None  # its next wake is 90 s away again
    # The table message as the channel shows it (the world asks the service, which has no
    # table in memory to say which message is current).
    message = [m for m in world.channel.history() if "My hand" in button_labels(m)][-1]
    hand = await nxt.click(message, label="My hand")
    assert hand.acknowledged and hand.ephemeral
    assert "Draw from stock" in button_labels(hand.response)
    assert world.table is not None and service.rest() == 0  # its hand is followed now


async def test_a_table_asleep_is_found_where_it_is_and_ended_there(store: SqliteStore) -> None:
    """The channel watch ends the tables of a deleted channel or a server left: it finds the
    ones out of memory too, and ending one reads it back first."""
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        table = await started(service)
        await settled(service, clock, table)
        assert rest_now(service, clock) == 1
        (place,) = service.places()
        assert (place.id, place.guild_id, place.channel_id) == (table.id, 1, table.channel_id)
        assert await service.abandon(table.id, "its channel was deleted") is not None
        stored = await store.get_table(table.id)
        assert stored is not None and stored.status == "abandoned"
        assert service.places() == [] and service.timers.waiting == 0
        assert await service.resident_in(table.channel_id) is None
    finally:
        await service.close()


async def test_many_tables_wait_on_one_wheel_and_wake_in_turn(store: SqliteStore) -> None:
    """Each table's wake is an entry of one wheel, without a task of its own: the one due
    goes off, the others wait, and re-arming a table whose deadline passed wakes it at once."""
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    try:
        soon = await started(service, channel=2, turn_seconds=0.05)
        later = await started(service, channel=3, turn_seconds=5.0)
        far = await started(service, channel=4)
        tables = (soon, later, far)
        assert service.timers.waiting == 3
        assert all(t.timer is None for t in tables)  # waiting costs no task
        versions = [t.version for t in tables]
        clock.advance(1)  # past the short turn only; the wheel's handle goes off in 50 ms

        async def moved(table: LiveTable, version: int) -> None:
            while table.version == version:
                await asyncio.sleep(0.005)

        await asyncio.wait_for(moved(soon, versions[0]), 5)
        assert [t.version for t in tables[1:]] == versions[1:]
        clock.advance(10)  # past the second turn too: armed again, it goes off at once
        service.timers.arm(later)
        await asyncio.wait_for(moved(later, versions[1]), 5)
        assert far.version == versions[2] and far.alarm is not None and far.timer is None
    finally:
        await service.close()


async def test_the_wheel_leaves_no_alarm_where_nothing_is_due(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the earliest wake is called off, the loop's one timer moves to the next one: a
    timer left at the old instant would go off for nothing, and on a simulated loop its going
    off moves the clock, and every table's deadlines with it, in the middle of a click."""
    clock = FakeClock()
    service = service_on(store, clock, turn_seconds=24 * 3600.0)
    loop = asyncio.get_running_loop()
    asked: list[asyncio.Handle] = []
    call_later, call_soon = loop.call_later, loop.call_soon

    def later(delay: float, callback: Any, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        handle = call_later(delay, callback, *args, **kwargs)
        if getattr(callback, "__self__", None) is service.timers:
            asked.append(handle)
        return handle

    def soon(callback: Any, *args: Any, **kwargs: Any) -> asyncio.Handle:
        handle = call_soon(callback, *args, **kwargs)
        if getattr(callback, "__self__", None) is service.timers:
            asked.append(handle)
        return handle

    monkeypatch.setattr(loop, "call_later", later)
    monkeypatch.setattr(loop, "call_soon", soon)
    try:
        far = await started(service, channel=2)
        await settled(service, clock, far)  # only its day-long turn is ahead
        near = await started(service, channel=3, turn_seconds=60.0)
        assert service.timers.wake_at(near.id) == clock() + 60
        await service.end(near.id, near.record.host_id)
        waiting = [h for h in asked if not h.cancelled()]
        assert len(waiting) == 1  # the one timer, and not for the ended table's turn
        (handle,) = waiting
        assert isinstance(handle, asyncio.TimerHandle)
        wake = service.timers.wake_at(far.id)
        assert wake is not None and wake - clock() > 3600
        assert handle.when() - loop.time() == pytest.approx(wake - clock(), abs=1.0)
    finally:
        await service.close()


@pytest.mark.simcord(settle_timeout=75)  # longer than the bot's minute between looks
async def test_the_look_over_the_tables_waits_for_the_bots_clock_not_the_wall(
    env: simcord.Env,
) -> None:
    """The bot looks over the tables in memory on its own clock. A minute of real time in which
    nothing is due (a long test's clicks, a slow machine) must not bring a look, nor move the
    simulated clock on to one in the middle of whatever the players do; an hour of the bot's
    clock does bring it (an hour after start-up, when every table was out of memory), and
    the lobby nobody clicked leaves memory."""
    before = env.now()
    world = await open_table(env, 2, pace="relaxed")  # a lobby that waits days for people
    await env.settle()
    assert env.now() == before
    assert world.table is not None
    await env.advance_time(61 * 60)
    assert world.table is None
    assert (await env.bot.store.get_table(1)).status == "lobby"
