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
import heapq
import itertools
import logging
import math
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

#: How long a table that left memory waits before its wake tries again, when the store could
#: not give its row back.
RETRY_SECONDS = 5.0

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
    """Every table's next wake in one heap, behind one handle on the loop's clock; at a table's
    wake it starts a task that runs ``wake`` under the table's lock.

    A waiting table costs an entry in the heap, not a handle or a task: the one handle is set
    for the earliest live entry, and an entry a later ``arm`` replaced stays in the heap,
    skipped when it comes up (moving a table's wake is a push, never a search). The handle
    never waits for a replaced entry: when the earliest wake moves later or is called off,
    the handle moves with it (``_aim``), as a table's own handle would have been cancelled.
    A handle left for an instant at which nothing is due would still go off, and on a
    simulated loop (simcord) its going off moves the virtual clock, and with it every other
    table's deadlines, in the middle of whatever the players are doing. A table that left
    memory (``sleep``) keeps its entry under its id alone; when it comes up, ``revive`` brings
    the table back from the store and its wake runs as any other.

    Wakes are kept on the service's clock; the handle sleeps ``when - clock()`` of the loop's
    seconds towards the earliest, as a plain ``call_later`` would, and when it goes off every
    wake up to the one it slept for (or up to the clock, if that is later) goes off with it.
    A simulated clock that jumps is followed by arming again, as before."""

    def __init__(
        self,
        clock: Clock,
        timings: Timings,
        wake: Callable[[LiveTable], Awaitable[None]],
        revive: Callable[[int], Awaitable[LiveTable | None]] | None = None,
    ) -> None:
        self.clock = clock
        self.timings = timings
        self.wake = wake
        #: Brings back a table that left memory when its wake comes (``sleep``).
        self.revive = revive
        #: (clock time, order, table id): every wake armed, and the replaced ones not yet
        #: come up; ``_live`` says which entry of each id is the live one.
        self._heap: list[tuple[float, int, int]] = []
        self._live: dict[int, tuple[float, int]] = {}
        #: The armed tables in memory; an id in ``_live`` but not here is asleep.
        self._tables: dict[int, LiveTable] = {}
        self._order = itertools.count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.Handle | None = None
        #: The wake the handle sleeps for, and whether it goes off at once (it was due).
        self._handle_at = math.inf
        self._handle_now = False
        #: Sleeping tables being read back for their wake.
        self._reviving: set[asyncio.Task[None]] = set()
        #: Set at shutdown: sleeping tables stay asleep.
        self._retired = False

    # -- the public side ----------------------------------------------------------------------

    def arm(self, table: LiveTable) -> None:
        """(Re)set the table's one wake for its next deadline. A wake that went off but has
        not begun its work is called off: what is due is asked again when the new one comes."""
        self._call_off(table)
        when = next_wake(table, self.clock(), self.timings)
        if when is not None:
            self._push(table.id, when)
            self._tables[table.id] = table
            table.alarm = when
        self._aim()

    def disarm(self, table: LiveTable) -> asyncio.Task[None] | None:
        """No more wakes for ``table``; returns a wake still at work (its writes are let
        finish: cancelling one would leave its write to a store that may be closing)."""
        self._call_off(table)
        self._aim()
        running = table.timer
        return running if running is not None and not running.done() else None

    def sleep(self, table: LiveTable) -> float | None:
        """``table`` leaves memory: its wake stays, under its id alone, and brings it back
        (``revive``) when it comes. Returns that wake (None: none)."""
        at = table.alarm
        self._call_off(table)
        if at is not None:
            self._push(table.id, at)
        self._aim()
        return at

    def sleep_until(self, table_id: int, delay: float) -> None:
        """A table not in memory (restored lazily) wakes ``delay`` seconds from now."""
        self._push(table_id, self.clock() + max(0.0, delay))
        self._aim()

    def forget(self, table_id: int) -> None:
        """No wake for the sleeping table ``table_id`` (it ended while asleep)."""
        if table_id not in self._tables:
            self._live.pop(table_id, None)
            self._aim()

    def wake_at(self, table_id: int) -> float | None:
        """When ``table_id`` wakes, on the service's clock (None: not armed)."""
        entry = self._live.get(table_id)
        return None if entry is None else entry[0]

    @property
    def waiting(self) -> int:
        """Wakes armed, of tables in memory and asleep."""
        return len(self._live)

    def halt(self) -> None:
        """Forget every wake at once (a process that is killed, in the soak)."""
        if self._handle is not None:
            self._handle.cancel()
        self._handle, self._handle_at, self._handle_now = None, math.inf, False
        self._heap.clear()
        self._live.clear()
        for table in self._tables.values():
            table.alarm = None
        self._tables.clear()
        for task in list(self._reviving):
            task.cancel()

    async def retire(self) -> None:
        """At shutdown: no sleeping table wakes any more; those being read back now are
        waited for (their read must not meet a closing store). Tables in memory are disarmed
        one by one (``disarm``), their wakes at work let finish."""
        self._retired = True
        while self._reviving:
            await asyncio.gather(*list(self._reviving), return_exceptions=True)

    # -- the heap -----------------------------------------------------------------------------

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests): the old one's handle is gone
            self._loop, self._handle, self._handle_at, self._handle_now = (
                loop,
                None,
                math.inf,
                False,
            )
            self._heap = [(at, n, i) for i, (at, n) in self._live.items()]
            heapq.heapify(self._heap)
        return loop

    def _push(self, table_id: int, at: float) -> None:
        self._running_loop()  # a new loop (tests) rebuilds the heap before it is pushed to
        entry = (at, next(self._order))
        self._live[table_id] = entry
        heapq.heappush(self._heap, (*entry, table_id))
        if len(self._heap) > 2 * len(self._live) + 1024:
            self._compact()

    def _compact(self) -> None:
        """Drop the replaced entries (they outnumber the live ones)."""
        self._heap = [(at, n, i) for i, (at, n) in self._live.items()]
        heapq.heapify(self._heap)

    def _aim(self) -> None:
        """Point the one handle at the earliest live wake, or at nothing when none is left.

        Replaced entries on top of the heap are dropped first (each entry is dropped once, so
        this costs no more than the pushes did). The handle is set again only when that wake
        is not the one it waits for, or when it came due on a clock that jumped while the
        handle still sleeps towards it."""
        try:
            loop: asyncio.AbstractEventLoop | None = self._running_loop()
        except RuntimeError:  # no loop runs (a shutdown's last calls): nothing can go off
            loop = None
        heap = self._heap
        while heap and self._live.get(heap[0][2]) != heap[0][:2]:
            heapq.heappop(heap)
        if not heap:
            if self._handle is not None:
                self._handle.cancel()
            self._handle, self._handle_at, self._handle_now = None, math.inf, False
            return
        at = heap[0][0]
        waits_for_it = self._handle is not None and at == self._handle_at
        if waits_for_it and (self._handle_now or at > self.clock()):
            return
        if loop is not None:
            self._set_handle(loop, at)

    def _set_handle(self, loop: asyncio.AbstractEventLoop, at: float) -> None:
        if self._handle is not None:
            self._handle.cancel()
        delay = max(0.0, at - self.clock())
        # A wake due now goes off in the loop's next turn, not after a timer of no length: a
        # simulated loop moves its clock for those, and the next wake would be set from there.
        if delay == 0.0:
            self._handle = loop.call_soon(self._tick, at)
        else:
            self._handle = loop.call_later(delay, self._tick, at)
        self._handle_at, self._handle_now = at, delay == 0.0

    def _tick(self, slept_for: float) -> None:
        """The handle went off: every wake that has come goes off, then the handle is set
        for the next one."""
        loop = self._running_loop()
        self._handle, self._handle_at, self._handle_now = None, math.inf, False
        now = max(slept_for, self.clock())
        heap = self._heap
        while heap and heap[0][0] <= now:
            at, n, table_id = heapq.heappop(heap)
            if self._live.get(table_id) != (at, n):
                continue  # replaced by a later arm, or called off
            del self._live[table_id]
            table = self._tables.pop(table_id, None)
            if table is None:
                if not self._retired:
                    self._go_off_asleep(loop, table_id)
            else:
                table.alarm = None
                self._go_off(loop, table)
        self._aim()  # every wake up to ``now`` went off: the next is later than the clock

    def _call_off(self, table: LiveTable) -> None:
        if table.alarm is not None:
            table.alarm = None
        if self._tables.get(table.id) is table:
            del self._tables[table.id]
            self._live.pop(table.id, None)
        elif table.id not in self._tables:
            self._live.pop(table.id, None)  # asleep under its id: it is back in memory
        waiting = table.timer
        if waiting is not None and not waiting.done() and not table.timer_busy:
            waiting.cancel()
            table.timer = None

    # -- going off ----------------------------------------------------------------------------

    def _go_off(self, loop: asyncio.AbstractEventLoop, table: LiveTable) -> None:
        if table.closed:
            return
        table.timer = loop.create_task(
            self._run_wake(table), name=f"shanghai-table-{table.id}-timer"
        )

    async def _run_wake(self, table: LiveTable) -> None:
        # The task is asked for again rather than kept in a local: a wake cancelled while it
        # waits for the lock keeps its frame in its exception, and a local naming the task
        # would make task and frame a cycle that holds the table after it left memory.
        async with table.held():
            if table.timer is not asyncio.current_task() or table.closed:
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
                if table.timer is asyncio.current_task():
                    table.timer = None
                    # The wake's own commit armed the next alarm; a wake that committed
                    # nothing (or failed) arms it here.
                    if not table.closed and table.alarm is None:
                        self.arm(table)

    def _go_off_asleep(self, loop: asyncio.AbstractEventLoop, table_id: int) -> None:
        task = loop.create_task(
            self._wake_asleep(table_id), name=f"shanghai-table-{table_id}-revive"
        )
        self._reviving.add(task)
        task.add_done_callback(self._reviving.discard)

    async def _wake_asleep(self, table_id: int) -> None:
        """A sleeping table's wake came: back into memory, then its wake runs at once, as if
        it had never left. A store that cannot give the row back is asked again later."""
        if self.revive is None or self._retired:
            return
        try:
            table = await self.revive(table_id)
        except Exception as error:
            if is_write_refused(error):
                log.warning(
                    "table %s could not be read back (%s); retrying", table_id, type(error).__name__
                )
            else:
                log.exception("table %s could not be read back; retrying", table_id)
            if not self._retired:
                self.sleep_until(table_id, RETRY_SECONDS)
            return
        if table is None or table.closed or self._retired:
            return
        self._call_off(table)
        self._go_off(self._running_loop(), table)
