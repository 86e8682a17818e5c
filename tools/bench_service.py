"""``python -m tools.bench_service``: many tables through the service (engine + store, no Discord),
on SQLite and on PostgreSQL, printed side by side.

For each database it opens ``--tables`` tables of ``--players`` players in a fresh database,
starts them, then plays ``--actions`` random legal actions (the in-turn player's, on a random
table each time, with a buy request now and then), timing each ``TableService.act`` including
its commit. Then it measures the memory the open tables hold (tracemalloc) and how long a fresh
service on a fresh store takes to restore them all, as a process does at start-up.

PostgreSQL runs on ``--postgres URL`` if given (an empty database you can spare), else on a
throwaway local cluster (``data.throwaway_postgres``) started for the run with fsync on, as a
real server would be, and stopped afterwards. ``--databases sqlite`` skips it.

The service runs on a simulated clock: when the in-turn player's draw is held for the buy
window, the clock jumps past the window and the held draw runs at once (``run_due``); its time
counts as that action's latency. So what is measured is the cost of actions, never the length of
a window. Turn timers are armed as in production (one task per table, re-armed on every action).

Targets (issues 3 and 13): p99 <= 10 ms per action with 1,000 open tables and 1,000 tables
restored in <= 2 s, on both databases; <= 100 KB per table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bot.service import TableService
from data import open_store
from engine.actions import Action, RequestBuy
from engine.errors import IllegalAction
from tools.throwaway_postgres import NoPostgres, ThrowawayCluster


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


@dataclass(frozen=True)
class Figures:
    """What one run measured on one database."""

    setup_seconds: float
    actions: int
    elapsed: float
    latencies_ms: list[float]
    refused: int
    finished: int
    kb_per_table: float
    restored: int
    open_seconds: float
    restore_seconds: float

    def rows(self) -> list[tuple[str, str]]:
        ms = self.latencies_ms
        return [
            ("set up (s)", f"{self.setup_seconds:.1f}"),
            ("actions/s", f"{self.actions / self.elapsed:,.0f}"),
            ("p50 per action incl. commit (ms)", f"{statistics.median(ms):.2f}"),
            ("p99 per action incl. commit (ms)", f"{percentile(ms, 99):.2f}"),
            ("max (ms)", f"{max(ms):.2f}"),
            ("refused / games finished", f"{self.refused} / {self.finished}"),
            ("memory per open table (KB)", f"{self.kb_per_table:.1f}"),
            ("open the store again (s)", f"{self.open_seconds:.2f}"),
            (f"then restore {self.restored} open tables (s)", f"{self.restore_seconds:.2f}"),
        ]


async def run(
    tables: int, players: int, actions: int, seed: int, database: str, durable: bool = True
) -> Figures:
    rng = random.Random(seed)
    store = await open_store(database, durable=durable)
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
        if live.window.is_running(game, service.clock()) and rng.random() < 0.2:
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
    await store.close()

    # A restart: a new process opens the database and restores every open table.
    t0 = time.perf_counter()
    fresh = await open_store(database)
    open_time = time.perf_counter() - t0
    restore_service = TableService(fresh, seed=seed, turn_seconds=3600.0, clock=clock)
    t0 = time.perf_counter()
    restored = await restore_service.restore()
    restore_time = time.perf_counter() - t0
    await restore_service.close()
    await fresh.close()

    return Figures(
        setup_seconds=setup,
        actions=len(latencies),
        elapsed=elapsed,
        latencies_ms=[x * 1000 for x in latencies],
        refused=refused,
        finished=finished,
        kb_per_table=per_table / 1024,
        restored=len(restored),
        open_seconds=open_time,
        restore_seconds=restore_time,
    )


@contextlib.contextmanager
def postgres_database(url: str | None) -> Iterator[str]:
    """``url``, or an empty database on a throwaway durable cluster for the run."""
    if url is not None:
        yield url
        return
    cluster = ThrowawayCluster.start(durable=True)
    try:
        yield cluster.create_database("bench")
    finally:
        cluster.stop()


def print_side_by_side(figures: dict[str, Figures]) -> None:
    names = list(figures)
    labels = [label for label, _ in next(iter(figures.values())).rows()]
    columns = {name: dict(f.rows()) for name, f in figures.items()}
    width = max(len(label) for label in labels)
    print(f"{'':{width}}  " + "  ".join(f"{name:>12}" for name in names))
    for label in labels:
        cells = "  ".join(f"{columns[name][label]:>12}" for name in names)
        print(f"{label:{width}}  {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--databases", default="sqlite,postgres", help="which to run, in order")
    parser.add_argument("--sqlite", type=Path, default=None, help="SQLite file (default: temp)")
    parser.add_argument("--postgres", default=None, help="an empty PostgreSQL database URL")
    parser.add_argument(
        "--commits",
        default="durable",
        help="durable (the default: on disk before acknowledged), fast, or durable,fast",
    )
    args = parser.parse_args()
    figures: dict[str, Figures] = {}
    sizes = (args.tables, args.players, args.actions, args.seed)
    for name in args.databases.split(","):
        for commits in args.commits.split(","):
            durable = commits == "durable"
            label = f"{'SQLite' if name == 'sqlite' else 'PostgreSQL'} ({commits})"
            if name == "sqlite":
                with tempfile.TemporaryDirectory() as folder:
                    path = args.sqlite or Path(folder) / "bench.sqlite3"
                    figures[label] = asyncio.run(run(*sizes, str(path), durable))
            elif name == "postgres":
                try:
                    with postgres_database(args.postgres) as url:
                        figures[label] = asyncio.run(run(*sizes, url, durable))
                except NoPostgres as missing:
                    print(f"PostgreSQL skipped: {missing}")
            else:
                parser.error(f"unknown database {name!r} (sqlite, postgres)")
    print(f"{args.tables} tables x {args.players} players, {args.actions} actions", end="")
    print(f" (seed {args.seed})")
    print_side_by_side(figures)


if __name__ == "__main__":
    main()
