"""Each table's one timer: when it wakes, and what is due when it does.

Two pure questions and one keeper of alarms. ``next_wake`` says when a table next needs attention
(the buy deadline, the turn deadline, a computer's move, an absent seat, an idle game);
``what_is_due`` says what that is at a given moment, as a ``Due``. ``Timers`` keeps one alarm
per table that goes off at the next wake and then hands the table to its ``wake`` callback
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

from bot.ground.logs import at_table
from bot.ground.storage_faults import is_write_refused
from bot.service import pace
from bot.service.buy_window import computer_buyers, standing_buyers
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
    "pause_over",
    "remind",
    "idle_warning",
]

#: How long a deal's recap stands alone before the next deal is shown (the table option
#: ``deal_pause`` overrides it; a table of computers only does not pause).
DEAL_PAUSE_SECONDS = 5.0


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
    #: The buy preference of a person who chose none (a relaxed table's standing order).
    buy_preference: str = "helps"


def _idle_at(table: LiveTable, timings: Timings) -> float:
    idle = pace.idle_seconds(table.record.options, timings.idle_seconds)
    return max(table.last_person, table.record.created_at) + idle


def plays_away_now(table: LiveTable) -> bool:
    """Whether an away seat's turn is played at once: always at a live table; at a relaxed
    one only while some person at the table is present, so a relaxed game nobody is at does
    not play itself out in minutes (its turns then wait out their time, then are played)."""
    if not pace.is_relaxed(table.record.options):
        return True
    return any(
        not seat.is_computer and not table.is_away(number)
        for number, seat in enumerate(table.record.seats)
    )


def reminder_due(table: LiveTable) -> float | None:
    """When the person whose relaxed turn runs now is reminded of it (None: a live table, a
    computer's or away seat's turn, or they were reminded of this turn already)."""
    game = table.game
    if game is None or game.is_over or table.turn_deadline is None:
        return None
    seat = game.current
    if table.is_computer(seat) or table.is_away(seat) or seat >= len(table.away):
        return None
    if table.away[seat].reminded == table.turn_deadline:
        return None
    return pace.reminder_at(table.record.options, table.turn_deadline)


def warning_due(table: LiveTable, timings: Timings) -> float | None:
    """When the people of a relaxed table nobody plays are warned, a day before it ends
    (None: a live table, or they were warned since the last person's action)."""
    if table.game is None or not pace.is_relaxed(table.record.options):
        return None
    if any(state.warned >= table.last_person for state in table.away if state.warned):
        return None
    return _idle_at(table, timings) - pace.RELAXED_IDLE_WARNING


def next_wake(table: LiveTable, now: float, timings: Timings) -> float | None:
    """When ``table`` next needs its timer (None: never, until something changes)."""
    game = table.game
    if table.closed:
        return None
    if game is None:
        return table.record.created_at + pace.lobby_seconds(
            table.record.options, timings.lobby_seconds
        )
    if game.is_over:
        return None
    if table.pause_until is not None:  # nothing is due before the next deal is shown
        return table.backoff.hold(min(table.pause_until, _idle_at(table, timings)))
    window = table.window
    running = window.is_running(game, now)
    times = [t for t in (window.deadline, table.turn_deadline) if t is not None]
    seat = game.current
    if table.is_away(seat) and not table.is_computer(seat) and plays_away_now(table):
        times.append(window.deadline if running and window.deadline else now)
    due = table.auto_due if table.auto_due is not None else now
    if table.is_computer(seat):
        # A computer's turn has no deadline: only the buy window and its delay count.
        times = [t for t in (window.deadline,) if t is not None]
        if game.step == "draw" and window.deadline is not None and running:
            due = max(due, window.deadline)
        times.append(due)
    if computer_buyers(table, now, running=running) or standing_buyers(
        table, now, timings.buy_preference
    ):
        times.append(now)
    times.append(_idle_at(table, timings))
    times.extend(t for t in (reminder_due(table), warning_due(table, timings)) if t is not None)
    return table.backoff.hold(min(times))


def deal_pause(table: LiveTable) -> float:
    """The breath between two deals at ``table``: none when no person plays at it now."""
    people = [
        seat
        for seat in range(len(table.record.seats))
        if not table.is_computer(seat) and not table.is_away(seat)
    ]
    if not people:
        return 0.0
    try:
        return max(0.0, float(table.record.options.get("deal_pause", DEAL_PAUSE_SECONDS)))
    except (TypeError, ValueError):
        return DEAL_PAUSE_SECONDS


def what_is_due(table: LiveTable, now: float, timings: Timings) -> Due | None:
    """The one thing ``table``'s timer must do at ``now``, in order of precedence."""
    game = table.game
    if game is None:
        lobby = pace.lobby_seconds(table.record.options, timings.lobby_seconds)
        if now >= table.record.created_at + lobby:
            return Due("lobby_expired")
        return None
    if game.is_over:
        return None
    if now >= _idle_at(table, timings):
        return Due("idle_expired")
    warn = warning_due(table, timings)
    if warn is not None and now >= warn:
        return Due("idle_warning")
    if table.pause_until is not None:
        return Due("pause_over") if now >= table.pause_until else None
    window = table.window
    if window.deadline is not None and now >= window.deadline:
        return Due("window_over")
    if computer_buyers(table, now) or standing_buyers(table, now, timings.buy_preference):
        return Due("computer_buys")
    due = table.auto_due if table.auto_due is not None else now
    seat = game.current
    if table.is_computer(seat):
        waiting = game.step == "draw" and window.is_running(game, now)
        return Due("computer_move", seat) if now >= due and not waiting else None
    if table.turn_deadline is not None and now >= table.turn_deadline:
        return Due("timeout", seat)
    remind = reminder_due(table)
    if remind is not None and now >= remind:
        return Due("remind", seat)
    if table.is_away(seat) and not window.is_running(game, now) and plays_away_now(table):
        return Due("away_play", seat)
    return None


class Timers:
    """One alarm per table on the loop's clock; at ``next_wake`` it starts a task that runs
    ``wake`` under the table's lock.

    The alarm is a plain ``loop.call_later`` handle rather than a sleeping task: every commit
    re-arms its table, and moving a handle costs a fraction of cancelling one task and
    starting another."""

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
        """(Re)set the table's one alarm for its next deadline. A wake that went off but has
        not begun its work is called off: what is due is asked again when the new alarm goes
        off."""
        self._call_off(table)
        when = next_wake(table, self.clock(), self.timings)
        if when is None:
            return
        table.alarm = asyncio.get_running_loop().call_later(
            max(0.0, when - self.clock()), self._go_off, table
        )

    def disarm(self, table: LiveTable) -> asyncio.Task[None] | None:
        """No more wakes for ``table``; returns a wake still at work (its writes are let
        finish: cancelling one would leave its write to a store that may be closing)."""
        self._call_off(table)
        running = table.timer
        return running if running is not None and not running.done() else None

    def _call_off(self, table: LiveTable) -> None:
        if table.alarm is not None:
            table.alarm.cancel()
            table.alarm = None
        waiting = table.timer
        if waiting is not None and not waiting.done() and not table.timer_busy:
            waiting.cancel()
            table.timer = None

    def _go_off(self, table: LiveTable) -> None:
        table.alarm = None
        if table.closed:
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._run_wake(table), name=f"shanghai-table-{table.id}-timer"
        )

    async def _run_wake(self, table: LiveTable) -> None:
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
                    # The wake's own commit armed the next alarm; a wake that committed
                    # nothing (or failed) arms it here.
                    if not table.closed and table.alarm is None:
                        self.arm(table)
