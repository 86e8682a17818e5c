"""Each table's one timer: when it wakes, and what is due when it does.

Two pure questions and one task runner. ``next_wake`` says when a table next needs attention
(the buy deadline, the turn deadline, a computer's move, an absent seat, an idle game);
``what_is_due`` says what that is at a given moment, as a ``Due``. ``Timers`` keeps one task
per table that sleeps until the next wake and then hands the table to its ``wake`` callback
under the table's lock; it knows nothing of the rules or the store (RoboDanny's reminder
timer knows nothing of its users either). ``TableService`` carries out what is due through
its one commit. Deadlines live in the database, so ``restore`` re-arms every table after a
restart and past-due deadlines fire at once; the wake's writes are the bot's own
(``data.store.background_writes``), which the store queues apart from players' clicks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from bot.process.logs import at_table
from bot.process.storage_faults import is_write_refused
from bot.service.buy_window import computer_buyers
from bot.service.live import Clock, LiveTable
from data.store import background_writes

log = logging.getLogger("bot.service")

DueKind = Literal[
    "lobby_expired",
    "idle_expired",
    "window_over",
    "computer_buys",
    "computer_move",
    "timeout",
    "away_play",
]


@dataclass(frozen=True)
class Due:
    """What a table's timer must do now; ``seat`` for the moves that concern one seat."""

    kind: DueKind
    seat: int | None = None


@dataclass(frozen=True)
class Timings:
    """The service-wide timings the timer questions depend on."""

    lobby_seconds: float
    idle_seconds: float


def _idle_at(table: LiveTable, timings: Timings) -> float:
    return max(table.last_person, table.record.created_at) + timings.idle_seconds


def next_wake(table: LiveTable, now: float, timings: Timings) -> float | None:
    """When ``table`` next needs its timer (None: never, until something changes)."""
    game = table.game
    if table.closed:
        return None
    if game is None:
        return table.record.created_at + timings.lobby_seconds
    if game.is_over:
        return None
    window = table.window
    running = window.is_running(game, now)
    times = [t for t in (window.deadline, table.turn_deadline) if t is not None]
    seat = game.current
    if table.is_away(seat) and not table.is_computer(seat):
        times.append(window.deadline if running and window.deadline else now)
    due = table.auto_due if table.auto_due is not None else now
    if table.is_computer(seat):
        # A computer's turn has no deadline: only the buy window and its delay count.
        times = [t for t in (window.deadline,) if t is not None]
        if game.step == "draw" and window.deadline is not None and running:
            due = max(due, window.deadline)
        times.append(due)
    if computer_buyers(table, now):
        times.append(now)
    times.append(_idle_at(table, timings))
    return table.backoff.hold(min(times))


def what_is_due(table: LiveTable, now: float, timings: Timings) -> Due | None:
    """The one thing ``table``'s timer must do at ``now``, in order of precedence."""
    game = table.game
    if game is None:
        if now >= table.record.created_at + timings.lobby_seconds:
            return Due("lobby_expired")
        return None
    if game.is_over:
        return None
    if now >= _idle_at(table, timings):
        return Due("idle_expired")
    window = table.window
    if window.deadline is not None and now >= window.deadline:
        return Due("window_over")
    if computer_buyers(table, now):
        return Due("computer_buys")
    due = table.auto_due if table.auto_due is not None else now
    seat = game.current
    if table.is_computer(seat):
        waiting = game.step == "draw" and window.is_running(game, now)
        return Due("computer_move", seat) if now >= due and not waiting else None
    if table.turn_deadline is not None and now >= table.turn_deadline:
        return Due("timeout", seat)
    if table.is_away(seat) and not window.is_running(game, now):
        return Due("away_play", seat)
    return None


class Timers:
    """One sleeping task per table, woken at ``next_wake`` to run ``wake`` under its lock."""

    def __init__(
        self,
        clock: Clock,
        timings: Timings,
        wake: Callable[[LiveTable], Awaitable[None]],
    ) -> None:
        self.clock = clock
        self.timings = timings
        self.wake = wake

    def arm(self, table: LiveTable) -> None:
        """(Re)start the table's one timer task for its next deadline."""
        old = table.timer
        if old is not None and not old.done() and not table.timer_busy:
            old.cancel()
        when = next_wake(table, self.clock(), self.timings)
        if when is None:
            table.timer = None
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._sleep_until(table, when), name=f"shanghai-table-{table.id}-timer"
        )

    async def _sleep_until(self, table: LiveTable, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        me = asyncio.current_task()
        async with table.held():
            if table.timer is not me or table.closed:
                return
            table.timer_busy = True
            try:
                # Nobody waits on a timer's writes: they must not be refused by the limit
                # meant for a player's click (at a restart, every overdue table writes at once).
                with background_writes():
                    await self.wake(table)
            except Exception as error:
                if not table.backoff.failed(self.clock()):
                    pass  # logged when this run of failures began
                elif is_write_refused(error):  # a full disk, a busy store: not a bug
                    log.warning(
                        "%s: the database refused a write (%s); retrying",
                        at_table(table),
                        type(error).__name__,
                    )
                else:
                    log.exception("%s: timer failed; retrying with back-off", at_table(table))
            finally:
                table.timer_busy = False
                if table.timer is me:
                    table.timer = None
                    if not table.closed:
                        self.arm(table)
