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
- ``TABLE``: an edit of a table message that only spectators read.

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

URGENT, PING, RECAP, TABLE = 0, 1, 2, 3
#: The shortest wait between two looks at a full window, in seconds.
MIN_WAIT = 0.001
#: The share of the window a priority may fill before it waits for room (``wait_room``).
ROOM = {URGENT: 1.0, PING: 1.0, RECAP: 0.95, TABLE: 0.85}

#: The priority the calls made in this task are spent at (``TokenBudget.tagged``).
_priority: ContextVar[int] = ContextVar("shanghai_call_priority", default=URGENT)


def process_share(shard_ids: int, shard_count: int, rate: float = TOKEN_RATE) -> float:
    """This process's calls a second: the token's rate shared out by shards owned."""
    return rate * SAFETY * max(1, shard_ids) / max(1, shard_count)


class TokenBudget:
    """At most ``limit`` calls in any ``window`` seconds; the rest wait, by priority."""

    def __init__(self, per_second: float = TOKEN_RATE * SAFETY, window: float = 1.0) -> None:
        self.window = window
        self.limit = max(1, int(per_second * window))
        self.calls: deque[float] = deque()
        #: The calls waiting for the window: (priority, arrival), first in line first.
        self._queue: list[tuple[int, int]] = []
        self._order = itertools.count()
        #: Calls spent, and calls that had to wait for the window: for the metrics and
        #: the benchmark.
        self.spent = 0
        self.waited = 0

    def _prune(self, now: float) -> None:
        while self.calls and now - self.calls[0] >= self.window:
            self.calls.popleft()

    def used(self) -> float:
        """The share of the window spent (1.0: full), with the calls waiting for it."""
        self._prune(asyncio.get_running_loop().time())
        return (len(self.calls) + len(self._queue)) / self.limit

    def has_room(self, priority: int) -> bool:
        """Whether a call of ``priority`` would go out now without crowding a higher one."""
        return not self._queue and self.used() < ROOM.get(priority, 1.0)

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
        self.spent += 1
        now = loop.time()
        self._prune(now)
        if not self._queue and len(self.calls) < self.limit:
            self.calls.append(now)
            return
        self.waited += 1
        ticket = (_priority.get() if priority is None else priority, next(self._order))
        heapq.heappush(self._queue, ticket)
        try:
            while True:
                now = loop.time()
                self._prune(now)
                if len(self.calls) < self.limit:
                    if self._queue[0] == ticket:
                        heapq.heappop(self._queue)
                        self.calls.append(now)
                        return
                    await asyncio.sleep(0)  # the first in line is taking its turn
                else:
                    await asyncio.sleep(self._until_room(now))
        finally:
            if ticket in self._queue:  # cancelled while waiting
                self._queue.remove(ticket)
                heapq.heapify(self._queue)

    def _until_room(self, now: float) -> float:
        """Seconds until the oldest call in the window leaves it (never zero: a clock that
        only reaches it by rounding would spin)."""
        return max(self.calls[0] + self.window - now, MIN_WAIT) if self.calls else MIN_WAIT

    async def wait_room(self, priority: int) -> None:
        """Wait until the window has room for a call of ``priority`` (``ROOM``); counts
        nothing, so what the caller would send keeps merging while it waits."""
        loop = asyncio.get_running_loop()
        while not self.has_room(priority):
            await asyncio.sleep(self._until_room(loop.time()))

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
