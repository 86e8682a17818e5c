"""The one writer of the table service: apply an action, save it in one transaction, then tell.

``Committer.apply`` runs the engine, ``commit`` saves the state and deadlines the action
produced in one store transaction and only then tells the listener; a refused action or a
refused save puts memory back exactly as it was before the click (``LiveTable.memento``). The
buy window's steps that end in a commit live here too: opening a window on a new upcard,
holding P's draw while it runs, and running the held draw once nobody is left to decide
(``buy_window.py`` decides, the committer carries out). So do the lobby's and the table's own
writes (a new table, its seats and options, its start, its thread, its message, its end): the
desks decide what to write and hand it here, and nothing else in the service saves to the
store or tells the listener (``tests/bot/test_service_desks.py`` reads the package to hold it).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import deque
from dataclasses import replace
from typing import Any

from bot.ground.logs import at_table
from bot.service.buy_window import (
    HeldDraw,
    computer_buyers,
    decided_at_once,
    undecided,
)
from bot.service.live import (
    ActResult,
    Change,
    ChangeKind,
    Clock,
    Listener,
    LiveTable,
    Memento,
    Store,
)
from bot.service.ranked import tally
from bot.service.results import is_ranked, result_rows
from bot.service.snapshot import SeatSnapshot, seat_snapshot
from bot.service.table_snapshot import TableSnapshot
from bot.service.tables_core import Settings, Tables, playing
from bot.service.timers import Timers, deal_pause
from data.records import ResultRow, Seat, TableRecord
from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import DealEnded, DealStarted, Discarded, Event, TurnStarted

log = logging.getLogger("bot.service")


#: How long the event loop may run clicks back to back before the next one waits for the
#: loop's next turn, and how many waiting clicks each turn lets in: the gateway, the timers
#: and the other tables' answers run in between.
SHARE_SECONDS = 0.004
SHARE_BATCH = 16


class LoopShare:
    """One event loop's clicks waiting for their turn, in order of arrival, and when the
    current stretch of clicks began (``perf_counter``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.started = 0.0
        self.waiting: deque[asyncio.Future[None]] = deque()
        self.release_queued = False

    def release(self) -> None:
        """At the head of a turn of the loop: a new stretch, and the next ``SHARE_BATCH``
        waiting clicks let in (they run in the next turn, in their order)."""
        self.started = time.perf_counter()
        self.release_queued = False
        for _ in range(min(SHARE_BATCH, len(self.waiting))):
            waiter = self.waiting.popleft()
            if not waiter.done():  # a cancelled click leaves its place to the next
                waiter.set_result(None)
        if self.waiting:
            self.queue_release()

    def queue_release(self) -> None:
        if not self.release_queued:
            self.release_queued = True
            self.loop.call_soon(self.release)

    async def wait_turn(self) -> None:
        if not self.waiting and time.perf_counter() - self.started < SHARE_SECONDS:
            return
        waiter = self.loop.create_future()
        self.waiting.append(waiter)
        self.queue_release()
        await waiter


_SHARES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopShare] = (
    weakref.WeakKeyDictionary()
)


async def let_others_in() -> None:
    """Give the event loop back between the parts of a click once clicks have run back to back
    for ``SHARE_SECONDS``. A plain ``sleep(0)`` would not do: after a group commit every waiting
    table wakes in the same turn of the loop, and their parts would run one after the other in
    it, for as long as all of them take. Past the share a click queues behind the others, and
    each later turn lets in ``SHARE_BATCH`` of them, so the gateway and the timers run between.
    This table's lock keeps its own state to this click meanwhile."""
    loop = asyncio.get_running_loop()
    share = _SHARES.get(loop)
    if share is None:
        share = _SHARES[loop] = LoopShare(loop)
    await share.wait_turn()


def next_deal(events: list[Event]) -> bool:
    """Whether ``events`` end a deal and deal the next one (a void deal is dealt again at
    once: it has no recap to read)."""
    ended = any(isinstance(e, DealEnded) and e.reason != "void" for e in events)
    return ended and any(isinstance(e, DealStarted) for e in events)


class Committer:
    """Apply, save in one transaction, tell: every change of a table goes through here.

    Built with what a write needs: the store, the clock, the settings, the open tables (a
    closed one is dropped), the timers (re-armed after each write) and the listener."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        settings: Settings,
        tables: Tables,
        timers: Timers,
        listener: Listener | None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = settings
        self.tables = tables
        self.timers = timers
        self.listener = listener

    # -- telling ----------------------------------------------------------------------------------

    def notify(self, table: LiveTable, kind: ChangeKind, **fields: Any) -> None:
        """Tell the listener, with the snapshots it draws from (taken here, under the lock)."""
        if self.listener is None:
            return
        try:
            now = self.clock()
            # One answer of the buy window for the table's snapshot and every seat's.
            running = table.window.is_running(table.game, now)
            seats: dict[int, SeatSnapshot] = {}
            if table.game is not None:
                events = fields.get("events", ())
                for user_id in self.listener.watched(table.id):
                    if table.seat_of(user_id) is not None:
                        seats[user_id] = seat_snapshot(
                            table, user_id, now, events=events, lazy=True, running=running
                        )
            public = TableSnapshot.of(table, now, running=running)
            change = Change(public, kind, seats=seats, **fields)
            table.told = (change.events, seats)
            self.listener.table_changed(change)
        except Exception:
            log.exception("%s: listener failed", at_table(table))

    # -- the game's actions -----------------------------------------------------------------------

    async def apply(
        self,
        table: LiveTable,
        seat: int,
        action: Action,
        *,
        before: Memento | None = None,
        kind: ChangeKind = "act",
        auto_seat: int | None = None,
        auto_actions: list[Action] | None = None,
    ) -> ActResult:
        """Apply ``action`` for ``seat`` and commit it. If the engine refuses it or the store
        does not take it, memory goes back to ``before`` (taken now if not given)."""
        memento = before or table.memento()
        await let_others_in()
        game = playing(table)
        player = game.players[seat]
        try:
            events = game.apply(player, action)
        except BaseException:
            table.go_back(memento, game_moved=False)  # the engine changed nothing
            raise
        table.game_changed()
        try:
            return await self.commit(
                table, int(player), action, events, kind, auto_seat, auto_actions
            )
        except BaseException:
            table.go_back(memento, game_moved=True)
            raise

    async def commit(
        self,
        table: LiveTable,
        user_id: int,
        action: Action,
        events: list[Event],
        kind: ChangeKind,
        auto_seat: int | None,
        auto_actions: list[Action] | None,
    ) -> ActResult:
        """Save the state and deadlines the action produced in one transaction, then tell the
        listener. Nothing is visible before the save succeeded; ``apply`` undoes a failure."""
        game = table.game
        assert game is not None
        now = self.clock()
        buy_seconds, turn_seconds = self.settings.table_seconds(table)
        new_turn = any(isinstance(e, TurnStarted) for e in events)
        # A deal that ended and the next one dealt: the recap stands alone for a breath, and
        # the next deal's deadlines start when it is shown.
        pause = deal_pause(table) if next_deal(events) and not game.is_over else 0.0
        start = now + pause
        if new_turn:
            table.turn_deadline = start + turn_seconds
        table.auto_due = start + self.settings.computer_delay
        window = table.window
        if game.buy_window_open and any(isinstance(e, (Discarded, DealStarted)) for e in events):
            self.open_window(table, start, buy_seconds)
        if not game.buy_window_open:
            window.lapse()
        if game.is_over:
            window.lapse()
            table.turn_deadline = None
        await let_others_in()
        state = game.to_json()
        tally(table, user_id, auto_seat)  # who made the seat's actions: its person or the bot
        if game.is_over:
            version = await self.store.finish_game(
                table.id,
                table.version,
                state,
                result_rows(table),
                user_id=user_id,
                action_text=str(action),
                ranked=is_ranked(table),
            )
        else:
            version = await self.store.save_action(
                table.id,
                table.version,
                user_id,
                str(action),
                state,
                window.deadline,
                table.turn_deadline,
                table.stored_away(),
            )
        table.version, table.saved_state = version, state
        await let_others_in()  # every table of the commit's group wakes at once
        if failures := table.backoff.succeeded():
            log.warning("%s saves again after %d failed timer run(s)", at_table(table), failures)
        result = ActResult(events, table.version)
        table.pause_until = start if pause > 0 else None
        if game.is_over:
            self.forget(table)
        else:
            self.timers.arm(table)
        self.notify(
            table,
            kind,
            events=events,
            actor=user_id,
            auto_seat=auto_seat,
            auto_actions=(auto_actions or [action]) if auto_seat is not None else [],
            new_turn=new_turn and not pause,  # the turn is pinged once the deal is shown
            pause_until=table.pause_until,
        )
        return result

    def end_pause(self, table: LiveTable) -> None:
        """Show the next deal now: its line, its hands and the ping of its first player. The
        host's early end brings its deadlines forward by what was left of the pause."""
        until = table.pause_until
        if until is None:
            return
        table.pause_until = None
        early = until - self.clock()
        if early > 0:
            window = table.window
            if table.turn_deadline is not None:
                table.turn_deadline -= early
            if window.deadline is not None:
                window.deadline -= early
            if window.ends is not None:
                window.ends -= early
            if table.auto_due is not None:
                table.auto_due -= early
        self.timers.arm(table)
        self.notify(table, "deal", new_turn=True)

    async def write_away(self, table: LiveTable, memento: Memento) -> None:
        """Save the seats' away flags (and the held draw, the buy preferences, the seats the
        bot plays for good) as they are now in memory; if the store refuses, memory goes back
        to ``memento``."""
        try:
            await self.store.set_away(table.id, table.stored_away())
        except BaseException:
            table.go_back(memento, game_moved=False)
            raise

    async def finish_as_it_stands(self, table: LiveTable, rows: list[ResultRow]) -> None:
        """End a game before its last deal with ``rows`` (a relaxed table nobody played):
        saved as ``ended``, ranked as a finished game is."""
        game = table.game
        assert game is not None
        await self.store.finish_game(
            table.id,
            table.version,
            game.to_json(),
            rows,
            status="ended",
            ranked=is_ranked(table),
        )

    async def save_pace(
        self, table: LiveTable, options: dict[str, Any], turn_deadline: float | None
    ) -> None:
        """Save a table's new pace (its options and its turn's deadline), then take it into
        memory; a refused save changes nothing."""
        await self.store.set_pace(table.id, options, turn_deadline)
        table.record = replace(table.record, options=options)
        table.turn_deadline = turn_deadline
        table.pace_votes.clear()
        table.pace_hours = None

    async def mark_told(self, table: LiveTable, deadline: float) -> bool:
        """Save that the person of the relaxed turn ending at ``deadline`` was told it began,
        once the notice is out; False when that turn is over already (nothing to mark)."""
        game = table.game
        if game is None or table.closed or table.turn_deadline != deadline:
            return False
        seat = game.current
        if table.away[seat].told == deadline:
            return False
        memento = table.memento()
        table.away[seat] = replace(table.away[seat], told=deadline)
        await self.write_away(table, memento)
        return True

    # -- the buy window and the held draw ---------------------------------------------------------

    async def hold(
        self, table: LiveTable, seat: int, action: Action, memento: Memento
    ) -> ActResult:
        """Hold P's draw until the window closes (at once if nobody is left to decide). The
        held draw is written before anyone is told, so a refused write holds nothing."""
        game = playing(table)
        player = game.players[seat]
        held = table.window.held
        if held is not None:
            return ActResult([], table.version, pending=held.future)
        if not game.is_legal(player, action):
            table.go_back(memento, game_moved=False)
            game.apply(player, action)  # raises the engine's reason; nothing changes
        if not undecided(table.window, game, table.is_away, now=self.clock()):
            result = await self.apply(table, seat, action, before=memento)
            return replace(result, pending=None)
        future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
        table.window.hold(HeldDraw(seat, action, future))
        await self.write_away(table, memento)
        self.timers.arm(table)
        self.notify(table, "window", actor=int(player))
        return ActResult([], table.version, pending=future)

    def open_window(self, table: LiveTable, now: float, seconds: float) -> None:
        """A new upcard is on offer: each person whose buy preference needs no question about
        it is decided for at once, and with nobody left to ask (and no computer to ask) the
        window closes there and then, so P's draw is never held for nothing."""
        game = playing(table)
        window = table.window
        window.open(now, seconds)
        running = window.is_running(game, now)  # deciding for a seat does not change it
        for seat in undecided(window, game, table.is_away, now=now, running=running):
            pref = table.buy_prefs.get(seat, self.settings.buy_preference)
            if not table.is_computer(seat) and decided_at_once(table, seat, pref):
                window.decide(seat)
        if not undecided(window, game, table.is_away, now=now, running=running) and (
            not computer_buyers(table, now, running=running)
        ):
            window.close(now)

    async def settle(self, table: LiveTable) -> None:
        """After anything that may have been the last decision: close the window early and
        run the held draw when nobody is left to decide."""
        game = table.game
        now = self.clock()
        if game is None or game.is_over or table.closed or not table.window.is_running(game, now):
            return
        if undecided(table.window, game, table.is_away, now=now):
            return
        if table.window.held is not None:
            await self.run_held(table)
        else:
            table.window.close(now)
            self.timers.arm(table)
            self.notify(table, "window")

    async def run_held(self, table: LiveTable, before: Memento | None = None) -> ActResult:
        """Submit the held draw now (the window ended or nobody else can buy)."""
        memento = before or table.memento()
        held = table.window.release()
        assert held is not None
        try:
            result = await self.apply(table, held.seat, held.action, before=memento)
        except IllegalAction as error:
            # The state moved on (e.g. P took the upcard meanwhile); tell the waiter.
            table.window.release()
            if not held.future.done():
                held.future.set_exception(error)
            raise
        if not held.future.done():
            held.future.set_result(result)
        return result

    # -- the lobby's and the table's own writes ---------------------------------------------------

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        game_kind: str,
        host: Seat,
        options: dict[str, Any],
    ) -> LiveTable:
        """Write a new lobby with ``host`` in the first seat and keep it open (its timer closes
        it if nobody starts it); raises ``TableExists``."""
        record = await self.store.create_table(
            guild_id, channel_id, game_kind, host.user_id, [host], options
        )
        table = self.tables.remember(LiveTable(record, None, record.version))
        self.timers.arm(table)
        return table

    async def save_lobby(
        self, table: LiveTable, seats: tuple[Seat, ...], options: dict[str, Any]
    ) -> None:
        """Write the lobby's new seats and options (lock held), then keep them."""
        await self.store.update_lobby(table.id, seats, options)
        table.record = replace(table.record, seats=seats, options=options)

    async def save_start(
        self,
        table: LiveTable,
        state: str,
        buy_deadline: float | None,
        turn_deadline: float,
    ) -> None:
        """Write the first deal and its deadlines in one write, before memory keeps them."""
        await self.store.start_game(
            table.id, list(table.record.seats), state, buy_deadline, turn_deadline
        )

    async def save_thread(self, table: LiveTable, thread_id: int) -> None:
        """The table is thread ``thread_id``'s from now on: its message, pings and notices go
        there, and its channel is free for another table; the channel it came from is kept for
        the result at the end."""
        await self.store.move_to_thread(table.id, thread_id)
        parent = table.channel_id
        table.record = replace(
            table.record, channel_id=thread_id, parent_channel_id=parent, message_id=None
        )
        self.tables.moved(table, parent)

    async def save_message(self, table: LiveTable, message_id: int | None) -> None:
        await self.store.set_message(table.id, message_id)
        table.record = replace(table.record, message_id=message_id)

    async def record_end(self, table: LiveTable, *, abandoned: bool = False) -> None:
        """Record the table's end, without results: ``abandoned`` when the bot closes it (its
        channel gone, nobody played), else ``ended`` (a host's or a moderator's decision)."""
        if abandoned:
            await self.store.end_table(table.id, status="abandoned")
        else:
            await self.store.end_table(table.id)

    async def end_unreadable(self, record: TableRecord) -> None:
        """End a stored table whose row cannot be read back (``restore.revive`` said why)."""
        await self.end_unread(record.id)

    async def end_unread(self, table_id: int) -> None:
        """End the stored table ``table_id``, whose row cannot be read back (the reason is
        logged where it was found): no results, its channel free."""
        try:
            await self.store.end_table(table_id)
        except Exception as error:
            log.error("table %s could not be ended either (%s)", table_id, type(error).__name__)

    def forget(self, table: LiveTable) -> None:
        """A closed table: out of the open tables, its timer and its held draw called off."""
        table.closed = True
        self.tables.drop(table)
        self.timers.disarm(table)
        held = table.window.release()
        if held is not None and not held.future.done():
            held.future.cancel()
