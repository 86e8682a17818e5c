"""Throughput (issue 25): at most one transaction per action, held draws included, when many
tables play at once, on both stores; and every action acknowledged is in the database.

A held draw is one action (the Draw) but two writes: the hold, written before the player is
told, and the draw itself when the window closes. Group commit lets each write share a
transaction with the other tables' writes arriving at the same time. Transactions are counted
from the database's side (``tests/commit_count.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import TableService
from data import SqliteStore, Store
from engine.actions import Discard, DrawStock
from tests.clock import FakeClock
from tests.commit_count import CommitCounter

TABLES = 16


async def _open(kind: str, where: Any) -> Store:
    if kind == "sqlite":
        return await SqliteStore.open(where)
    from data.postgres_store import PostgresStore

    return await PostgresStore.open(where)


@pytest.fixture(params=["sqlite", "postgres"])
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, Any]]:
    if request.param == "sqlite":
        yield "sqlite", tmp_path / "db.sqlite3"
    else:
        yield "postgres", request.getfixturevalue("postgres_url")


async def test_a_burst_with_held_draws_costs_at_most_one_transaction_per_action(
    place: tuple[str, Any],
) -> None:
    kind, where = place
    store = await _open(kind, where)
    clock = FakeClock()
    # Every person is asked about each buy, so the first Draw of every deal is held.
    service = TableService(
        store, buy_seconds=8, turn_seconds=90, seed=5, clock=clock, buy_preference="ask"
    )
    ids = []
    for index in range(TABLES):
        table = await service.open_table(1, 2 + index, 100, "p100", {"preset": "standard"})
        for user in range(101, 104):
            await service.join(table.id, user, f"p{user}")
        ids.append((await service.start(table.id, 100)).id)
    counter = CommitCounter(store, kind)
    await counter.start()

    def current(table_id: int) -> int:
        game = service.get(table_id).game
        assert game is not None
        return int(game.current_player)

    players = {t: current(t) for t in ids}
    held = await asyncio.gather(*(service.act(t, players[t], DrawStock()) for t in ids))
    assert all(result.pending is not None for result in held)  # every Draw waits
    clock.now += 9  # every window is over: the held draws run
    await asyncio.gather(*(service.run_due(t) for t in ids))
    assert all(result.pending is not None and result.pending.done() for result in held)

    def discard(table_id: int) -> Discard:
        legal = service.legal_actions(table_id, players[table_id])
        return next(a for a in legal if isinstance(a, Discard))

    await asyncio.gather(*(service.act(t, players[t], discard(t)) for t in ids))
    actions = 2 * TABLES  # each table: the held Draw, the Discard
    transactions = await counter.count()
    await counter.stop()
    await service.close()
    # Today: three each (hold, draw, discard) on SQLite, and twice that on PostgreSQL, where a
    # write also resets its pooled connection.
    assert transactions <= actions, (transactions, actions)
    await store.close()

    reopened = await _open(kind, where)
    for table_id in ids:
        record = await reopened.get_table(table_id)
        assert record is not None and record.version == 2
        assert not any(seat.held for seat in record.away)
        log = [a.action for a in await reopened.actions(table_id)]
        assert len(log) == 2 and log[0] == str(DrawStock())
    await reopened.close()
