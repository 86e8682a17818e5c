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
the others run again without it (``_commit_group``). The bot's own writes (a table's timer) and
the writes of several statements (a game's finish) keep a transaction each. The service
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
import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, TypeVar

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from . import ranking
from .board import BoardCalls
from .errors import StaleVersion, StoreBusy, TableExists, TableNotFound
from .fence import ShardFence
from .group_commit import GroupQueue, Member
from .postgres_migrations import apply_migrations
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

#: A connection as the pool lends it (a proxy with the connection's methods).
_Connection = asyncpg.Connection | PoolConnectionProxy

#: Connections per process: enough for the writes of several tables and a leaderboard at once.
POOL_SIZE: Final = 8

#: Group commits in flight at once, each on a pooled connection of its own: while one waits
#: for its commit's fsync, the next runs its statements.
GROUPS_IN_FLIGHT: Final = 2

#: Errors that refuse one statement of a group for its own reasons (a broken constraint, bad
#: data, another session's row lock): that write fails alone and the others are run again
#: without it. Any other error (the server going away, a read-only or full database) would
#: refuse every member alike and fails the whole group.
_ONE_MEMBERS_FAULT: Final = (
    asyncpg.IntegrityConstraintViolationError,
    asyncpg.DataError,
    asyncpg.LockNotAvailableError,
)


#: How often a group the server rolled back (a deadlock between two groups in flight) is run
#: again before its members get the error.
_GROUP_RETRIES: Final = 2


@dataclass(frozen=True, slots=True)
class _Statement:
    """One write of a group: a single statement, answered with its rows (``fetch``) or with
    its status tag (e.g. ``"UPDATE 1"``)."""

    sql: str
    args: tuple[Any, ...]
    fetch: bool


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "jsonb", encoder=dumps, decoder=json.loads, schema="pg_catalog", format="text"
    )


def _table_record(row: asyncpg.Record) -> TableRecord:
    return table_record(row, lambda value: value)  # the jsonb codec has decoded it


_OPEN = "status IN ('lobby', 'playing')"
_SELECT_TABLE = "SELECT * FROM tables WHERE id = $1"
_SELECT_OPEN_IN_CHANNEL = f"SELECT * FROM tables WHERE channel_id = $1 AND {_OPEN}"
_SELECT_OPEN_TABLES = f"SELECT * FROM tables WHERE {_OPEN} ORDER BY id"
_SELECT_OPEN_TABLES_OF_SHARDS = f"""
SELECT * FROM tables WHERE {_OPEN} AND ((guild_id >> 22) % $1) = ANY($2::int[]) ORDER BY id
"""

# The partial unique index decides; a lost race returns no row instead of raising.
_INSERT_TABLE = f"""
INSERT INTO tables (guild_id, channel_id, game_kind, status, host_id, seats, options,
                    created_at, updated_at)
VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $7, $7)
ON CONFLICT (channel_id) WHERE {_OPEN} DO NOTHING
RETURNING *
"""

_UPDATE_LOBBY = """
UPDATE tables SET seats = $1, options = $2, updated_at = $3
WHERE id = $4 AND status = 'lobby'
"""
_UPDATE_LOBBY_AND_MESSAGE = """
UPDATE tables SET seats = $1, options = $2, updated_at = $3, message_id = $5
WHERE id = $4 AND status = 'lobby'
"""
_SET_MESSAGE = "UPDATE tables SET message_id = $1, updated_at = $2 WHERE id = $3"
_MOVE_TO_THREAD = """
UPDATE tables SET parent_channel_id = channel_id, channel_id = $1, message_id = NULL,
                  updated_at = $2
WHERE id = $3 AND parent_channel_id IS NULL
"""

_START_GAME = """
UPDATE tables
SET status = 'playing', seats = $1, state = $2, version = 0, buy_deadline = $3,
    turn_deadline = $4, away = $5, updated_at = $6
WHERE id = $7 AND status = 'lobby'
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
_SET_AWAY = "UPDATE tables SET away = $1, updated_at = $2 WHERE id = $3 AND status = 'playing'"
_INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, user_id, action, created_at) VALUES ($1, $2, $3, $4, $5)"
)

_FINISH_GAME = """
UPDATE tables
SET state = $1, status = $2, version = $3, buy_deadline = NULL, turn_deadline = NULL,
    updated_at = $4
WHERE id = $5 AND version = $6 AND status = 'playing'
"""
_INSERT_RESULT = """
INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat, total, is_winner,
                     deals_out, blind_outs, buys_used, finished_at, ranked, place, season)
SELECT id, guild_id, game_kind, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
FROM tables WHERE id = $13
"""
#: Two games of one guild finishing at once must not both rate from the same old ratings:
#: the rating update takes this transaction lock (two-key advisory locks never collide with
#: the fence's and the migrations' one-key ones).
_RATING_LOCK = "SELECT pg_advisory_xact_lock(1397248587, hashtext($1::text))"

_END_TABLE = f"""
UPDATE tables SET status = $1, buy_deadline = NULL, turn_deadline = NULL, updated_at = $2
WHERE id = $3 AND {_OPEN}
"""

_SELECT_ACTIONS = """
SELECT table_id, seq, user_id, action, created_at FROM actions WHERE table_id = $1 ORDER BY seq
"""
_SELECT_RESULTS = """
SELECT user_id, name, seat, total, is_winner, deals_out, blind_outs, buys_used, place
FROM results WHERE table_id = $1 ORDER BY seat
"""

_LATEST_NAME = """
(SELECT latest.name FROM results AS latest
 WHERE latest.guild_id = $1 AND latest.game_kind = $2 AND latest.user_id = r.user_id
 ORDER BY latest.finished_at DESC, latest.table_id DESC LIMIT 1)
"""

_GET_META = "SELECT value FROM meta WHERE key = $1"
_GET_GUILD_SETTINGS = "SELECT settings FROM guild_settings WHERE guild_id = $1"
_SET_GUILD_SETTINGS = (
    "INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES ($1, $2, $3)"
    " ON CONFLICT (guild_id) DO UPDATE SET settings = $2, updated_at = $3"
)
_SET_META = (
    "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = $2"
)


def _player_stats_sql(lower_better: bool) -> str:
    best = "MIN" if lower_better else "MAX"
    return f"""
SELECT COUNT(*) AS games, COUNT(*) FILTER (WHERE r.is_winner) AS wins,
       AVG(r.total) AS average_total, {best}(r.total) AS best_total,
       SUM(r.deals_out) AS deals_out, SUM(r.blind_outs) AS blind_outs,
       SUM(r.buys_used) AS buys_used, {_LATEST_NAME} AS name
FROM results AS r
WHERE r.guild_id = $1 AND r.game_kind = $2 AND r.user_id = $3
GROUP BY r.user_id
"""


_PLAYER_STATS_SQL: Final = {flag: _player_stats_sql(flag) for flag in (True, False)}


def _in_time(group: list[Member[_Statement]]) -> list[Member[_Statement]]:
    """The members still within their deadline; the others are refused, unwritten."""
    now = time.perf_counter()
    for member in group:
        if now >= member.deadline:
            member.fail(StoreBusy())
    return [member for member in group if now < member.deadline]


class PostgresSql:
    """A connection as ``data.ranking``'s shared queries use it: ``?`` become ``$n``."""

    def __init__(self, conn: _Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        """All rows of one query."""
        return list(await self.conn.fetch(_numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> None:
        """Run one statement."""
        await self.conn.execute(_numbered(sql), *args)


@functools.lru_cache(maxsize=128)
def _numbered(sql: str) -> str:
    return ranking.numbered(sql)


class PostgresStore(BoardCalls):
    """Tables, game state, deadlines and results in a PostgreSQL database shared by shards.

    Make one with ``await PostgresStore.open(url, shards=...)`` at start-up and ``await
    store.close()`` at shutdown (which also releases the fence).
    """

    #: Called with the seconds each committed write took, waits for the writer and the lock
    #: included (``bot.process.metrics`` sets it for its commit latency histogram); ``None``:
    #: unused.
    commit_observer: Callable[[float], None] | None = None

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
        self._groups: GroupQueue[_Statement] = GroupQueue(
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
        ``ShardTaken``. ``fenced=False`` is for tools that only read (and for tests). Raises
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
                init=_init_connection,
                server_settings={
                    "application_name": f"shanghai {shards}",
                    # A player's write gives up on another session's row lock in time.
                    "lock_timeout": str(int(PLAYER_WAIT_SECONDS * 1000)),
                    # An acknowledged move is on the server's disk (issue 25.2). Off (the
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

    async def __aenter__(self) -> PostgresStore:
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
        """``work`` on one pooled connection; like ``_read``, never waits for a write."""
        try:
            async with self._pool.acquire(timeout=PLAYER_WAIT_SECONDS) as conn:
                return await work(PostgresSql(conn))
        except TimeoutError:
            raise StoreBusy() from None

    async def _board_write(self, work: Callable[[ranking.Sql], Awaitable[_T]]) -> _T:
        """``work`` as one write transaction."""

        async def body(conn: _Connection) -> _T:
            return await work(PostgresSql(conn))

        return await self._write(None, body)

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
    async def _write_connection(self) -> AsyncIterator[_Connection]:
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

    async def _write(
        self, table_id: int | None, body: Callable[[_Connection], Awaitable[_T]]
    ) -> _T:
        """Run ``body`` as one transaction, all-or-nothing and immune to cancelling."""
        await self._owned()
        return await self._shielded(table_id, self._transaction(body))

    async def _transaction(self, body: Callable[[_Connection], Awaitable[_T]]) -> _T:
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

    async def _one_statement(
        self, table_id: int | None, sql: str, *args: Any
    ) -> list[asyncpg.Record]:
        """One statement, committed whole: its rows. A player's joins the next group; the
        bot's own writes (``background_writes``) keep a transaction each, and their gate."""
        await self._owned()
        if not is_background_write():
            rows = await self._shielded(table_id, self._grouped(_Statement(sql, args, True)))
            return list(rows)

        async def run() -> list[asyncpg.Record]:
            try:
                async with self._write_connection() as conn:
                    rows = list(await conn.fetch(sql, *args))
            except (TimeoutError, asyncpg.LockNotAvailableError):
                raise StoreBusy() from None
            self.commits += 1
            return rows

        return await self._shielded(table_id, run())

    async def _grouped(self, statement: _Statement) -> Any:
        deadline = time.perf_counter() + PLAYER_WAIT_SECONDS
        return await self._groups.submit(statement, deadline)

    async def _commit_group(self, group: list[Member[_Statement]]) -> None:
        """One transaction on one pooled connection for ``group``'s statements, committed once.

        No savepoints (each would cost two more round trips): a statement refused for its own
        reasons (``_ONE_MEMBERS_FAULT``) aborts the transaction, so it is rolled back, that
        member gets its error, and the others run again without it. A version conflict is no
        error here (the guarded statement matches no row), so the common refusal costs nothing.
        """
        group = _in_time(group)
        while group:
            # Each member waits for a free connection until its own deadline, no longer.
            first = min(member.deadline for member in group)
            try:
                conn = await self._pool.acquire(timeout=max(first - time.perf_counter(), 0.001))
            except TimeoutError:
                for member in group:
                    if member.deadline <= first:
                        member.fail(StoreBusy())
                group = [member for member in group if member.deadline > first]
                continue
            try:
                await self._run_on(conn, _in_time(group))
            finally:
                await self._pool.release(conn)
            return

    async def _run_on(self, conn: _Connection, group: list[Member[_Statement]]) -> None:
        """Commit ``group`` on ``conn``, without each member refused for its own reasons."""
        rollbacks = 0
        while group:
            try:
                refused = await self._run_group(conn, group)
            except asyncpg.TransactionRollbackError:
                # A deadlock with the other group in flight (two writes of one table, in
                # opposite orders): everything was rolled back; run it again.
                rollbacks += 1
                if rollbacks > _GROUP_RETRIES:
                    raise
                continue
            if refused is None:
                return
            index, error = refused
            group.pop(index).fail(
                StoreBusy() if isinstance(error, asyncpg.LockNotAvailableError) else error
            )

    async def _run_group(
        self, conn: _Connection, group: list[Member[_Statement]]
    ) -> tuple[int, Exception] | None:
        """Run and commit ``group``; or roll it back and name the member that was refused.

        A group of one is its statement alone, which the server commits whole: one round trip,
        as a write cost before groups (no ``BEGIN`` and ``COMMIT`` of its own)."""
        if len(group) == 1:
            try:
                answer = await self._run_statement(conn, group[0].work)
            except _ONE_MEMBERS_FAULT as error:
                return 0, error
            self._answer(group, [answer])
            return None
        answers: list[Any] = []
        transaction = conn.transaction()
        await transaction.start()
        try:
            for index, member in enumerate(group):
                try:
                    answers.append(await self._run_statement(conn, member.work))
                except _ONE_MEMBERS_FAULT as error:
                    await transaction.rollback()
                    return index, error
            await transaction.commit()
        except BaseException:
            if not conn.is_closed() and conn.is_in_transaction():
                await transaction.rollback()
            raise
        self._answer(group, answers)
        return None

    @staticmethod
    async def _run_statement(conn: _Connection, statement: _Statement) -> Any:
        if statement.fetch:
            return await conn.fetch(statement.sql, *statement.args)
        return str(await conn.execute(statement.sql, *statement.args))

    def _answer(self, group: list[Member[_Statement]], answers: list[Any]) -> None:
        """The group has committed: answer each member."""
        self.commits += 1
        for member, answer in zip(group, answers, strict=True):
            if self.commit_observer is not None:
                self.commit_observer(time.perf_counter() - member.queued)
            member.succeed(answer)

    async def _stale(
        self, table_id: int, wanted_status: TableStatus, expected_version: int | None = None
    ) -> Exception:
        """Explain why a guarded write matched no row: unknown table, or it moved on."""
        rows = await self._read("SELECT version, status FROM tables WHERE id = $1", table_id)
        if not rows:
            return TableNotFound(table_id)
        return StaleVersion(
            table_id,
            expected_version=expected_version,
            actual_version=rows[0]["version"],
            status=rows[0]["status"],
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
        """Open a lobby in a channel and return it; ``TableExists`` if the channel has one."""
        now = self._clock()
        seats_json = [seat.to_json() for seat in seats]
        while True:
            rows = await self._one_statement(
                None, _INSERT_TABLE, guild_id, channel_id, game_kind, host_id, seats_json,
                dict(options), now,
            )  # fmt: skip
            if rows:
                return _table_record(rows[0])
            existing = await self.get_open_table(channel_id)
            if existing is not None:
                raise TableExists(existing)
            # The open table closed between the two statements: the channel is free, try again.

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, in any status, or ``None``."""
        rows = await self._read_table(table_id, _SELECT_TABLE, table_id)
        return _table_record(rows[0]) if rows else None

    async def get_open_table(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or game in progress, or ``None`` if it is free."""
        rows = await self._read_table(None, _SELECT_OPEN_IN_CHANNEL, channel_id)
        return _table_record(rows[0]) if rows else None

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and game in progress of the owned shards, oldest first (for restore)."""
        if self._shards.is_everything:
            rows = await self._read_table(None, _SELECT_OPEN_TABLES)
        else:
            rows = await self._read_table(
                None, _SELECT_OPEN_TABLES_OF_SHARDS, self._shards.count, list(self._shards.ids)
            )
        records, broken = decode_open(rows, _table_record)  # see data.unreadable
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
        """Replace a lobby's seats and options (and its message id, when given)."""
        now = self._clock()
        seats_json = [seat.to_json() for seat in seats]
        if message_id is KEEP:
            status = await self._execute(
                table_id, _UPDATE_LOBBY, seats_json, dict(options), now, table_id
            )
        else:
            status = await self._execute(
                table_id,
                _UPDATE_LOBBY_AND_MESSAGE,
                seats_json,
                dict(options),
                now,
                table_id,
                message_id,
            )
        if status != "UPDATE 1":
            raise await self._stale(table_id, "lobby")

    async def _execute(self, table_id: int | None, sql: str, *args: Any) -> str:
        """One statement, committed whole (as ``_one_statement``); its status tag (e.g.
        ``"UPDATE 1"``)."""
        await self._owned()
        if not is_background_write():
            tag = await self._shielded(table_id, self._grouped(_Statement(sql, args, False)))
            return str(tag)

        async def run() -> str:
            try:
                async with self._write_connection() as conn:
                    tag = str(await conn.execute(sql, *args))
            except (TimeoutError, asyncpg.LockNotAvailableError):
                raise StoreBusy() from None
            self.commits += 1
            return tag

        return await self._shielded(table_id, run())

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember which Discord message shows the table; ``TableNotFound`` if unknown."""
        status = await self._execute(table_id, _SET_MESSAGE, message_id, self._clock(), table_id)
        if status != "UPDATE 1":
            raise TableNotFound(table_id)

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The table plays on in thread ``thread_id`` (``Store.move_to_thread``)."""
        status = await self._execute(table_id, _MOVE_TO_THREAD, thread_id, self._clock(), table_id)
        if status != "UPDATE 1":
            raise TableNotFound(table_id)

    # -- the game ---------------------------------------------------------------------------

    async def start_game(
        self,
        table_id: int,
        seats: Sequence[Seat],
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
    ) -> None:
        """Turn a lobby into a game: final seats, the engine's first state, version 0."""
        status = await self._execute(
            table_id,
            _START_GAME,
            [seat.to_json() for seat in seats],
            state_json,
            buy_deadline,
            turn_deadline,
            [AwayState().to_json() for _ in seats],
            self._clock(),
            table_id,
        )
        if status != "UPDATE 1":
            raise await self._stale(table_id, "lobby")

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
        rows = await self._one_statement(
            table_id,
            _SAVE_ACTION,
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
        if not rows:
            raise await self._stale(table_id, "playing", expected_version)
        return new_version

    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None:
        """Replace a game's away flags without logging an action (the host removed a player)."""
        away_json = [entry.to_json() for entry in away]
        status = await self._execute(table_id, _SET_AWAY, away_json, self._clock(), table_id)
        if status != "UPDATE 1":
            raise await self._stale(table_id, "playing")

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
        """Close a game with its result rows (and its last action, if given); the version.
        ``ranked`` as in ``SqliteStore.finish_game``: the people's ratings move with it."""
        if (user_id is None) != (action_text is None):
            raise ValueError("pass both user_id and action_text, or neither")
        now = self._clock()
        new_version = expected_version if user_id is None else expected_version + 1
        result_rows = [
            (
                r.user_id, r.name, r.seat, r.total, r.is_winner, r.deals_out, r.blind_outs,
                r.buys_used, now, ranked and r.user_id > 0, r.place,
            )
            for r in results
        ]  # fmt: skip

        async def body(conn: _Connection) -> bool:
            done = await conn.execute(
                _FINISH_GAME, state_json, status, new_version, now, table_id, expected_version
            )
            if done != "UPDATE 1":
                return False
            if user_id is not None:
                await conn.execute(_INSERT_ACTION, table_id, new_version, user_id, action_text, now)
            sql = PostgresSql(conn)
            guild_id = await conn.fetchval("SELECT guild_id FROM tables WHERE id = $1", table_id)
            if ranked:
                await conn.execute(_RATING_LOCK, str(guild_id))
            season = await ranking.current_season(sql, guild_id)
            if result_rows:
                await conn.executemany(
                    _INSERT_RESULT, [(*row, season, table_id) for row in result_rows]
                )
            if ranked:
                await ranking.rate_ranked_game(sql, table_id, results, season, now)
            return True

        if not await self._write(table_id, body):
            raise await self._stale(table_id, "playing", expected_version)
        return new_version

    async def end_table(self, table_id: int, status: EndStatus = "ended") -> bool:
        """Close a lobby or game without results, as ``ended`` or ``abandoned``; ``False`` if
        it was already closed (its status then stays)."""
        if status not in END_STATUSES:
            raise ValueError(f"a table ends with status 'ended' or 'abandoned', not {status!r}")
        done = await self._execute(table_id, _END_TABLE, status, self._clock(), table_id)
        if done == "UPDATE 1":
            return True
        if not await self._read("SELECT 1 FROM tables WHERE id = $1", table_id):
            raise TableNotFound(table_id)
        return False

    # -- history ----------------------------------------------------------------------------

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """A table's action log in order."""
        rows = await self._read_table(table_id, _SELECT_ACTIONS, table_id)
        return [ActionRecord(*row) for row in rows]

    async def table_results(self, table_id: int) -> list[ResultRow]:
        """The result rows ``finish_game`` stored for a table, by seat."""
        rows = await self._read(_SELECT_RESULTS, table_id)
        return [result_row(row) for row in rows]

    async def player_stats(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerStats | None:
        """One player's record at one game in a guild, or ``None`` if they have no results."""
        rows = await self._read(
            _PLAYER_STATS_SQL[lower_is_better(game_kind)], guild_id, game_kind, user_id
        )
        if not rows:
            return None
        row = rows[0]
        return stats_record(row, user_id, game_kind)

    # -- settings of the deployment ---------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """A server's defaults as last stored (``{}`` when it has none)."""
        rows = await self._read(_GET_GUILD_SETTINGS, guild_id)
        if not rows:
            return {}
        value = rows[0]["settings"]  # the jsonb codec has decoded it
        return dict(value) if isinstance(value, dict) else {}

    async def set_guild_settings(self, guild_id: int, settings: Mapping[str, Any]) -> None:
        """Replace a server's defaults with ``settings``."""
        await self._execute(None, _SET_GUILD_SETTINGS, guild_id, dict(settings), self._clock())

    async def get_meta(self, key: str) -> str | None:
        """A value the bot keeps about itself (e.g. the hash of the synced commands)."""
        rows = await self._read(_GET_META, key)
        return str(rows[0]["value"]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        """Remember ``value`` under ``key``, replacing any earlier one."""
        await self._execute(None, _SET_META, key, value)
