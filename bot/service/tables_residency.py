"""Tables out of memory and back: the service's side of ``residency.Residency``.

``Residency`` decides which tables may leave memory and reads them back; this desk carries it
out on the service's open tables: ``rest`` takes the resting tables out (their wakes stay in
the timer wheel, under their ids), ``resident`` and ``resident_in`` bring one back before a
click, a command or a wake uses it, ``seated_in`` the few a person sits at in a server (their
list, ``/shanghai games``), and ``restore_lazily`` starts the process with every open
table asleep and restores them in the background, so the first click waits for its own table
only. The facade (``tables.TableService``) builds it and hands it those verbs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from dataclasses import dataclass

from bot.ground.storage_faults import is_write_refused
from bot.service.live import Clock, LiveTable, Store
from bot.service.residency import QUIET_SWEEP_SECONDS, SWEEP_SECONDS, Residency
from bot.service.tables_commit import Committer
from bot.service.tables_core import Tables
from bot.service.timers import Timers, next_wake

log = logging.getLogger("bot.service")

#: Tables the background restore brings back between two turns of the event loop.
RESTORE_BATCH = 16


@dataclass(frozen=True, slots=True)
class Place:
    """Where an open table is: its server, its channel and the channel it came from."""

    id: int
    guild_id: int
    channel_id: int
    parent_channel_id: int | None


class Residence:
    """The tables in memory are the ones in use; the others sleep and come back on demand."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        residency: Residency,
        tables: Tables,
        timers: Timers,
        committer: Committer,
    ) -> None:
        self.store = store
        self.clock = clock
        self.residency = residency
        self.tables = tables
        self.timers = timers
        self.committer = committer
        self._restoring: asyncio.Task[int] | None = None

    async def resident(self, table_id: int) -> LiveTable | None:
        """The open table ``table_id`` in memory, brought back from the store if it slept;
        None if it is not open."""
        table = self.tables.by_id.get(table_id)
        if table is not None:
            return table
        if not self.residency.is_asleep(table_id):
            return None
        return await self.residency.revive(table_id, self._take_back, self.committer.end_unread)

    async def resident_in(self, channel_id: int) -> LiveTable | None:
        """The open table of ``channel_id`` in memory (``resident``)."""
        table_id = self.tables.by_channel.get(channel_id)
        return None if table_id is None else await self.resident(table_id)

    def asleep_in(self, guild_id: int) -> bool:
        """Whether any open table of ``guild_id`` is out of memory now."""
        return any(s.guild_id == guild_id for s in self.residency.sleepers.values())

    async def seated_in(self, guild_id: int, user_id: int) -> list[LiveTable]:
        """Every open table of ``guild_id`` with a seat for ``user_id``, in memory: those
        out of memory are read back (``resident``, as a click or their wake would), and only
        those, since a server may have hundreds resting: the store says which seat them.

        Nobody is counted as having asked for them (``Residency.saw``): one that was resting
        leaves memory again at the next look unless someone uses it meanwhile."""
        found: dict[int, LiveTable] = {}
        asleep = {s.id for s in self.residency.sleepers.values() if s.guild_id == guild_id}
        if asleep:
            ids = await self.store.seated_open_tables(guild_id, user_id)
            back = await asyncio.gather(*(self.resident(i) for i in ids if i in asleep))
            found.update((table.id, table) for table in back if table is not None)
        found.update(
            (table.id, table)
            for table in self.tables.by_id.values()
            if table.record.guild_id == guild_id and table.seat_of(user_id) is not None
        )
        return [table for table in found.values() if not table.closed]

    def places(self) -> list[Place]:
        """Every open table, in memory or asleep, with its server and channels (the channel
        watch ends those whose channel or server is gone)."""
        places = [
            Place(t.id, t.record.guild_id, t.channel_id, t.record.parent_channel_id)
            for t in self.tables.by_id.values()
        ]
        places.extend(
            Place(s.id, s.guild_id, s.channel_id, s.parent_channel_id)
            for s in self.residency.sleepers.values()
        )
        return places

    def _take_back(self, table: LiveTable, first: bool) -> None:
        self.tables.remember(table)
        self.timers.arm(table)
        if first and table.game is not None and not table.game.is_over:
            # Open hands do not survive a restart: the channel says so once, and the player
            # to move is pinged with the table message's My hand.
            self.committer.notify(table, "restore", new_turn=True)

    def rest(self) -> int:
        """Take every resting table out of memory now (``Residency.resting``); how many."""
        now = self.clock()
        timings = self.timers.timings

        def wake_in(table: LiveTable) -> float | None:
            when = next_wake(table, now, timings)
            return None if when is None else when - now

        listener = self.committer.listener
        watched = listener.watched if listener is not None else _nobody
        count = 0
        for table in list(self.residency.resting(self.tables.by_id, wake_in, watched)):
            self.timers.sleep(table)
            self.residency.put_to_sleep(table)
            del self.tables.by_id[table.id]  # its channel still leads to it (``by_channel``)
            count += 1
        return count

    def next_look(self, every: float = SWEEP_SECONDS) -> float:
        """Seconds until ``rest`` is worth asking again: when the table asked for longest ago
        may rest, and no sooner than ``every``; with every table asleep, an hour
        (``QUIET_SWEEP_SECONDS``), so that a process whose tables all wait for days wakes a
        few times a day for them, not every few minutes."""
        residency = self.residency
        first = next(iter(residency.seen.values()), None)
        if first is None:  # nothing in memory: a table back meanwhile waits a little longer
            return max(every, residency.rest_after, QUIET_SWEEP_SECONDS)
        return max(every, first + residency.rest_after - self.clock())

    async def restore_lazily(self) -> asyncio.Task[int]:
        """Every open table asleep at once, then back in memory in the background, a few at
        a time; one a click, a command or a wake asks for meanwhile comes back first. A table
        that is resting when restored (``rest``) leaves memory again at the next look.
        Returns the background task (its result: how many tables it restored; not the
        tables, which would then stay in memory as long as the task)."""
        places = await self.store.open_places()
        for place in places:
            self.residency.add_place(place)
            self.tables.by_channel[place.channel_id] = place.id
        self._restoring = asyncio.get_running_loop().create_task(
            self._restore_in_background([place.id for place in places]), name="shanghai-restore"
        )
        return self._restoring

    async def _restore_in_background(self, ids: list[int]) -> int:
        restored = 0
        for start in range(0, len(ids), RESTORE_BATCH):
            for table_id in ids[start : start + RESTORE_BATCH]:
                if table_id in self.tables.by_id or not self.residency.is_asleep(table_id):
                    continue  # a click brought it back first, or it ended
                try:
                    table = await self.resident(table_id)
                except Exception as error:
                    await self._unreadable(table_id, error)
                    continue
                if table is not None:
                    restored += 1
            await asyncio.sleep(0)  # clicks, and the wakes of the tables just restored
            self.rest()  # the restored tables nobody uses leave memory again
        return restored

    async def _unreadable(self, table_id: int, error: Exception) -> None:
        """The row of ``table_id`` could not be read back. A store that refuses now leaves it
        asleep (a click or the next start reads it again); a row that does not decode is
        ended without results, as a full restore ends it, so one bad row keeps nothing down."""
        if is_write_refused(error):
            log.warning("table %s could not be read (%s)", table_id, type(error).__name__)
            return
        log.error(
            "table %s cannot be read (%s: %s); ending it without results",
            table_id,
            type(error).__name__,
            str(error)[:120],
        )
        self.residency.gone(table_id)
        self.timers.forget(table_id)
        await self.committer.end_unread(table_id)

    async def stop_restoring(self) -> None:
        """At shutdown: the background restore stops where it is, sleeping tables stay
        asleep."""
        task = self._restoring
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.timers.retire()


def _nobody(table_id: int) -> Collection[int]:
    return ()
