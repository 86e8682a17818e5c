"""Which open tables stay in memory, and bringing the others back from the store when needed.

A table that waits for a person (a relaxed game's day, an evening game left mid-deal) needs
nothing in memory but a way to find it and its next wake. ``Residency`` decides which tables
may leave (``resting``: no wake soon, nobody following a hand, no click for a while, nothing
at work on it), keeps for each one that left a small ``Sleeper`` (its channel, so a command
typed there finds it, and the few fields that live in memory only), and brings a table back
(``revive``) once, however many clicks and wakes ask for it at the same moment. It decides
and returns: the service takes tables out of memory and puts them back, and the timer wheel
(``timers.Timers.sleep``) keeps a sleeper's wake under its id alone.

Start-up uses the same path: each open table becomes a sleeper from where it is alone
(``Store.open_places``, not its whole row), so a click on a table the background restore has
not reached yet revives that table first instead of waiting for all of them
(``tables_residency.Residence.restore_lazily``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, replace

from bot.service.buy_window import BuyWindow
from bot.service.live import Clock, LiveTable, Store
from bot.service.nudges import TurnNudges
from bot.service.restore import revive
from data.records import AwayState, TablePlace

#: A table nobody clicked for this long may leave memory (seconds).
REST_AFTER_SECONDS = 10 * 60.0
#: ... if its next wake is at least this far away (seconds).
HORIZON_SECONDS = 10 * 60.0
#: How often at most the process looks over the tables in memory (seconds;
#: ``TableService.rest``).
SWEEP_SECONDS = 60.0
#: How long the process waits before it looks again when every table is out of memory
#: (seconds): a table a click or its wake brings back meanwhile stays until the next look.
QUIET_SWEEP_SECONDS = 60 * 60.0


@dataclass(frozen=True, slots=True)
class Kept:
    """The fields of a table that live in memory only, kept while it sleeps so that it comes
    back exactly as it left (the store has the rest). Valid while the row is at ``version``."""

    version: int
    last_person: float
    away: tuple[AwayState, ...]
    nudges: TurnNudges
    window: BuyWindow
    pace_votes: dict[str, set[int]]
    pace_hours: int | None

    @classmethod
    def of(cls, table: LiveTable) -> Kept:
        window = table.window
        return cls(
            table.version,
            table.last_person,
            tuple(table.away),
            replace(table.nudges, votes=set(table.nudges.votes)),
            BuyWindow(window.deadline, window.ends, set(window.decided)),
            {pace: set(people) for pace, people in table.pace_votes.items()},
            table.pace_hours,
        )

    def put_back(self, table: LiveTable) -> None:
        """Onto ``table`` just read back, if nothing wrote its row since it left."""
        if table.version != self.version:
            return
        table.last_person = self.last_person
        table.away = list(self.away)
        table.nudges = self.nudges
        table.window = BuyWindow(self.window.deadline, self.window.ends, set(self.window.decided))
        table.pace_votes = {pace: set(people) for pace, people in self.pace_votes.items()}
        table.pace_hours = self.pace_hours


@dataclass(frozen=True, slots=True)
class Sleeper:
    """An open table not in memory: where it is, and what to bring back with it.

    ``kept`` holds the memory-only fields of one that left memory; a table not in memory
    since the process started has none (``first``)."""

    id: int
    guild_id: int
    channel_id: int
    parent_channel_id: int | None
    #: When a person last asked for it (a wake that brings it back is not a person).
    seen_at: float
    kept: Kept | None = None
    #: Not in memory since the process started: the channel is told of the restart when it
    #: comes back.
    first: bool = False

    @classmethod
    def of_place(cls, place: TablePlace) -> Sleeper:
        return cls(
            place.id,
            place.guild_id,
            place.channel_id,
            place.parent_channel_id,
            place.updated_at,
            first=True,
        )

    @classmethod
    def of_table(cls, table: LiveTable, seen_at: float) -> Sleeper:
        record = table.record
        return cls(
            table.id,
            record.guild_id,
            record.channel_id,
            record.parent_channel_id,
            seen_at,
            kept=Kept.of(table),
        )


class Residency:
    """The open tables not in memory, and when each table in memory was last clicked."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        computer_delay: float,
        *,
        rest_after: float = REST_AFTER_SECONDS,
        horizon: float = HORIZON_SECONDS,
    ) -> None:
        self.store = store
        self.clock = clock
        self.computer_delay = computer_delay
        self.rest_after = rest_after
        self.horizon = horizon
        self.sleepers: dict[int, Sleeper] = {}
        #: Tables in memory by when they were last asked for (``saw``), oldest first.
        self.seen: OrderedDict[int, float] = OrderedDict()
        self._reviving: dict[int, asyncio.Future[LiveTable | None]] = {}

    # -- tables in memory -----------------------------------------------------------------------

    def saw(self, table_id: int) -> None:
        """A click (or anything a person did) asked for ``table_id`` now."""
        seen = self.seen
        seen[table_id] = self.clock()
        seen.move_to_end(table_id)

    def arrived(self, table_id: int) -> None:
        """``table_id`` is in memory (opened now): it counts as asked for now, unless it came
        back from sleep with its own time (``revive``)."""
        if table_id not in self.seen:
            self.saw(table_id)

    def _seen_at(self, table_id: int, at: float) -> None:
        """``table_id`` is back in memory, last asked for at ``at``. A table that could rest
        already (its wake brought it back, or the restore did) goes first in line to leave
        again; ``seen`` stays in order enough for ``resting`` to stop at the first table
        asked for lately."""
        seen = self.seen
        seen[table_id] = at
        if at <= self.clock() - self.rest_after:
            seen.move_to_end(table_id, last=False)

    def gone(self, table_id: int) -> None:
        """``table_id`` ended: neither in memory nor asleep any more."""
        self.seen.pop(table_id, None)
        self.sleepers.pop(table_id, None)

    def resting(
        self,
        tables: Mapping[int, LiveTable],
        wake_in: Callable[[LiveTable], float | None],
        watched: Callable[[int], Collection[int]],
    ) -> Iterator[LiveTable]:
        """The tables in memory that may leave it now: nobody asked for them for
        ``rest_after``, their next wake (``wake_in``: seconds from now, None for none) is at
        least ``horizon`` away, nobody follows their hands, and nothing is at work on them.
        Only the tables not asked for lately are looked at, oldest first."""
        since = self.clock() - self.rest_after
        for table_id, seen_at in list(self.seen.items()):
            if seen_at > since:
                break
            table = tables.get(table_id)
            if table is None:
                del self.seen[table_id]
                continue
            if self._may_rest(table) and not watched(table_id):
                wake = wake_in(table)
                if wake is None or wake >= self.horizon:
                    yield table

    def _may_rest(self, table: LiveTable) -> bool:
        if table.closed or table.lock.locked() or table.timer is not None:
            return False
        if table.window.held is not None or table.pause_until is not None:
            return False
        return not table.backoff.failing

    def put_to_sleep(self, table: LiveTable) -> Sleeper:
        """``table`` leaves memory: what is kept of it."""
        seen_at = self.seen.pop(table.id, self.clock())
        sleeper = self.sleepers[table.id] = Sleeper.of_table(table, seen_at)
        return sleeper

    def add_place(self, place: TablePlace) -> Sleeper:
        """A stored open table not brought into memory yet (start-up)."""
        sleeper = self.sleepers[place.id] = Sleeper.of_place(place)
        return sleeper

    # -- coming back ----------------------------------------------------------------------------

    def is_asleep(self, table_id: int) -> bool:
        return table_id in self.sleepers

    async def revive(
        self,
        table_id: int,
        take_back: Callable[[LiveTable, bool], None],
        unreadable: Callable[[int], Awaitable[None]],
    ) -> LiveTable | None:
        """The sleeping table ``table_id`` back in memory: read from the store, the kept
        fields put back, and handed to ``take_back`` once before anyone gets it (True: the
        first time this process has it in memory).

        ``None`` when it is not asleep, or its row is gone, closed or unreadable (``unreadable``
        is given the id of a row ``restore.revive`` cannot read, to end it). Everyone asking
        at once shares the one read; a read that fails leaves the table asleep, for the next
        ask."""
        waiting = self._reviving.get(table_id)
        if waiting is not None:
            return await asyncio.shield(waiting)
        sleeper = self.sleepers.get(table_id)
        if sleeper is None:
            return None
        future: asyncio.Future[LiveTable | None] = asyncio.get_running_loop().create_future()
        self._reviving[table_id] = future
        try:
            table = await self._read_back(sleeper, unreadable)
            if self.sleepers.get(table_id) is sleeper:
                del self.sleepers[table_id]
            if table is not None:
                self._seen_at(table_id, sleeper.seen_at)
                take_back(table, sleeper.first)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # nobody else may be waiting: not "never retrieved"
            raise
        finally:
            del self._reviving[table_id]
        future.set_result(table)
        return table

    async def _read_back(
        self, sleeper: Sleeper, unreadable: Callable[[int], Awaitable[None]]
    ) -> LiveTable | None:
        row = await self.store.get_table(sleeper.id)
        if row is None or not row.is_open:
            return None
        table = revive(row, self.clock(), self.computer_delay)
        if table is None:  # unreadable (``revive`` logged why): ended, as a restore ends it
            await unreadable(row.id)
            return None
        if sleeper.kept is not None:
            sleeper.kept.put_back(table)
        return table

    def channel_sleepers(self) -> Iterator[Sleeper]:
        """Every sleeping table (the channel watch looks for those of a deleted channel)."""
        return iter(list(self.sleepers.values()))
