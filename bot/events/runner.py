"""Runs an event: seats each round, opens its tables, and moves on when they have all ended.

The runner decides and writes through the store and the table service's public calls; what
needs Discord (a thread for each table, the event message) it asks of a ``Hall``. It learns
that a table ended as one of the service's listeners (``table_changed``): a change of a closed
table of an event schedules ``on_table_closed``, which seats the next round once every table
of the current one has ended, or finishes the event.

Everything it needs to go on is in the store (the seating of each round is written before its
tables are opened; each table is linked once opened), so ``restore`` after a restart opens the
tables still missing and catches up on rounds whose tables ended while the bot was down, and
re-arms the start timer of every event taking sign-ups with a start time (``StartTimers``).

Each step (a table closing, an organiser's call) reads the event's rows once (``EventRows``),
scores them once, and hands the hall the ``EventView`` it drew: the hall draws what it is
given and never asks the runner back.

A *duplicate* event's rounds are the runner's like any other's; their deals (drawn and kept
before the tables open, hashes posted, seeds revealed once the round's last table ends) and
their scoring are a ``DuplicateRound``'s (``bot.events.duplicate_round``), which the runner
holds and calls at each step.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from bot.events.clock import StartTimers
from bot.events.duplicate import Comparison, best
from bot.events.duplicate_round import DuplicateRound, Herald, Scored, dealt_of, watchers
from bot.events.options import event_table_options
from bot.events.seating import MIN_TABLE, SeatingError, final_table, mixed, seat_round
from bot.events.standings import (
    Finish,
    Standing,
    standings,
    winners,
    with_final,
)
from bot.ground.errors import UserError
from bot.service import TableService
from bot.service.live import Change
from data.events import EventPlayer, EventRecord, EventTable
from data.store import Store

log = logging.getLogger("bot.events")

#: The fewest players an event starts with (later rounds play on with fewer: computers fill
#: the seats).
MIN_PLAYERS = 3
#: The level of the computers that fill an event table's empty seats.
COMPUTER_LEVEL = "normal"


class Hall(Herald, Protocol):
    """What the runner asks of Discord (a duplicate round's lines too: ``Herald``)."""

    async def open_thread(
        self, event: EventRecord, name: str, members: Collection[int] = ()
    ) -> int:
        """A thread under the event's channel for one table; its id. With ``members`` the
        thread is private to them."""
        ...

    async def show(self, view: EventView) -> None:
        """Draw the event message again from ``view`` (sign-ups, rounds, tables, standings)."""
        ...

    def can_open_threads(self, event: EventRecord) -> bool:
        """Whether the bot may make the tables' threads in the event's channel now."""
        ...


@dataclass(frozen=True, slots=True)
class EventView:
    """Everything the event message shows, read in one go."""

    event: EventRecord
    names: Mapping[int, str]
    tables: tuple[EventTable, ...]
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    #: A duplicate event's best comparison of its last round whose tables all ended, and
    #: that round's number.
    best: Comparison | None = None
    best_round: int = 0


@dataclass(frozen=True, slots=True)
class EventRows:
    """An event's rows as one step read them: the event, its players, its tables and who
    sat out (``(round, user)``)."""

    event: EventRecord
    players: tuple[EventPlayer, ...]
    tables: tuple[EventTable, ...]
    sit_outs: tuple[tuple[int, int], ...]

    @property
    def active(self) -> list[int]:
        """The players not removed, in sign-up order."""
        return [p.user_id for p in self.players if not p.removed]


class EventRunner:
    """Seats rounds and opens their tables; one lock per event keeps two ends of tables
    from seating the same round twice."""

    def __init__(
        self,
        store: Store,
        service: TableService | None,
        hall: Hall,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self._service = service
        self.hall = hall
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.start_timers = StartTimers(clock, self._start_on_time)
        #: The deals of duplicate rounds: drawn, posted, revealed and scored.
        self.duplicates = DuplicateRound(store, hall)

    @property
    def service(self) -> TableService:
        """The table service; the bot binds it once built (the runner is one of its
        listeners, so it exists before the service does)."""
        if self._service is None:
            raise RuntimeError("the event runner has no table service yet")
        return self._service

    def bind(self, service: TableService) -> None:
        """Give the runner the table service it listens to."""
        self._service = service

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    # -- the service's listener -------------------------------------------------------------

    def table_changed(self, change: Change) -> None:
        """A table closed: perhaps the last of its round (checked off the listener's call)."""
        if change.table.closed:
            task = asyncio.get_running_loop().create_task(self.on_table_closed(change.table.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def watched(self, table_id: int) -> Collection[int]:
        return ()

    async def idle(self) -> None:
        """Wait for the work ``table_changed`` scheduled (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- the organiser's calls --------------------------------------------------------------

    async def start(self, event_id: int, user_id: int) -> None:
        """Seat round 1 and open its tables; the organiser only, with enough players."""
        event = await self._event(event_id)
        if user_id != event.organiser_id:
            raise UserError("Only the organiser can start the event.", code="event.not_organiser")
        if event.status != "signup":
            raise UserError("The event has already started.", code="event.started")
        players = await self.store.event_players(event_id)
        if len(players) < MIN_PLAYERS:
            raise UserError(
                f"An event needs at least {MIN_PLAYERS} players; {len(players)} signed up.",
                code="event.too_few",
                low=MIN_PLAYERS,
                signed=len(players),
            )
        await self._begin(event)

    async def _begin(self, event: EventRecord) -> None:
        """Seat round 1 by rating and open its tables (the organiser's Start, or the clock)."""
        self.start_timers.cancel(event.id)
        async with self._lock(event.id):
            rows = await self._rows(event)
            order = await self._by_rating(event, [p.user_id for p in rows.players])
            rows = await self._seat(rows, 1, order)
            view = self._draw(rows, await self._score(rows))
        await self.hall.show(view)

    # -- the start time ---------------------------------------------------------------------

    def arm_start(self, event: EventRecord) -> None:
        """Start the event by itself at its start time, if it has one still to come
        (``start_waiting`` marks one that passed with too few players)."""
        when = event.options.get("starts_at")
        if event.status == "signup" and when is not None and not event.options.get("start_waiting"):
            self.start_timers.arm(event.id, float(when))

    async def _start_on_time(self, event_id: int) -> None:
        """The start time came: start with enough players, else say so and wait for the
        organiser's Start (marked in the options, so a restart does not say it again)."""
        event = await self._event(event_id)
        if event.status != "signup":
            return
        players = await self.store.event_players(event_id)
        if len(players) >= MIN_PLAYERS and self.hall.can_open_threads(event):
            await self._begin(event)
            await self.hall.announce(event, "event.started_on_time", name=event.name)
            return
        await self.store.set_event_options(event_id, {**event.options, "start_waiting": True})
        if len(players) < MIN_PLAYERS:
            await self.hall.announce(
                event,
                "event.start_too_few",
                name=event.name,
                organiser=event.organiser_id,
                low=MIN_PLAYERS,
                signed=len(players),
            )
        else:
            await self.hall.announce(
                event, "event.start_no_threads", name=event.name, organiser=event.organiser_id
            )
        await self.show(event_id)

    async def cancel(self, event_id: int, user_id: int) -> None:
        """Call the event off (the organiser); tables already playing play on, unlinked."""
        event = await self._event(event_id)
        if user_id != event.organiser_id:
            raise UserError("Only the organiser can cancel the event.", code="event.not_organiser")
        moved = await self.store.set_event_status(
            event_id, "cancelled", ["signup", "running", "paused"]
        )
        if not moved:
            raise UserError("The event is already over.", code="event.over")
        self.start_timers.cancel(event_id)
        await self.show(event_id)

    async def pause(self, event_id: int, user_id: int) -> None:
        """Seat no new round until ``resume`` (tables already playing play on)."""
        await self._organiser(event_id, user_id)
        if not await self.store.set_event_status(event_id, "paused", ["running"]):
            raise UserError("The event is not running.", code="event.not_running")
        await self.show(event_id)

    async def resume(self, event_id: int, user_id: int) -> None:
        """Carry on a paused event: a round whose tables all ended meanwhile moves on now."""
        await self._organiser(event_id, user_id)
        if not await self.store.set_event_status(event_id, "running", ["paused"]):
            raise UserError("The event is not paused.", code="event.not_paused")
        await self._advance(event_id)

    async def remove(self, event_id: int, user_id: int, player_id: int) -> None:
        """Take a player out: off the list before the start, out of later rounds after it
        (a table they sit at plays on; the bot plays their seat once they leave it)."""
        event = await self._organiser(event_id, user_id)
        taken = (
            await self.store.drop_out(event_id, player_id)
            if event.status == "signup"
            else await self.store.remove_from_event(event_id, player_id)
        )
        if not taken:
            raise UserError("That member is not in the event.", code="event.not_in")
        await self.show(event_id)

    async def end_table(self, table_id: int, user_id: int) -> None:
        """End a stuck table of the event: its game ends without results (nothing for the
        leaderboard), but its players get event points by the places they held at that
        moment (``finishes_now``, kept before the end so the round's move sees them), and
        the round moves on once its other tables end. In a duplicate event the deals it
        played are compared as any others, and those it did not reach count as average."""
        event_id = await self.store.event_of_table(table_id)
        if event_id is None:
            raise UserError("This table is not part of an event.", code="event.not_event_table")
        await self._organiser(event_id, user_id)
        await self.service.resident(table_id)  # a table nobody used lately waits in the store
        await self.store.set_event_finishes(table_id, self.service.finishes_now(table_id))
        await self.service.end(table_id, user_id)

    async def _organiser(self, event_id: int, user_id: int) -> EventRecord:
        event = await self._event(event_id)
        if user_id != event.organiser_id:
            raise UserError("Only the organiser can do that.", code="event.not_organiser")
        if not event.is_open:
            raise UserError("The event is already over.", code="event.over")
        return event

    # -- rounds -----------------------------------------------------------------------------

    async def on_table_closed(self, table_id: int) -> None:
        """Seat the next round (or finish) if ``table_id`` was the last open table of its
        event's current round; nothing for a table of no event."""
        event_id = await self.store.event_of_table(table_id)
        if event_id is None:
            return
        try:
            await self._advance(event_id)
        except Exception:
            log.exception("event %d: could not move on after table %d", event_id, table_id)

    async def restore(self) -> None:
        """After a restart: open the tables still missing, move on past finished rounds, and
        re-arm the start times still to come (or passed while the bot was down: at once)."""
        for event in await self.store.open_events():
            self.arm_start(event)
            if event.status in ("running", "paused"):
                try:
                    await self._advance(event.id)
                except Exception:
                    log.exception("event %d: could not be resumed", event.id)

    async def _advance(self, event_id: int) -> None:
        """Open what is missing, tell a duplicate round's story once its tables have all
        ended, move on if the round is over, and show the event as it is now (a table that
        ended shows as over even while others play on). The event's rows are read once and
        scored once; what this step seats or opens is added to them as it is written."""
        async with self._lock(event_id):
            rows = await self._rows(await self._event(event_id))
            if rows.event.status in ("running", "paused"):
                # Owed if a restart came between.
                rows = replace(rows, event=await self.duplicates.post_hashes(rows.event))
            if rows.event.status == "running":
                rows = await self._open_missing(rows)
            scored = await self._score(rows)
            if rows.event.status in ("running", "paused"):
                rows = replace(rows, event=await self.duplicates.reveal(rows.event, scored))
            if rows.event.status == "running":
                rows = await self._next_round(rows, scored)
            view = self._draw(rows, scored)
        await self.hall.show(view)

    async def show(self, event_id: int) -> None:
        """Draw the event message as the event stands now (after a sign-up, a removal...)."""
        rows = await self._rows(await self._event(event_id))
        await self.hall.show(self._draw(rows, await self._score(rows)))

    async def _next_round(self, rows: EventRows, scored: Scored) -> EventRows:
        """Seat the next round, the final table, or finish, once the current round is over.

        With computers (every event opened since they took empty seats) the players left play
        on however few they are, computers filling their table; the event ends early only when
        nobody is left, and says so in its channel."""
        event = rows.event
        current = [t for t in rows.tables if t.round == event.round]
        if not current or not all(t.is_over for t in current):
            return rows
        rounds = int(event.options.get("rounds", 1))
        active = set(rows.active)
        order = [s.player for s in scored.standings if s.player in active]
        computers = bool(event.options.get("computers"))
        final_due = event.round == rounds and bool(event.options.get("final"))
        if not order and (event.round < rounds or final_due):
            await self.store.set_event_status(event.id, "finished", ["running"])
            await self.hall.announce(event, "event.nobody_left", name=event.name)
            return replace(rows, event=replace(event, status="finished"))
        if event.round < rounds:
            return await self._seat(rows, event.round + 1, order)
        if final_due and (computers or len(order) >= MIN_TABLE):
            top = final_table(order, int(event.options.get("table_size", 4)))
            # The final's seats stay the top players'; computers only bring a table of one or
            # two people up to the fewest a table seats.
            short = max(0, MIN_TABLE - len(top))
            rows = await self._write_round(rows, event.round + 1, [list(top)], [], [short])
            return await self._open_missing(rows)
        await self.store.set_event_status(event.id, "finished", ["running"])
        return replace(rows, event=replace(event, status="finished"))

    async def _seat(self, rows: EventRows, number: int, order: list[int]) -> EventRows:
        event = rows.event
        size = int(event.options.get("table_size", 4))
        before = [user for _, user in rows.sit_outs]
        duplicate = bool(event.options.get("duplicate"))
        if duplicate and number > 1:
            order = mixed(order, size)
        try:
            seating = seat_round(
                order,
                size,
                before,
                computers=bool(event.options.get("computers")),
                # Every table of a duplicate round has the same seats, so it is one group.
                full=bool(event.options.get("full_tables")) or duplicate,
            )
        except SeatingError as error:
            log.warning("event %d: round %d cannot be seated (%s)", event.id, number, error)
            await self.store.set_event_status(event.id, "finished", ["running", "signup"])
            return replace(rows, event=replace(event, status="finished"))
        computers = list(seating.computers)
        if duplicate:
            seats = {
                len(table) + (computers[i] if i < len(computers) else 0)
                for i, table in enumerate(seating.tables)
            }
            rows = replace(rows, event=await self.duplicates.deal(event, number, seats))
        rows = await self._write_round(
            rows, number, [list(t) for t in seating.tables], list(seating.sitting_out), computers
        )
        if duplicate:
            rows = replace(rows, event=await self.duplicates.post_hashes(rows.event))
        return await self._open_missing(rows)

    async def _write_round(
        self,
        rows: EventRows,
        number: int,
        tables: list[list[int]],
        out: list[int],
        computers: list[int],
    ) -> EventRows:
        """Write round ``number`` and return the rows with it; the rows as stored now if
        another writer seated it first."""
        event = rows.event
        if not await self.store.seat_round(event.id, number, tables, out, computers):
            log.info("event %d: round %d was seated already", event.id, number)
            return await self._rows(await self._event(event.id))
        seated = tuple(
            EventTable(
                round=number,
                position=position,
                players=tuple(players),
                table_id=None,
                table_status=None,
                computers=computers[position] if position < len(computers) else 0,
            )
            for position, players in enumerate(tables)
        )
        return replace(
            rows,
            event=replace(event, round=number, status="running"),
            tables=rows.tables + seated,
            sit_outs=rows.sit_outs + tuple((number, user) for user in out),
        )

    async def _open_missing(self, rows: EventRows) -> EventRows:
        """Open and start every table of the current round not playing yet; the rows with
        them linked.

        A table is linked to its row as soon as it is opened, so a restart before its start
        finishes seating and starts that lobby instead of opening a second table."""
        event = rows.event
        names = {p.user_id: p.name for p in rows.players}
        tables = list(rows.tables)
        for index, table in enumerate(tables):
            if table.round != event.round or table.table_status not in (None, "lobby"):
                continue
            host, *others = table.players
            thread_id = table.channel_id
            if table.table_id is None:
                title = f"{event.name} · {table.round}.{table.position + 1}"
                thread_id = await self.hall.open_thread(
                    event, title, watchers(event, rows.tables, table)
                )
                live = await self.service.open_table(
                    event.guild_id,
                    thread_id,
                    host,
                    names.get(host, str(host)),
                    # A table dealt like the others of its round says so at its end: its
                    # seeds wait for the round (``bot.channel.table_text``).
                    {**event_table_options(event), "dealt_alike": True}
                    if dealt_of(event, table) is not None
                    else event_table_options(event),
                )
                await self.store.set_event_table(event.id, table.round, table.position, live.id)
                table_id = live.id
            else:
                table_id = table.table_id
                await self.service.resident(table_id)  # restored lazily after a restart
            seats = self.service.public(table_id).record.seats
            seated = {seat.user_id for seat in seats}
            for user in others:
                if user not in seated:
                    await self.service.join(table_id, user, names.get(user, str(user)))
            # Computers only in the seats the count left empty (a restart adds only the rest).
            for _ in range(table.computers - sum(1 for seat in seats if seat.is_computer)):
                await self.service.add_computer(table_id, host, COMPUTER_LEVEL)
            await self.service.start(table_id, host, dealt=dealt_of(event, table))
            tables[index] = replace(
                table,
                table_id=table_id,
                table_status="playing",
                channel_id=thread_id if table.table_id is None else table.channel_id,
            )
        return replace(rows, tables=tuple(tables))

    # -- reading ----------------------------------------------------------------------------

    async def view(self, event_id: int) -> EventView:
        """What the event message shows now."""
        rows = await self._rows(await self._event(event_id))
        return self._draw(rows, await self._score(rows))

    async def _rows(self, event: EventRecord) -> EventRows:
        """The event's rows, each table read once."""
        return EventRows(
            event=event,
            players=tuple(await self.store.event_players(event.id)),
            tables=tuple(await self.store.event_tables(event.id)),
            sit_outs=tuple(await self.store.event_sit_outs(event.id)),
        )

    async def _finishes(self, table: EventTable) -> list[Finish] | None:
        """The places at one table once it is over (``None`` before): its results, or the
        places the organiser ended it at."""
        if table.table_id is None:
            return None
        if table.table_status == "ended" and table.finishes is not None:
            return [Finish(user, place, total) for user, place, total in table.finishes]
        if table.table_status == "finished":
            return [
                Finish(r.user_id, r.place or 1, r.total)
                for r in await self.store.table_results(table.table_id)
                if r.user_id > 0
            ]
        return None

    async def _score(self, rows: EventRows) -> Scored:
        """The standings of ``rows`` (and a duplicate event's comparisons), computed once."""
        event = rows.event
        rounds = int(event.options.get("rounds", 1))
        played: list[list[Finish]] = []
        final: list[list[Finish]] = []
        for table in rows.tables:
            finishes = await self._finishes(table)
            if finishes is not None:
                (final if table.round > rounds else played).append(finishes)
        players = [p.user_id for p in rows.players]
        removed = {p.user_id for p in rows.players if p.removed}
        if event.options.get("duplicate"):
            scored = await self.duplicates.score(event, rows.tables, players, played, removed)
        else:
            sit_outs = [user for _, user in rows.sit_outs]
            size = int(event.options.get("table_size", 4))
            scored = Scored(tuple(standings(players, played, sit_outs, size, removed)))
        if final:
            scored = replace(scored, standings=tuple(with_final(scored.standings, final[0])))
        return scored

    @staticmethod
    def _draw(rows: EventRows, scored: Scored) -> EventView:
        """The event message's view of ``rows`` as scored."""
        event = rows.event
        ordered = scored.standings
        last = max(scored.comparisons, default=0)
        return EventView(
            event=event,
            names={p.user_id: p.name for p in rows.players},
            tables=rows.tables,
            standings=ordered,
            winners=tuple(winners(ordered)) if event.status == "finished" else (),
            best=best(scored.comparisons[last]) if last else None,
            best_round=last,
        )

    async def _event(self, event_id: int) -> EventRecord:
        event = await self.store.get_event(event_id)
        if event is None:
            raise UserError("That event no longer exists.", code="event.gone")
        return event

    async def _by_rating(self, event: EventRecord, players: list[int]) -> list[int]:
        """Best rated first; players without a rating after them, in sign-up order."""
        board = await self.store.leaderboard(event.guild_id, limit=10_000)
        rating = {row.user_id: row.rating for row in board}
        rated = sorted((p for p in players if p in rating), key=lambda p: -rating[p])
        return [*rated, *(p for p in players if p not in rating)]
