"""``python -m tools.bench_load``: the service under bursts and under a steady pace of clicks.

Opens ``--tables`` tables of four players on a fresh SQLite file (or ``--postgres URL``) and
drives them through ``TableService.act``, the path every click and computer move takes:

- *burst*: every table's in-turn player clicks at once (``asyncio.gather`` over all tables),
  ``--rounds`` times; printed as actions per second (the median round and the range), and
  the event loop's lag meanwhile: how late a 5 ms sleep beside the clicks wakes (p99 and max
  in milliseconds), which is how long every other table and the gateway waited; and the
  process's CPU time per action, which a machine busy with other work disturbs least.
- *paced*: ``--rate`` clicks a second arrive on random tables for ``--seconds``; each click's
  latency runs from its arrival to its answer, so queueing behind other tables counts; printed
  as p50, p99 and max in milliseconds.

Before the tables open, one table is played for a while and the process is frozen out of the
cyclic collector's scans (``gc.freeze``), as the bot freezes itself once started: the full
collections then scan the tables opened since, a few milliseconds for 500 of them, instead
of every loaded module's functions too (60-80 ms). ``--freeze`` also freezes the opened
tables, as the bot does with the tables it restored at start-up.

A held draw (P draws while the buy window runs) is run at once by moving the simulated clock
past the window, as ``tools.bench_service`` does, so its two writes count but no window is
waited out. It only uses the service calls every release has (``open_table``, ``join``,
``start``, ``act``, ``legal_actions``, ``run_due``), so the same file measures an older tree:

    PYTHONPATH=/path/to/old/tree python tools/bench_load.py

Run two trees alternately on the same machine and compare medians; these machines are shared.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


class Clock:
    """A simulated wall clock: the held draws' windows pass at once."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def _open(
    store_url: str, tables: int, seed: int, fast: bool = False, freeze: bool = False
) -> tuple[Any, Any, Clock, list[int]]:
    from bot.service import TableService  # the tree on PYTHONPATH
    from data import SqliteStore

    # An older tree's stores know no ``durable``: pass it only when asked for fast commits.
    extra: dict[str, Any] = {"durable": False} if fast else {}
    if store_url.startswith("postgresql"):
        from data.postgres_store import PostgresStore

        store: Any = await PostgresStore.open(store_url, **extra)
    else:
        store = await SqliteStore.open(store_url, **extra)
    clock = Clock()
    # No turn runs out and no game idles: the clock jumps past buy windows, and only the
    # players' own clicks should be measured.
    # The timers sleep in real seconds towards deadlines on this frozen clock: a buy window
    # longer than any run keeps them from waking all at once in the middle of a measurement.
    service = TableService(
        store,
        seed=seed,
        clock=clock,
        computer_delay=0.0,
        buy_seconds=50.0,
        turn_seconds=1e9,
        idle_seconds=1e12,
    )
    await _warm_up(service, clock, seed)
    # As the bot does once started (``setup_hook``): its code, loaded now, is out of the
    # cyclic collector's scans; the tables opened below are not, as none opened later are.
    gc.freeze()
    ids = []
    for index in range(tables):
        host = 1_000_000 + 10 * index
        live = await service.open_table(1, 10_000 + index, host, "p0", {"preset": "standard"})
        for k in range(1, 4):
            await service.join(live.id, host + k, f"p{k}")
        await service.start(live.id, host)
        ids.append(live.id)
    if freeze:  # as the bot does once it has restored its tables at start-up
        gc.freeze()
    return service, store, clock, ids


async def _warm_up(service: Any, clock: Clock, seed: int) -> None:
    """One table played for a while, so that every module a click needs is loaded before the
    start-up freeze, as in a bot that has been running."""
    live = await service.open_table(1, 9_999, 999, "w0", {"preset": "standard"})
    for k in range(1, 4):
        await service.join(live.id, 999 + k, f"w{k}")
    await service.start(live.id, 999)
    rng = random.Random(seed)
    for _ in range(200):
        if not await _click(service, clock, live.id, rng):
            break


async def _click(service: Any, clock: Clock, table_id: int, rng: random.Random) -> bool:
    """The in-turn player's random legal action at ``table_id``; False once it is over."""
    from engine.actions import RequestBuy

    live = service.tables.get(table_id)
    if live is None or live.game is None or live.game.is_over:
        return False
    game = live.game
    user = int(game.current_player)
    legal = [a for a in service.legal_actions(table_id, user) if not isinstance(a, RequestBuy)]
    if not legal:
        return True
    try:
        result = await service.act(table_id, user, rng.choice(legal))
    except ValueError:
        return True  # the state moved on under a concurrent click: refused, nothing changed
    if result.pending is not None:
        clock.now += 60.0  # past the buy window: the held draw runs now
        await service.run_due(table_id)
    return True


def _commits(store: Any) -> int | None:
    """Transactions the store committed so far (``None``: a tree whose stores do not count)."""
    value = getattr(store, "commits", None)
    return value if isinstance(value, int) else None


#: The lag watcher's sleep: the event loop should wake it this often.
LAG_STEP = 0.005


async def _watch_lag(lags: list[float]) -> None:
    """How late each ``LAG_STEP`` sleep wakes, in milliseconds, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(LAG_STEP)
        lags.append((loop.time() - start - LAG_STEP) * 1000)


async def burst(args: argparse.Namespace, url: str) -> tuple[list[float], list[float], str]:
    """Actions per second of each round, the event loop's lags meanwhile (ms), and the
    transactions they cost (when counted)."""
    service, store, clock, ids = await _open(
        url, args.tables, args.seed, args.fast_commits, args.freeze
    )
    rng = random.Random(args.seed)
    rates = []
    lags: list[float] = []
    actions = 0
    before = _commits(store)
    cpu = time.process_time()
    try:
        for _ in range(args.rounds):
            watcher = asyncio.create_task(_watch_lag(lags))
            start = time.perf_counter()
            done = await asyncio.gather(*(_click(service, clock, t, rng) for t in ids))
            rates.append(sum(done) / (time.perf_counter() - start))
            watcher.cancel()
            actions += sum(done)
        cpu = time.process_time() - cpu
        after = _commits(store)
    finally:
        await service.close()
        await store.close()
    used = f"; {cpu / actions * 1000:.2f} ms CPU per action"
    if before is None or after is None:
        return rates, lags, used
    return rates, lags, f"{used}; {after - before:,} transactions for {actions:,} actions"


async def paced(args: argparse.Namespace, url: str) -> list[float]:
    service, store, clock, ids = await _open(
        url, args.tables, args.seed, args.fast_commits, args.freeze
    )
    rng = random.Random(args.seed + 1)
    latencies: list[float] = []
    locks = {t: asyncio.Lock() for t in ids}  # one click at a time per table, as people do

    async def one(table_id: int, arrived: float) -> None:
        async with locks[table_id]:
            await _click(service, clock, table_id, rng)
        latencies.append((time.perf_counter() - arrived) * 1000)

    tasks = []
    try:
        start = time.perf_counter()
        for n in range(int(args.rate * args.seconds)):
            due = start + n / args.rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(rng.choice(ids), due)))
        await asyncio.gather(*tasks)
    finally:
        await service.close()
        await store.close()
    return latencies


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = args.postgres or str(Path(folder) / "load.sqlite3")
        rates, lags, transactions = await burst(args, url)
        print(
            f"burst: {args.tables} tables x {args.rounds} rounds: median "
            f"{statistics.median(rates):,.0f} actions/s (min {min(rates):,.0f}, "
            f"max {max(rates):,.0f}){transactions}; event-loop lag p99 "
            f"{_pct(lags, 99):.1f} ms, max {max(lags):.1f} ms"
        )
        url = args.postgres or str(Path(folder) / "paced.sqlite3")
        ms = await paced(args, url)
        print(
            f"paced: {args.rate:.0f} clicks/s for {args.seconds:.0f} s on {args.tables} "
            f"tables: p50 {_pct(ms, 50):.1f} ms, p99 {_pct(ms, 99):.1f} ms, max {max(ms):.1f} ms"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_load", description=__doc__)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", default="", help="an empty PostgreSQL database URL")
    parser.add_argument(
        "--fast-commits",
        action="store_true",
        help="SHANGHAI_DURABLE_COMMITS=false (as every release before December 1 did)",
    )
    parser.add_argument(
        "--freeze",
        action="store_true",
        help="gc.freeze() once the tables are open too, as the bot does with the tables it "
        "restored at start-up (tables opened later are not frozen)",
    )
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
