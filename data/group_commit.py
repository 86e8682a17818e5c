"""Group commit, shared by both stores: writes that arrive while a commit is in flight are
committed together, in one transaction, by the next group.

Why: on one SQLite writer every write used to be its own ``BEGIN ... COMMIT``, each statement a
round trip to the writer's thread and each commit an fsync; a burst of clicks on 500 tables
queued 500 of them one after another (and a held draw cost one more). A group pays the
transaction's fixed cost (the round trips around the body, the commit, the fsync) once for all
its members, so the busier the bot, the cheaper each write. An idle bot sees no difference: a
write that finds nothing in flight starts its group at once, alone, without waiting for company.

The rules every store keeps (see ``data.sqlite_store`` and ``data.postgres_store``):

- A member's future is answered only after its group's ``COMMIT`` returned: on a durable store
  (the default) acknowledged still means on disk, and a crash loses nothing that was answered.
- A member refused on its own account (a version conflict, a broken constraint) fails alone:
  its own writes are undone, the other members commit. A failure of the transaction itself (the
  commit, a full disk) fails every member of the group, and none of them wrote anything.
- Members run in the order they were submitted; a write that must run alone (``joins`` says
  no: a multi-statement body such as a game's finish with its ratings) is a group of its own,
  in its place in the queue.
- A member's deadline is its own: one that waited past it is refused with ``StoreBusy`` before
  anything of it is written, as a lone write would have been.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, Generic, TypeVar

_W = TypeVar("_W")

#: The most writes one transaction carries: a group this size takes a few milliseconds, so a
#: write arriving behind a burst waits for at most a couple of them, not for the whole burst.
MAX_GROUP: Final = 128


@dataclass(eq=False, slots=True)
class Member(Generic[_W]):
    """One write waiting for (or running in) a group: what to run, by when, and its answer."""

    work: _W
    #: ``time.perf_counter()`` after which it must not start any more (``StoreBusy``).
    deadline: float
    future: asyncio.Future[Any]
    #: When it was submitted (``time.perf_counter()``), for the commit latency it reports.
    queued: float = field(default_factory=time.perf_counter)

    def succeed(self, value: Any) -> None:
        if not self.future.done():
            self.future.set_result(value)

    def fail(self, error: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(error)


class GroupQueue(Generic[_W]):
    """The writes waiting for a transaction, and the task (or tasks) committing them.

    ``commit(group)`` runs one group as one transaction and answers each member (a member it
    leaves unanswered fails; if it raises, every member still unanswered gets the error).
    ``parallel`` groups may be in flight at once: 1 on SQLite (one writer), a few on PostgreSQL
    (a pool of connections).
    """

    def __init__(
        self,
        commit: Callable[[list[Member[_W]]], Awaitable[None]],
        *,
        joins: Callable[[_W], bool],
        parallel: int = 1,
        limit: int = MAX_GROUP,
    ) -> None:
        self._commit = commit
        self._joins = joins
        self._parallel = parallel
        self._limit = limit
        self._queue: deque[Member[_W]] = deque()
        self._tasks: set[asyncio.Task[None]] = set()
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def waiting(self) -> int:
        """Writes queued and not yet taken into a group."""
        return len(self._queue)

    def submit(self, work: _W, deadline: float) -> asyncio.Future[Any]:
        """Queue ``work``; the future is answered once its group has committed (or failed)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append(Member(work, deadline, future))
        self._idle.clear()
        if len(self._tasks) < self._parallel:
            task = asyncio.ensure_future(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._finished)
        return future

    def take_more(self, group: list[Member[_W]]) -> None:
        """Move the writes queued meanwhile into ``group`` (not yet begun), as far as they may
        join it: a group waiting for another program's lock takes in the writes behind it."""
        if group and self._joins(group[0].work):
            while self._queue and len(group) < self._limit and self._joins(self._queue[0].work):
                group.append(self._queue.popleft())

    async def idle(self) -> None:
        """Return once nothing is queued or in flight."""
        await self._idle.wait()

    def _take(self) -> list[Member[_W]]:
        group = [self._queue.popleft()]
        self.take_more(group)
        return group

    async def _drain(self) -> None:
        while self._queue:
            group = self._take()
            try:
                await self._commit(group)
            except BaseException as error:
                for member in group:
                    member.fail(error)
                if not isinstance(error, Exception):
                    raise
            finally:
                for member in group:
                    member.fail(RuntimeError("the group commit left a write unanswered"))

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():  # the loop is going away: nothing queued will be written
            while self._queue:
                self._queue.popleft().fail(asyncio.CancelledError())
        if self._queue:
            again = asyncio.ensure_future(self._drain())  # submitted as the last one ended
            self._tasks.add(again)
            again.add_done_callback(self._finished)
        elif not self._tasks:
            self._idle.set()
