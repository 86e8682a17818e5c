"""``open_store(database)``: the one place that turns a setting into a ``Store``.

``database`` is a file path (SQLite, the default: no server needed) or a ``postgresql://`` URL
(PostgreSQL, for shard processes sharing one database). asyncpg is imported only for a URL, so
the SQLite bot runs without the ``postgres`` extra installed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .shards import ShardSet
from .store import Store

_URL_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(database: str | Path) -> bool:
    """Whether ``database`` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(database, str) and database.startswith(_URL_SCHEMES)


def describe(database: str | Path) -> str:
    """``database`` for a log line: a URL without its password, or the path."""
    if not is_postgres_url(database):
        return str(database)
    text = str(database)
    scheme, _, rest = text.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return text
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{host}"


async def open_store(
    database: str | Path,
    *,
    clock: Callable[[], float] = time.time,
    shards: ShardSet | None = None,
    fence_wait: float = 0.0,
    durable: bool = True,
) -> Store:
    """Open (and migrate) the store ``database`` names, for the guilds of ``shards``.

    On PostgreSQL the ownership fence is taken first (``ShardTaken`` if another process owns
    one of ``shards`` for longer than ``fence_wait`` seconds). ``durable``: a commit returns
    only once it is on disk (SQLite ``synchronous=FULL``, PostgreSQL ``synchronous_commit=on``);
    off, a crash of the machine or of the database server can lose the last commits.
    """
    if is_postgres_url(database):
        try:
            from .postgres_store import PostgresStore
        except ImportError as error:  # pragma: no cover - depends on the installed extras
            raise RuntimeError(
                "a postgresql:// database needs asyncpg: pip install 'shanghai[postgres]'"
            ) from error
        return await PostgresStore.open(
            str(database), clock=clock, shards=shards, fence_wait=fence_wait, durable=durable
        )
    from .sqlite_store import SqliteStore

    return await SqliteStore.open(database, clock=clock, shards=shards, durable=durable)
