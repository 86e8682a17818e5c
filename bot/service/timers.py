"""Each table's one timer: the buy deadline, the turn deadline, computer moves, absent seats.

One task per table sleeps until the earliest thing due (``next_wake``), then runs ``on_timer``
under the table's lock and re-arms itself. Deadlines live in the database, so ``restore``
re-arms every table after a restart and past-due deadlines fire at once; their writes are the
bot's own (``data.store.background_writes``), which the store queues apart from players' clicks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from bot.i18n import t, table_language
from bot.logs import at_table
from bot.storage_faults import is_write_refused
from data.records import AwayState
from data.store import background_writes
from engine.actions import Action

from .live import Change, LiveTable

if TYPE_CHECKING:
    from .tables import TableService

log = logging.getLogger("bot.service")


class Timers:
    """When each table wakes, and what it does then."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def next_wake(self, table: LiveTable) -> float | None:
        service = self.service
        game = table.game
        if table.closed:
            return None
        if game is None:
            return table.record.created_at + service.lobby_seconds
        if game.is_over:
            return None
        now = service.clock()
        idle_at = max(table.last_person, table.record.created_at) + service.idle_seconds
        running = service.windows.running(table)
        times = [t for t in (table.buy_deadline, table.turn_deadline) if t is not None]
        seat = game.current
        if table.is_away(seat) and not table.is_computer(seat):
            times.append(table.buy_deadline if running and table.buy_deadline else now)
        due = table.auto_due if table.auto_due is not None else now
        if table.is_computer(seat):
            # A computer's turn has no deadline: only the buy window and its delay count.
            times = [t for t in (table.buy_deadline,) if t is not None]
            if game.step == "draw" and table.buy_deadline is not None and running:
                due = max(due, table.buy_deadline)
            times.append(due)
        if service.computers.undecided_buyers(table):
            times.append(now)
        times.append(idle_at)
        return table.backoff.hold(min(times))

    def arm(self, table: LiveTable) -> None:
        """(Re)start the table's one timer task for its next deadline."""
        old = table.timer
        if old is not None and not old.done() and not table.timer_busy:
            old.cancel()
        when = self.next_wake(table)
        if when is None:
            table.timer = None
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._sleep_until(table, when), name=f"shanghai-table-{table.id}-timer"
        )

    async def _sleep_until(self, table: LiveTable, when: float) -> None:
        delay = when - self.service.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        me = asyncio.current_task()
        async with table.lock:
            if table.timer is not me or table.closed:
                return
            table.timer_busy = True
            try:
                # Nobody waits on a timer's writes: they must not be refused by the limit
                # meant for a player's click (at a restart, every overdue table writes at once).
                with background_writes():
                    await self.on_timer(table)
            except Exception as error:
                if not table.backoff.failed(self.service.clock()):
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

    async def on_timer(self, table: LiveTable) -> None:
        """Whatever is due now: close the buy window, run a held draw, play for the absent."""
        service = self.service
        game = table.game
        now = service.clock()
        if game is None:
            if now >= table.record.created_at + service.lobby_seconds:
                minutes = round(service.lobby_seconds / 60)
                language = table_language(table.record.options)
                await service.expire(table, t("notice.lobby_expired", language, minutes=minutes))
            return
        if game.is_over:
            return
        if now >= max(table.last_person, table.record.created_at) + service.idle_seconds:
            hours = round(service.idle_seconds / 3600)
            language = table_language(table.record.options)
            await service.expire(table, t("notice.idle_expired", language, hours=hours))
            return
        if table.buy_deadline is not None and now >= table.buy_deadline:
            table.buy_deadline = None
            if table.pending is not None:
                await service.windows.run_pending(table)
                seat = game.current
                if game.step == "play" and table.is_away(seat) and not table.is_computer(seat):
                    await self.autoplay(table, seat, timeout=False)
            else:
                service._notify(Change(table, "window"))
            return
        if service.computers.undecided_buyers(table):
            await service.computers.decide_buys(table)
            await service.windows.settle(table)
            if table.closed or game.is_over:
                return
        due = table.auto_due if table.auto_due is not None else now
        seat = game.current
        if table.is_computer(seat):
            waiting = game.step == "draw" and service.windows.running(table)
            if now >= due and not waiting:
                await service.computers.move(table, seat)
            return
        if table.turn_deadline is not None and now >= table.turn_deadline:
            state = table.away[seat]
            timeouts = state.timeouts + 1
            table.away[seat] = AwayState(timeouts, state.away or timeouts >= service.away_after)
            await self.autoplay(table, seat, timeout=True)
            return
        if table.is_away(seat) and not service.windows.running(table):
            await self.autoplay(table, seat, timeout=False)

    async def autoplay(self, table: LiveTable, seat: int, *, timeout: bool) -> None:
        """Play the rest of ``seat``'s turn with the normal strategy; one notice names it all."""
        service = self.service
        game = table.game
        assert game is not None
        player = game.players[seat]
        done: list[Action] = []
        if table.pending is not None and table.pending.seat == seat:
            done.append(table.pending.action)
            await service.windows.run_pending(table)
        for _ in range(40):
            if table.closed or game.is_over or game.current != seat:
                break
            action = service.computers.action(table, seat, "normal")
            if action is None:
                break
            events = game.apply(player, action)
            done.append(action)
            await service._commit(
                table,
                int(player),
                action,
                events,
                kind="timeout" if timeout else "away",
                auto_seat=seat,
                auto_actions=list(done),
            )
