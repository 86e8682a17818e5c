"""A member's own data (export and erasure) and the servers the bot left: the calls both stores
make alike.

A member's data is what the bot keeps under their Discord id: the results of their finished
games (``results``), their ratings (``ratings``), the tables they hosted and the seasons they
started. Erasing it keeps the other players' games whole: each of the member's result rows
stays, with a placeholder id and the name ``FORMER_NAME``, off the board, so a game still has
its four totals and places, and a replay of the ratings still counts the seat as the opponent
it was. The finished tables' own record (seat list, the engine's state, the action log) keeps
the id: it is the game as played, which a replay and an audit read.

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

_LEFT = "INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT DO NOTHING"
_RETURNED = "DELETE FROM guild_departures WHERE guild_id = ?"
_DUE = "SELECT guild_id FROM guild_departures WHERE left_at <= ? ORDER BY guild_id"
#: A departed guild's rows, children first (the actions and results of its tables before them).
_PURGE: Final = (
    "DELETE FROM actions WHERE table_id IN (SELECT id FROM tables WHERE guild_id = ?)",
    "DELETE FROM results WHERE guild_id = ?",
    "DELETE FROM tables WHERE guild_id = ?",
    "DELETE FROM ratings WHERE guild_id = ?",
    "DELETE FROM seasons WHERE guild_id = ?",
    "DELETE FROM guild_settings WHERE guild_id = ?",
    "DELETE FROM guild_departures WHERE guild_id = ?",
)


@dataclass(frozen=True, slots=True)
class Erasure:
    """What ``erase_member`` did, or why it did nothing.

    ``open_tables``: the lobbies and games the member sits at; when there is one, nothing was
    changed (their seat would be written under their id when the game ends).
    """

    results: int
    ratings: int
    open_tables: tuple[int, ...] = ()
    placeholder: int | None = None


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

    async def member_data(self, user_id: int) -> dict[str, Any]:
        """Everything kept under ``user_id``, as one JSON-ready object."""

        async def work(sql: Sql) -> dict[str, Any]:
            results = await sql.fetch(_RESULTS_OF, user_id)
            ratings = await sql.fetch(_RATINGS_OF, user_id)
            hosted = await sql.fetch(_HOSTED, user_id)
            seasons = await sql.fetch(_SEASONS_STARTED, user_id)
            seated = await self._open_tables_of(sql, user_id)
            return {
                "user_id": str(user_id),
                "exported_at": _when(self._now()),
                "games": [_game(row) for row in results],
                "ratings": [_rating(row) for row in ratings],
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
                    for row in hosted
                ],
                "seasons_started": [
                    {
                        "guild_id": str(row["guild_id"]),
                        "season": int(row["number"]),
                        "started_at": _when(float(row["started_at"])),
                    }
                    for row in seasons
                ],
            }

        return await self._sql_read(work)

    async def erase_member(self, user_id: int) -> Erasure:
        """Anonymise ``user_id``'s results, delete their ratings, and drop their id from the
        seasons they started and the closed tables they hosted, in one transaction; nothing
        while they sit at an open table."""

        async def work(sql: Sql) -> Erasure:
            seated = await self._open_tables_of(sql, user_id)
            if seated:
                return Erasure(0, 0, tuple(int(row["id"]) for row in seated))
            await sql.execute(_NEXT_FORMER, _FORMER_COUNTER)
            [counter] = await sql.fetch("SELECT value FROM meta WHERE key = ?", _FORMER_COUNTER)
            placeholder = FORMER_FIRST + (int(counter["value"]) - 1) % (FORMER_END - FORMER_FIRST)
            results = await sql.execute(
                _ANONYMISE_RESULTS, placeholder, FORMER_NAME, False, user_id
            )
            ratings = await sql.execute(_DELETE_RATINGS, user_id)
            await sql.execute(_ANONYMISE_SEASONS, placeholder, user_id)
            await sql.execute(_ANONYMISE_HOSTS, placeholder, user_id)
            return Erasure(results, ratings, (), placeholder)

        return await self._sql_write(work)

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
    "Erasure",
    "MemberCalls",
]
