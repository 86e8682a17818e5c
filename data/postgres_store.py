"""The PostgreSQL ``data.store.Store``, on asyncpg (``pip install '.[postgres]'``).

For a bot past one process: every shard process opens one ``PostgresStore`` on the same
database. Opening takes the ownership fence first (``data.fence``: an advisory lock per owned
shard, so no two processes drive the same tables), then a connection pool, then applies the
migrations under their own advisory lock (``data.postgres_migrations``).

A player's write is a single statement (``save_action`` updates the table and appends to the
log in one ``WITH ... INSERT``, whose ``WHERE version = $n AND status = 'playing'`` is the
version check), and it is committed in a group (``data.group_commit``): the writes arriving
while ``GROUPS_IN_FLIGHT`` groups are in flight run one after another in one transaction on one
pooled connection and commit once, and each caller is answered after that ``COMMIT`` (with
``synchronous_commit`` on, once the server has flushed it). One commit and one pool checkout
(whose release costs a round trip of its own) for many writes, instead of one each. A
statement that fails for its own reasons rolls the group back and is answered with its error;
the others run again without it (``data.postgres_commit``). The bot's own writes (a table's
timer) and the writes of several statements (a game's finish) keep a transaction each. The service
already serialises the writes of one table. Like the SQLite store, every write runs under
``asyncio.shield`` so a cancelled caller cannot tear it.

No call made for a player waits long for the database: taking a pooled connection and waiting
for another session's row lock are both bounded by ``PLAYER_WAIT_SECONDS`` and end in
``StoreBusy``. Reads never wait for writes (MVCC). The bot's own writes (a table's timer, in
``data.store.background_writes``) may wait up to ``BACKGROUND_WAIT_SECONDS`` for a connection,
but hold at most ``POOL_SIZE - 2`` of them, so players' writes always find one soon.

Seats, options and away flags are ``jsonb``, decoded by a codec set on every pooled connection;
the engine's state is ``text`` (see ``migrations/postgres/0001_initial.sql``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

import asyncpg

from .board import BoardCalls
from .errors import StoreBusy, TableExists
from .events import EventCalls
from .fence import ShardFence
from .games import OPEN, PLACE_COLUMNS, GameCalls
from .group_commit import GroupQueue
from .guild_settings import SettingsCalls
from .members import MemberCalls
from .postgres_commit import GroupCommits, Statement, run_statement
from .postgres_connection import Connection, PostgresSql, init_connection
from .postgres_migrations import apply_migrations
from .records import AwayState, GameKind, Seat, TablePlace, TableRecord
from .shards import ShardSet
from .sql import Sql, changed_rows, numbered
from .store import BACKGROUND_WAIT_SECONDS, PLAYER_WAIT_SECONDS, is_background_write

_T = TypeVar("_T")

#: Connections per process: enough for the writes of several tables and a leaderboard at once.
POOL_SIZE: Final = 8

#: Group commits in flight at once, each on a pooled connection of its own: while one waits
#: for its commit's fsync, the next runs its statements.
GROUPS_IN_FLIGHT: Final = 2

_SELECT_OPEN_TABLES = f"SELECT * FROM tables WHERE {OPEN} ORDER BY id"
_SELECT_OPEN_TABLES_OF_SHARDS = f"""
SELECT * FROM tables WHERE {OPEN} AND ((guild_id >> 22) % $1) = ANY($2::int[]) ORDER BY id
"""
_SELECT_OPEN_PLACES = f"SELECT {PLACE_COLUMNS} FROM tables WHERE {OPEN} ORDER BY id"
_SELECT_OPEN_PLACES_OF_SHARDS = f"""
SELECT {PLACE_COLUMNS} FROM tables
WHERE {OPEN} AND ((guild_id >> 22) % $1) = ANY($2::int[]) ORDER BY id
"""

# The partial unique index decides; a lost race returns no row instead of raising.
_INSERT_TABLE = f"""
INSERT INTO tables (guild_id, channel_id, game_kind, status, host_id, seats, options,
                    created_at, updated_at)
VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $7)
ON CONFLICT (channel_id) WHERE {OPEN} DO NOTHING
RETURNING *
"""

# The version check, the state and the log row: one statement, one round trip, all or nothing.
_SAVE_ACTION = """
WITH saved AS (
    UPDATE tables
    SET state = $1, version = $2, buy_deadline = $3, turn_deadline = $4, away = $5,
        updated_at = $6
    WHERE id = $7 AND version = $8 AND status = 'playing'
    RETURNING id
)
INSERT INTO actions (table_id, seq, user_id, action, created_at)
SELECT id, $2, $9, $10, $6 FROM saved
RETURNING seq
"""

#: Two games of one guild finishing at once must not both rate from the same old ratings:
#: the rating update takes this transaction lock (two-key advisory locks never collide with
#: the fence's and the migrations' one-key ones).
_RATING_LOCK = "SELECT pg_advisory_xact_lock(1397248587, hashtext($1::text))"


class PostgresStore(GroupCommits, GameCalls, BoardCalls, SettingsCalls, MemberCalls, EventCalls):
    """Tables, game state, deadlines and results in a PostgreSQL database shared by shards.

    Make one with ``await PostgresStore.open(url, shards=...)`` at start-up and ``await
    store.close()`` at shutdown (which also releases the fence).
    """

    def __init__(
        self,
        pool: asyncpg.Pool,
        fence: ShardFence | None,
        clock: Callable[[], float],
        shards: ShardSet,
    ) -> None:
        """Wrap an open pool on a migrated database; use ``PostgresStore.open`` rather than this."""
        self._pool = pool
        self.fence = fence
        self._clock = clock
        self._shards = shards
        self._closed = False
        #: Writes running now, by table id (``None``: not a table's), for ``_read_table``.
        self._running: dict[asyncio.Future[Any], int | None] = {}
        #: The bot's own writes hold at most this many connections, leaving the rest to players.
        self._background_gate = asyncio.Semaphore(POOL_SIZE - 2)
        #: Players' one-statement writes wait here for their group (``data.group_commit``).
        self._groups: GroupQueue[Statement] = GroupQueue(
            self._commit_group, joins=lambda _: True, parallel=GROUPS_IN_FLIGHT
        )
        #: Transactions committed since opening (a group is one), for benchmarks and tests.
        self.commits = 0

    # -- lifetime ---------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        database: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        shards: ShardSet | None = None,
        fence_wait: float = 0.0,
        fenced: bool = True,
        durable: bool = True,
    ) -> PostgresStore:
        """Take the fence for ``shards`` (default: all), connect, and migrate the database.

        ``fence_wait`` is how long to wait for another process to let a shard go before
        ``ShardTaken``. ``fenced=False`` is for tools that only read, an operator's one-off
        write that touches no live table (``python -m bot member erase``), and tests. Raises
        ``MigrationError`` if the schema cannot be brought up to date.
        """
        url = str(database)
        shards = shards or ShardSet.everything()
        fence = await ShardFence.acquire(url, shards, wait=fence_wait) if fenced else None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=2,
                max_size=POOL_SIZE,
                init=init_connection,
                server_settings={
                    "application_name": f"shanghai {shards}",
                    # A player's write gives up on another session's row lock in time.
                    "lock_timeout": str(int(PLAYER_WAIT_SECONDS * 1000)),
                    # An acknowledged move is on the server's disk. Off (the
                    # admin's choice, SHANGHAI_DURABLE_COMMITS=false): a commit does not wait
                    # for its fsync, and a crash of the *server* loses the last ones.
                    "synchronous_commit": "on" if durable else "off",
                },
            )
            try:
                async with pool.acquire() as conn:
                    await apply_migrations(conn)
            except BaseException:
                await pool.close()
                raise
        except BaseException:
            if fence is not None:
                await fence.release()
            raise
        store = cls(pool, fence, clock, shards)
        try:
            await store._rebuild_if_migrated()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Wait for running calls, close the pool, and let the fence go; harmless twice."""
        if self._closed:
            return
        self._closed = True
        try:
            await self._groups.idle()
            await self._pool.close()
        finally:
            if self.fence is not None:
                await self.fence.release()

    # -- the primitives of the shared calls (data.calls) ------------------------------------

    def _to_json(self, value: Any) -> Any:
        return value  # the jsonb codec encodes it

    def _from_json(self, value: Any) -> Any:
        return value  # the jsonb codec has decoded it

    async def _query(self, sql: str, *args: Any) -> list[Any]:
        return await self._read(numbered(sql), *args)

    async def _query_table(self, table_id: int | None, sql: str, *args: Any) -> list[Any]:
        return await self._read_table(table_id, numbered(sql), *args)

    async def _change(self, table_id: int | None, sql: str, *args: Any) -> int:
        tag = await self._statement(table_id, Statement(numbered(sql), args, False))
        return changed_rows(tag)

    async def _sql_read(self, work: Callable[[Sql], Awaitable[_T]]) -> _T:
        """``work`` on one pooled connection; like ``_read``, never waits for a write."""
        try:
            async with self._pool.acquire(timeout=PLAYER_WAIT_SECONDS) as conn:
                return await work(PostgresSql(conn))
        except TimeoutError:
            raise StoreBusy() from None

    async def _sql_write(
        self, work: Callable[[Sql], Awaitable[_T]], table_id: int | None = None
    ) -> _T:
        """``work`` as one write transaction."""

        async def body(conn: Connection) -> _T:
            return await work(PostgresSql(conn))

        return await self._write(table_id, body)

    # -- reads and writes ---------------------------------------------------------------------

    async def _read(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """All rows of one query on a pooled connection; never waits for a write."""
        try:
            async with self._pool.acquire(timeout=PLAYER_WAIT_SECONDS) as conn:
                return list(await conn.fetch(sql, *args))
        except TimeoutError:
            raise StoreBusy() from None  # every pooled connection stayed busy

    async def _read_table(self, table_id: int | None, sql: str, *args: Any) -> list[Any]:
        """Like ``_read``, after the writes of ``table_id`` (``None``: of any table) that are
        running now, so a caller reads its own writes, even one whose caller was cancelled."""
        running = [t for t, of in self._running.items() if table_id is None or of == table_id]
        if running:
            await asyncio.wait(running)
        return await self._read(sql, *args)

    async def _owned(self) -> None:
        """Every write first checks that this process still owns its shards (``FenceLost``)."""
        if self.fence is not None:
            await self.fence.ensure_held()

    async def _shielded(self, table_id: int | None, work: Awaitable[_T]) -> _T:
        """Run ``work`` to its end even if the caller is cancelled, and let reads of
        ``table_id`` wait for it meanwhile."""
        task = asyncio.ensure_future(work)
        self._running[task] = table_id
        task.add_done_callback(self._running.pop)
        return await asyncio.shield(task)

    @asynccontextmanager
    async def _write_connection(self) -> AsyncIterator[Connection]:
        """A pooled connection for one write, taken within ``PLAYER_WAIT_SECONDS`` (else
        ``TimeoutError``, which the callers turn into ``StoreBusy``).

        The bot's own writes (``data.store.background_writes``: a table's timer) first take
        turns at ``_background_gate``, so they never hold every connection a player's write
        needs, and then wait up to ``BACKGROUND_WAIT_SECONDS`` for a connection: at a restart
        every overdue timer writes at once, and none of them is refused as busy."""
        if not is_background_write():
            async with self._pool.acquire(timeout=PLAYER_WAIT_SECONDS) as conn:
                yield conn
            return
        async with self._background_gate:
            conn = await self._pool.acquire(timeout=BACKGROUND_WAIT_SECONDS)
            try:
                yield conn
            finally:
                await self._pool.release(conn)

    async def _write(self, table_id: int | None, body: Callable[[Connection], Awaitable[_T]]) -> _T:
        """Run ``body`` as one transaction, all-or-nothing and immune to cancelling."""
        await self._owned()
        return await self._shielded(table_id, self._transaction(body))

    async def _transaction(self, body: Callable[[Connection], Awaitable[_T]]) -> _T:
        started = time.perf_counter()
        try:
            async with (
                self._write_connection() as conn,
                conn.transaction(),
            ):
                result = await body(conn)
        except (TimeoutError, asyncpg.LockNotAvailableError):
            raise StoreBusy() from None
        self.commits += 1
        if self.commit_observer is not None:
            self.commit_observer(time.perf_counter() - started)
        return result

    async def _statement(self, table_id: int | None, statement: Statement) -> Any:
        """One statement, committed whole: its rows, or its status tag. A player's joins the
        next group; the bot's own writes (``background_writes``) keep a transaction each, and
        their gate."""
        await self._owned()
        if not is_background_write():
            return await self._shielded(table_id, self._grouped(statement))

        async def run() -> Any:
            try:
                async with self._write_connection() as conn:
                    answer = await run_statement(conn, statement)
            except (TimeoutError, asyncpg.LockNotAvailableError):
                raise StoreBusy() from None
            self.commits += 1
            return answer

        return await self._shielded(table_id, run())

    async def _grouped(self, statement: Statement) -> Any:
        deadline = time.perf_counter() + PLAYER_WAIT_SECONDS
        return await self._groups.submit(statement, deadline)

    async def _lock_ratings(self, sql: Sql, guild_id: int) -> None:
        """Two games of one guild finishing at once must not both rate from the same old
        ratings: the second waits for the first's transaction (``_RATING_LOCK``)."""
        await sql.execute(_RATING_LOCK, str(guild_id))

    # -- what PostgreSQL does its own way ----------------------------------------------------

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        game_kind: GameKind,
        host_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
    ) -> TableRecord:
        """Open a lobby in a channel and return it; ``TableExists`` if the channel has one."""
        now = self._clock()
        seats_json = [seat.to_json() for seat in seats]
        args = (guild_id, channel_id, game_kind, host_id, seats_json, dict(options), now)
        while True:
            rows = await self._statement(None, Statement(_INSERT_TABLE, args, True))
            if rows:
                return self._table(rows[0])
            existing = await self.get_open_table(channel_id)
            if existing is not None:
                raise TableExists(existing)
            # The open table closed between the two statements: the channel is free, try again.

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the owned shards, oldest first (for restore)."""
        if self._shards.is_everything:
            rows = await self._read_table(None, _SELECT_OPEN_TABLES)
        else:
            rows = await self._read_table(
                None, _SELECT_OPEN_TABLES_OF_SHARDS, self._shards.count, list(self._shards.ids)
            )
        return await self._decoded_open(rows)

    async def open_places(self) -> list[TablePlace]:
        """Where each open table of the owned shards is, oldest first (a lazy restore)."""
        if self._shards.is_everything:
            rows = await self._read_table(None, _SELECT_OPEN_PLACES)
        else:
            rows = await self._read_table(
                None, _SELECT_OPEN_PLACES_OF_SHARDS, self._shards.count, list(self._shards.ids)
            )
        return self._places(rows)

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
        """Record one accepted action and the state after it; return the new version."""
        new_version = expected_version + 1
        args = (
            state_json,
            new_version,
            buy_deadline,
            turn_deadline,
            [entry.to_json() for entry in away],
            self._clock(),
            table_id,
            expected_version,
            user_id,
            action_text,
        )
        if not await self._statement(table_id, Statement(_SAVE_ACTION, args, True)):
            raise await self._stale(table_id, "playing", expected_version)
        return new_version
