"""Migrations: the packaged files are well formed, apply once, and a failure leaves no trace."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from data import SqliteStore
from data.migrations import (
    Migration,
    MigrationError,
    SchemaTooNew,
    apply_migrations,
    load_migrations,
    schema_version,
    split_statements,
)


async def _connect(path: Path) -> aiosqlite.Connection:
    return await aiosqlite.connect(path, isolation_level=None)


async def _table_names(db: aiosqlite.Connection) -> set[str]:
    rows = await db.execute_fetchall("SELECT name FROM sqlite_schema WHERE type = 'table'")
    return {row[0] for row in rows}


def test_packaged_migrations_are_numbered_from_one() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "initial"


async def test_new_database_reaches_latest_version(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    async with aiosqlite.connect(db_path) as db:
        assert await schema_version(db) == load_migrations()[-1].version
        assert {"tables", "actions", "results"} <= await _table_names(db)


async def test_reopen_does_not_reapply(db_path: Path) -> None:
    # Reopening would fail with "table already exists" if 0001 ran a second time; the table
    # created in between must survive too.
    first = await SqliteStore.open(db_path)
    table = await first.create_table(1, 10, "shanghai", 7, [], {})
    await first.close()
    second = await SqliteStore.open(db_path)
    try:
        assert await second.get_table(table.id) == table
    finally:
        await second.close()


async def test_apply_counts_each_migration_once(tmp_path: Path) -> None:
    migrations = [
        Migration.from_sql(1, "make", "CREATE TABLE runs (n INTEGER);"),
        Migration.from_sql(2, "count", "INSERT INTO runs VALUES (2);"),
    ]
    db = await _connect(tmp_path / "m.sqlite3")
    try:
        assert await apply_migrations(db, migrations) == 2
        assert await apply_migrations(db, migrations) == 2
        assert list(await db.execute_fetchall("SELECT n FROM runs")) == [(2,)]
    finally:
        await db.close()


async def test_failed_migration_rolls_back_whole(tmp_path: Path) -> None:
    migrations = [
        Migration.from_sql(1, "good", "CREATE TABLE good (n INTEGER);"),
        Migration.from_sql(
            2, "bad", "CREATE TABLE half (n INTEGER);\nINSERT INTO nowhere VALUES (1);"
        ),
    ]
    db = await _connect(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(MigrationError, match="0002_bad"):
            await apply_migrations(db, migrations)
        assert await schema_version(db) == 1
        names = await _table_names(db)
        assert "good" in names
        assert "half" not in names
        assert not db.in_transaction
    finally:
        await db.close()


async def test_foreign_key_violation_fails_the_migration(tmp_path: Path) -> None:
    migrations = [
        Migration.from_sql(
            1,
            "orphan",
            """
            CREATE TABLE parent (id INTEGER PRIMARY KEY);
            CREATE TABLE child (parent_id INTEGER REFERENCES parent (id));
            INSERT INTO child VALUES (42);
            """,
        )
    ]
    db = await _connect(tmp_path / "m.sqlite3")
    try:
        with pytest.raises(MigrationError, match="foreign key"):
            await apply_migrations(db, migrations)
        assert await schema_version(db) == 0
        assert "child" not in await _table_names(db)
    finally:
        await db.close()


async def test_database_newer_than_code_is_refused(db_path: Path) -> None:
    store = await SqliteStore.open(db_path)
    await store.close()
    async with aiosqlite.connect(db_path) as db:
        await db.execute("PRAGMA user_version = 999")
        await db.commit()
    with pytest.raises(SchemaTooNew) as caught:
        await SqliteStore.open(db_path)
    assert caught.value.database_version == 999


def test_load_rejects_a_gap(tmp_path: Path) -> None:
    (tmp_path / "0001_one.sql").write_text("SELECT 1;")
    (tmp_path / "0003_three.sql").write_text("SELECT 3;")
    with pytest.raises(MigrationError, match="0002 is missing"):
        load_migrations(tmp_path)


def test_load_rejects_a_bad_name(tmp_path: Path) -> None:
    (tmp_path / "0001_one.sql").write_text("SELECT 1;")
    (tmp_path / "2_two.sql").write_text("SELECT 2;")
    with pytest.raises(MigrationError, match="NNNN_name"):
        load_migrations(tmp_path)


def test_split_follows_sqlite_statement_ends() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE t (s TEXT DEFAULT 'a;b');
    CREATE TRIGGER tr AFTER INSERT ON t BEGIN
        UPDATE t SET s = 'x;y';
        DELETE FROM t WHERE s = '';
    END;
    /* block; comment */ INSERT INTO t VALUES ('last')
    """
    statements = split_statements(script)
    assert len(statements) == 3
    assert statements[0].endswith("DEFAULT 'a;b');")
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    assert "INSERT INTO t VALUES ('last')" in statements[2]


def test_split_rejects_an_unfinished_statement() -> None:
    with pytest.raises(ValueError, match="ends inside"):
        split_statements("CREATE TABLE t (s TEXT DEFAULT 'open")
