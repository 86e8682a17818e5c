"""A member's own data (export and erasure) and the servers the bot left: the calls both stores
make alike.

A member's data is what the bot keeps under their Discord id: ``MEMBER_COLUMNS`` names every
column that holds it, with what the export shows of it and what the erasure does to it. Erasing
keeps the other players' games and events whole: each of the member's result rows, sign-ups,
seats and sit-outs stays, with a placeholder id and the name ``FORMER_NAME``, off the board, so
a game still has its four totals and places, an event its standings, and a replay of the
ratings still counts the seat as the opponent it was. The finished tables' own record (seat
list, the engine's state, the action log) keeps the id: it is the game as played, which a
replay and an audit read.

The export a member asks for covers the servers the bot is still in (no departure noted); an
operator's (``python -m bot member export``) covers every server in the database, since it
serves a person who shares no server with the bot any more. The erasure covers every server.

A server the bot was removed from is noted in ``guild_departures``; after the period the admin
chose its data is deleted (by the process that owns its shard, which knows whether the bot came
back meanwhile), unless the bot came back first.
"""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass
from typing import Any, Final

from .calls import SqlCalls
from .sql import Sql

#: The name an erased member's results carry from then on.
FORMER_NAME: Final = "a former player"
#: Placeholder ids of erased members are taken from ``[FORMER_FIRST, FORMER_END)``: positive,
#: so a replay of the ratings still counts them as people, and below ``1 << 22``, the smallest
#: id Discord can give (a snowflake's time stamp sits in its bits above the 22nd).
FORMER_FIRST: Final = 1 << 21
FORMER_END: Final = 1 << 22
#: The meta key counting erased members, whose next value is the next placeholder.
_FORMER_COUNTER: Final = "former_players"

_OPEN_SEATS = "SELECT id, guild_id, seats FROM tables WHERE status IN ('lobby', 'playing')"
_RESULTS_OF = """
SELECT table_id, guild_id, game_kind, season, name, seat, total, is_winner, place, ranked,
       on_board, deals_out, blind_outs, buys_used, finished_at
FROM results WHERE user_id = ?
ORDER BY finished_at, table_id
"""
_RATINGS_OF = """
SELECT guild_id, game_kind, season, name, mu, sigma, ordinal, games, wins, sum_total,
       best_total, best_table, deals_out, blind_outs, streak, best_streak, updated_at
FROM ratings WHERE user_id = ?
ORDER BY guild_id, game_kind, season
"""
_HOSTED = """
SELECT id, guild_id, game_kind, status, created_at FROM tables WHERE host_id = ? ORDER BY id
"""
_SEASONS_STARTED = """
SELECT guild_id, number, started_at FROM seasons WHERE started_by = ? ORDER BY guild_id, number
"""
#: Every table's seats: a member's place at a table is inside its JSON seat list.
_ALL_SEATS = "SELECT id, guild_id, game_kind, status, seats, created_at FROM tables ORDER BY id"
_MOVES_OF = "SELECT table_id, COUNT(*) AS moves FROM actions WHERE user_id = ? GROUP BY table_id"
_ORGANISED = """
SELECT id, guild_id, name, status, created_at FROM events WHERE organiser_id = ? ORDER BY id
"""
_SIGN_UPS = """
SELECT p.event_id, e.guild_id, e.name AS event_name, e.status, p.name, p.signed_up_at, p.removed
FROM event_players p JOIN events e ON e.id = p.event_id
WHERE p.user_id = ? ORDER BY p.event_id
"""
_SAT_OUT = """
SELECT s.event_id, e.guild_id, s.round FROM event_sit_outs s JOIN events e ON e.id = s.event_id
WHERE s.user_id = ? ORDER BY s.event_id, s.round
"""
#: The seated tables of the events a member signed up to (a seated player always did).
_EVENT_SEATS = """
SELECT t.event_id, e.guild_id, t.round, t.position, t.players, t.finishes, t.table_id
FROM event_tables t JOIN events e ON e.id = t.event_id
WHERE t.event_id IN (SELECT event_id FROM event_players WHERE user_id = ?)
ORDER BY t.event_id, t.round, t.position
"""
#: The events not yet over that a member is in (signed up and not removed) or organises.
_OPEN_EVENTS = """
SELECT id FROM events
WHERE status IN ('signup', 'running', 'paused')
  AND (organiser_id = ? OR id IN (SELECT event_id FROM event_players
                                  WHERE user_id = ? AND removed = ?))
ORDER BY id
"""
_DEPARTED = "SELECT guild_id FROM guild_departures"
_NEXT_FORMER = """
INSERT INTO meta (key, value) VALUES (?, '1')
ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS INTEGER) + 1 AS TEXT)
"""
_ANONYMISE_RESULTS = "UPDATE results SET user_id = ?, name = ?, on_board = ? WHERE user_id = ?"
_DELETE_RATINGS = "DELETE FROM ratings WHERE user_id = ?"
_ANONYMISE_SEASONS = "UPDATE seasons SET started_by = ? WHERE started_by = ?"
_ANONYMISE_HOSTS = (
    "UPDATE tables SET host_id = ? WHERE host_id = ? AND status NOT IN ('lobby', 'playing')"
)
_ANONYMISE_ORGANISER = "UPDATE events SET organiser_id = ? WHERE organiser_id = ?"
_ANONYMISE_SIGN_UPS = "UPDATE event_players SET user_id = ?, name = ? WHERE user_id = ?"
_ANONYMISE_SIT_OUTS = "UPDATE event_sit_outs SET user_id = ? WHERE user_id = ?"
_REWRITE_EVENT_TABLE = """
UPDATE event_tables SET players = ?, finishes = ? WHERE event_id = ? AND round = ? AND position = ?
"""

_LEFT = "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
_RETURNED = "DELETE FROM guild_departures WHERE guild_id = ?"
_DUE = "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id"
_GUILD_EVENTS = "SELECT id FROM events WHERE guild_id = ?"
_GUILD_TABLES = "SELECT id FROM tables WHERE guild_id = ?"
#: A departed guild's rows, children first (an event's sign-ups, seats and sit-outs, then the
#: actions and results of its tables, before them), not leaning on the cascades.
_PURGE: Final = (
    f"DELETE FROM event_sit_outs WHERE event_id IN ({_GUILD_EVENTS})",
    f"DELETE FROM event_players WHERE event_id IN ({_GUILD_EVENTS})",
    f"DELETE FROM event_tables WHERE event_id IN ({_GUILD_EVENTS})",
    f"DELETE FROM event_tables WHERE table_id IN ({_GUILD_TABLES})",
    "DELETE FROM events WHERE guild_id = ?",
    f"DELETE FROM actions WHERE table_id IN ({_GUILD_TABLES})",
    "DELETE FROM results WHERE guild_id = ?",
    "DELETE FROM tables WHERE guild_id = ?",
    "DELETE FROM ratings WHERE guild_id = ?",
    "DELETE FROM seasons WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
    "DELETE FROM guild_departures WHERE guild_id = ?",
)

#: Every column that holds a member's id (or their name beside it), by table: what the export
#: shows of it and what the erasure does. ``tests/data/test_members.py`` holds the schema to
#: this list, so a new column of a member's goes in here (and in the export and erasure)
#: before it can land.
MEMBER_COLUMNS: Final[dict[tuple[str, str], tuple[str, str]]] = {
    ("results", "user_id"): ("games", "placeholder id, name 'a former player', off the board"),
    ("results", "name"): ("games", "'a former player'"),
    ("ratings", "user_id"): ("ratings", "deleted"),
    ("ratings", "name"): ("ratings", "deleted"),
    ("tables", "host_id"): ("tables_hosted", "placeholder id once the table is closed"),
    ("tables", "seats"): ("tables_seated", "kept: the game as played"),
    ("tables", "state"): ("tables_seated", "kept: the game as played"),
    ("actions", "user_id"): ("tables_seated", "kept: the game as played (its moves)"),
    ("seasons", "started_by"): ("seasons_started", "placeholder id"),
    ("events", "organiser_id"): ("events_organised", "placeholder id once the event is over"),
    ("event_players", "user_id"): ("event_sign_ups", "placeholder id"),
    ("event_players", "name"): ("event_sign_ups", "'a former player'"),
    ("event_tables", "players"): ("event_seats", "placeholder id"),
    ("event_tables", "finishes"): ("event_seats", "placeholder id"),
    ("event_sit_outs", "user_id"): ("event_sit_outs", "placeholder id"),
}


@dataclass(frozen=True, slots=True)
class Erasure:
    """What ``erase_member`` did, or why it did nothing.

    ``open_tables``: the lobbies and games the member sits at; ``open_events``: the events not
    yet over that they are in or organise. When there is either, nothing was changed (their
    seat would be written under their id when the game ends, and the event would seat them
    again or wait for its organiser).
    """

    results: int
    ratings: int
    open_tables: tuple[int, ...] = ()
    placeholder: int | None = None
    open_events: tuple[int, ...] = ()
    events: int = 0


def _when(stamp: float) -> str:
    return datetime.datetime.fromtimestamp(stamp, tz=datetime.UTC).isoformat(timespec="seconds")


class MemberCalls(SqlCalls):
    """A member's export and erasure, and the servers the bot left (see ``data.store.Store``)."""

    async def _open_tables_of(self, sql: Sql, user_id: int) -> list[Any]:
        """The open tables (any guild) with ``user_id`` in a seat; a scan of the few open rows."""
        found = []
        for row in await sql.fetch(_OPEN_SEATS):
            seats = self._from_json(row["seats"]) or []
            if any(int(seat.get("user_id", 0)) == user_id for seat in seats):
                found.append(row)
        return found

    async def member_data(self, user_id: int, *, departed: bool = False) -> dict[str, Any]:
        """Everything kept under ``user_id``, as one JSON-ready object: in the guilds the bot
        is still in, or (``departed``) in every guild the database holds."""

        async def work(sql: Sql) -> dict[str, Any]:
            gone = set() if departed else {int(r["guild_id"]) for r in await sql.fetch(_DEPARTED)}

            def kept(rows: list[Any]) -> list[Any]:
                return [row for row in rows if int(row["guild_id"]) not in gone]

            seated = kept(await self._open_tables_of(sql, user_id))
            moves = {
                int(r["table_id"]): int(r["moves"]) for r in await sql.fetch(_MOVES_OF, user_id)
            }
            return {
                "user_id": str(user_id),
                "exported_at": _when(self._now()),
                "games": [_game(row) for row in kept(await sql.fetch(_RESULTS_OF, user_id))],
                "ratings": [_rating(row) for row in kept(await sql.fetch(_RATINGS_OF, user_id))],
                "open_tables": [
                    {"table_id": int(row["id"]), "guild_id": str(row["guild_id"])} for row in seated
                ],
                "tables_hosted": [
                    {
                        "table_id": int(row["id"]),
                        "guild_id": str(row["guild_id"]),
                        "game": str(row["game_kind"]),
                        "status": str(row["status"]),
                        "created_at": _when(float(row["created_at"])),
                    }
                    for row in kept(await sql.fetch(_HOSTED, user_id))
                ],
                "tables_seated": await self._tables_seated(sql, user_id, moves, gone),
                "seasons_started": [
                    {
                        "guild_id": str(row["guild_id"]),
                        "season": int(row["number"]),
                        "started_at": _when(float(row["started_at"])),
                    }
                    for row in kept(await sql.fetch(_SEASONS_STARTED, user_id))
                ],
                "events_organised": [
                    {
                        "event_id": int(row["id"]),
                        "guild_id": str(row["guild_id"]),
                        "name": str(row["name"]),
                        "status": str(row["status"]),
                        "created_at": _when(float(row["created_at"])),
                    }
                    for row in kept(await sql.fetch(_ORGANISED, user_id))
                ],
                "event_sign_ups": [
                    {
                        "event_id": int(row["event_id"]),
                        "guild_id": str(row["guild_id"]),
                        "event": str(row["event_name"]),
                        "name": str(row["name"]),
                        "signed_up_at": _when(float(row["signed_up_at"])),
                        "removed": bool(row["removed"]),
                    }
                    for row in kept(await sql.fetch(_SIGN_UPS, user_id))
                ],
                "event_seats": [
                    seat
                    for row in kept(await sql.fetch(_EVENT_SEATS, user_id))
                    if (seat := self._event_seat(row, user_id)) is not None
                ],
                "event_sit_outs": [
                    {
                        "event_id": int(row["event_id"]),
                        "guild_id": str(row["guild_id"]),
                        "round": int(row["round"]),
                    }
                    for row in kept(await sql.fetch(_SAT_OUT, user_id))
                ],
            }

        return await self._sql_read(work)

    async def _tables_seated(
        self, sql: Sql, user_id: int, moves: dict[int, int], gone: set[int]
    ) -> list[dict[str, Any]]:
        """Every table with ``user_id`` in a seat (a scan of the seat lists: an export is rare),
        with the name they sat under and how many moves of theirs it keeps."""
        found = []
        for row in await sql.fetch(_ALL_SEATS):
            if int(row["guild_id"]) in gone:
                continue
            seats = self._from_json(row["seats"]) or []
            for number, seat in enumerate(seats):
                if int(seat.get("user_id", 0)) == user_id:
                    found.append(
                        {
                            "table_id": int(row["id"]),
                            "guild_id": str(row["guild_id"]),
                            "game": str(row["game_kind"]),
                            "status": str(row["status"]),
                            "created_at": _when(float(row["created_at"])),
                            "seat": number,
                            "name": str(seat.get("name", "")),
                            "moves": moves.get(int(row["id"]), 0),
                        }
                    )
        return found

    def _event_seat(self, row: Any, user_id: int) -> dict[str, Any] | None:
        """The member's seat in one seated table of an event, with their finish if the
        organiser ended that table; ``None`` when they were not at it."""
        players = [int(p) for p in self._from_json(row["players"]) or []]
        if user_id not in players:
            return None
        finishes = self._from_json(row["finishes"]) if row["finishes"] is not None else None
        finish = next(
            (
                {"place": int(f[1]), "total": int(f[2])}
                for f in finishes or []
                if int(f[0]) == user_id
            ),
            None,
        )
        return {
            "event_id": int(row["event_id"]),
            "guild_id": str(row["guild_id"]),
            "round": int(row["round"]),
            "table": int(row["position"]) + 1,
            "table_id": None if row["table_id"] is None else int(row["table_id"]),
            "finish": finish,
        }

    async def erase_member(self, user_id: int) -> Erasure:
        """Anonymise ``user_id``'s results, sign-ups, event seats and sit-outs, delete their
        ratings, and drop their id from the seasons they started and the closed tables and
        events they ran, in every guild and one transaction; nothing while they sit at an open
        table or are in an event not yet over."""

        async def work(sql: Sql) -> Erasure:
            seated = await self._open_tables_of(sql, user_id)
            in_events = await sql.fetch(_OPEN_EVENTS, user_id, user_id, False)
            if seated or in_events:
                return Erasure(
                    0,
                    0,
                    tuple(int(row["id"]) for row in seated),
                    open_events=tuple(int(row["id"]) for row in in_events),
                )
            await sql.execute(_NEXT_FORMER, _FORMER_COUNTER)
            [counter] = await sql.fetch("SELECT value FROM meta WHERE key = ?", _FORMER_COUNTER)
            placeholder = FORMER_FIRST + (int(counter["value"]) - 1) % (FORMER_END - FORMER_FIRST)
            results = await sql.execute(
                _ANONYMISE_RESULTS, placeholder, FORMER_NAME, False, user_id
            )
            ratings = await sql.execute(_DELETE_RATINGS, user_id)
            await sql.execute(_ANONYMISE_SEASONS, placeholder, user_id)
            await sql.execute(_ANONYMISE_HOSTS, placeholder, user_id)
            await sql.execute(_ANONYMISE_ORGANISER, placeholder, user_id)
            for row in await sql.fetch(_EVENT_SEATS, user_id):
                await self._rewrite_event_table(sql, row, user_id, placeholder)
            events = await sql.execute(_ANONYMISE_SIGN_UPS, placeholder, FORMER_NAME, user_id)
            await sql.execute(_ANONYMISE_SIT_OUTS, placeholder, user_id)
            return Erasure(results, ratings, (), placeholder, events=events)

        return await self._sql_write(work)

    async def _rewrite_event_table(
        self, sql: Sql, row: Any, user_id: int, placeholder: int
    ) -> None:
        """Put ``placeholder`` for ``user_id`` in one event table's players and finishes."""
        players = [int(p) for p in self._from_json(row["players"]) or []]
        if user_id not in players:
            return
        finishes = self._from_json(row["finishes"]) if row["finishes"] is not None else None
        new_finishes = (
            None
            if finishes is None
            else [[placeholder if int(f[0]) == user_id else int(f[0]), *f[1:]] for f in finishes]
        )
        await sql.execute(
            _REWRITE_EVENT_TABLE,
            self._to_json([placeholder if p == user_id else p for p in players]),
            None if new_finishes is None else self._to_json(new_finishes),
            int(row["event_id"]),
            int(row["round"]),
            int(row["position"]),
        )

    async def guild_left(self, guild_id: int) -> None:
        """Note that the bot was removed from ``guild_id`` (the first removal's time counts)."""
        await self._change(None, _LEFT, guild_id, self._now())

    async def guild_returned(self, guild_id: int) -> None:
        """The bot is in ``guild_id`` (again): its data is no longer due for deletion."""
        await self._change(None, _RETURNED, guild_id)

    async def departed_guilds(self, after_seconds: float) -> list[int]:
        """The guilds the bot left at least ``after_seconds`` ago, not back since."""
        cutoff = self._now() - after_seconds
        return [int(row["guild_id"]) for row in await self._query(_DUE, cutoff)]

    async def purge_guild(self, guild_id: int) -> None:
        """Delete every row of ``guild_id``, its departure too, in one transaction."""
        await self._sql_write(functools.partial(_purge, guild_id=guild_id))


async def _purge(sql: Sql, *, guild_id: int) -> None:
    for statement in _PURGE:
        await sql.execute(statement, guild_id)


def _game(row: Any) -> dict[str, Any]:
    return {
        "table_id": int(row["table_id"]),
        "guild_id": str(row["guild_id"]),
        "game": str(row["game_kind"]),
        "finished_at": _when(float(row["finished_at"])),
        "season": int(row["season"]),
        "seat": int(row["seat"]),
        "name": str(row["name"]),
        "total": int(row["total"]),
        "winner": bool(row["is_winner"]),
        "place": int(row["place"]),
        "ranked": bool(row["ranked"]),
        "on_board": bool(row["on_board"]),
        "deals_out": int(row["deals_out"]),
        "blind_outs": int(row["blind_outs"]),
        "buys_used": int(row["buys_used"]),
    }


def _rating(row: Any) -> dict[str, Any]:
    return {
        "guild_id": str(row["guild_id"]),
        "game": str(row["game_kind"]),
        "season": int(row["season"]),
        "name": str(row["name"]),
        "rating": round(float(row["ordinal"]), 3),
        "mu": round(float(row["mu"]), 3),
        "sigma": round(float(row["sigma"]), 3),
        "games": int(row["games"]),
        "wins": int(row["wins"]),
        "sum_total": int(row["sum_total"]),
        "best_total": int(row["best_total"]),
        "best_table": int(row["best_table"]),
        "deals_out": int(row["deals_out"]),
        "blind_outs": int(row["blind_outs"]),
        "streak": int(row["streak"]),
        "best_streak": int(row["best_streak"]),
        "updated_at": _when(float(row["updated_at"])),
    }


__all__ = [
    "FORMER_NAME",
    "MEMBER_COLUMNS",
    "Erasure",
    "MemberCalls",
]
