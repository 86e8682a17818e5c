"""Fixtures for the storage tests: a store of each kind, with a clock we control.

``store`` is parametrized over both implementations, so every test that takes it runs once on
SQLite and once on a real PostgreSQL server (``tests/conftest.py`` starts one). ``backend``
gives a test what differs between them: opening the same database again, and reading or
writing past the store with plain SQL (``?`` placeholders on both).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from data import Seat, SqliteStore, Store
from data.shards import ShardSet
from tests.clock import FakeClock

HUMANS = (Seat(101, "Ann"), Seat(102, "Bob"))
COMPUTER = Seat(-1, "Robo", is_computer=True, level="hard")


class Backend:
    """One database of one kind: open stores on it, and reach it past the store."""

    def __init__(self, kind: str, database: str | Path) -> None:
        self.kind = kind
        self.database = database
        self._raw: Any = None

    async def open(
        self,
        clock: Callable[[], float] | None = None,
        shards: ShardSet | None = None,
        *,
        fenced: bool = True,
    ) -> Store:
        """A store on this database; ``fenced=False`` skips PostgreSQL's ownership fence (a
        process that lost its fence but still writes, which only the version check stops)."""
        kwargs: dict[str, Any] = {"shards": shards}
        if clock is not None:
            kwargs["clock"] = clock
        if self.kind == "sqlite":
            return await SqliteStore.open(self.database, **kwargs)
        from data.postgres_store import PostgresStore

        return await PostgresStore.open(str(self.database), fenced=fenced, **kwargs)

    async def _connection(self) -> Any:
        if self._raw is None:
            if self.kind == "sqlite":
                import aiosqlite

                self._raw = await aiosqlite.connect(self.database, isolation_level=None)
            else:
                import asyncpg

                self._raw = await asyncpg.connect(str(self.database))
        return self._raw

    def _sql(self, sql: str) -> str:
        if self.kind == "sqlite":
            return sql
        numbers = iter(range(1, 100))
        return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)

    async def execute(self, sql: str, *args: Any) -> None:
        """Run one statement on a connection of its own, committed at once."""
        conn = await self._connection()
        await conn.execute(self._sql(sql), *([args] if self.kind == "sqlite" else args))

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        conn = await self._connection()
        if self.kind == "sqlite":
            return [tuple(r) for r in await conn.execute_fetchall(sql, args)]
        return [tuple(r) for r in await conn.fetch(self._sql(sql), *args)]

    async def no_open_transaction(self, store: Store) -> bool:
        """Whether the store left no transaction open behind it."""
        if self.kind == "sqlite":
            assert isinstance(store, SqliteStore)
            return not store._db.in_transaction
        rows = await self.fetch(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND state LIKE 'idle in transaction%'"
        )
        return bool(rows[0][0] == 0)

    async def close(self) -> None:
        if self._raw is not None:
            await self._raw.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_700_000_000.0)  # a realistic unix time for the stored stamps


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    # A directory that does not exist yet: SqliteStore.open must create it.
    return tmp_path / "state" / "bot.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        made = Backend("sqlite", db_path)
    else:
        made = Backend("postgres", request.getfixturevalue("postgres_url"))
    yield made
    await made.close()


@pytest.fixture
async def store(backend: Backend, clock: FakeClock) -> AsyncIterator[Store]:
    opened = await backend.open(clock)
    yield opened
    await opened.close()
