"""How the PostgreSQL store commits a group of players' writes (``data.group_commit`` makes
the groups).

Each write of a group is one statement (``Statement``). The group runs one statement after
another in one transaction on one pooled connection and commits once, and each caller is
answered after that ``COMMIT``: one commit and one pool checkout (whose release costs a round
trip of its own) for many writes, instead of one each. A statement that fails for its own
reasons rolls the group back and is answered with its error; the others run again without it.
``GroupCommits`` is the store's mixin for this; queueing a write, and how long it may wait, is
``data.postgres_store``'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import asyncpg

from .errors import StoreBusy
from .group_commit import Member
from .postgres_connection import Connection

#: Errors that refuse one statement of a group for its own reasons (a broken constraint, bad
#: data, another session's row lock): that write fails alone and the others are run again
#: without it. Any other error (the server going away, a read-only or full database) would
#: refuse every member alike and fails the whole group.
ONE_MEMBERS_FAULT: Final = (
    asyncpg.IntegrityConstraintViolationError,
    asyncpg.DataError,
    asyncpg.LockNotAvailableError,
)


#: How often a group the server rolled back (a deadlock between two groups in flight) is run
#: again before its members get the error.
GROUP_RETRIES: Final = 2


@dataclass(frozen=True, slots=True)
class Statement:
    """One write of a group: a single statement, answered with its rows (``fetch``) or with
    its status tag (e.g. ``"UPDATE 1"``)."""

    sql: str
    args: tuple[Any, ...]
    fetch: bool


async def run_statement(conn: Connection, statement: Statement) -> Any:
    """Run one write's statement: its rows, or its status tag."""
    if statement.fetch:
        return await conn.fetch(statement.sql, *statement.args)
    return str(await conn.execute(statement.sql, *statement.args))


def in_time(group: list[Member[Statement]]) -> list[Member[Statement]]:
    """The members still within their deadline; the others are refused, unwritten."""
    now = time.perf_counter()
    for member in group:
        if now >= member.deadline:
            member.fail(StoreBusy())
    return [member for member in group if now < member.deadline]


class GroupCommits:
    """The store's side of a group commit: one transaction for a group of ``Statement``s."""

    #: Called with the seconds each committed write took, waits for the writer and the lock
    #: included (``bot.process.metrics`` sets it for its commit latency histogram); ``None``:
    #: unused.
    commit_observer: Callable[[float], None] | None = None

    _pool: asyncpg.Pool
    #: Transactions committed since opening (a group is one), for benchmarks and tests.
    commits: int

    async def _commit_group(self, group: list[Member[Statement]]) -> None:
        """One transaction on one pooled connection for ``group``'s statements, committed once.

        No savepoints (each would cost two more round trips): a statement refused for its own
        reasons (``ONE_MEMBERS_FAULT``) aborts the transaction, so it is rolled back, that
        member gets its error, and the others run again without it. A version conflict is no
        error here (the guarded statement matches no row), so the common refusal costs nothing.
        """
        group = in_time(group)
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
                await self._run_on(conn, in_time(group))
            finally:
                await self._pool.release(conn)
            return

    async def _run_on(self, conn: Connection, group: list[Member[Statement]]) -> None:
        """Commit ``group`` on ``conn``, without each member refused for its own reasons."""
        rollbacks = 0
        while group:
            try:
                refused = await self._run_group(conn, group)
            except asyncpg.TransactionRollbackError:
                # A deadlock with the other group in flight (two writes of one table, in
                # opposite orders): everything was rolled back; run it again.
                rollbacks += 1
                if rollbacks > GROUP_RETRIES:
                    raise
                continue
            if refused is None:
                return
            index, error = refused
            group.pop(index).fail(
                StoreBusy() if isinstance(error, asyncpg.LockNotAvailableError) else error
            )

    async def _run_group(
        self, conn: Connection, group: list[Member[Statement]]
    ) -> tuple[int, Exception] | None:
        """Run and commit ``group``; or roll it back and name the member that was refused.

        A group of one is its statement alone, which the server commits whole: one round trip,
        as a write cost before groups (no ``BEGIN`` and ``COMMIT`` of its own)."""
        if len(group) == 1:
            try:
                answer = await run_statement(conn, group[0].work)
            except ONE_MEMBERS_FAULT as error:
                return 0, error
            self._answer(group, [answer])
            return None
        answers: list[Any] = []
        transaction = conn.transaction()
        await transaction.start()
        try:
            for index, member in enumerate(group):
                try:
                    answers.append(await run_statement(conn, member.work))
                except ONE_MEMBERS_FAULT as error:
                    await transaction.rollback()
                    return index, error
            await transaction.commit()
        except BaseException:
            if not conn.is_closed() and conn.is_in_transaction():
                await transaction.rollback()
            raise
        self._answer(group, answers)
        return None

    def _answer(self, group: list[Member[Statement]], answers: list[Any]) -> None:
        """The group has committed: answer each member."""
        self.commits += 1
        for member, answer in zip(group, answers, strict=True):
            if self.commit_observer is not None:
                self.commit_observer(time.perf_counter() - member.queued)
            member.succeed(answer)
