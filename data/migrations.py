"""Numbered SQL migrations, applied in order at start-up, each in one transaction.

Each dialect has its own files, next to this module in ``migrations/sqlite/`` and
``migrations/postgres/``, named ``NNNN_what.sql`` and numbered from 0001 without gaps; the same
number means the same schema change in both. This module applies the SQLite ones; PostgreSQL's
are applied by ``data.postgres_migrations``. A SQLite database remembers the last one applied
in ``PRAGMA user_version`` (kept in the file header, and rolled back with the transaction that
set it), so applying is idempotent: a reopened database runs only the files it has not seen.

To change the schema, add the next file; never edit one that has shipped, because databases
that already applied it will not run it again. A file must not contain ``BEGIN``/``COMMIT`` of
its own. Foreign keys are off while migrations run (as SQLite's table-rebuild recipe needs) and
each migration ends with ``PRAGMA foreign_key_check``, so a migration that breaks a reference
fails and is rolled back instead of being committed.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Literal

import aiosqlite

#: The SQL dialects with a folder of migration files.
Dialect = Literal["sqlite", "postgres"]

_FILE_NAME = re.compile(r"^(?P<version>\d{4})_(?P<name>[a-z0-9_]+)\.sql$")


class MigrationError(RuntimeError):
    """The migration files are malformed, or one failed to apply (and was rolled back)."""


class SchemaTooNew(MigrationError):
    """The database was migrated by newer code than this; refuse rather than misread it."""

    def __init__(self, database_version: int, latest_known: int) -> None:
        self.database_version = database_version
        self.latest_known = latest_known
        super().__init__(
            f"database is at schema version {database_version}, "
            f"but this code only knows migrations up to {latest_known}"
        )


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file: its number, its name, and its SQL split into single statements."""

    version: int
    name: str
    statements: tuple[str, ...]

    @classmethod
    def from_sql(cls, version: int, name: str, sql: str, dialect: Dialect = "sqlite") -> Migration:
        """Build a migration from script text; ``MigrationError`` if a statement is cut off.

        A PostgreSQL script stays whole: the server runs several statements in one call.
        """
        if dialect == "postgres":
            return cls(version, name, (sql,))
        try:
            statements = split_statements(sql)
        except ValueError as exc:
            raise MigrationError(f"migration {version:04d}_{name}: {exc}") from exc
        return cls(version, name, tuple(statements))


def split_statements(sql: str) -> list[str]:
    """Split a script into statements, the way SQLite itself sees their ends.

    ``sqlite3.complete_statement`` knows about string literals, comments and the semicolons
    inside ``CREATE TRIGGER ... BEGIN ... END``, so a semicolon only ends a statement when
    SQLite agrees. A trailing statement without its semicolon is accepted. Raises ``ValueError``
    if the script ends inside a statement (an unclosed string, comment or trigger body).
    """
    statements: list[str] = []
    start = 0
    for end, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : end + 1]):
            statements.append(sql[start : end + 1].strip())
            start = end + 1
    rest = sql[start:]
    if rest.strip():
        if not sqlite3.complete_statement(rest + "\n;"):
            raise ValueError(f"script ends inside a statement: {rest.strip()[:60]!r}")
        statements.append(rest.strip() + "\n;")
    return statements


def load_migrations(
    directory: Traversable | None = None, dialect: Dialect = "sqlite"
) -> list[Migration]:
    """Read the migration files of ``directory`` (default: the packaged ones of ``dialect``).

    Raises ``MigrationError`` for a stray file name, a duplicate number or a gap, because each
    would make databases disagree about what a schema version means.
    """
    if directory is None:
        directory = files(__package__ or "data").joinpath("migrations", dialect)
    found: dict[int, Migration] = {}
    for entry in directory.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.match(entry.name)
        if match is None:
            raise MigrationError(f"migration file name {entry.name!r} is not NNNN_name.sql")
        version = int(match["version"])
        if version in found:
            raise MigrationError(f"two migration files are numbered {version:04d}")
        found[version] = Migration.from_sql(
            version, match["name"], entry.read_text(encoding="utf-8"), dialect
        )
    ordered = [found[v] for v in sorted(found)]
    for expected, migration in enumerate(ordered, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {expected:04d} is missing")
    return ordered


async def schema_version(conn: aiosqlite.Connection) -> int:
    """The number of the last migration applied to this database (0 for a new one)."""
    rows = list(await conn.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


async def apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration] | None = None
) -> int:
    """Bring the database up to the latest migration and return its schema version.

    ``conn`` must be in autocommit mode (``isolation_level=None``): each migration opens its own
    ``BEGIN IMMEDIATE`` transaction, re-reads the version inside it (so two processes starting
    together do not both apply the same file), runs its statements, sets ``user_version`` and
    commits. A failing migration is rolled back whole and raised as ``MigrationError``; the ones
    before it stay applied. Raises ``SchemaTooNew`` if the database is ahead of the files.
    """
    if migrations is None:
        migrations = load_migrations()
    latest = migrations[-1].version if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise SchemaTooNew(current, latest)
    for migration in migrations:
        if migration.version <= current:
            continue
        await conn.execute("BEGIN IMMEDIATE")
        try:
            current = await schema_version(conn)
            if migration.version <= current:
                await conn.execute("ROLLBACK")
                continue
            if migration.version != current + 1:
                raise MigrationError(f"database is at {current}, cannot apply {migration.version}")
            for statement in migration.statements:
                await conn.execute(statement)
            violations = list(await conn.execute_fetchall("PRAGMA foreign_key_check"))
            if violations:
                raise MigrationError(f"foreign key violations, e.g. {tuple(violations[0])}")
            # PRAGMA takes no parameters; the version is an int we parsed from the file name.
            await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise MigrationError(
                    f"migration {migration.version:04d}_{migration.name} failed: {exc}"
                ) from exc
            raise
        current = migration.version
    return current
