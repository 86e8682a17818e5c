"""Count the transactions a store commits, as the database sees them (not as the store says).

- SQLite: every ``COMMIT`` statement the store's writer connection runs, from SQLite's own trace
  callback (every write of ``SqliteStore`` is an explicit ``BEGIN IMMEDIATE ... COMMIT``).
- PostgreSQL: the database's ``xact_commit`` counter (``pg_stat_database``). Backends report it
  lazily, so ``count`` first makes every pooled connection of the store flush its statistics
  (``pg_stat_force_next_flush``, PostgreSQL 15); the counting itself costs a few transactions
  (and so does asyncpg's reset of a connection given back to the pool), which ``start`` measures
  twice and subtracts. Every transaction counts, a connection's reset included: that is what
  each write costs the server.
"""

from __future__ import annotations

from typing import Any


class CommitCounter:
    """Transactions committed by one store since ``start``."""

    def __init__(self, store: Any, kind: str) -> None:
        self.store = store
        self.kind = kind
        self._commits = 0
        self._base = 0
        self._overhead = 0

    def _traced(self, statement: str) -> None:
        if statement.strip().upper().startswith("COMMIT"):
            self._commits += 1

    async def start(self) -> None:
        if self.kind == "sqlite":
            await self.store._db.set_trace_callback(self._traced)
            return
        first = await self._pg_counter()
        second = await self._pg_counter()
        self._overhead, self._base = second - first, second

    async def count(self) -> int:
        """Transactions committed since ``start``."""
        if self.kind == "sqlite":
            return self._commits
        return await self._pg_counter() - self._base - self._overhead

    async def stop(self) -> None:
        if self.kind == "sqlite":
            await self.store._db.set_trace_callback(None)

    async def _pg_counter(self) -> int:
        from data.postgres_store import POOL_SIZE

        pool = self.store._pool
        held = [await pool.acquire() for _ in range(POOL_SIZE)]
        try:
            for conn in held:
                await conn.execute("SELECT pg_stat_force_next_flush()")
                await conn.execute("SELECT 1")  # idle once more: the flush has happened
            await held[0].execute("SELECT pg_stat_clear_snapshot()")
            value = await held[0].fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
            )
            return int(value)
        finally:
            for conn in held:
                await pool.release(conn)
