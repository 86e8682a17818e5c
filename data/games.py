"""Tables, their game and its action log: the calls both stores make alike.

A write that depends on where the table is checks it in the statement that writes
(``WHERE version = ? AND status = 'playing'``): no window between reading and writing. When it
matches no row, ``_stale`` reads why (an unknown table, or one that moved on). Creating a lobby,
saving an action and the restore query are the stores' own (their dialects do them
differently); the rest is here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from . import ranking
from .calls import SqlCalls
from .errors import StaleVersion, TableNotFound
from .records import (
    END_STATUSES,
    ActionRecord,
    AwayState,
    EndStatus,
    ResultRow,
    Seat,
    TablePlace,
    TableRecord,
    TableStatus,
)
from .rows import table_record
from .sql import Sql
from .store import KEEP, Keep
from .unreadable import decode_open

#: Where a table still takes players or moves.
OPEN = "status IN ('lobby', 'playing')"

SELECT_TABLE = "SELECT * FROM tables WHERE id = ?"
SELECT_OPEN_IN_CHANNEL = f"SELECT * FROM tables WHERE channel_id = ? AND {OPEN}"
SELECT_OPEN_TABLES = f"SELECT * FROM tables WHERE {OPEN}"
#: The columns of ``TablePlace``.
PLACE_COLUMNS = "id, guild_id, channel_id, parent_channel_id, updated_at"
SELECT_OPEN_PLACES = f"SELECT {PLACE_COLUMNS} FROM tables WHERE {OPEN}"
# No ORDER BY: sorted in Python, so SQLite scans the partial index of the open rows
# (``tables_one_open_per_channel``) rather than every finished table kept as history.
_OPEN_SEATS_IN_GUILD = f"SELECT id, seats FROM tables WHERE {OPEN} AND guild_id = ?"
_VERSION_AND_STATUS = "SELECT version, status FROM tables WHERE id = ?"
_EXISTS = "SELECT 1 FROM tables WHERE id = ?"

INSERT_TABLE = """
INSERT INTO tables (guild_id, channel_id, game_kind, status, host_id, seats, options,
                    created_at, updated_at)
VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)
"""
_UPDATE_LOBBY = """
UPDATE tables SET seats = ?, options = ?, updated_at = ?
WHERE id = ? AND status = 'lobby'
"""
_UPDATE_LOBBY_AND_MESSAGE = """
UPDATE tables SET seats = ?, options = ?, updated_at = ?, message_id = ?
WHERE id = ? AND status = 'lobby'
"""
_SET_MESSAGE = "UPDATE tables SET message_id = ?, updated_at = ? WHERE id = ?"
_MOVE_TO_THREAD = """
UPDATE tables SET parent_channel_id = channel_id, channel_id = ?, message_id = NULL,
                  updated_at = ?
WHERE id = ? AND parent_channel_id IS NULL
"""
_START_GAME = """
UPDATE tables
SET status = 'playing', seats = ?, state = ?, version = 0, buy_deadline = ?, turn_deadline = ?,
    away = ?, updated_at = ?
WHERE id = ? AND status = 'lobby'
"""
# A kick: the away flags alone, no action and no new version (the lock is the service's).
_SET_AWAY = "UPDATE tables SET away = ?, updated_at = ? WHERE id = ? AND status = 'playing'"
_SET_PACE = """
UPDATE tables SET options = ?, turn_deadline = ?, updated_at = ?
WHERE id = ? AND status = 'playing'
"""
INSERT_ACTION = (
    "INSERT INTO actions (table_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)"
)
_FINISH_GAME = """
UPDATE tables
SET state = ?, status = ?, version = ?, buy_deadline = NULL, turn_deadline = NULL,
    updated_at = ?
WHERE id = ? AND version = ? AND status = 'playing'
"""
# guild_id and game_kind come from the table row, so the caller cannot file them wrongly.
# The season is the guild's current one (data.ranking).
_INSERT_RESULT = """
INSERT INTO results (table_id, guild_id, game_kind, user_id, name, seat, total, is_winner,
                     deals_out, blind_outs, buys_used, finished_at, ranked, place, season)
SELECT id, guild_id, game_kind, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM tables WHERE id = ?
"""
_GUILD_OF = "SELECT guild_id FROM tables WHERE id = ?"
_END_TABLE = f"""
UPDATE tables SET status = ?, buy_deadline = NULL, turn_deadline = NULL, updated_at = ?
WHERE id = ? AND {OPEN}
"""
_SELECT_ACTIONS = """
SELECT table_id, seq, user_id, action, created_at FROM actions WHERE table_id = ? ORDER BY seq
"""


class GameCalls(SqlCalls):
    """A table from its lobby to its end (see ``data.store.Store`` for each call's contract)."""

    def _table(self, row: Any) -> TableRecord:
        return table_record(row, self._from_json)

    async def _lock_ratings(self, sql: Sql, guild_id: int) -> None:
        """Keep two games of one guild from rating from the same old ratings at once: nothing
        to do where the whole database has one writer (SQLite)."""

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table with this id, in any status, or ``None``."""
        rows = await self._query_table(table_id, SELECT_TABLE, table_id)
        return self._table(rows[0]) if rows else None

    async def get_open_table(self, channel_id: int) -> TableRecord | None:
        """The channel's lobby or game in progress, or ``None`` if it is free."""
        rows = await self._query_table(None, SELECT_OPEN_IN_CHANNEL, channel_id)
        return self._table(rows[0]) if rows else None

    async def seated_open_tables(self, guild_id: int, user_id: int) -> list[int]:
        """The ids of ``guild_id``'s open tables with a seat for ``user_id``, oldest first."""
        rows = await self._query_table(None, _OPEN_SEATS_IN_GUILD, guild_id)
        return sorted(
            int(row["id"])
            for row in rows
            if any(
                int(seat.get("user_id", 0)) == user_id
                for seat in self._from_json(row["seats"]) or []
            )
        )

    @staticmethod
    def _places(rows: Sequence[Any]) -> list[TablePlace]:
        return [
            TablePlace(
                int(row["id"]),
                int(row["guild_id"]),
                int(row["channel_id"]),
                None if row["parent_channel_id"] is None else int(row["parent_channel_id"]),
                float(row["updated_at"]),
            )
            for row in rows
        ]

    async def _decoded_open(self, rows: Sequence[Any]) -> list[TableRecord]:
        """The open tables of ``rows``; a row that does not decode is ended and logged
        instead (``data.unreadable``)."""
        records, broken = decode_open(rows, self._table)
        for table_id in broken:
            await self.end_table(table_id)
        return records

    async def update_lobby(
        self,
        table_id: int,
        seats: Sequence[Seat],
        options: Mapping[str, Any],
        message_id: int | Literal[Keep.KEEP] | None = KEEP,
    ) -> None:
        """Replace a lobby's seats and options (and its message id, when given).

        Raises ``StaleVersion`` if the table is no longer a lobby, ``TableNotFound`` if unknown.
        """
        now = self._now()
        seats_json = self._to_json([seat.to_json() for seat in seats])
        options_json = self._to_json(dict(options))
        if message_id is KEEP:
            changed = await self._change(
                table_id, _UPDATE_LOBBY, seats_json, options_json, now, table_id
            )
        else:
            changed = await self._change(
                table_id,
                _UPDATE_LOBBY_AND_MESSAGE,
                seats_json,
                options_json,
                now,
                message_id,
                table_id,
            )
        if changed != 1:
            raise await self._stale(table_id, "lobby")

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """Remember which Discord message shows the table, in any status (it may be re-posted).

        Raises ``TableNotFound`` if the id is unknown.
        """
        if await self._change(table_id, _SET_MESSAGE, message_id, self._now(), table_id) != 1:
            raise TableNotFound(table_id)

    async def move_to_thread(self, table_id: int, thread_id: int) -> None:
        """The table plays on in thread ``thread_id`` (``Store.move_to_thread``)."""
        if await self._change(table_id, _MOVE_TO_THREAD, thread_id, self._now(), table_id) != 1:
            raise TableNotFound(table_id)

    async def start_game(
        self,
        table_id: int,
        seats: Sequence[Seat],
        state_json: str,
        buy_deadline: float | None,
        turn_deadline: float | None,
    ) -> None:
        """Turn a lobby into a game: final seats, the engine's first state, version 0.

        Every seat starts with a clean ``AwayState``. Raises ``StaleVersion`` if the table is not
        a lobby any more (started twice, or ended), ``TableNotFound`` if unknown.
        """
        changed = await self._change(
            table_id,
            _START_GAME,
            self._to_json([seat.to_json() for seat in seats]),
            state_json,
            buy_deadline,
            turn_deadline,
            self._to_json([AwayState().to_json() for _ in seats]),
            self._now(),
            table_id,
        )
        if changed != 1:
            raise await self._stale(table_id, "lobby")

    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None:
        """Replace a game's away flags without logging an action (the host removed a player).

        Raises ``StaleVersion`` if the table is not playing, ``TableNotFound`` if unknown.
        """
        away_json = self._to_json([entry.to_json() for entry in away])
        if await self._change(table_id, _SET_AWAY, away_json, self._now(), table_id) != 1:
            raise await self._stale(table_id, "playing")

    async def set_pace(
        self, table_id: int, options: Mapping[str, Any], turn_deadline: float | None
    ) -> None:
        """Replace a game's options and its turn's deadline, without logging an action (its
        people agreed to go on at another pace).

        Raises ``StaleVersion`` if the table is not playing, ``TableNotFound`` if unknown.
        """
        options_json = self._to_json(dict(options))
        now = self._now()
        changed = await self._change(
            table_id, _SET_PACE, options_json, turn_deadline, now, table_id
        )
        if changed != 1:
            raise await self._stale(table_id, "playing")

    async def finish_game(
        self,
        table_id: int,
        expected_version: int,
        state_json: str,
        results: Sequence[ResultRow],
        status: Literal["finished", "ended"] = "finished",
        *,
        user_id: int | None = None,
        action_text: str | None = None,
        ranked: bool = False,
    ) -> int:
        """Close a game: final state, ``status``, deadlines cleared, and its result rows.

        ``ranked`` marks the people's rows ranked (a computer's never is) and updates their
        ratings of the guild's current season in the same transaction (``data.ranking``).

        One transaction, with the same version check as ``save_action``. Pass ``user_id`` and
        ``action_text`` to log the game-ending action in the same transaction (the version then
        advances by one); otherwise save that action first and pass the version it returned.
        Which seats get a result row (normally humans only) is the caller's choice. Returns the
        final version. Raises ``StaleVersion`` or ``TableNotFound`` as ``save_action`` does.
        """
        if (user_id is None) != (action_text is None):
            raise ValueError("pass both user_id and action_text, or neither")
        now = self._now()
        new_version = expected_version if user_id is None else expected_version + 1
        result_rows = [
            (
                r.user_id, r.name, r.seat, r.total, r.is_winner, r.deals_out, r.blind_outs,
                r.buys_used, now, ranked and r.user_id > 0, r.place,
            )
            for r in results
        ]  # fmt: skip

        async def work(sql: Sql) -> bool:
            finished = await sql.execute(
                _FINISH_GAME, state_json, status, new_version, now, table_id, expected_version
            )
            if finished != 1:
                return False
            if user_id is not None:
                await sql.execute(INSERT_ACTION, table_id, new_version, user_id, action_text, now)
            [table] = await sql.fetch(_GUILD_OF, table_id)
            guild_id = table["guild_id"]
            if ranked:
                await self._lock_ratings(sql, guild_id)
            season = await ranking.current_season(sql, guild_id)
            if result_rows:
                await sql.execute_many(
                    _INSERT_RESULT, [(*row, season, table_id) for row in result_rows]
                )
            if ranked:
                await ranking.rate_ranked_game(sql, table_id, results, season, now)
            return True

        if not await self._sql_write(work, table_id):
            raise await self._stale(table_id, "playing", expected_version)
        return new_version

    async def end_table(self, table_id: int, status: EndStatus = "ended") -> bool:
        """Close a lobby or game without results; frees the channel. ``status`` tells how:
        ``ended`` (the host ended it) or ``abandoned`` (its channel went, nobody played).

        Returns ``False`` if the table was already closed (its status then stays), so calling
        twice is harmless. Raises ``TableNotFound`` if the id is unknown.
        """
        if status not in END_STATUSES:
            raise ValueError(f"a table ends with status 'ended' or 'abandoned', not {status!r}")
        if await self._change(table_id, _END_TABLE, status, self._now(), table_id) == 1:
            return True
        if not await self._query(_EXISTS, table_id):
            raise TableNotFound(table_id)
        return False

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """A table's action log in order: enough, with the engine's seed, to replay its game."""
        rows = await self._query_table(table_id, _SELECT_ACTIONS, table_id)
        return [ActionRecord(*row) for row in rows]

    async def _stale(
        self, table_id: int, wanted_status: TableStatus, expected_version: int | None = None
    ) -> Exception:
        """Explain why a guarded write matched no row: unknown table, or it moved on."""
        rows = await self._query(_VERSION_AND_STATUS, table_id)
        if not rows:
            return TableNotFound(table_id)
        return StaleVersion(
            table_id,
            expected_version=expected_version,
            actual_version=rows[0]["version"],
            status=rows[0]["status"],
            wanted_status=wanted_status,
        )
