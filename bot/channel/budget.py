"""The bot token's budget of REST calls, counted by the bot itself.

Discord allows a bot token about 50 requests a second across all its processes (interaction
responses and their follow-ups do not count) and answers more with a *global* 429 that stops
every table of every process at once. discord.py waits out a 429 once it has one; nothing in it
keeps a token from earning one. So every REST call this process makes on the token goes
through a ``TokenBudget``: at most ``limit`` calls in any ``window`` (by default 90% of this
process's share of the token, the share being its shards out of all shards), and when the
window is full the waiting calls go out in order of priority, not of arrival:

- ``URGENT``: whatever nobody tagged (a command's own calls, a DM, a thread to open);
- ``PING``: a table message moved to ping a player whose turn began (and its strips);
- ``RECAP``: a deal's score sheet, the notice lines;
- ``TABLE``: an edit of a table message that only spectators read;
- ``STRIP``: taking the controls off a table message's old copy once its new copy is posted
  through a click (``Placement._strip_later``): the new copy shows the game already and the
  old copy's controls still act on the table, so nobody waits for it.

Low priorities also wait for *room* before they take anything out of their outbox
(``wait_room``): a spectator's table edit goes only while the window has more than 15%
free, so under load a table's changes keep merging into one later edit drawn from its latest
state, and the calls players wait for find the window open. Nothing is dropped: what waits is
the next draw of the table's last state.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

log = logging.getLogger(__name__)

#: Discord's global limit for one bot token, in requests a second.
TOKEN_RATE = 50.0
#: The part of its share a process spends: the rest absorbs clock skew between processes
#: and calls made before the budget sees them (the login, the first fetches).
SAFETY = 0.9

URGENT, PING, RECAP, TABLE, STRIP = 0, 1, 2, 3, 4
#: The priorities by name, for the metrics.
PRIORITY_NAMES = {URGENT: "urgent", PING: "ping", RECAP: "recap", TABLE: "table", STRIP: "strip"}
#: The shortest wait between two looks at a full window, in seconds.
MIN_WAIT = 0.001
#: The share of the window a priority may fill before it waits for room (``wait_room``).
ROOM = {URGENT: 1.0, PING: 1.0, RECAP: 0.95, TABLE: 0.85, STRIP: 0.85}

#: The priority the calls made in this task are spent at (``TokenBudget.tagged``).
_priority: ContextVar[int] = ContextVar("shanghai_call_priority", default=URGENT)
#: Whether this task holds room promised by ``wait_room`` that its next call spends.
_holds: ContextVar[bool] = ContextVar("shanghai_call_holds", default=False)


def process_share(shard_ids: int, shard_count: int, rate: float = TOKEN_RATE) -> float:
    """This process's calls a second: the token's rate shared out by shards owned."""
    return rate * SAFETY * max(1, shard_ids) / max(1, shard_count)


class TokenBudget:
    """At most ``limit`` calls in any ``window`` seconds; the rest wait, by priority."""

    def __init__(self, per_second: float = TOKEN_RATE * SAFETY, window: float = 1.0) -> None:
        self.window = window
        self.limit = max(1, int(per_second * window))
        self.calls: deque[float] = deque()
        #: The calls waiting for the window, and the waiters for room (``wait_room``):
        #: (priority, arrival), first in line first.
        self._queue: list[tuple[int, int]] = []
        self._room: list[tuple[int, int]] = []
        #: Room promised by ``wait_room`` and not spent yet, by when it was promised: the
        #: waiters let through together never take more room than there is.
        self.held: deque[float] = deque()
        self._order = itertools.count()
        #: Calls spent, and calls that had to wait for the window: for the metrics and
        #: the benchmark.
        self.spent = 0
        self.waited = 0
        #: The same by priority.
        self.spent_by = dict.fromkeys(PRIORITY_NAMES, 0)
        self.waited_by = dict.fromkeys(PRIORITY_NAMES, 0)

    def _prune(self, now: float) -> None:
        while self.calls and now - self.calls[0] >= self.window:
            self.calls.popleft()
        while self.held and now - self.held[0] >= self.window:
            self.held.popleft()  # let through but never spent: the room is free again

    def used(self) -> float:
        """The share of the window spent or promised (1.0: full), with the calls waiting."""
        self._prune(asyncio.get_running_loop().time())
        return (len(self.calls) + len(self.held) + len(self._queue)) / self.limit

    def has_room(self, priority: int) -> bool:
        """Whether a call of ``priority`` would go out now without crowding one that ranks
        the same or higher (a waiting spectator's edit does not hold back a recap)."""
        if any(rank <= priority for rank, _ in self._queue):
            return False
        return self.used() < ROOM.get(priority, 1.0)

    @contextlib.contextmanager
    def tagged(self, priority: int) -> Iterator[None]:
        """Calls made inside (in this task) are spent at ``priority``."""
        token = _priority.set(priority)
        try:
            yield
        finally:
            _priority.reset(token)

    async def spend(self, priority: int | None = None) -> None:
        """Wait until one more call fits the window (higher priorities first), and count it."""
        loop = asyncio.get_running_loop()
        rank = _priority.get() if priority is None else priority
        self.spent += 1
        self.spent_by[rank] = self.spent_by.get(rank, 0) + 1
        now = loop.time()
        self._prune(now)
        if _holds.get():  # the room this task was promised becomes the call
            _holds.set(False)
            if self.held:
                self.held.popleft()
        if not self._queue and len(self.calls) < self.limit:
            self.calls.append(now)
            return
        self.waited += 1
        self.waited_by[rank] = self.waited_by.get(rank, 0) + 1
        went = await self._line_up(self._queue, rank, None)
        assert went is not None  # a call in line never gives up
        now = went
        self.calls.append(now)

    async def wait_room(self, priority: int, until: Callable[[], bool] | None = None) -> bool:
        """Wait until the window has room for a call of ``priority`` (``ROOM``); counts
        nothing, so what the caller would send keeps merging while it waits. The room is
        held for the caller's next call (for one window at most), so the waiters let
        through together never take more than there is. ``until``: looked at while waiting
        (at least once a window); once true the caller needs no room any more (its call can
        go another way), it leaves the line and False is returned."""
        loop = asyncio.get_running_loop()
        if self.has_room(priority) and not self._room:
            now: float | None = loop.time()
        else:
            now = await self._line_up(self._room, priority, ROOM.get(priority, 1.0), until)
        if now is None:
            return False
        self.held.append(now)
        _holds.set(True)
        return True

    def _fits(self, share: float | None) -> bool:
        """Whether the first in line may go: a call (``share`` None) when the window has a
        free slot, a room waiter when no call waits and the window is below ``share``."""
        if share is None:
            return len(self.calls) < self.limit
        return not self._queue and self.used() < share

    async def _line_up(
        self,
        line: list[tuple[int, int]],
        rank: int,
        share: float | None,
        until: Callable[[], bool] | None = None,
    ) -> float | None:
        """Wait in ``line`` (by ``rank``, then arrival) until this waiter is first and fits;
        returns the time it went (None: ``until`` came true first). Each waiter sleeps until
        the moment the window will have made room for everyone ahead of it, so a freed slot
        wakes about one waiter, not all."""
        loop = asyncio.get_running_loop()
        ticket = (rank, next(self._order))
        heapq.heappush(line, ticket)
        try:
            while True:
                if until is not None and until():
                    return None
                now = loop.time()
                self._prune(now)
                if line[0] == ticket and self._fits(share):
                    heapq.heappop(line)
                    return now
                ahead = sum(1 for other in line if other < ticket)
                await asyncio.sleep(self._turn_in(now, ahead, share))
        finally:
            if ticket in line:  # cancelled while waiting
                line.remove(ticket)
                heapq.heapify(line)

    def _turn_in(self, now: float, ahead: int, share: float | None) -> float:
        """Seconds until the window has let through the ``ahead`` waiters before this one
        and has room for it too (never zero: a clock that only reaches a call's expiry by
        rounding would spin)."""
        if share is None:
            entries, slots = list(self.calls), self.limit
        else:
            entries = list(heapq.merge(self.calls, self.held))
            slots = max(1, int(share * self.limit)) - len(self._queue)
        index = len(entries) + ahead - slots
        if index < 0:
            return MIN_WAIT  # room now: the one ahead is taking its turn
        if index >= len(entries):
            return self.window  # calls not made yet must leave first: look again then
        return max(entries[index] + self.window - now, MIN_WAIT)

    def attach(self, http: Any) -> None:
        """Count every REST call ``http`` (discord.py's ``HTTPClient``) makes on the token;
        interaction responses go another way and are not counted, as Discord does not. A
        budget attached before (a publisher made anew) is replaced, never stacked."""
        request = http.request
        if isinstance(request, Counted):
            request = request.wrapped
        http.request = Counted(self, request)


class Counted:
    """``HTTPClient.request`` behind a budget: each call spends it first."""

    def __init__(self, budget: TokenBudget, wrapped: Callable[..., Awaitable[Any]]) -> None:
        self.budget, self.wrapped = budget, wrapped

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        await self.budget.spend()
        return await self.wrapped(*args, **kwargs)
