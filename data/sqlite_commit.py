"""How the SQLite store commits a group of writes (``data.group_commit`` makes the groups).

One ``BEGIN IMMEDIATE`` for the group, retried while another program holds the write lock but
never past a member's deadline (``_begin``, ``begin_by``); then, in one trip to the writer's
thread, every member's statements in a savepoint of their own and one ``COMMIT`` for all
(``run_steps``). A write of several awaited statements (``Write.body``: a game's finish with its
ratings) is a transaction alone (``_commit_body``). ``GroupCommits`` is the store's mixin for
this; queueing a write, and how long it may wait, is ``data.sqlite_store``'s.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

import aiosqlite

from .errors import StoreBusy
from .group_commit import GroupQueue, Member
from .sqlite_connection import Step, Write, is_busy, on_worker_thread

#: Pause between two attempts to take the write lock from another program, in seconds.
RETRY_PAUSE: Final = 0.02


def clock() -> float:
    """The clock of the writes' deadlines: ``time.perf_counter``, a real clock even where a
    test harness (simcord) replaces ``time.monotonic`` with virtual time, because a lock is
    held in real time. Looked up at each call, so a test of the waits can put its own clock
    in its place and step it past each deadline instead of measuring real waits."""
    return time.perf_counter()


def run_steps(conn: sqlite3.Connection, steps: Sequence[Step]) -> list[tuple[bool, Any]]:
    """On the writer's thread, inside the transaction the store's ``_begin`` opened: every step
    in a savepoint of its own (a step that raises takes back only its own statements), then one
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


def begin_by(conn: sqlite3.Connection, deadline: float) -> None:
    """On the writer's thread: ``BEGIN IMMEDIATE`` again every ``RETRY_PAUSE`` while another
    program holds the write lock; ``StoreBusy`` (nothing begun) once ``deadline`` is near."""
    while True:
        if clock() + RETRY_PAUSE >= deadline:
            raise StoreBusy()
        time.sleep(RETRY_PAUSE)
        try:
            conn.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error):
                raise


class GroupCommits:
    """The store's side of a group commit: one transaction for a group of ``Write``s."""

    #: Called with the seconds each committed write took, waits for the writer and the lock
    #: included (``bot.process.metrics`` sets it for its commit latency histogram); ``None``:
    #: unused.
    commit_observer: Callable[[float], None] | None = None

    _db: aiosqlite.Connection
    _groups: GroupQueue[Write]
    #: Clear while a write is running on the writer; table reads wait for it.
    _settled: asyncio.Event
    #: Transactions committed since opening (a group is one), for benchmarks and tests.
    commits: int

    async def _commit_group(self, group: list[Member[Write]]) -> None:
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

    def _observe(self, member: Member[Write]) -> None:
        if self.commit_observer is not None:
            self.commit_observer(time.perf_counter() - member.queued)

    @staticmethod
    def _keep_in_time(group: list[Member[Write]]) -> None:
        """Refuse the members past their deadline, unwritten, and take them out of ``group``.
        In place: should the transaction fail, the group queue answers every member still in
        the list it handed over, the writes taken in later (``take_more``) included."""
        now = clock()
        for member in group:
            if now >= member.deadline:
                member.fail(StoreBusy())
        group[:] = [member for member in group if now < member.deadline]

    async def _commit_body(
        self, member: Member[Write], body: Callable[[aiosqlite.Connection], Awaitable[Any]]
    ) -> None:
        # No timer bounds the wait in the queue: every write ahead gives up by its own
        # deadline, which comes no later than this one's, and then so does this one.
        alone = [member]
        self._keep_in_time(alone)
        if not alone:
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

    async def _commit_steps(self, group: list[Member[Write]]) -> None:
        self._keep_in_time(group)
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
                group[:] = [member for member in group if member.deadline > first]
        if not group:
            return
        self._groups.take_more(group)  # the writes that came while it waited for the lock
        self._keep_in_time(group)
        steps = [member.work.step for member in group if member.work.step is not None]
        outcomes = await on_worker_thread(self._db, lambda conn: run_steps(conn, steps))
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
        The retries run on the writer's thread (``begin_by``), which has nothing else to do
        meanwhile: the group's task waits on one answer instead of a timer per attempt.
        """
        if clock() >= deadline:
            raise StoreBusy()  # waited out behind this process's other writes
        try:
            await self._db.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error):
                raise
        self._settled.set()
        try:
            await on_worker_thread(self._db, lambda conn: begin_by(conn, deadline))
        finally:
            self._settled.clear()
