"""``python -m tools.bench_idle``: many open tables, most of them idle, in one process.

Fills a SQLite file with ``--tables`` started games of four whose turns last days (nobody has
clicked them for hours when the process starts), then starts a service on a copy of it, as the
bot does after a restart, and measures:

- *first click*: from the start of the restore to the answer of a click on the table restored
  last (a process that restores everything first answers it only after the whole restore);
  and when the whole restore has ended;
- *memory*: resident memory (RSS) once ``--live`` of the tables have been clicked and the rest
  have sat idle, after a full collection; and how many tables the service holds in memory;
- *burst*: ``--burst`` of the live tables' players click at once (``asyncio.gather``),
  ``--rounds`` times, beside all the idle tables; the event loop's lag meanwhile (how late a
  5 ms sleep wakes, p99 and max), which is how long every other table and the gateway waited;
- *idle clicks*: ``--idle-clicks`` clicks on idle tables arriving ``--rate`` a second, each
  measured from its arrival to its answer (p50, p99, max): a table out of memory is read back
  from the store first, as the bot's click handler does (``TableService.resident``).

With ``--before PATH`` (a checkout of an older tree, e.g. ``git archive HEAD~1 | tar -x -C
PATH``) the same measurement runs on both trees in turn, each in a process of its own with the
tree on ``PYTHONPATH`` and a copy of the same database, and the figures are printed side by
side. The older tree needs only the service calls every release has (``open_table``, ``join``,
``start``, ``act``, ``legal_actions``, ``run_due``, ``restore``); the process bot's start-up
is followed for each tree: the restored tables are frozen out of the collector's scans once
the restore has ended, and a tree that restores in the background (``restore_lazily``)
freezes its loaded code before it too, as each release's ``setup_hook`` does.

Everyone's buy preference is "never", so no draw is held for a buy window and the simulated
clock stays put: only clicks are measured. These machines are shared: compare the two columns
of one run, never single figures across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Turns that last days and games that never idle out: only clicks wake a table.
TURN_SECONDS = 3 * 24 * 3600.0
IDLE_SECONDS = 60 * 24 * 3600.0
#: How long before the restart the tables were last clicked.
QUIET_SECONDS = 3 * 3600.0
LAG_STEP = 0.005


class Clock:
    """A simulated unix clock, shared by the service and the store."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _service(store: Any, clock: Clock) -> Any:
    from bot.service import TableService  # the tree on PYTHONPATH

    return TableService(
        store,
        seed=1,
        clock=clock,
        computer_delay=0.0,
        turn_seconds=TURN_SECONDS,
        idle_seconds=IDLE_SECONDS,
        buy_preference="never",
    )


async def fill(path: Path, tables: int, start: float) -> None:
    """``tables`` started games of four in a fresh file, last clicked at ``start``. Setting them
    up is not measured: its writes wait as the bot's own do, so a loaded machine cannot refuse
    them under the limit meant for a player's click."""
    from data import SqliteStore
    from data.store import background_writes

    clock = Clock(start)
    store = await SqliteStore.open(path, clock=clock, durable=False)
    service = _service(store, clock)
    try:
        with background_writes():
            for index in range(tables):
                host = 1_000_000 + 10 * index
                live = await service.open_table(
                    1, 10_000 + index, host, "p0", {"preset": "standard"}
                )
                for k in range(1, 4):
                    await service.join(live.id, host + k, f"p{k}")
                await service.start(live.id, host)
    finally:
        await service.close()
        await store.close()


def rss_mib() -> float:
    """This process's resident memory now (Linux), in MiB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def in_memory(service: Any, table_id: int) -> Any:
    """The live table of ``table_id`` as a click finds it (read back first if it sleeps)."""
    try:
        resident = service.resident
    except AttributeError:  # a tree that holds every table in memory
        return service.tables.get(table_id)
    return await resident(table_id)


async def click(service: Any, table_id: int, rng: random.Random) -> bool:
    """The in-turn player's click at ``table_id``: draw from the stock, or discard a card of
    the hand at random; False if the table has no game to play. The action is chosen from
    the player's cards alone, as a person's click is, so the benchmark does no work of its
    own on the event loop before the service's (a list of legal moves for 500 tables at
    once would hold the loop longer than any table does)."""
    from engine.actions import Discard, DrawStock

    live = await in_memory(service, table_id)
    if live is None or live.game is None or live.game.is_over:
        return False
    game = live.game
    player = game.current_player
    action = DrawStock() if game.step == "draw" else Discard(rng.choice(game.hand_of(player)))
    try:
        await service.act(table_id, int(player), action)
    except ValueError:
        return True  # refused (that card may not be discarded now): answered, nothing changed
    return True


async def watch_lag(lags: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(LAG_STEP)
        lags.append((loop.time() - start - LAG_STEP) * 1000)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else 0.0


async def measure(args: argparse.Namespace) -> dict[str, float]:
    """One tree's figures on the database ``args.run`` (a copy of the filled one)."""
    from data import SqliteStore

    clock = Clock(args.start + QUIET_SECONDS)
    rng = random.Random(args.seed)
    store = await SqliteStore.open(args.run, clock=clock, durable=False)
    service = _service(store, clock)
    figures: dict[str, float] = {}
    try:
        ids = [row.id for row in await store.open_tables()]
        lazy = getattr(service, "restore_lazily", None)
        started = time.perf_counter()
        if lazy is not None:
            gc.freeze()  # the loaded code, as the bot's start-up does before the restore
            restoring = await lazy()
        else:
            restoring = None
            await service.restore()
        await click(service, ids[-1], rng)
        figures["first click after start (s)"] = time.perf_counter() - started
        if restoring is not None:
            await restoring
        gc.freeze()  # the restored tables, as the bot's start-up does once its restore ended
        figures["whole restore (s)"] = time.perf_counter() - started
        live, idle = ids[: args.live], ids[args.live :]
        for table_id in live:
            await click(service, table_id, rng)
        rest = getattr(service, "rest", None)
        if rest is not None:
            rest()  # the look over the tables in memory the bot makes every minute
        gc.collect()
        figures["resident memory (MiB)"] = rss_mib()
        figures["tables in memory"] = len(service.tables)

        lags: list[float] = []
        burst = live[: args.burst]
        rates = []
        for _ in range(args.rounds):
            watcher = asyncio.create_task(watch_lag(lags))
            t0 = time.perf_counter()
            done = await asyncio.gather(*(click(service, t, rng) for t in burst))
            rates.append(sum(done) / (time.perf_counter() - t0))
            watcher.cancel()
        figures["burst actions/s (median)"] = sorted(rates)[len(rates) // 2]
        figures["burst loop lag p99 (ms)"] = pct(lags, 99)
        figures["burst loop lag max (ms)"] = max(lags)

        latencies: list[float] = []

        async def one(table_id: int, arrived: float) -> None:
            await click(service, table_id, rng)
            latencies.append((time.perf_counter() - arrived) * 1000)

        tasks = []
        chosen = rng.sample(idle, min(args.idle_clicks, len(idle)))
        t0 = time.perf_counter()
        for n, table_id in enumerate(chosen):
            due = t0 + n / args.rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(one(table_id, due)))
        await asyncio.gather(*tasks)
        figures["idle table click p50 (ms)"] = pct(latencies, 50)
        figures["idle table click p99 (ms)"] = pct(latencies, 99)
        figures["idle table click max (ms)"] = max(latencies)
    finally:
        await service.close()
        await store.close()
    return figures


def run_tree(tree: Path | None, database: Path, copy: Path, args: argparse.Namespace) -> Any:
    """Measure in a process of its own with ``tree`` (None: this one) on PYTHONPATH."""
    shutil.copyfile(database, copy)
    root = Path(__file__).resolve().parents[1]
    where = tree or root
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--run",
        str(copy),
        "--start",
        repr(args.start),
        "--live",
        str(args.live),
        "--burst",
        str(args.burst),
        "--rounds",
        str(args.rounds),
        "--idle-clicks",
        str(args.idle_clicks),
        "--rate",
        str(args.rate),
        "--seed",
        str(args.seed),
    ]
    env = os.environ | {"PYTHONPATH": str(where)}
    done = subprocess.run(command, cwd=where, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run on {where} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench_idle", description=__doc__)
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--live", type=int, default=1_000)
    parser.add_argument("--burst", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--idle-clicks", type=int, default=300)
    parser.add_argument("--rate", type=float, default=20.0, help="idle clicks a second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", type=Path, help="a checkout of the tree to compare with")
    parser.add_argument("--run", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--start", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run is not None:
        print(json.dumps(asyncio.run(measure(args))))
        return
    args.start = time.time() - 2 * QUIET_SECONDS
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "idle.sqlite3"
        t0 = time.perf_counter()
        asyncio.run(fill(database, args.tables, args.start))
        print(
            f"{args.tables:,} open tables, {args.live:,} of them clicked after the start "
            f"(filled in {time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
        trees = {"this tree": None} | ({"before": args.before} if args.before else {})
        results = {
            name: run_tree(tree, database, Path(folder) / f"{i}.sqlite3", args)
            for i, (name, tree) in enumerate(trees.items())
        }
    labels = list(next(iter(results.values())))
    width = max(len(label) for label in labels)
    print(f"{'':{width}}  " + "  ".join(f"{name:>12}" for name in results))
    for label in labels:
        cells = "  ".join(f"{results[name].get(label, float('nan')):>12,.2f}" for name in results)
        print(f"{label:{width}}  {cells}")


if __name__ == "__main__":
    main()
