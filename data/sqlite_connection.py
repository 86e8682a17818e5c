"""The SQLite store's connections and the work it runs on the writer's thread.

aiosqlite gives each connection a thread of its own, and a queue of work for it. Here are the
only two places the store reaches past aiosqlite's public interface (``daemon_worker``,
``on_worker_thread``, each checked by ``tests/data/test_sqlite_store.py``), what a queued write
is (``Write``, ``Step``), and ``SqliteSql``: a connection as the queries shared by both stores
use it. The file is created private (``create_private``): it holds every hand.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import aiosqlite

_T = TypeVar("_T")

#: How long one statement waits inside SQLite for another program's lock, in milliseconds.
#: Short, because a write retries ``BEGIN IMMEDIATE`` itself until ``PLAYER_WAIT_SECONDS``.
BUSY_TIMEOUT_MS: Final = 100

#: Owner read/write only: the file holds every player's hand.
FILE_MODE: Final = 0o600


def is_busy(error: sqlite3.OperationalError) -> bool:
    """Whether ``error`` is another connection's lock (SQLite's busy or locked)."""
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def create_private(path: Path) -> None:
    """Create the database file readable by its owner only, before SQLite creates it 0644.

    SQLite gives the ``-wal`` and ``-shm`` files the mode of the database file, so they are
    private too. An existing file keeps the mode its owner gave it.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


async def connect(path: str | Path) -> aiosqlite.Connection:
    """A connection in autocommit mode with rows readable by column name."""
    # Autocommit mode: every transaction below is an explicit BEGIN ... COMMIT, so none is
    # opened behind our back by the sqlite3 module.
    db = await daemon_worker(aiosqlite.connect(path, isolation_level=None))
    db.row_factory = aiosqlite.Row
    return db


def daemon_worker(pending: aiosqlite.Connection) -> aiosqlite.Connection:
    """``pending`` with its worker thread made a daemon, before it starts.

    aiosqlite's worker thread is not a daemon: a store that is never closed (a crashed bot, a
    test's discarded bot) would keep the process alive after everything else ended. aiosqlite
    offers no public way to say so; this is the one place that reaches into it, and
    ``tests/data/test_sqlite_store.py`` fails if aiosqlite changes it."""
    pending._thread.daemon = True
    return pending


async def on_worker_thread(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], _T]) -> _T:
    """``fn(connection)`` run on ``db``'s worker thread, as one item of its queue.

    A group commit runs every member's statements, their savepoints and the commit in one
    trip to the thread (``data.sqlite_commit.run_steps``) instead of one trip per statement;
    aiosqlite offers no public way to run a function there. Like ``daemon_worker``, this
    reaches into it, and ``tests/data/test_sqlite_store.py`` fails if aiosqlite changes what
    it uses."""
    return cast(_T, await db._execute(lambda: fn(db._conn)))  # type: ignore[no-untyped-call]


#: A write of a group: statements run on the writer's thread, in the transaction (and in a
#: savepoint of its own) that ``data.sqlite_commit.run_steps`` holds; it raises to refuse,
#: and its result is the write's answer.
Step = Callable[[sqlite3.Connection], Any]


@dataclass(frozen=True, slots=True)
class Write:
    """One write queued for the writer: a ``Step`` that joins a group, or an async ``body``
    (several awaited statements: a game's finish with its ratings) that runs alone."""

    step: Step | None = None
    body: Callable[[aiosqlite.Connection], Awaitable[Any]] | None = None


def joins(write: Write) -> bool:
    """Whether ``write`` joins a group (a ``Step``) rather than running alone."""
    return write.step is not None


class SqliteSql:
    """A connection as the queries shared by both stores use it (SQLite takes ``?`` as is)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query."""
        return list(await self.conn.execute_fetchall(sql, args))

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the rows it changed."""
        cursor = await self.conn.execute(sql, args)
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        await self.conn.executemany(sql, rows)
