"""Events: their sign-ups, the seating of each round and its tables; the calls both stores
make alike.

An event moves ``signup -> running (<-> paused) -> finished``, or to ``cancelled`` from any
open status. ``seat_round`` writes a whole round (its tables' players and who sits out) in
one transaction and moves ``round`` on, only from the round before: two processes, or a retry
after a restart, cannot seat the same round twice. Each table of a round gets its
``table_id`` when the bot has opened it (``set_event_table``), so the rows still without one
are exactly the tables a restart must still open. Results are the tables' own
(``table_results``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from .calls import SqlCalls
from .sql import Sql

EventStatus = Literal["signup", "running", "paused", "finished", "cancelled"]
#: What ``sign_up`` found: in now, in already, the event full, or no longer taking sign-ups.
SignUp = Literal["joined", "already", "full", "closed"]

#: The statuses of an event that is not over.
OPEN_EVENT_STATUSES: Final = ("signup", "running", "paused")


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One row of ``events``. ``round`` is the round seated last (0 while taking sign-ups)."""

    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    organiser_id: int
    name: str
    options: Mapping[str, Any]
    status: EventStatus
    round: int

    @property
    def is_open(self) -> bool:
        """Not finished or cancelled."""
        return self.status in OPEN_EVENT_STATUSES


@dataclass(frozen=True, slots=True)
class EventPlayer:
    """A player who signed up, in sign-up order; ``removed`` by the organiser after the start."""

    user_id: int
    name: str
    removed: bool = False


@dataclass(frozen=True, slots=True)
class EventTable:
    """One table of one round: its players (best first), and its game table once opened.

    ``table_status`` is the game table's status and ``channel_id`` its channel (the thread
    it plays in); both ``None`` until it is opened."""

    round: int
    position: int
    players: tuple[int, ...]
    table_id: int | None
    table_status: str | None
    channel_id: int | None = None
    #: Computer players seated beside ``players`` (empty seats the count left).
    computers: int = 0
    #: ``(user, place, total)`` at the moment the organiser ended the table, if they did.
    finishes: tuple[tuple[int, int, int], ...] | None = None

    @property
    def is_over(self) -> bool:
        """The table was opened and is no longer in its lobby or playing."""
        return self.table_status is not None and self.table_status not in ("lobby", "playing")


@dataclass(frozen=True, slots=True)
class TableRound:
    """The round a game table was played in, with the other tables of that round: what a
    finished game's replay and seeds ask before they show anything (``hidden``), and which
    games were dealt the same cards (``same_deals``)."""

    event_id: int
    table_id: int
    round: int
    #: Whether the event deals every table of a round alike (a duplicate event).
    duplicate: bool
    event_open: bool
    #: ``(table_id, table status, seats)`` of each table of the round, in position order;
    #: the id and status are ``None`` for a table not opened yet.
    tables: tuple[tuple[int | None, str | None, int], ...]

    @property
    def hidden(self) -> bool:
        """A duplicate round still playing somewhere: until its last table ends, nothing of
        its games (hands, seeds, replays) may be shown, even of a table already over."""
        if not self.duplicate:
            return False
        for table_id, status, _ in self.tables:
            if table_id is None and self.event_open:
                return True
            if status in ("lobby", "playing"):
                return True
        return False

    def same_deals(self) -> tuple[int, ...]:
        """The other games of the round dealt the same cards (as many seats); none outside
        a duplicate event."""
        if not self.duplicate:
            return ()
        seats = {table_id: count for table_id, _, count in self.tables}
        mine = seats.get(self.table_id)
        return tuple(
            table_id
            for table_id, _, count in self.tables
            if table_id is not None and table_id != self.table_id and count == mine
        )


_OPEN = "status IN ('signup', 'running', 'paused')"
_INSERT_EVENT = """
INSERT INTO events (guild_id, channel_id, organiser_id, name, options, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id
"""
_SELECT_EVENT = "SELECT * FROM events WHERE id = ?"
_SELECT_OPEN_EVENTS = f"SELECT * FROM events WHERE {_OPEN} ORDER BY id"
_SELECT_OPEN_IN_GUILD = f"SELECT * FROM events WHERE guild_id = ? AND {_OPEN} ORDER BY id"
_SET_MESSAGE = "UPDATE events SET message_id = ?, updated_at = ? WHERE id = ?"
_PLAYERS = """
SELECT user_id, name, removed FROM event_players WHERE event_id = ?
ORDER BY signed_up_at, user_id
"""
_COUNT_PLAYERS = "SELECT COUNT(*) AS n FROM event_players WHERE event_id = ?"
_HAS_PLAYER = "SELECT 1 FROM event_players WHERE event_id = ? AND user_id = ?"
_INSERT_PLAYER = """
INSERT INTO event_players (event_id, user_id, name, signed_up_at, removed)
VALUES (?, ?, ?, ?, ?)
"""
_DROP_OUT = """
DELETE FROM event_players
WHERE event_id = ? AND user_id = ?
  AND EXISTS (SELECT 1 FROM events WHERE id = ? AND status = 'signup')
"""
_REMOVE_PLAYER = """
UPDATE event_players SET removed = ? WHERE event_id = ? AND user_id = ? AND removed = ?
"""
_MOVE_ROUND = """
UPDATE events SET round = ?, status = 'running', updated_at = ?
WHERE id = ? AND round = ? AND status IN ('signup', 'running')
"""
_INSERT_TABLE = """
INSERT INTO event_tables (event_id, round, position, players, computers) VALUES (?, ?, ?, ?, ?)
"""
_INSERT_SIT_OUT = "INSERT INTO event_sit_outs (event_id, round, user_id) VALUES (?, ?, ?)"
_SET_TABLE = """
UPDATE event_tables SET table_id = ?
WHERE event_id = ? AND round = ? AND position = ? AND table_id IS NULL
"""
_TABLES = """
SELECT e.round, e.position, e.players, e.table_id, t.status AS table_status,
       t.channel_id AS table_channel, e.computers, e.finishes
FROM event_tables e LEFT JOIN tables t ON t.id = e.table_id
WHERE e.event_id = ? ORDER BY e.round, e.position
"""
_SIT_OUTS = "SELECT round, user_id FROM event_sit_outs WHERE event_id = ? ORDER BY round, user_id"
_EVENT_OF_TABLE = "SELECT event_id FROM event_tables WHERE table_id = ?"
_SET_FINISHES = "UPDATE event_tables SET finishes = ? WHERE table_id = ?"
_SET_OPTIONS = "UPDATE events SET options = ?, updated_at = ? WHERE id = ?"
_ROUND_OF_TABLE = """
SELECT ev.id AS event_id, ev.options, ev.status AS event_status, e.round,
       o.table_id, o.players, o.computers, t.status AS table_status
FROM event_tables e
JOIN events ev ON ev.id = e.event_id
JOIN event_tables o ON o.event_id = e.event_id AND o.round = e.round
LEFT JOIN tables t ON t.id = o.table_id
WHERE e.table_id = ? ORDER BY o.position
"""


class EventCalls(SqlCalls):
    """Events, sign-ups and seating (see ``data.store.Store``)."""

    async def create_event(
        self,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        options: Mapping[str, Any],
    ) -> EventRecord:
        """Open an event for sign-ups and return it."""
        now = self._now()
        values = (guild_id, channel_id, organiser_id, name, self._to_json(dict(options)), now, now)

        async def work(sql: Sql) -> int:
            rows = await sql.fetch(_INSERT_EVENT, *values)
            return int(rows[0]["id"])

        event_id = await self._sql_write(work)
        event = await self.get_event(event_id)
        assert event is not None  # written just now
        return event

    async def get_event(self, event_id: int) -> EventRecord | None:
        """One event, or ``None`` for an unknown id."""
        rows = await self._query_table(None, _SELECT_EVENT, event_id)
        return self._event(rows[0]) if rows else None

    async def open_events(self, guild_id: int | None = None) -> list[EventRecord]:
        """The events not yet over, of one guild or (``None``) of all, oldest first."""
        if guild_id is None:
            rows = await self._query_table(None, _SELECT_OPEN_EVENTS)
        else:
            rows = await self._query_table(None, _SELECT_OPEN_IN_GUILD, guild_id)
        return [self._event(row) for row in rows]

    async def set_event_message(self, event_id: int, message_id: int | None) -> None:
        """Remember the event's message (the one edited with sign-ups, rounds and standings)."""
        await self._change(None, _SET_MESSAGE, message_id, self._now(), event_id)

    async def set_event_status(
        self, event_id: int, status: EventStatus, allowed_from: Sequence[EventStatus]
    ) -> bool:
        """Move the event to ``status`` if it is in one of ``allowed_from``; whether it moved."""
        marks = ", ".join("?" for _ in allowed_from)
        changed = await self._change(
            None,
            f"UPDATE events SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
            status,
            self._now(),
            event_id,
            *allowed_from,
        )
        return changed > 0

    async def sign_up(self, event_id: int, user_id: int, name: str, limit: int) -> SignUp:
        """Add a player while the event takes sign-ups and has fewer than ``limit``."""
        now = self._now()

        async def work(sql: Sql) -> SignUp:
            event = await sql.fetch(_SELECT_EVENT, event_id)
            if not event or event[0]["status"] != "signup":
                return "closed"
            if await sql.fetch(_HAS_PLAYER, event_id, user_id):
                return "already"
            count = await sql.fetch(_COUNT_PLAYERS, event_id)
            if int(count[0]["n"]) >= limit:
                return "full"
            await sql.execute(_INSERT_PLAYER, event_id, user_id, name, now, False)
            return "joined"

        return await self._sql_write(work)

    async def drop_out(self, event_id: int, user_id: int) -> bool:
        """Take a player off before the start; whether they were on."""
        return await self._change(None, _DROP_OUT, event_id, user_id, event_id) > 0

    async def remove_from_event(self, event_id: int, user_id: int) -> bool:
        """Mark a player removed (after the start: later rounds leave them out)."""
        return await self._change(None, _REMOVE_PLAYER, True, event_id, user_id, False) > 0

    async def event_players(self, event_id: int) -> list[EventPlayer]:
        """Everyone signed up, in sign-up order."""
        rows = await self._query_table(None, _PLAYERS, event_id)
        return [EventPlayer(int(r["user_id"]), str(r["name"]), bool(r["removed"])) for r in rows]

    async def seat_round(
        self,
        event_id: int,
        round_number: int,
        tables: Sequence[Sequence[int]],
        sitting_out: Sequence[int],
        computers: Sequence[int] = (),
    ) -> bool:
        """Write round ``round_number``'s tables and sit-outs and make it the current round,
        only if the event is at the round before; whether it was written. ``computers`` is
        how many computer players each table gets (none where it is short)."""
        now = self._now()

        async def work(sql: Sql) -> bool:
            moved = await sql.execute(_MOVE_ROUND, round_number, now, event_id, round_number - 1)
            if not moved:
                return False
            await sql.execute_many(
                _INSERT_TABLE,
                [
                    (
                        event_id,
                        round_number,
                        position,
                        self._to_json(list(players)),
                        computers[position] if position < len(computers) else 0,
                    )
                    for position, players in enumerate(tables)
                ],
            )
            if sitting_out:
                await sql.execute_many(
                    _INSERT_SIT_OUT, [(event_id, round_number, user) for user in sitting_out]
                )
            return True

        return await self._sql_write(work)

    async def set_event_table(
        self, event_id: int, round_number: int, position: int, table_id: int
    ) -> bool:
        """Link a seated table of a round to the game table opened for it (once)."""
        changed = await self._change(None, _SET_TABLE, table_id, event_id, round_number, position)
        return changed > 0

    async def event_tables(self, event_id: int) -> list[EventTable]:
        """Every seated table of the event, round by round."""
        rows = await self._query_table(None, _TABLES, event_id)
        return [
            EventTable(
                round=int(r["round"]),
                position=int(r["position"]),
                players=tuple(int(p) for p in self._from_json(r["players"])),
                table_id=None if r["table_id"] is None else int(r["table_id"]),
                table_status=None if r["table_status"] is None else str(r["table_status"]),
                channel_id=None if r["table_channel"] is None else int(r["table_channel"]),
                computers=int(r["computers"] or 0),
                finishes=self._finishes(r["finishes"]),
            )
            for r in rows
        ]

    async def event_sit_outs(self, event_id: int) -> list[tuple[int, int]]:
        """``(round, user_id)`` for every player who sat a round out."""
        rows = await self._query_table(None, _SIT_OUTS, event_id)
        return [(int(r["round"]), int(r["user_id"])) for r in rows]

    async def event_of_table(self, table_id: int) -> int | None:
        """The event a game table belongs to, if any."""
        rows = await self._query_table(None, _EVENT_OF_TABLE, table_id)
        return int(rows[0]["event_id"]) if rows else None

    async def set_event_finishes(
        self, table_id: int, finishes: Sequence[tuple[int, int, int]]
    ) -> None:
        """Keep ``(user, place, total)`` of an event's table the organiser is ending."""
        data = self._to_json([list(finish) for finish in finishes])
        await self._change(None, _SET_FINISHES, data, table_id)

    async def set_event_options(self, event_id: int, options: Mapping[str, Any]) -> None:
        """Replace the event's options (a start time that passed, say)."""
        await self._change(None, _SET_OPTIONS, self._to_json(dict(options)), self._now(), event_id)

    async def table_round(self, table_id: int) -> TableRound | None:
        """The event round game table ``table_id`` was seated in, with its other tables;
        ``None`` for a table of no event."""
        rows = await self._query_table(None, _ROUND_OF_TABLE, table_id)
        if not rows:
            return None
        first = rows[0]
        options = self._from_json(first["options"])
        return TableRound(
            event_id=int(first["event_id"]),
            table_id=table_id,
            round=int(first["round"]),
            duplicate=isinstance(options, dict) and bool(options.get("duplicate")),
            event_open=first["event_status"] in OPEN_EVENT_STATUSES,
            tables=tuple(
                (
                    None if r["table_id"] is None else int(r["table_id"]),
                    None if r["table_status"] is None else str(r["table_status"]),
                    len(self._from_json(r["players"])) + int(r["computers"] or 0),
                )
                for r in rows
            ),
        )

    def _finishes(self, value: Any) -> tuple[tuple[int, int, int], ...] | None:
        if value is None:
            return None
        rows = self._from_json(value)
        return tuple((int(r[0]), int(r[1]), int(r[2])) for r in rows)

    def _event(self, row: Any) -> EventRecord:
        options = self._from_json(row["options"])
        return EventRecord(
            id=int(row["id"]),
            guild_id=int(row["guild_id"]),
            channel_id=int(row["channel_id"]),
            message_id=None if row["message_id"] is None else int(row["message_id"]),
            organiser_id=int(row["organiser_id"]),
            name=str(row["name"]),
            options=dict(options) if isinstance(options, dict) else {},
            status=row["status"],
            round=int(row["round"]),
        )
