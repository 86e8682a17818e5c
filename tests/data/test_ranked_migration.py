"""Migration 0004 on a database written by the schema before it, on both stores: old games
become ranked or casual by the same rule as new ones, places are worked out (a person who
left ranks last), and the ratings of the ranked ones are replayed once by openskill's model.

The schema version is never written here as a number: the tests apply every migration before
the one named ``ranked_seasons``, whatever number the merge gives it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest
from openskill.models import PlackettLuce

from data import SqliteStore, Store
from data.migrations import Migration, apply_migrations, load_migrations
from data.postgres_migrations import apply_migrations as apply_postgres_migrations
from data.ranking import BOARD_SQL, MIN_RANKED_GAMES, REBUILD_KEY

from .conftest import Backend

ANN, BOB, CAT = 101, 102, 103


def before_ranked(dialect: str) -> list[Migration]:
    migrations = load_migrations(dialect=dialect)  # type: ignore[arg-type]
    [ranked] = [m for m in migrations if m.name == "ranked_seasons"]
    return [m for m in migrations if m.version < ranked.version]


def away(*timeouts: int) -> str:
    return json.dumps([{"timeouts": t, "away": t >= 1000} for t in timeouts])


#: (table id, game, status, options, away, [(user, seat, total, won)]) as today's bot wrote
#: them: result rows for people only (computers have none).
OLD_GAMES: list[tuple[int, str, str, dict[str, Any], str, list[tuple[int, int, int, bool]]]] = [
    # 1: a full game of two people -> ranked, Ann 1st, Bob 2nd.
    (1, "shanghai", "finished", {"preset": "standard"}, away(0, 0),
     [(ANN, 0, 120, True), (BOB, 1, 200, False)]),
    # 2: one deal, Ann against a computer (seat 1 has no row) -> casual (one person, short).
    (2, "shanghai", "finished", {"rules": {"num_deals": 1}}, away(0, 0),
     [(ANN, 0, 0, True)]),
    # 3: three people, full length; Cat had the best total but left -> Cat last; Ann and Bob
    # tie on 150 -> both 1st.
    (3, "shanghai", "finished", {"preset": "preset_000"}, away(0, 0, 1000),
     [(ANN, 0, 150, False), (BOB, 1, 150, False), (CAT, 2, 50, True)]),
    # 4: two people but five deals -> casual; places still 1 and 2.
    (4, "shanghai", "finished", {"rules": {"num_deals": 5}}, away(0, 0),
     [(BOB, 0, 30, True), (ANN, 1, 90, False)]),
    # 5: Rummy to its preset's 150 -> ranked; the higher total is better: Ann 1st.
    (5, "rummy", "finished", {"preset": "rummy"}, away(0, 0),
     [(ANN, 0, 160, True), (BOB, 1, 90, False)]),
    # 6: Rummy to 50 points -> casual.
    (6, "rummy", "finished", {"preset": "rummy", "rules": {"target_points": 50}}, away(0, 0),
     [(BOB, 0, 55, True), (ANN, 1, 20, False)]),
]  # fmt: skip

#: (table id, user) -> (ranked, place) after the migration.
EXPECTED = {
    (1, ANN): (True, 1), (1, BOB): (True, 2),
    (2, ANN): (False, 1),
    (3, ANN): (True, 1), (3, BOB): (True, 1), (3, CAT): (True, 3),
    (4, BOB): (False, 1), (4, ANN): (False, 2),
    (5, ANN): (True, 1), (5, BOB): (True, 2),
    (6, BOB): (False, 1), (6, ANN): (False, 2),
}  # fmt: skip


def expected_ratings() -> dict[tuple[str, int], Any]:
    """openskill's own numbers for the ranked old games, in the order they finished."""
    model = PlackettLuce()
    ratings: dict[tuple[str, int], Any] = {}

    def game(kind: str, *users_and_ranks: tuple[int, int]) -> None:
        teams = [[ratings.get((kind, u)) or model.rating()] for u, _ in users_and_ranks]
        rated = model.rate(teams, ranks=[float(r) for _, r in users_and_ranks])
        for (user, _), [rating] in zip(users_and_ranks, rated, strict=True):
            ratings[(kind, user)] = rating

    game("shanghai", (ANN, 1), (BOB, 2))
    game("shanghai", (ANN, 1), (BOB, 1), (CAT, 3))
    game("rummy", (ANN, 1), (BOB, 2))
    return ratings


async def _check(store: Store, backend: Backend) -> None:
    rows = await backend.fetch("SELECT table_id, user_id, ranked, place, season FROM results")
    found = {(t, u): (bool(r), p) for t, u, r, p, _ in rows}
    assert found == EXPECTED
    assert {season for *_, season in rows} == {1}
    ratings = await backend.fetch(
        "SELECT game_kind, user_id, mu, sigma, games FROM ratings ORDER BY game_kind, user_id"
    )
    expected = expected_ratings()
    assert [(k, u) for k, u, *_ in ratings] == sorted(expected)
    for kind, user, mu, sigma, games in ratings:
        model = expected[(kind, user)]
        assert (mu, sigma) == pytest.approx((model.mu, model.sigma))
        assert games == {("shanghai", CAT): 1, ("rummy", ANN): 1, ("rummy", BOB): 1}.get(
            (kind, user), 2
        )
    assert await store.get_meta(REBUILD_KEY) is None
    # Two ranked games each is under the minimum: the board waits for a third.
    assert await store.leaderboard(1) == []
    stats = await store.player_stats(1, ANN)
    assert stats is not None and stats.games == 4  # casual games stay in the stats


async def _check_replayed_once(backend: Backend) -> None:
    """Reopening does not replay again: a rating changed by hand stays as it is."""
    await backend.execute("UPDATE ratings SET mu = 1.5 WHERE user_id = ?", CAT)
    store = await backend.open()
    try:
        assert await backend.fetch("SELECT mu FROM ratings WHERE user_id = ?", CAT) == [(1.5,)]
    finally:
        await store.close()


async def test_sqlite_migration_ranks_old_games(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(db, before_ranked("sqlite"))
        for table_id, kind, status, options, seats_away, results in OLD_GAMES:
            await db.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game_kind, status, host_id,"
                " options, away, state, version, created_at, updated_at)"
                " VALUES (?, 1, ?, ?, ?, 101, ?, ?, '{}', 1, 5.0, 6.0)",
                (table_id, 100 + table_id, kind, status, json.dumps(options), seats_away),
            )
            for user, seat, total, won in results:
                await db.execute(
                    "INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat,"
                    " total, is_winner, finished_at) VALUES (?, 1, ?, ?, 'x', ?, ?, ?, ?)",
                    (table_id, kind, user, seat, total, int(won), 10.0 + table_id),
                )
    backend = Backend("sqlite", path)
    store = await backend.open()
    try:
        await _check(store, backend)
    finally:
        await store.close()
    await _check_replayed_once(backend)
    await backend.close()


async def test_postgres_migration_ranks_old_games(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await apply_postgres_migrations(conn, before_ranked("postgres"))
        for table_id, kind, status, options, seats_away, results in OLD_GAMES:
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game_kind, status, host_id,"
                " options, away, state, version, created_at, updated_at)"
                " VALUES ($1, 1, $2, $3, $4, 101, $5::jsonb, $6::jsonb, '{}', 1, 5.0, 6.0)",
                table_id,
                100 + table_id,
                kind,
                status,
                json.dumps(options),
                seats_away,
            )
            for user, seat, total, won in results:
                await conn.execute(
                    "INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat,"
                    " total, is_winner, finished_at) VALUES ($1, 1, $2, $3, 'x', $4, $5, $6, $7)",
                    table_id,
                    kind,
                    user,
                    seat,
                    total,
                    won,
                    10.0 + table_id,
                )
    finally:
        await conn.close()
    backend = Backend("postgres", postgres_url)
    store = await backend.open()
    try:
        await _check(store, backend)
    finally:
        await store.close()
    await _check_replayed_once(backend)
    await backend.close()


async def test_a_new_database_has_nothing_to_replay(backend: Backend) -> None:
    store = await backend.open()
    try:
        assert await store.get_meta(REBUILD_KEY) is None
        assert await backend.fetch("SELECT COUNT(*) FROM ratings") == [(0,)]
        assert await store.current_season(1) == 1
    finally:
        await store.close()


def test_the_migration_exists_in_both_dialects_under_one_number() -> None:
    [sqlite] = [m for m in load_migrations() if m.name == "ranked_seasons"]
    [postgres] = [m for m in load_migrations(dialect="postgres") if m.name == "ranked_seasons"]
    assert sqlite.version == postgres.version
    # sqlite is split into statements; the marker for the replay is written by both.
    assert any(REBUILD_KEY in s for s in sqlite.statements)
    assert REBUILD_KEY in postgres.statements[0]


async def test_the_board_query_uses_its_index(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "plan.sqlite3")
    await store.close()
    async with aiosqlite.connect(tmp_path / "plan.sqlite3") as db:
        plan = await db.execute_fetchall(
            "EXPLAIN QUERY PLAN " + BOARD_SQL, (1, "shanghai", 1, MIN_RANKED_GAMES, 10)
        )
    details = " ".join(str(row[-1]) for row in plan)
    # The index gives the board's whole order: no sort, and LIMIT stops after ten rows.
    assert "ratings_board" in details and "TEMP B-TREE" not in details
