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
run in a single trip to the writer's thread (``_run_steps``), where one write used to cost a
trip per statement. Each caller is answered only once the group's ``COMMIT`` returned: on a
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
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, TypeVar, cast

import aiosqlite

from . import ranking
from .board import BoardCalls
from .errors import StaleVersion, StoreBusy, TableExists, TableNotFound
from .group_commit import GroupQueue, Member
from .migrations import apply_migrations
from .records import (
    END_STATUSES,
    ActionRecord,
    AwayState,
    EndStatus,
    GameKind,
    PlayerStats,
    ResultRow,
    Seat,
    TableRecord,
    TableStatus,
    lower_is_better,
)
from .rows import dumps, result_row, stats_record, table_record
from .shards import ShardSet
from .store import (
    BACKGROUND_WAIT_SECONDS,
    KEEP,
    PLAYER_WAIT_SECONDS,
    Keep,
    is_background_write,
)
from .unreadable import decode_open

_T = TypeVar("_T")

#: How long one statement waits inside SQLite for another program's lock, in milliseconds.
#: Short, because a write retries ``BEGIN IMMEDIATE`` itself until ``PLAYER_WAIT_SECONDS``.
BUSY_TIMEOUT_MS: Final = 100

#: Deadlines use ``time.perf_counter``: a real clock even where a test harness (simcord)
#: replaces ``time.monotonic`` with virtual time, because a lock is held in real time.

#: Pause between two attempts to take the write lock from another program, in seconds.
_RETRY_PAUSE: Final = 0.02

#: Owner read/write only: the file holds every player's hand.
FILE_MODE: Final = 0o600


def _seats_json(seats: Sequence[Seat]) -> str:
    return dumps([seat.to_json() for seat in seats])


def _away_json(away: Sequence[AwayState]) -> str:
    return dumps([entry.to_json() for entry in away])


def _table_record(row: aiosqlite.Row) -> TableRecord:
    return table_record(row, json.loads)


_SELECT_TABLE = "SELECT * FROM tables WHERE id = ?"
_SELECT_OPEN_IN_CHANNEL = (
    "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')"
)
_SELECT_OPEN_TABLES = "SELECT * FROM tables WHERE status IN ('lobby', 'playing')"
_GET_META = "SELECT value FROM meta WHERE key = ?"
_GET_GUILD_SETTINGS = "SELECT settings FROM guild_settings WHERE guild_id = ?"
_SET_GUILD_SETTINGS = """
INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (?, ?, ?)
ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings, updated_at = excluded.updated_at
"""
_SET_META = """
INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
"""


def _open_tables_sql(shards: ShardSet) -> str:
    """The restore query, limited to the owned shards' guilds.

    Only validated integers of ``ShardSet`` are spliced in; nothing from a user.
    """
    if shards.is_everything:
        return _SELECT_OPEN_TABLES + " ORDER BY id"
    owned = ", ".join(str(int(i)) for i in shards.ids)
    return (
        f"{_SELECT_OPEN_TABLES} AND ((guild_id >> 22) % {int(shards.count)}) IN ({owned})"
        " ORDER BY id"
    )


def _is_busy(error: sqlite3.OperationalError) -> bool:
    return getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _create_private(path: Path) -> None:
    """Create the database file readable by its owner only, before SQLite creates it 0644.

    SQLite gives the ``-wal`` and ``-shm`` files the mode of the database file, so they are
    private too. An existing file keeps the mode its owner gave it.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(fd)


_INSERT_TABLE = """
INSERT INTO tables (guild_id, channel_id, game_kind, status, host_id, seats, options,
                    created_at, updated_at)
VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)
"""

_UPDATE_LOBBY = """
UPDATE tables SET seats = ?, options = ?, updated_at = ?
WHERE id = ? AND status = 'lobby'
"""
_UPDATE_LOBBY_AND_MESSAGE = """
UPDATE tables SET seats = ?, options = ?, updated_at = ?, message_id = ?
WHERE id = ? AND status = 'lobby'
"""
_SET_MESSAGE = "UPDATE tables SET message_id = ?, updated_at = ? WHERE id = ?"
_MOVE_TO_THREAD = """
UPDATE tables SET parent_channel_id = channel_id, channel_id = ?, message_id = NULL,
                  updated_at = ?
WHERE id = ? AND parent_channel_id IS NULL
"""

_START_GAME = """
UPDATE tables
SET status = 'playing', seats = ?, state = ?, version = 0, buy_deadline = ?, turn_deadline = ?,
    away = ?, updated_at = ?
WHERE id = ? AND status = 'lobby'
"""

# The version check and the write are one statement: no window between reading and writing.
_SAVE_STATE = """
UPDATE tables
SET state = ?, version = ?, buy_deadline = ?, turn_deadline = ?, away = ?, updated_at = ?
WHERE id = ? AND version = ? AND status = 'playing'
"""
# A kick: the away flags alone, no action and no new version (the lock is the service's).
_SET_AWAY = "UPDATE tables SET away = ?, updated_at = ? WHERE id = ? AND status = 'playing'"
_INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)"
)

_FINISH_GAME = """
UPDATE tables
SET state = ?, status = ?, version = ?, buy_deadline = NULL, turn_deadline = NULL,
    updated_at = ?
WHERE id = ? AND version = ? AND status = 'playing'
"""
# guild_id and game_kind come from the table row, so the caller cannot file them wrongly.
# The season is the guild's current one (data.ranking).
_INSERT_RESULT = """
INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat, total, is_winner,
                     deals_out, blind_outs, buys_used, finished_at, ranked, place, season)
SELECT id, guild_id, game_kind, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM tables WHERE id = ?
"""

_END_TABLE = """
UPDATE tables SET status = ?, buy_deadline = NULL, turn_deadline = NULL, updated_at = ?
WHERE id = ? AND status IN ('lobby', 'playing')
"""

_SELECT_ACTIONS = """
SELECT table_id, seq, user_id, action, created_at FROM actions WHERE table_id = ? ORDER BY seq
"""
_SELECT_RESULTS = """
SELECT user_id, name, seat, total, is_winner, deals_out, blind_outs, buys_used, place
FROM results WHERE table_id = ? ORDER BY seat
"""

# A player's display name is the one from their latest game (they may have renamed since).
_LATEST_NAME = """
(SELECT latest.name FROM results AS latest
 WHERE latest.guild_id = :guild_id AND latest.game_kind = :game_kind
   AND latest.user_id = r.user_id
 ORDER BY latest.finished_at DESC, latest.table_id DESC LIMIT 1)
"""


def _player_stats_sql(lower_better: bool) -> str:
    best = "MIN" if lower_better else "MAX"
    return f"""
SELECT COUNT(*) AS games, SUM(r.is_winner) AS wins, AVG(r.total) AS average_total,
       {best}(r.total) AS best_total, SUM(r.deals_out) AS deals_out,
       SUM(r.blind_outs) AS blind_outs, SUM(r.buys_used) AS buys_used, {_LATEST_NAME} AS name
FROM results AS r
WHERE r.guild_id = :guild_id AND r.game_kind = :game_kind AND r.user_id = :user_id
"""


_PLAYER_STATS_SQL: Final = {flag: _player_stats_sql(flag) for flag in (True, False)}


async def _connect(path: str | Path) -> aiosqlite.Connection:
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
    trip to the thread (``_run_steps``) instead of one trip per statement; aiosqlite offers no
    public way to run a function there. Like ``daemon_worker``, this reaches into it, and
    ``tests/data/test_sqlite_store.py`` fails if aiosqlite changes what it uses."""
    return cast(_T, await db._execute(lambda: fn(db._conn)))  # type: ignore[no-untyped-call]


#: A write of a group: statements run on the writer's thread, in the transaction (and in a
#: savepoint of its own) that ``_run_steps`` holds; it raises to refuse, and its result is the
#: write's answer.
Step = Callable[[sqlite3.Connection], Any]


@dataclass(frozen=True, slots=True)
class _Write:
    """One write queued for the writer: a ``Step`` that joins a group, or an async ``body``
    (several awaited statements: a game's finish with its ratings) that runs alone."""

    step: Step | None = None
    body: Callable[[aiosqlite.Connection], Awaitable[Any]] | None = None


def _joins(write: _Write) -> bool:
    return write.step is not None


def _run_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> list[tuple[bool, Any]]:
    """On the writer's thread, inside the transaction ``_begin`` opened: every step in a
    savepoint of its own (a step that raises takes back only its own statements), then one
    ``COMMIT`` for all. Returns ``(True, answer)`` or ``(False, error)`` per step.

    If SQLite itself rolled the transaction back (a full disk, an I/O error: it does so for
    these), or the commit fails, nothing of the group was written: this raises, and every
    member gets the error."""
    outcomes: list[tuple[bool, Any]] = []
    try:
        for step in steps:
            conn.execute("SAVEPOINT member")
            try:
                value = step(conn)
            except Exception as error:
                if not conn.in_transaction:
                    raise
                conn.execute("ROLLBACK TO member")
                conn.execute("RELEASE member")
                outcomes.append((False, error))
            else:
                conn.execute("RELEASE member")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


def _begin_by(conn: sqlite3.Connection, deadline: float) -> None:
    """On the writer's thread: ``BEGIN IMMEDIATE`` again every ``_RETRY_PAUSE`` while another
    program holds the write lock; ``StoreBusy`` (nothing begun) once ``deadline`` is near."""
    while True:
        if time.perf_counter() + _RETRY_PAUSE >= deadline:
            raise StoreBusy()
        time.sleep(_RETRY_PAUSE)
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise


def _stale_now(
    conn: sqlite3.Connection,
    table_id: int,
    wanted_status: TableStatus,
    expected_version: int | None = None,
) -> Exception:
    """Explain why a guarded UPDATE matched no row: unknown table, or it moved on."""
    rows = conn.execute(_SELECT_TABLE, (table_id,)).fetchall()
    if not rows:
        return TableNotFound(table_id)
    row = rows[0]
    return StaleVersion(
        table_id,
        expected_version=expected_version,
        actual_version=row["version"],
        status=row["status"],
        wanted_status=wanted_status,
    )


class SqliteSql:
    """A connection as ``data.ranking``'s shared queries use it (SQLite takes ``?`` as is)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query."""
        return list(await self.conn.execute_fetchall(sql, args))

    async def execute(self, sql: str, *args: Any) -> None:
        """Run one statement."""
        await self.conn.execute(sql, args)


class SqliteStore(BoardCalls):
    """Tables, game state, deadlines and results in one SQLite file.

    Make one with ``await SqliteStore.open(path)`` at start-up (it migrates the schema) and
    ``await store.close()`` at shutdown, or use it as ``async with await SqliteStore.open(...)``.
    """

    #: Called with the seconds each committed write took, waits for the writer and the lock
    #: included (``bot.process.metrics`` sets it for its commit latency histogram); ``None``:
    #: unused.
    commit_observer: Callable[[float], None] | None = None

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
        #: Taken by ``close`` (closing twice is harmless).
        self._lock = asyncio.Lock()
        #: Every write waits here for its group (``data.group_commit``): one writer, one group
        #: in flight at a time.
        self._groups: GroupQueue[_Write] = GroupQueue(self._commit_group, joins=_joins)
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
            _create_private(Path(path))
        db = await _connect(path)
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
                reader = await _connect(path)
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

    async def __aenter__(self) -> SqliteStore:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- plumbing ---------------------------------------------------------------------------

    def _now(self) -> float:
        return self._clock()

    async def _board_read(self, work: Callable[[ranking.Sql], Awaitable[_T]]) -> _T:
        """``work`` on the reader: like the other statistics, never queued behind a write."""
        return await work(SqliteSql(self._reader))

    async def _board_write(self, work: Callable[[ranking.Sql], Awaitable[_T]]) -> _T:
        """``work`` as one write transaction."""

        async def body(db: aiosqlite.Connection) -> _T:
            return await work(SqliteSql(db))

        return await self._write(body)

    async def _read(self, sql: str, parameters: Sequence[Any] | Mapping[str, Any]) -> list[Any]:
        """All rows of one query, on the reader: never queued behind a write."""
        return list(await self._reader.execute_fetchall(sql, parameters))

    async def _read_table(
        self, sql: str, parameters: Sequence[Any] | Mapping[str, Any]
    ) -> list[Any]:
        """Like ``_read``, after the write running now (if any), so a caller reads its writes.

        A write that is waiting for another program's lock has written nothing yet and is not
        waited for.
        """
        await self._settled.wait()
        return await self._read(sql, parameters)

    async def _write(self, body: Callable[[aiosqlite.Connection], Awaitable[_T]]) -> _T:
        """Run ``body`` as a transaction of its own: queued with the others, all-or-nothing,
        and immune to cancelling (see ``_submit``). For writes of several awaited statements;
        the others are ``_step``s, which share their transaction."""
        return cast(_T, await self._submit(_Write(body=body)))

    async def _step(self, step: Step) -> Any:
        """Run ``step`` in the next group's transaction (``data.group_commit``), in a savepoint
        of its own; its answer once the group has committed."""
        return await self._submit(_Write(step=step))

    async def _submit(self, write: _Write) -> Any:
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
        return await asyncio.shield(self._queued(write, time.perf_counter() + PLAYER_WAIT_SECONDS))

    async def _queued(self, write: _Write, deadline: float) -> Any:
        # Reads of a table wait from here until the commit (see ``_read_table``).
        self._settled.clear()
        return await self._groups.submit(write, deadline)

    async def _background_submit(self, write: _Write) -> Any:
        """A write nobody is waiting for: it queues behind the other background writes, not in
        the writer's queue, so at most one of them is ever ahead of a player's write; once at
        the front it tries for the lock ``PLAYER_WAIT_SECONDS`` at a time (which keeps the rule
        that no write ahead has a later deadline), again and again while another program holds
        the file (a backup), and raises ``StoreBusy`` only once ``BACKGROUND_WAIT_SECONDS``
        have passed in all."""
        give_up = time.perf_counter() + BACKGROUND_WAIT_SECONDS
        async with self._background_gate:
            while True:
                now = time.perf_counter()
                if now >= give_up:
                    raise StoreBusy()
                try:
                    return await self._queued(write, min(give_up, now + PLAYER_WAIT_SECONDS))
                except StoreBusy:  # refused before it ran: nothing was written
                    continue

    async def _commit_group(self, group: list[Member[_Write]]) -> None:
        """One transaction for ``group`` (``data.group_commit`` answers what this leaves)."""
        self._settled.clear()
        try:
            body = group[0].work.body
            if body is not None:
                await self._commit_body(group[0], body)
            else:
                await self._commit_steps(group)
        finally:
            self._settled.set()

    def _observe(self, member: Member[_Write]) -> None:
        if self.commit_observer is not None:
            self.commit_observer(time.perf_counter() - member.queued)

    @staticmethod
    def _in_time(group: list[Member[_Write]]) -> list[Member[_Write]]:
        """The members still within their deadline; the others are refused, unwritten."""
        now = time.perf_counter()
        for member in group:
            if now >= member.deadline:
                member.fail(StoreBusy())
        return [member for member in group if now < member.deadline]

    async def _commit_body(
        self, member: Member[_Write], body: Callable[[aiosqlite.Connection], Awaitable[Any]]
    ) -> None:
        # No timer bounds the wait in the queue: every write ahead gives up by its own
        # deadline, which comes no later than this one's, and then so does this one.
        if not self._in_time([member]):
            return
        await self._begin(member.deadline)
        try:
            result = await body(self._db)
            await self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise
        self.commits += 1
        self._observe(member)
        member.succeed(result)

    async def _commit_steps(self, group: list[Member[_Write]]) -> None:
        group = self._in_time(group)
        while group:
            # Each member waits for another program's lock until its own deadline, no longer:
            # when the earliest deadline passes, those members are refused and the rest go on.
            first = min(member.deadline for member in group)
            try:
                await self._begin(first)
                break
            except StoreBusy:
                for member in group:
                    if member.deadline <= first:
                        member.fail(StoreBusy())
                group = [member for member in group if member.deadline > first]
        if not group:
            return
        self._groups.take_more(group)  # the writes that came while it waited for the lock
        group = self._in_time(group)
        steps = [member.work.step for member in group if member.work.step is not None]
        outcomes = await on_worker_thread(self._db, lambda conn: _run_steps(conn, steps))
        self.commits += 1
        for member, (ok, value) in zip(group, outcomes, strict=True):
            if ok:
                self._observe(member)
                member.succeed(value)
            else:
                member.fail(value)

    async def _begin(self, deadline: float) -> None:
        """``BEGIN IMMEDIATE``, retried while another program holds the lock, until ``deadline``.

        While it retries, ``_settled`` is set: nothing is written yet, so reads need not wait.
        The retries run on the writer's thread (``_begin_by``), which has nothing else to do
        meanwhile: the group's task waits on one answer instead of a timer per attempt.
        """
        if time.perf_counter() >= deadline:
            raise StoreBusy()  # waited out behind this process's other writes
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise
        self._settled.set()
        try:
            await on_worker_thread(self._db, lambda conn: _begin_by(conn, deadline))
        finally:
            self._settled.clear()

    @staticmethod
    async def _stale(
        db: aiosqlite.Connection,
        table_id: int,
        wanted_status: TableStatus,
        expected_version: int | None = None,
    ) -> Exception:
        """Explain why a guarded UPDATE matched no row: unknown table, or it moved on."""
        rows = list(await db.execute_fetchall(_SELECT_TABLE, (table_id,)))
        if not rows:
            return TableNotFound(table_id)
        row = rows[0]
        return StaleVersion(
            table_id,
            expected_version=expected_version,
            actual_version=row["version"],
            status=row["status"],
            wanted_status=wanted_status,
        )

    # -- tables -----------------------------------------------------------------------------

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

        def step(db: sqlite3.Connection) -> TableRecord:
            existing = db.execute(_SELECT_OPEN_IN_CHANNEL, (channel_id,)).fetchall()
            if existing:
                raise TableExists(_table_record(existing[0]))
            cursor = db.execute(
                _INSERT_TABLE,
                (
                    guild_id,
                    channel_id,
                    game_kind,
                    host_id,
                    _seats_json(seats),
                    dumps(dict(options)),
                    now,
                    now,
                ),
            )
            rows = db.execute(_SELECT_TABLE, (cursor.lastrowid,)).fetchall()
            return _table_record(rows[0])

        return cast(TableRecord, await self._step(step))

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, in any status, or ``None``."""
        rows = await self._read_table(_SELECT_TABLE, (table_id,))
        return _table_record(rows[0]) if rows else None

    async def get_open_table(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or game in progress, or ``None`` if it is free."""
        rows = await self._read_table(_SELECT_OPEN_IN_CHANNEL, (channel_id,))
        return _table_record(rows[0]) if rows else None

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the owned shards, oldest first (for restore).

        A row that does not decode is ended and logged instead (``data.unreadable``)."""
        rows = await self._read_table(self._open_tables_sql, ())
        records, broken = decode_open(rows, _table_record)
        for table_id in broken:
            await self.end_table(table_id)
        return records

    async def update_lobby(
        self,
        table_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
        message_id: int | Literal[Keep.KEEP] | None = KEEP,
    ) -> None:
        """Replace a lobby's seats and options (and its message id, when given).

        Raises ``StaleVersion`` if the table is no longer a lobby, ``TableNotFound`` if unknown.
        """
        now = self._clock()
        seats_json, options_json = _seats_json(seats), dumps(dict(options))

        def step(db: sqlite3.Connection) -> None:
            if message_id is KEEP:
                cursor = db.execute(_UPDATE_LOBBY, (seats_json, options_json, now, table_id))
            else:
                cursor = db.execute(
                    _UPDATE_LOBBY_AND_MESSAGE, (seats_json, options_json, now, message_id, table_id)
                )
            if cursor.rowcount != 1:
                raise _stale_now(db, table_id, "lobby")

        await self._step(step)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember which Discord message shows the table, in any status (it may be re-posted).

        Raises ``TableNotFound`` if the id is unknown.
        """
        now = self._clock()

        def step(db: sqlite3.Connection) -> None:
            if db.execute(_SET_MESSAGE, (message_id, now, table_id)).rowcount != 1:
                raise TableNotFound(table_id)

        await self._step(step)

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The table plays on in thread ``thread_id`` (``Store.move_to_thread``)."""
        now = self._clock()

        async def body(db: aiosqlite.Connection) -> None:
            cursor = await db.execute(_MOVE_TO_THREAD, (thread_id, now, table_id))
            if cursor.rowcount != 1:
                raise TableNotFound(table_id)

        await self._write(body)

    # -- the game ---------------------------------------------------------------------------

    async def start_game(
        self,
        table_id: int,
        seats: Sequence[Seat],
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
    ) -> None:
        """Turn a lobby into a game: final seats, the engine's first state, version 0.

        Every seat starts with a clean ``AwayState``. Raises ``StaleVersion`` if the table is not
        a lobby any more (started twice, or ended), ``TableNotFound`` if unknown.
        """
        now = self._clock()
        parameters = (
            _seats_json(seats),
            state_json,
            buy_deadline,
            turn_deadline,
            _away_json([AwayState()] * len(seats)),
            now,
            table_id,
        )

        def step(db: sqlite3.Connection) -> None:
            if db.execute(_START_GAME, parameters).rowcount != 1:
                raise _stale_now(db, table_id, "lobby")

        await self._step(step)

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
            _away_json(away),
            now,
            table_id,
            expected_version,
        )
        insert = (table_id, new_version, user_id, action_text, now)

        def step(db: sqlite3.Connection) -> int:
            if db.execute(_SAVE_STATE, update).rowcount != 1:
                raise _stale_now(db, table_id, "playing", expected_version)
            db.execute(_INSERT_ACTION, insert)
            return new_version

        return cast(int, await self._step(step))

    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None:
        """Replace a game's away flags without logging an action (the host removed a player).

        Raises ``StaleVersion`` if the table is not playing, ``TableNotFound`` if unknown.
        """
        now = self._clock()

        away_json = _away_json(away)

        def step(db: sqlite3.Connection) -> None:
            if db.execute(_SET_AWAY, (away_json, now, table_id)).rowcount != 1:
                raise _stale_now(db, table_id, "playing")

        await self._step(step)

    async def finish_game(
        self,
        table_id: int,
        expected_version: int,
        state_json: str,
        results: Sequence[ResultRow],
        status: Literal["finished", "ended"] = "finished",
        *,
        user_id: int | None = None,
        action_text: str | None = None,
        ranked: bool = False,
    ) -> int:
        """Close a game: final state, ``status``, deadlines cleared, and its result rows.

        ``ranked`` marks the people's rows ranked (a computer's never is) and updates their
        ratings of the guild's current season in the same transaction (``data.ranking``).

        One transaction, with the same version check as ``save_action``. Pass ``user_id`` and
        ``action_text`` to log the game-ending action in the same transaction (the version then
        advances by one); otherwise save that action first and pass the version it returned.
        Which seats get a result row (normally humans only) is the caller's choice. Returns the
        final version. Raises ``StaleVersion`` or ``TableNotFound`` as ``save_action`` does.
        """
        if (user_id is None) != (action_text is None):
            raise ValueError("pass both user_id and action_text, or neither")
        now = self._clock()
        new_version = expected_version if user_id is None else expected_version + 1
        result_rows = [
            (
                r.user_id,
                r.name,
                r.seat,
                r.total,
                int(r.is_winner),
                r.deals_out,
                r.blind_outs,
                r.buys_used,
                now,
                int(ranked and r.user_id > 0),
                r.place,
            )
            for r in results
        ]

        async def body(db: aiosqlite.Connection) -> int:
            cursor = await db.execute(
                _FINISH_GAME, (state_json, status, new_version, now, table_id, expected_version)
            )
            if cursor.rowcount != 1:
                raise await self._stale(db, table_id, "playing", expected_version)
            if user_id is not None:
                await db.execute(_INSERT_ACTION, (table_id, new_version, user_id, action_text, now))
            sql = SqliteSql(db)
            [table] = await sql.fetch("SELECT guild_id FROM tables WHERE id = ?", table_id)
            season = await ranking.current_season(sql, table["guild_id"])
            await db.executemany(_INSERT_RESULT, [(*row, season, table_id) for row in result_rows])
            if ranked:
                await ranking.rate_ranked_game(sql, table_id, results, season, now)
            return new_version

        return await self._write(body)

    async def end_table(self, table_id: int, status: EndStatus = "ended") -> bool:
        """Close a lobby or game without results; frees the channel. ``status`` tells how:
        ``ended`` (the host ended it) or ``abandoned`` (its channel went, nobody played).

        Returns ``False`` if the table was already closed (its status then stays), so calling
        twice is harmless. Raises ``TableNotFound`` if the id is unknown.
        """
        if status not in END_STATUSES:
            raise ValueError(f"a table ends with status 'ended' or 'abandoned', not {status!r}")
        now = self._clock()

        def step(db: sqlite3.Connection) -> bool:
            if db.execute(_END_TABLE, (status, now, table_id)).rowcount == 1:
                return True
            if not db.execute(_SELECT_TABLE, (table_id,)).fetchall():
                raise TableNotFound(table_id)
            return False

        return cast(bool, await self._step(step))

    # -- history ----------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """A table's action log in order: enough, with the engine's seed, to replay its game."""
        rows = await self._read_table(_SELECT_ACTIONS, (table_id,))
        return [ActionRecord(*row) for row in rows]

    async def table_results(self, table_id: int) -> list[ResultRow]:
        """The result rows ``finish_game`` stored for a table, by seat."""
        rows = await self._read(_SELECT_RESULTS, (table_id,))
        return [result_row(row) for row in rows]

    async def player_stats(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerStats | None:
        """One player's record at one game in a guild, or ``None`` if they have no results."""
        lower_better = lower_is_better(game_kind)
        rows = await self._read(
            _PLAYER_STATS_SQL[lower_better],
            {"guild_id": guild_id, "game_kind": game_kind, "user_id": user_id},
        )
        row = rows[0]
        if row["games"] == 0:
            return None
        return stats_record(row, user_id, game_kind)

    # -- settings of the deployment ---------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults as last stored (``{}`` when it has none)."""
        rows = await self._read(_GET_GUILD_SETTINGS, (guild_id,))
        if not rows:
            return {}
        value = json.loads(rows[0]["settings"])
        return value if isinstance(value, dict) else {}

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace a server's defaults with ``settings``."""
        text = json.dumps(dict(settings), sort_keys=True)
        now = self._clock()

        def step(db: sqlite3.Connection) -> None:
            db.execute(_SET_GUILD_SETTINGS, (guild_id, text, now))

        await self._step(step)

    async def get_meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. the hash of the synced commands)."""
        rows = await self._read(_GET_META, (key,))
        return str(rows[0]["value"]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Remember ``value`` under ``key``, replacing any earlier one."""

        def step(db: sqlite3.Connection) -> None:
            db.execute(_SET_META, (key, value))

        await self._step(step)
