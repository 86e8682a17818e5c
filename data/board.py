"""Results, statistics and the ranked board: the calls of ``data.store.Store`` written once
for both stores.

``BoardCalls`` is a mixin on a store's primitives (``data.calls.SqlCalls``): ``_sql_read`` and
``_sql_write`` run a function on a ``data.sql.Sql`` of its reader, or inside one write
transaction. The board's queries and the rating model are in ``data.ranking`` and
``data.rating``; a game's own results and a player's totals are read here.
"""

from __future__ import annotations

from typing import Final

from . import ranking
from .calls import SqlCalls
from .records import (
    BoardEntries,
    GameKind,
    HeadToHead,
    LeaderboardRow,
    PlayedGame,
    PlayerCard,
    PlayerStats,
    ResultRow,
    Seat,
    ServerRecord,
    lower_is_better,
)
from .rows import result_row, stats_record
from .sql import Sql

#: How many of a player's last games the stats picture draws.
RECENT_GAMES = 20

#: The guild's finished games, newest first; ``{player}`` narrows them to one member's.
_RECENT_GAMES = """
SELECT r.table_id, MAX(r.finished_at) AS finished_at
FROM results AS r JOIN tables AS t ON t.id = r.table_id
WHERE r.guild_id = ? AND t.status = 'finished'{player}
GROUP BY r.table_id ORDER BY finished_at DESC, r.table_id DESC LIMIT ?
"""
_PLAYED_BY = " AND r.table_id IN (SELECT table_id FROM results WHERE guild_id = ? AND user_id = ?)"

_SELECT_RESULTS = """
SELECT user_id, name, seat, total, is_winner, deals_out, blind_outs, buys_used, place
FROM results WHERE table_id = ? ORDER BY seat
"""


def _player_stats_sql(lower_better: bool) -> str:
    """A player's totals in a guild and game (no row without a result). The display name is
    the one of their latest game (they may have renamed since); its subquery takes the guild
    and the game first, then the outer query takes them and the player."""
    best = "MIN" if lower_better else "MAX"
    return f"""
SELECT COUNT(*) AS games, SUM(CASE WHEN r.is_winner THEN 1 ELSE 0 END) AS wins,
       AVG(r.total) AS average_total, {best}(r.total) AS best_total,
       SUM(r.deals_out) AS deals_out, SUM(r.blind_outs) AS blind_outs,
       SUM(r.buys_used) AS buys_used,
       (SELECT latest.name FROM results AS latest
        WHERE latest.guild_id = ? AND latest.game_kind = ? AND latest.user_id = r.user_id
        ORDER BY latest.finished_at DESC, latest.table_id DESC LIMIT 1) AS name
FROM results AS r
WHERE r.guild_id = ? AND r.game_kind = ? AND r.user_id = ?
GROUP BY r.user_id
"""


_PLAYER_STATS_SQL: Final = {flag: _player_stats_sql(flag) for flag in (True, False)}


class BoardCalls(SqlCalls):
    """A game's results, a player's totals, seasons, the board, stats cards, head-to-head,
    records and removals (see ``Store``)."""

    async def table_results(self, table_id: int) -> list[ResultRow]:
        """The result rows ``finish_game`` stored for a table, by seat."""
        rows = await self._query(_SELECT_RESULTS, table_id)
        return [result_row(row) for row in rows]

    async def recent_games(
        self, guild_id: int, user_id: int | None = None, limit: int = 10
    ) -> list[PlayedGame]:
        """The guild's last ``limit`` finished games, newest first; with ``user_id``, only
        those that member played. Three reads (the games, their tables, their results), so
        the query is the same text in both dialects whatever the count."""

        async def work(sql: Sql) -> list[PlayedGame]:
            if user_id is None:
                games = await sql.fetch(_RECENT_GAMES.format(player=""), guild_id, limit)
            else:
                query = _RECENT_GAMES.format(player=_PLAYED_BY)
                games = await sql.fetch(query, guild_id, guild_id, user_id, limit)
            if not games:
                return []
            ids = [int(row["table_id"]) for row in games]
            marks = ", ".join("?" for _ in ids)
            tables = await sql.fetch(
                f"SELECT id, channel_id, game_kind, seats FROM tables WHERE id IN ({marks})", *ids
            )
            results = await sql.fetch(
                "SELECT table_id, user_id, name, seat, total, is_winner, deals_out, blind_outs,"
                f" buys_used, place FROM results WHERE table_id IN ({marks}) ORDER BY seat",
                *ids,
            )
            by_id = {int(row["id"]): row for row in tables}
            rows: dict[int, list[ResultRow]] = {table_id: [] for table_id in ids}
            for row in results:
                rows[int(row["table_id"])].append(result_row(row))
            return [
                PlayedGame(
                    table_id=table_id,
                    channel_id=int(by_id[table_id]["channel_id"]),
                    game_kind=by_id[table_id]["game_kind"],
                    finished_at=float(game["finished_at"]),
                    seats=tuple(
                        Seat.from_json(obj) for obj in self._from_json(by_id[table_id]["seats"])
                    ),
                    results=tuple(rows[table_id]),
                )
                for table_id, game in zip(ids, games, strict=True)
            ]

        return await self._sql_read(work)

    async def player_stats(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerStats | None:
        """One player's record at one game in a guild, or ``None`` if they have no results."""
        rows = await self._query(
            _PLAYER_STATS_SQL[lower_is_better(game_kind)],
            guild_id,
            game_kind,
            guild_id,
            game_kind,
            user_id,
        )
        return stats_record(rows[0], user_id, game_kind) if rows else None

    async def current_season(self, guild_id: int) -> int:
        """The guild's season now: 1 until an admin starts the next."""
        return await self._sql_read(lambda sql: ranking.current_season(sql, guild_id))

    async def start_season(self, guild_id: int, user_id: int) -> int:
        """Open the guild's next season, started by ``user_id``; its number. Nothing is
        deleted: earlier seasons' boards stay readable."""
        now = self._now()
        return await self._sql_write(lambda sql: ranking.start_season(sql, guild_id, user_id, now))

    async def leaderboard(
        self,
        guild_id: int,
        game_kind: GameKind = "shanghai",
        limit: int = 10,
        season: int | None = None,
    ) -> list[LeaderboardRow]:
        """A season's board (default: the current season): players with at least
        ``ranking.MIN_RANKED_GAMES`` ranked games, best rating (ordinal) first."""
        return await self._sql_read(
            lambda sql: ranking.leaderboard(sql, guild_id, game_kind, limit, season)
        )

    async def player_card(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerCard | None:
        """What ``/shanghai stats`` shows of a player, or ``None`` without any result."""
        stats = await self.player_stats(guild_id, user_id, game_kind)
        if stats is None:
            return None

        async def work(sql: Sql) -> PlayerCard:
            season = await ranking.current_season(sql, guild_id)
            recent = await ranking.history(sql, guild_id, game_kind, user_id, RECENT_GAMES)
            ranked, best, streak = await ranking.ranked_summary(sql, guild_id, game_kind, user_id)
            rating = await ranking.rating_of(sql, guild_id, game_kind, season, user_id)
            return PlayerCard(
                stats=stats,
                ranked_games=ranked,
                recent=tuple(recent),
                best_ranked_total=best,
                longest_win_streak=streak,
                season=season,
                rating=None if rating is None else rating.ordinal,
                board_games=0 if rating is None else rating.games,
            )

        return await self._sql_read(work)

    async def head_to_head(
        self, guild_id: int, user_id: int, other_id: int, game_kind: GameKind = "shanghai"
    ) -> HeadToHead:
        """Every game ``user_id`` and ``other_id`` played together in the guild."""
        return await self._sql_read(
            lambda sql: ranking.head_to_head(sql, guild_id, game_kind, user_id, other_id)
        )

    async def server_records(
        self, guild_id: int, game_kind: GameKind = "shanghai"
    ) -> list[ServerRecord]:
        """The guild's records over its ranked games (see ``ranking.server_records``)."""
        return await self._sql_read(lambda sql: ranking.server_records(sql, guild_id, game_kind))

    async def board_entries(self, guild_id: int, user_id: int) -> BoardEntries:
        """What a member has on the guild's board now (for the removal's confirmation)."""
        return await self._sql_read(lambda sql: ranking.board_entries(sql, guild_id, user_id))

    async def remove_from_board(self, guild_id: int, user_id: int) -> BoardEntries:
        """Take a member's results off the guild's board; what was removed."""
        return await self._sql_write(lambda sql: ranking.remove_from_board(sql, guild_id, user_id))

    async def _rebuild_if_migrated(self) -> None:
        """Replay the ratings once after migration 0004 (its marker in ``meta``), in one
        transaction that also deletes the marker, so two processes never both replay."""
        now = self._now()
        pending = await self._sql_read(
            lambda sql: sql.fetch("SELECT value FROM meta WHERE key = ?", ranking.REBUILD_KEY)
        )
        if not pending:
            return

        async def work(sql: Sql) -> None:
            marker = await sql.fetch("SELECT value FROM meta WHERE key = ?", ranking.REBUILD_KEY)
            if not marker:
                return
            await sql.execute("DELETE FROM meta WHERE key = ?", ranking.REBUILD_KEY)
            await ranking.rebuild_ratings(sql, now)

        await self._sql_write(work)
