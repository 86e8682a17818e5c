"""``python -m bot.bench``: many tables through the service layer (engine + SQLite, no Discord).

It opens ``--tables`` tables of ``--players`` players in a fresh database, starts them, then
plays ``--actions`` random legal actions (the in-turn player's, on a random table each time,
with a buy request now and then), timing each ``TableService.act`` including its commit. Then
it measures the memory the open tables hold (tracemalloc) and how long a fresh service takes
to restore them all, as at start-up.

The service runs on a simulated clock: when the in-turn player's draw is held for the buy
window, the clock jumps past the window and the held draw runs at once (``run_due``); its time
counts as that action's latency. So what is measured is the cost of actions, never the length of
a window. Turn timers are armed as in production (one task per table, re-armed on every action).

Targets (issue 3): p99 <= 10 ms per action with 1,000 open tables; <= 100 KB per table; 1,000
tables restored in <= 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.service import TableService
from data import open_store
from engine.actions import Action, RequestBuy
from engine.errors import IllegalAction


class SimClock:
    """Unix time that moves only when the benchmark says so."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def run(tables: int, players: int, actions: int, seed: int, database: Path) -> None:
    rng = random.Random(seed)
    store = await open_store(database)
    clock = SimClock()
    service = TableService(store, buy_seconds=8.0, turn_seconds=3600.0, seed=seed, clock=clock)

    gc.collect()
    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    started = time.perf_counter()
    ids = []
    for index in range(tables):
        host = 10_000 + index * 10
        table = await service.open_table(1, 1_000 + index, host, f"p{host}", {"preset": "standard"})
        for seat in range(1, players):
            await service.join(table.id, host + seat, f"p{host + seat}")
        await service.start(table.id, host)
        ids.append(table.id)
    setup = time.perf_counter() - started
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    per_table = (after - before) / tables

    latencies: list[float] = []
    refused = finished = 0
    started = time.perf_counter()
    for _ in range(actions):
        if not ids:
            break
        table_id = rng.choice(ids)
        live = service.tables.get(table_id)
        if live is None or live.game is None or live.game.is_over:
            ids.remove(table_id)
            finished += 1
            continue
        game = live.game
        action: Action
        if service.buy_window_running(live) and rng.random() < 0.2:
            others = [p for p in game.players if game.is_legal(p, RequestBuy())]
            if not others:
                continue
            user, action = int(rng.choice(others)), RequestBuy()
        else:
            user = int(game.current_player)
            legal = game.legal_actions(game.current_player)
            # Prefer progress: go down / lay off when possible, else a random legal action.
            eager = [a for a in legal if a.name in ("down", "layoff")]
            action = rng.choice(eager or legal)
        clock.now += 0.01
        t0 = time.perf_counter()
        try:
            result = await service.act(table_id, user, action)
            if result.pending is not None:
                clock.now += 9.0
                await service.run_due(table_id)
        except IllegalAction:
            refused += 1
        latencies.append(time.perf_counter() - t0)
    elapsed = time.perf_counter() - started
    await service.close()

    restore_service = TableService(store, seed=seed, turn_seconds=3600.0, clock=clock)
    t0 = time.perf_counter()
    restored = await restore_service.restore()
    restore_time = time.perf_counter() - t0
    await restore_service.close()
    await store.close()

    ms = [x * 1000 for x in latencies]
    print(f"tables: {tables} x {players} players (set up in {setup:.1f} s)")
    print(f"actions: {len(ms)} in {elapsed:.2f} s = {len(ms) / elapsed:,.0f} actions/s")
    print(
        f"latency per action incl. commit: p50 {statistics.median(ms):.2f} ms, "
        f"p99 {percentile(ms, 99):.2f} ms, max {max(ms):.2f} ms"
    )
    print(f"refused actions: {refused}; games finished: {finished}")
    print(f"memory per open table: {per_table / 1024:.1f} KB (tracemalloc)")
    print(f"restore {len(restored)} open tables: {restore_time:.2f} s")
    print(f"database: {database.stat().st_size / 1e6:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.database or Path(folder) / "bench.sqlite3"
        asyncio.run(run(args.tables, args.players, args.actions, args.seed, database))


if __name__ == "__main__":
    main()
