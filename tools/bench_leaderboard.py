"""The ranked board's queries at scale: one server holding 100,000 results, on both stores.

``python -m tools.bench_leaderboard`` builds a database at the schema before migration 0004
(``ranked_seasons``) and writes ``--results`` result rows into one guild the way the release
before it did (four people a game, ``--players`` members, one game in ten shortened to five
deals, one seat in twenty removed), straight in SQL. Opening the store then runs 0004, which
ranks those games, and replays their ratings through openskill: timed as "migrate + replay".
Then, per call: the board (``leaderboard``), a stats card (``player_card``), a head-to-head,
the server records, and a ranked ``finish_game`` with its rating update. PostgreSQL runs on
a throwaway local cluster unless ``--postgres URL`` names an empty database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import aiosqlite

from data import ResultRow, Seat, Store, open_store
from data.migrations import Dialect, Migration, apply_migrations, load_migrations
from data.postgres_migrations import apply_migrations as apply_postgres_migrations
from tools.bench_service import percentile, postgres_database
from tools.throwaway_postgres import NoPostgres

GUILD = 1
PER_GAME = 4

#: (table id, full length, [(user, total)])
Game = tuple[int, bool, list[tuple[int, int]]]


def games(results: int, players: int, seed: int) -> Iterator[Game]:
    """``results // PER_GAME`` games; nine in ten full length."""
    rng = random.Random(seed)
    for table_id in range(1, results // PER_GAME + 1):
        users = rng.sample(range(1, players + 1), PER_GAME)
        yield table_id, rng.random() < 0.9, [(u, rng.randint(120, 620)) for u in users]


def table_of(table_id: int, full: bool) -> tuple[Any, ...]:
    options = json.dumps({"preset": "standard", "rules": {} if full else {"num_deals": 5}})
    away = json.dumps([{"timeouts": 1000 if table_id % 20 == seat else 0} for seat in range(4)])
    return (table_id, GUILD, table_id, "shanghai", "finished", 1, options, away, 0.0, 0.0)


def rows_of(table_id: int, seats: list[tuple[int, int]]) -> list[tuple[Any, ...]]:
    best = min(t for _, t in seats)
    return [
        (table_id, GUILD, "shanghai", user, f"player {user}", seat, total, total == best, seat, 1,
         seat % 3, 1_700_000_000.0 + table_id)
        for seat, (user, total) in enumerate(seats)
    ]  # fmt: skip


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, game_kind, status, host_id, options, away, created_at, updated_at"
)
_RESULT_COLUMNS = (
    "table_id, guild_id, game_kind, user_id, name, seat, total, is_winner, deals_out,"
    " blind_outs, buys_used, finished_at"
)


def before_ranked(dialect: Dialect) -> list[Migration]:
    """The migrations of the release before 0004, whatever number 0004 has."""
    migrations = load_migrations(dialect=dialect)
    [ranked] = [m for m in migrations if m.name == "ranked_seasons"]
    return [m for m in migrations if m.version < ranked.version]


async def fill_sqlite(path: str, results: int, players: int, seed: int) -> None:
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(db, before_ranked("sqlite"))
        await db.execute("BEGIN")
        for table_id, full, seats in games(results, players, seed):
            await db.execute(
                f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES ({', '.join('?' * 10)})",
                table_of(table_id, full),
            )
            await db.executemany(
                f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES ({', '.join('?' * 12)})",
                rows_of(table_id, seats),
            )
        await db.execute("COMMIT")


async def fill_postgres(url: str, results: int, players: int, seed: int) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await apply_postgres_migrations(conn, before_ranked("postgres"))
        tables, rows = [], []
        for table_id, full, seats in games(results, players, seed):
            tables.append(table_of(table_id, full))
            rows.extend(rows_of(table_id, seats))
        # COPY takes the JSON as text; the INSERT turns it into jsonb.
        await conn.execute(
            "CREATE TEMP TABLE incoming (id bigint, guild_id bigint, channel_id bigint,"
            " game_kind text, status text, host_id bigint, options text, away text,"
            " created_at float8, updated_at float8)"
        )
        await conn.copy_records_to_table("incoming", records=tables)
        await conn.execute(
            f"INSERT INTO tables ({_TABLE_COLUMNS}) SELECT id, guild_id, channel_id, game_kind,"
            " status, host_id, options::jsonb, away::jsonb, created_at, updated_at FROM incoming"
        )
        await conn.copy_records_to_table(
            "results", records=rows, columns=[c.strip() for c in _RESULT_COLUMNS.split(",")]
        )
        # The ids were given: the identity column continues after them.
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('tables', 'id'), MAX(id)) FROM tables"
        )
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def timed(calls: int, work: Callable[[int], Awaitable[Any]]) -> list[float]:
    spent = []
    for i in range(calls):
        started = time.perf_counter()
        await work(i)
        spent.append((time.perf_counter() - started) * 1000)
    return spent


async def run(database: str, fill: Callable[[], Awaitable[None]], players: int) -> dict[str, str]:
    await fill()
    started = time.perf_counter()
    store = await open_store(database)  # runs 0004, then replays every ranked game
    figures = {"migrate + replay at open (s)": f"{time.perf_counter() - started:.1f}"}
    try:
        rng = random.Random(2)
        measured: dict[str, list[float]] = {
            "leaderboard": await timed(200, lambda _: store.leaderboard(GUILD)),
            "player_card": await timed(
                100, lambda _: store.player_card(GUILD, rng.randint(1, players))
            ),
            "head_to_head": await timed(
                100, lambda _: store.head_to_head(GUILD, rng.randint(1, players), 1)
            ),
            "server_records": await timed(10, lambda _: store.server_records(GUILD)),
            "finish_game ranked": await timed(50, lambda i: finish_one(store, i, rng, players)),
        }
        for name, spent in measured.items():
            figures[f"{name} median (ms)"] = f"{percentile(spent, 50):.2f}"
            figures[f"{name} p99 (ms)"] = f"{percentile(spent, 99):.2f}"
        board = await store.leaderboard(GUILD)
        figures["board rows"] = str(len(board))
        card = await store.player_card(GUILD, 1)
        assert card is not None
        figures["player 1: games, ranked"] = f"{card.stats.games}, {card.ranked_games}"
    finally:
        await store.close()
    return figures


async def finish_one(store: Store, i: int, rng: random.Random, players: int) -> None:
    users = rng.sample(range(1, players + 1), PER_GAME)
    seats = [Seat(u, f"player {u}") for u in users]
    table = await store.create_table(GUILD, 10_000_000 + i, "shanghai", users[0], seats, {})
    await store.start_game(table.id, seats, json.dumps({}), None, None)
    rows = [
        ResultRow(u, f"player {u}", s, 100 + s, s == 0, place=s + 1) for s, u in enumerate(users)
    ]
    await store.finish_game(table.id, 0, "{}", rows, ranked=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--databases", default="sqlite,postgres")
    parser.add_argument("--postgres", default=None, help="an empty PostgreSQL database URL")
    args = parser.parse_args()
    columns: dict[str, dict[str, str]] = {}
    for name in args.databases.split(","):
        if name == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                path = str(Path(folder) / "board.sqlite3")

                async def fill_file(path: str = path) -> None:
                    await fill_sqlite(path, args.results, args.players, args.seed)

                columns["SQLite"] = asyncio.run(run(path, fill_file, args.players))
        elif name == "postgres":
            try:
                with postgres_database(args.postgres) as url:

                    async def fill_server(url: str = url) -> None:
                        await fill_postgres(url, args.results, args.players, args.seed)

                    columns["PostgreSQL"] = asyncio.run(run(url, fill_server, args.players))
            except NoPostgres as missing:
                print(f"PostgreSQL skipped: {missing}")
        else:
            parser.error(f"unknown database {name!r} (sqlite, postgres)")
    print(f"{args.results} results in one guild, {args.players} players (seed {args.seed})")
    names = list(columns)
    labels = list(next(iter(columns.values())))
    width = max(len(label) for label in labels)
    print(f"{'':{width}}  " + "  ".join(f"{n:>12}" for n in names))
    for label in labels:
        print(f"{label:{width}}  " + "  ".join(f"{columns[n][label]:>12}" for n in names))


if __name__ == "__main__":
    main()
