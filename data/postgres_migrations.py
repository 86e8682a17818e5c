"""PostgreSQL's numbered migrations (``migrations/postgres/``), applied at start-up.

The database remembers what it has applied in ``schema_migrations`` (one row per file). Two
processes starting together (every shard process of a deployment does) must not both apply the
same file, so the whole run holds a session advisory lock: the second process waits for the
first, then finds nothing left to do. Each file runs in its own transaction (PostgreSQL's DDL
is transactional), so a failing one leaves no trace and the ones before it stay applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .migrations import Migration, MigrationError, SchemaTooNew, load_migrations

#: The advisory lock key of the migration run (any constant no other lock of ours uses).
MIGRATION_LOCK: Final = 0x5348_4D49  # "SHMI"
#: How long start-up waits for the migration lock and for the locks a migration needs.
MIGRATION_LOCK_WAIT: Final = "60s"

_CREATE_LEDGER = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
)
"""


async def schema_version(conn: asyncpg.Connection | PoolConnectionProxy) -> int:
    """The number of the last migration applied to this database (0 for a new one)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def apply_migrations(
    conn: asyncpg.Connection | PoolConnectionProxy, migrations: Sequence[Migration] | None = None
) -> int:
    """Bring the database up to the latest migration and return its schema version.

    Raises ``SchemaTooNew`` if the database is ahead of the files, ``MigrationError`` (after
    rolling that file back) if one fails.
    """
    if migrations is None:
        migrations = load_migrations(dialect="postgres")
    latest = migrations[-1].version if migrations else 0
    # The store's sessions give up on a lock after 2 s (a player is waiting); starting up may
    # wait longer, for another process's migrations or for a table a running bot writes.
    await conn.execute(f"SET lock_timeout = '{MIGRATION_LOCK_WAIT}'")
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(_CREATE_LEDGER)
        current = await schema_version(conn)
        if current > latest:
            raise SchemaTooNew(current, latest)
        for migration in migrations:
            if migration.version <= current:
                continue
            try:
                async with conn.transaction():
                    for statement in migration.statements:
                        await conn.execute(statement)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        migration.version,
                        migration.name,
                    )
            except asyncpg.PostgresError as exc:
                raise MigrationError(
                    f"migration {migration.version:04d}_{migration.name} failed: {exc}"
                ) from exc
            current = migration.version
        return current
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
