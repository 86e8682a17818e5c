"""The SQLite implementation of ``data.store.Store``: one file, no server (the default).

A ``SqliteStore`` owns two long-lived aiosqlite connections (aiosqlite gives each connection
its own thread, so a connection is one queue of work): a writer, and a reader with
``query_only`` on. It is configured once when opened: WAL, so the reader never waits for the
writer; ``synchronous=FULL`` (``durable=True``, the default), so a commit is on disk before it
returns and an acknowledged move survives a kill or a power cut (``NORMAL``, for an admin who
chooses speed, may lose the last commits on power loss but never corrupts); and foreign keys.
The file is created readable by its owner only (0600): it holds every hand.

Writes are committed in groups (``data.group_commit``): the writes that arrive while a commit
is in flight wait for the next one, and go in together as one ``BEGIN IMMEDIATE ... COMMIT``,
one fsync for all. The statements of a whole group, a ``SAVEPOINT`` around each write (so a
refused one, a version conflict say, takes back only its own statements) and the ``COMMIT``
run in a single trip to the writer's thread (``data.sqlite_commit``), where one write used to
cost a trip per statement. Each caller is answered only once the group's ``COMMIT`` returned: on a
durable store, acknowledged still means on disk. The few writes of several awaited statements
(a game's finish with its ratings) run alone, in their place in the queue. An idle bot pays
nothing for this: a write that finds nothing in flight starts at once. Under a burst the cost
of the fsync is shared: 500 tables clicking at once cost a handful of transactions, where they
cost 500 (and a held draw one more) before. Every transaction runs under ``asyncio.shield``:
cancelling the caller (a timed-out interaction, shutdown) cannot leave one half-open; the write
finishes or rolls back all the same. When another program (a backup, the sqlite3 shell) holds
the write lock, a write keeps trying for at most ``PLAYER_WAIT_SECONDS`` in all, counting its
wait behind this process's other writes, and then raises ``StoreBusy``: a player is answered in
time, and nothing was written. The bot's own writes (a table's timer, marked by
``data.store.background_writes``) may wait far longer, but take turns among themselves first,
so a burst of them (every overdue timer at a restart) is neither refused nor ahead of a
player's click.

Reads never queue behind writes: history and statistics (the leaderboard) go straight to the
reader; reads of a table wait only for a write that is actually running (milliseconds), so a
caller reads its own writes, but never for a write that is waiting for the lock.

Opened for a ``ShardSet``, ``open_tables`` lists only the tables of the owned guilds.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from . import sqlite_commit
from .board import BoardCalls
from .errors import StoreBusy, TableExists
from .events import EventCalls
from .games import (
    INSERT_ACTION,
    INSERT_TABLE,
    SELECT_OPEN_IN_CHANNEL,
    SELECT_OPEN_PLACES,
    SELECT_OPEN_TABLES,
    SELECT_TABLE,
    GameCalls,
)
from .group_commit import GroupQueue
from .guild_settings import SettingsCalls
from .members import MemberCalls
from .migrations import apply_migrations
from .records import AwayState, GameKind, Seat, TablePlace, TableRecord
from .rows import dumps
from .shards import ShardSet
from .sql import Sql
from .sqlite_commit import GroupCommits
from .sqlite_connection import (
    BUSY_TIMEOUT_MS,
    SqliteSql,
    Step,
    Write,
    connect,
    create_private,
    joins,
)
from .store import BACKGROUND_WAIT_SECONDS, PLAYER_WAIT_SECONDS, is_background_write

_T = TypeVar("_T")

# The version check and the write are one statement: no window between reading and writing.
_SAVE_STATE = """
UPDATE tables
SET state = ?, version = ?, buy_deadline = ?, turn_deadline = ?, away = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'playing'
"""


def _open_tables_sql(shards: ShardSet, select: str = SELECT_OPEN_TABLES) -> str:
    """The restore query (or ``select``, another one of the open tables), limited to the
    owned shards' guilds.

    Only validated integers of ``ShardSet`` are spliced in; nothing from a user.
    """
    if shards.is_everything:
        return select + " ORDER BY id"
    owned = ", ".join(str(int(i)) for i in shards.ids)
    return f"{select} AND ((guild_id >> 22) % {int(shards.count)}) IN ({owned}) ORDER BY id"


class SqliteStore(GroupCommits, GameCalls, BoardCalls, SettingsCalls, MemberCalls, EventCalls):
    """Tables, game state, deadlines and results in one SQLite file.

    Make one with ``await SqliteStore.open(path)`` at start-up (it migrates the schema) and
    ``await store.close()`` at shutdown, or use it as ``async with await SqliteStore.open(...)``.
    """

    def __init__(
        self,
        db: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        clock: Callable[[], float],
        shards: ShardSet,
    ) -> None:
        """Wrap open, migrated connections; use ``SqliteStore.open`` rather than this."""
        self._db = db
        self._reader = reader
        self._clock = clock
        self._open_tables_sql = _open_tables_sql(shards)
        self._open_places_sql = _open_tables_sql(shards, SELECT_OPEN_PLACES)
        #: Taken by ``close`` (closing twice is harmless).
        self._lock = asyncio.Lock()
        #: Every write waits here for its group (``data.group_commit``): one writer, one group
        #: in flight at a time.
        self._groups = GroupQueue(self._commit_group, joins=joins)
        #: Transactions committed since opening (a group is one), for benchmarks and tests.
        self.commits = 0
        #: The bot's own writes take turns here before joining the writer's queue (``_write``).
        self._background_gate = asyncio.Lock()
        #: Clear while a write is running on the writer; table reads wait for it (see module).
        self._settled = asyncio.Event()
        self._settled.set()
        self._closed = False

    # -- lifetime ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        shards: ShardSet | None = None,
        fence_wait: float = 0.0,
        durable: bool = True,
    ) -> SqliteStore:
        """Open (creating if needed) the database at ``path`` and migrate it to the latest schema.

        The parent directory is created, and a new file is created 0600. ``clock`` gives the unix
        time stamped on rows; tests pass a fake one. ``shards`` limits ``open_tables`` to the
        owned guilds (default: all). ``":memory:"`` works for throwaway stores (without WAL; its
        reads then share the writer). Raises ``MigrationError`` if the schema cannot be brought
        up to date. ``fence_wait`` is PostgreSQL's; a SQLite file has no shard fence.
        """
        path = database
        in_memory = str(path) == ":memory:"
        if not in_memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            create_private(Path(path))
        db = await connect(path)
        reader = db
        try:
            # execute_fetchall reads each PRAGMA's row to the end: a cursor left half-read
            # stays "in progress" while anything holds it, and every later COMMIT then fails.
            await db.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            await db.execute_fetchall("PRAGMA journal_mode = WAL")
            # FULL: a commit is on disk before it returns, so an acknowledged move survives a
            # power cut too; NORMAL (``durable=False``) may lose the last ones then.
            await db.execute_fetchall(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            await db.execute_fetchall("PRAGMA foreign_keys = OFF")  # see data/migrations.py
            await apply_migrations(db)
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
            if not in_memory:
                reader = await connect(path)
                # A WAL reader waits only while another connection recovers the WAL index.
                wait_ms = int(PLAYER_WAIT_SECONDS * 1000)
                await reader.execute_fetchall(f"PRAGMA busy_timeout = {wait_ms:d}")
                await reader.execute_fetchall("PRAGMA query_only = ON")
        except BaseException:
            if reader is not db:
                await reader.close()
            await db.close()
            raise
        store = cls(db, reader, clock, shards or ShardSet.everything())
        try:
            await store._rebuild_if_migrated()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for running writes, let SQLite refresh its query statistics, and close.

        Closing twice is harmless, so shutdown paths need not track whether it already ran.
        """
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            await self._groups.idle()
            try:
                await self._db.execute("PRAGMA optimize")
            finally:
                if self._reader is not self._db:
                    await self._reader.close()
                await self._db.close()

    # -- the primitives of the shared calls (data.calls) ------------------------------------

    def _to_json(self, value: Any) -> Any:
        return dumps(value)

    def _from_json(self, value: Any) -> Any:
        return json.loads(value)

    async def _query(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query, on the reader: never queued behind a write."""
        return list(await self._reader.execute_fetchall(sql, args))

    async def _query_table(self, table_id: int | None, sql: str, *args: Any) -> list[Any]:
        """Like ``_query``, after the write running now (if any, of any table), so a caller
        reads its writes.

        A write that is waiting for another program's lock has written nothing yet and is not
        waited for.
        """
        await self._settled.wait()
        return await self._query(sql, *args)

    async def _change(self, table_id: int | None, sql: str, *args: Any) -> int:
        """One statement as a ``_step`` of the next group; the rows it changed."""
        return cast(int, await self._step(lambda db: db.execute(sql, args).rowcount))

    async def _sql_read(self, work: Callable[[Sql], Awaitable[_T]]) -> _T:
        """``work`` on the reader: like the other statistics, never queued behind a write."""
        return await work(SqliteSql(self._reader))

    async def _sql_write(
        self, work: Callable[[Sql], Awaitable[_T]], table_id: int | None = None
    ) -> _T:
        """``work`` as one write transaction of its own."""

        async def body(db: aiosqlite.Connection) -> _T:
            return await work(SqliteSql(db))

        return await self._write(body)

    # -- the writer ---------------------------------------------------------------------------

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[_T]]) -> _T:
        """Run ``body`` as a transaction of its own: queued with the others, all-or-nothing,
        and immune to cancelling (see ``_submit``). For writes of several awaited statements;
        the others are ``_step``s, which share their transaction."""
        return cast(_T, await self._submit(Write(body=body)))

    async def _step(self, step: Step) -> Any:
        """Run ``step`` in the next group's transaction (``data.group_commit``), in a savepoint
        of its own; its answer once the group has committed."""
        return await self._submit(Write(step=step))

    async def _submit(self, write: Write) -> Any:
        """Queue ``write`` for the writer and wait for its group's commit.

        Shielded: cancelling the caller (a timed-out interaction, shutdown) cannot tear a
        transaction; the write commits or rolls back all the same. ``BEGIN IMMEDIATE`` takes
        SQLite's write lock up front, so a check made inside a write still holds when it
        writes, even against another process. A player's write raises ``StoreBusy`` if it
        cannot start within ``PLAYER_WAIT_SECONDS`` (nothing is written then); the bot's own
        writes (``data.store.background_writes``) go through ``_background_submit``.
        """
        if is_background_write():
            return await asyncio.shield(self._background_submit(write))
        return await asyncio.shield(
            self._queued(write, sqlite_commit.clock() + PLAYER_WAIT_SECONDS)
        )

    def _queued(self, write: Write, deadline: float) -> asyncio.Future[Any]:
        """``write`` queued, as the future its group answers: shielded as it is, without a task
        around it. Reads of a table wait from here until the commit (see ``_read_table``)."""
        self._settled.clear()
        return self._groups.submit(write, deadline)

    async def _background_submit(self, write: Write) -> Any:
        """A write nobody is waiting for: it queues behind the other background writes, not in
        the writer's queue, so at most one of them is ever ahead of a player's write; once at
        the front it tries for the lock ``PLAYER_WAIT_SECONDS`` at a time (which keeps the rule
        that no write ahead has a later deadline), again and again while another program holds
        the file (a backup), and raises ``StoreBusy`` only once ``BACKGROUND_WAIT_SECONDS``
        have passed in all."""
        give_up = sqlite_commit.clock() + BACKGROUND_WAIT_SECONDS
        async with self._background_gate:
            while True:
                now = sqlite_commit.clock()
                if now >= give_up:
                    raise StoreBusy()
                try:
                    return await self._queued(write, min(give_up, now + PLAYER_WAIT_SECONDS))
                except StoreBusy:  # refused before it ran: nothing was written
                    continue

    # -- what SQLite does its own way --------------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        game_kind: GameKind,
        host_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
    ) -> TableRecord:
        """Open a lobby in a channel and return it (status ``lobby``, version 0, no state).

        Raises ``TableExists``, carrying the open table, if the channel already has one; the
        partial unique index on ``channel_id`` backs this up for any other writer.
        """
        now = self._clock()
        parameters = (
            guild_id,
            channel_id,
            game_kind,
            host_id,
            dumps([seat.to_json() for seat in seats]),
            dumps(dict(options)),
            now,
            now,
        )

        def step(db: sqlite3.Connection) -> TableRecord:
            existing = db.execute(SELECT_OPEN_IN_CHANNEL, (channel_id,)).fetchall()
            if existing:
                raise TableExists(self._table(existing[0]))
            cursor = db.execute(INSERT_TABLE, parameters)
            rows = db.execute(SELECT_TABLE, (cursor.lastrowid,)).fetchall()
            return self._table(rows[0])

        return cast(TableRecord, await self._step(step))

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the owned shards, oldest first (for restore).

        A row that does not decode is ended and logged instead (``data.unreadable``)."""
        return await self._decoded_open(await self._query_table(None, self._open_tables_sql))

    async def open_places(self) -> list[TablePlace]:
        """Where each open table of the owned shards is, oldest first (a lazy restore)."""
        return self._places(await self._query_table(None, self._open_places_sql))

    async def save_action(
        self,
        table_id: int,
        expected_version: int,
        user_id: int,
        action_text: str,
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
        away: Sequence[AwayState],
    ) -> int:
        """Record one accepted action and the state after it; return the new version.

        One transaction: the table's state, deadlines and away flags are replaced and the action
        is appended to the log as number ``expected_version + 1``, or nothing happens at all.
        Raises ``StaleVersion`` if the table is not at ``expected_version`` or not playing (the
        caller acted on an old state), ``TableNotFound`` if unknown.
        """
        now = self._clock()
        new_version = expected_version + 1
        update = (
            state_json,
            new_version,
            buy_deadline,
            turn_deadline,
            dumps([entry.to_json() for entry in away]),
            now,
            table_id,
            expected_version,
        )
        insert = (table_id, new_version, user_id, action_text, now)

        def step(db: sqlite3.Connection) -> bool:
            if db.execute(_SAVE_STATE, update).rowcount != 1:
                return False
            db.execute(INSERT_ACTION, insert)
            return True

        if not await self._step(step):
            raise await self._stale(table_id, "playing", expected_version)
        return new_version
