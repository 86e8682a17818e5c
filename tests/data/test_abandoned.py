"""Abandoned tables (issues 10 and 16): a game whose channel or server went, or that nobody
played for a day, is closed as ``abandoned``, told apart from one its host ``ended``, with no
results, so the leaderboard and player stats never count it."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from data import ResultRow, SqliteStore, Store
from data.migrations import apply_migrations, load_migrations
from data.postgres_migrations import apply_migrations as apply_postgres_migrations
from data.ranking import MIN_RANKED_GAMES

from .conftest import HUMANS, Backend


async def _playing(store: Store, channel: int = 10) -> int:
    table = await store.create_table(1, channel, "shanghai", 101, HUMANS, {})
    await store.start_game(table.id, HUMANS, "{}", None, 1_700_000_100.0)
    return table.id


async def test_an_abandoned_table_is_told_apart_from_an_ended_one(store: Store) -> None:
    abandoned = await _playing(store, channel=10)
    ended = await _playing(store, channel=11)
    assert await store.end_table(abandoned, status="abandoned") is True
    assert await store.end_table(ended) is True
    abandoned_row = await store.get_table(abandoned)
    ended_row = await store.get_table(ended)
    assert abandoned_row is not None and abandoned_row.status == "abandoned"
    assert abandoned_row.turn_deadline is None and abandoned_row.buy_deadline is None
    assert ended_row is not None and ended_row.status == "ended"
    # Closing again changes nothing, whichever way it is asked.
    assert await store.end_table(abandoned) is False
    assert await store.end_table(ended, status="abandoned") is False
    assert (await store.get_table(abandoned)) == abandoned_row
    assert (await store.get_table(ended)) == ended_row
    # The channel is free and nothing is left to restore.
    assert await store.get_open_table(10) is None
    assert [t.id for t in await store.open_tables()] == []
    await store.create_table(1, 10, "shanghai", 101, HUMANS, {})


async def test_a_lobby_can_be_abandoned_too(store: Store) -> None:
    lobby = await store.create_table(1, 10, "shanghai", 101, HUMANS, {})
    assert await store.end_table(lobby.id, status="abandoned") is True
    row = await store.get_table(lobby.id)
    assert row is not None and row.status == "abandoned"


async def test_an_abandoned_game_is_not_on_the_leaderboard(store: Store) -> None:
    results = [
        ResultRow(101, "Ann", 0, 5, True, place=1),
        ResultRow(102, "Bob", 1, 40, False, place=2),
    ]
    for channel in range(10, 10 + MIN_RANKED_GAMES):
        finished = await _playing(store, channel=channel)
        await store.finish_game(finished, 0, "{}", results, ranked=True)
    abandoned = await _playing(store, channel=99)
    await store.end_table(abandoned, status="abandoned")
    assert await store.table_results(abandoned) == []
    games = MIN_RANKED_GAMES
    [ann, bob] = await store.leaderboard(1)
    assert (ann.user_id, ann.games, ann.wins) == (101, games, games)
    assert (bob.user_id, bob.games, bob.wins) == (102, games, 0)
    stats = await store.player_stats(1, 102)
    assert stats is not None and stats.games == games


async def test_an_unknown_status_is_refused(store: Store) -> None:
    table = await _playing(store)
    with pytest.raises(ValueError, match="status"):
        await store.end_table(table, status="finished")  # type: ignore[arg-type]
    row = await store.get_table(table)
    assert row is not None and row.status == "playing"


# -- the migration keeps an old database's rows ----------------------------------------------


_OLD_ROWS = [
    # id, channel, status
    (1, 10, "finished"),
    (2, 11, "ended"),
    (3, 12, "playing"),
    (4, 13, "lobby"),
]


async def test_sqlite_migration_keeps_old_rows_and_indexes(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    migrations = load_migrations()
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await apply_migrations(db, migrations[:2])  # as the bot left it before 0003
        for table_id, channel, status in _OLD_ROWS:
            await db.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game_kind, status, host_id,"
                " seats, state, version, created_at, updated_at)"
                " VALUES (?, 1, ?, 'shanghai', ?, 101, '[]', '{}', 1, 5.0, 6.0)",
                (table_id, channel, status),
            )
        await db.execute(
            "INSERT INTO actions (table_id, seq, user_id, action, created_at)"
            " VALUES (1, 1, 101, 'draw', 5.5)"
        )
        await db.execute(
            "INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat, total,"
            " is_winner, finished_at) VALUES (1, 1, 'shanghai', 101, 'Ann', 0, 5, 1, 6.0)"
        )
    store = await SqliteStore.open(path)
    try:
        for table_id, channel, status in _OLD_ROWS:
            row = await store.get_table(table_id)
            assert row is not None
            assert (row.channel_id, row.status, row.version) == (channel, status, 1)
        assert len(await store.actions(1)) == 1
        assert [r.user_id for r in await store.table_results(1)] == [101]
        assert await store.end_table(3, status="abandoned") is True
        # The one-open-table-per-channel index came through the rebuild.
        assert (await store.get_open_table(13)) is not None
        await store.create_table(1, 12, "shanghai", 101, HUMANS, {})
    finally:
        await store.close()
    async with aiosqlite.connect(path, isolation_level=None) as db:
        indexes = {row[1] for row in await db.execute_fetchall("PRAGMA index_list(tables)")}
        assert "tables_one_open_per_channel" in indexes
        assert list(await db.execute_fetchall("PRAGMA foreign_key_check")) == []
        assert list(await db.execute_fetchall("PRAGMA integrity_check")) == [("ok",)]
        with pytest.raises(aiosqlite.IntegrityError):
            await db.execute("UPDATE tables SET status = 'gone' WHERE id = 1")
        # ON DELETE CASCADE still points at the rebuilt table.
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute("DELETE FROM tables WHERE id = 1")
        assert list(await db.execute_fetchall("SELECT * FROM actions")) == []


async def test_postgres_migration_keeps_old_rows(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await apply_postgres_migrations(conn, load_migrations(dialect="postgres")[:2])
        for table_id, channel, status in _OLD_ROWS:
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, game_kind, status, host_id,"
                " state, version, created_at, updated_at)"
                " VALUES ($1, 1, $2, 'shanghai', $3, 101, '{}', 1, 5.0, 6.0)",
                table_id,
                channel,
                status,
            )
    finally:
        await conn.close()
    backend = Backend("postgres", postgres_url)
    store = await backend.open()
    try:
        for table_id, channel, status in _OLD_ROWS:
            row = await store.get_table(table_id)
            assert row is not None and (row.channel_id, row.status) == (channel, status)
        assert await store.end_table(3, status="abandoned") is True
        with pytest.raises(asyncpg.CheckViolationError):
            await backend.execute("UPDATE tables SET status = 'gone' WHERE id = 1")
    finally:
        await store.close()
        await backend.close()
