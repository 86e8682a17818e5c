"""The state every part of ``TableService`` shares: its tables by id and channel, the listener
it tells, and the checks every request starts with.

``TableCore`` holds what the parts read and write (the store, the clock, the timings, the
tables) and the few steps they all take: find a table, forget a closed one, tell the listener
with snapshots taken under the lock, refuse a request of a seat that is not there. The parts
(``tables_commit``, ``tables_lobby``, ``tables_turns``, ``tables_clock``) each add one verb's
methods on top; ``tables.TableService`` puts them together.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Any

from bot.ground.errors import NoTable, NotSeated, UserError, WrongPhase
from bot.ground.logs import at_table
from bot.service.buy_window import (
    DEFAULT_BUY_PREF,
    BuyPref,
)
from bot.service.computers import ComputerSeats
from bot.service.live import (
    ActResult,
    Change,
    ChangeKind,
    Clock,
    Listener,
    LiveTable,
    Store,
)
from bot.service.ranked import finishes_now
from bot.service.residency import Residency
from bot.service.restore import table_seconds
from bot.service.snapshot import (
    SeatSnapshot,
    seat_snapshot,
)
from bot.service.table_snapshot import TableSnapshot
from bot.service.timers import Timers, Timings
from data.errors import StoreBusy
from data.records import AwayState
from engine import Game
from engine.actions import Action

log = logging.getLogger("bot.service")


class TableCore:
    """Tables by id, each with one lock; the state and steps every part of the service shares."""

    def __init__(
        self,
        store: Store,
        *,
        buy_seconds: float = 8.0,
        turn_seconds: float = 90.0,
        seed: int | None = None,
        away_after: int = 3,
        clock: Clock = time.time,
        listener: Listener | None = None,
        computer_delay: float = 2.0,
        lobby_seconds: float = 30 * 60,
        idle_seconds: float = 24 * 3600,
        buy_preference: BuyPref = DEFAULT_BUY_PREF,
    ) -> None:
        self.store = store
        self.buy_seconds = buy_seconds
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.away_after = away_after
        self.clock = clock
        self.listener = listener
        self.computer_delay = computer_delay
        self.lobby_seconds = lobby_seconds
        self.idle_seconds = idle_seconds
        #: The buy preference of a person who has not chosen one (``SHANGHAI_BUY_PREFERENCE``).
        self.buy_preference = buy_preference
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        self.computers = ComputerSeats(seed)
        #: The open tables not in memory, and when those in memory were last asked for.
        self.residency = Residency(store, clock, computer_delay)
        self.timers = Timers(
            clock, Timings(lobby_seconds, idle_seconds), self._wake, revive=self.resident
        )

    # -- lookup -----------------------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        """The open table ``table_id`` in memory. One asleep (``resident`` brings it back) is
        refused as busy: whatever asked for it came in without bringing it back first."""
        table = self.tables.get(table_id)
        if table is None and self.residency.is_asleep(table_id):
            raise StoreBusy()
        if table is None or table.closed:
            raise NoTable("That table is closed.", code="closed")
        self.residency.saw(table_id)
        return table

    def for_channel(self, channel_id: int) -> LiveTable | None:
        table_id = self.by_channel.get(channel_id)
        return None if table_id is None else self.tables.get(table_id)

    def public(self, table_id: int) -> TableSnapshot:
        """What everyone sees of an open table now (``/shanghai table``, History)."""
        return TableSnapshot.of(self.get(table_id), self.clock())

    def finishes_now(self, table_id: int) -> list[tuple[int, int, int]]:
        """``(user, place, total)`` for each person at an open table as its game stands now:
        what an event scores for a table its organiser ends (``ranked.finishes_now``)."""
        return finishes_now(self.get(table_id))

    def _remember(self, table: LiveTable) -> LiveTable:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id
        self.residency.arrived(table.id)
        return table

    def _forget(self, table: LiveTable) -> None:
        table.closed = True
        self.tables.pop(table.id, None)
        self.residency.gone(table.id)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        self.timers.disarm(table)
        held = table.window.release()
        if held is not None and not held.future.done():
            held.future.cancel()

    def _notify(self, table: LiveTable, kind: ChangeKind, **fields: Any) -> None:
        """Tell the listener, with the snapshots it draws from (taken here, under the lock)."""
        if self.listener is None:
            return
        try:
            now = self.clock()
            seats: dict[int, SeatSnapshot] = {}
            if table.game is not None:
                events = fields.get("events", ())
                for user_id in self.listener.watched(table.id):
                    if table.seat_of(user_id) is not None:
                        seats[user_id] = seat_snapshot(
                            table, user_id, now, events=events, lazy=True
                        )
            change = Change(TableSnapshot.of(table, now), kind, seats=seats, **fields)
            table.told = (change.events, seats)
            self.listener.table_changed(change)
        except Exception:
            log.exception("%s: listener failed", at_table(table))

    def table_seconds(self, table: LiveTable) -> tuple[float, float]:
        return table_seconds(dict(table.record.options), self.buy_seconds, self.turn_seconds)

    # -- checks every request starts with -------------------------------------------------------

    def _playing(self, table: LiveTable) -> Game:
        if table.closed:
            raise NoTable("That table is closed.", code="closed")
        if table.game is None:
            raise WrongPhase("The game hasn't started yet.", code="not_started")
        return table.game

    def _seat(self, table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return seat

    def _present(self, table: LiveTable, seat: int) -> bool:
        """A player who acts is no longer away (memory; saved with the next action). A seat the
        bot plays for good refuses its player's clicks."""
        if seat in table.removed:
            raise UserError(
                "You left this game or the host removed you; the computer plays your seat.",
                code="kicked",
            )
        state = table.away[seat] if seat < len(table.away) else AwayState()
        if state.timeouts or state.away:
            table.away[seat] = replace(state, timeouts=0, away=False)
            return True
        return False

    # -- what the other parts provide -----------------------------------------------------------

    async def _wake(self, table: LiveTable) -> None:
        """Carry out what is due at ``table`` (``tables_clock``)."""
        raise NotImplementedError

    async def _act_locked(self, table: LiveTable, user_id: int, action: Action) -> ActResult:
        """Apply one seat's action, the lock held (``tables_turns``)."""
        raise NotImplementedError

    async def expire(self, table: LiveTable, why: str) -> None:
        """End a table the bot closes itself (``tables_lobby``)."""
        raise NotImplementedError

    async def resident(self, table_id: int) -> LiveTable | None:
        """The open table ``table_id`` in memory, brought back if it slept
        (``tables_residency``)."""
        raise NotImplementedError
