"""The timers of events that start by themselves.

``StartTimers`` keeps one sleeping task per event with a start time (tables keep a loop
alarm instead, ``bot.service.timers``, re-armed at every commit): the start time lives in the
event's options in the database, so the runner re-arms every timer at start-up and a start
time that passed while the bot was down fires at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("bot.events")


class StartTimers:
    """One task per event, sleeping until its start time, then calling ``fire``."""

    def __init__(self, clock: Callable[[], float], fire: Callable[[int], Awaitable[None]]) -> None:
        self.clock = clock
        self.fire = fire
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def arm(self, event_id: int, when: float) -> None:
        """(Re)start the event's timer for ``when`` (Unix time)."""
        self.cancel(event_id)
        self._tasks[event_id] = asyncio.get_running_loop().create_task(
            self._sleep_until(event_id, when), name=f"shanghai-event-{event_id}-start"
        )

    def cancel(self, event_id: int) -> None:
        task = self._tasks.pop(event_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def armed(self, event_id: int) -> bool:
        """Whether the event's timer is waiting."""
        task = self._tasks.get(event_id)
        return task is not None and not task.done()

    def close(self) -> None:
        """Stop every timer (shutdown): the database keeps the start times."""
        for event_id in list(self._tasks):
            self.cancel(event_id)

    async def _sleep_until(self, event_id: int, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        if self._tasks.get(event_id) is asyncio.current_task():
            del self._tasks[event_id]
        try:
            await self.fire(event_id)
        except Exception:
            log.exception("event %d: could not start at its start time", event_id)
