"""The PostgreSQL store's connections: the pool's codec, and the adapter of the shared queries.

Seats, options and away flags are ``jsonb``, encoded and decoded by a codec set on every pooled
connection (``init_connection``); ``PostgresSql`` is a connection as the queries written once
for both stores use it (``data.sql``): their ``?`` become ``$1, $2, ...``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .rows import dumps
from .sql import changed_rows, numbered

#: A connection as the pool lends it (a proxy with the connection's methods).
Connection = asyncpg.Connection | PoolConnectionProxy


async def init_connection(conn: asyncpg.Connection) -> None:
    """Set up a new pooled connection: the ``jsonb`` codec."""
    await conn.set_type_codec(
        "jsonb", encoder=dumps, decoder=json.loads, schema="pg_catalog", format="text"
    )


class PostgresSql:
    """A connection as the shared queries use it: ``?`` become ``$n``."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query."""
        return list(await self.conn.fetch(numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the rows it changed."""
        return changed_rows(await self.conn.execute(numbered(sql), *args))

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        await self.conn.executemany(numbered(sql), rows)
