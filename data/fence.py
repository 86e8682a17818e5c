"""The ownership fence: at most one live process per shard, held by PostgreSQL advisory locks.

Before a shard process restores a table or connects to Discord, it takes one session advisory
lock per owned shard on a connection of its own, and keeps that connection for its whole life.
A second process started for the same shard (a mistyped ``SHANGHAI_SHARD_IDS``, or a new
deployment while the old one still runs) finds the lock taken: it waits up to ``wait`` seconds
for the owner to stop, then gives up with ``ShardTaken``, so two processes never drive the same
tables. When a process dies, PostgreSQL drops its connection and with it the locks, so a
restarted process takes over at once. The version check on every save stays as the last guard.

The shard count is fenced too: each process holds a *shared* lock on its count, and refuses to
start when another live process uses a different one (shard 1 of 2 and shard 3 of 4 would
otherwise both drive the same guilds).

If the fence's own connection drops while the process lives on (the server restarted, a
network blip), the locks are gone with it. The store calls ``ensure_held`` before every write:
it takes the locks back at once if nobody else did, and otherwise raises ``FenceLost`` for
this and every later write, because another process now drives those tables.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Final

import asyncpg

from .errors import FenceLost, ShardTaken
from .shards import ShardSet

log = logging.getLogger(__name__)

#: First keys of the two-key advisory locks: one space for shard ids, one for shard counts.
SHARD_LOCKS: Final = 0x5348_5344  # "SHSD"
COUNT_LOCKS: Final = 0x5348_434E  # "SHCN"

_POLL_SECONDS: Final = 0.5

_OTHER_COUNTS = """
SELECT DISTINCT objid::int FROM pg_locks
WHERE locktype = 'advisory' AND classid::bigint = $1 AND objsubid = 2 AND objid::int <> $2
  AND granted
"""


class ShardCountMismatch(RuntimeError):
    """Another live process of this database runs with a different shard count."""

    def __init__(self, mine: int, theirs: list[int]) -> None:
        self.mine = mine
        self.theirs = theirs
        super().__init__(
            f"this process was started with SHANGHAI_SHARD_COUNT={mine}, but another process "
            f"on the same database runs with {', '.join(map(str, theirs))}; every process of "
            "one bot must use the same shard count"
        )


class ShardFence:
    """The held locks of one process; ``release`` (or the process dying) lets them go."""

    def __init__(self, conn: asyncpg.Connection, shards: ShardSet, url: str) -> None:
        self._conn = conn
        self.shards = shards
        self._url = url
        self._released = False
        #: Set once another process took a shard while our connection was gone: for good.
        self.lost = False
        self._retaking = asyncio.Lock()

    @classmethod
    async def acquire(cls, url: str, shards: ShardSet, *, wait: float = 0.0) -> ShardFence:
        """Take every owned shard's lock, waiting up to ``wait`` seconds for each one held.

        Raises ``ShardTaken`` naming the first shard still held after the wait, and
        ``ShardCountMismatch`` when another process uses another shard count; the locks taken
        so far are released then.
        """
        conn = await asyncpg.connect(url, server_settings={"application_name": "shanghai fence"})
        try:
            await conn.execute(
                "SELECT pg_advisory_lock_shared($1::int, $2::int)", COUNT_LOCKS, shards.count
            )
            others = [int(r[0]) for r in await conn.fetch(_OTHER_COUNTS, COUNT_LOCKS, shards.count)]
            if others:
                raise ShardCountMismatch(shards.count, others)
            for shard_id in shards.ids:
                await cls._take(conn, shards, shard_id, wait)
        except BaseException:
            await conn.close()  # closing the session releases whatever it held
            raise
        log.info("fence: this process owns %s", shards)
        return cls(conn, shards, url)

    @staticmethod
    async def _take(conn: asyncpg.Connection, shards: ShardSet, shard_id: int, wait: float) -> None:
        started = time.perf_counter()
        warned = False
        while True:
            taken = await conn.fetchval(
                "SELECT pg_try_advisory_lock($1::int, $2::int)", SHARD_LOCKS, shard_id
            )
            if taken:
                return
            waited = time.perf_counter() - started
            if waited >= wait:
                raise ShardTaken(shard_id, shards.count, waited)
            if not warned:
                log.warning(
                    "fence: shard %d is held by another process; waiting up to %.0f s",
                    shard_id,
                    wait,
                )
                warned = True
            await asyncio.sleep(min(_POLL_SECONDS, max(0.0, wait - waited)))

    @property
    def is_held(self) -> bool:
        """Whether the fence's connection (and so its locks) is still alive."""
        return not self.lost and not self._conn.is_closed()

    async def ensure_held(self) -> None:
        """Return if the locks are held; take them back if they were dropped and are free;
        else ``FenceLost`` (now and for good). A server that cannot be reached raises as
        connecting does, and the next write tries again."""
        if self.is_held or self._released:
            return
        async with self._retaking:
            if self.is_held:
                return
            if self.lost:
                raise FenceLost(self.shards)
            try:
                again = await ShardFence.acquire(self._url, self.shards, wait=0.0)
            except (ShardTaken, ShardCountMismatch) as error:
                self.lost = True
                log.critical("fence: lost %s (%s); this process writes no more", self.shards, error)
                raise FenceLost(self.shards) from error
            self._conn = again._conn
            log.warning("fence: the connection dropped; took %s back", self.shards)

    async def release(self) -> None:
        """Let the shards go (at shutdown); harmless twice."""
        self._released = True
        if not self._conn.is_closed():
            await self._conn.close()
