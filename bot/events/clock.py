"""The timers of events that start by themselves, and the standings of a table ended early.

``StartTimers`` keeps one sleeping task per event with a start time, as ``Timers`` does for
tables (``bot.service.timers``): the start time lives in the event's options in the
database, so the runner re-arms every timer at start-up and a start time that passed while
the bot was down fires at once.

``finishes_now`` is what an organiser-ended table scores: each person's place by the game's
totals at that moment (lowest first, ties sharing, as in ``bot.service.ranked``: a person the
bot played for ranks after those who stayed), so an event can end a stuck table without
taking its players' progress away.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.service.live import LiveTable
from bot.service.ranked import people_places

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


def finishes_now(table: LiveTable) -> list[tuple[int, int, int]]:
    """``(user, place, total)`` for each person at ``table`` as the game stands now; before
    the first deal (no game yet) everyone shares first place with no score."""
    seats = table.record.seats
    game = table.game
    if game is None:
        return [(seat.user_id, 1, 0) for seat in seats if not seat.is_computer]
    places = people_places(table)
    return [(seats[seat].user_id, place, game.totals[seat]) for seat, place in places.items()]
