"""The ranked board's calls of ``data.store.Store``, written once for both stores.

``BoardCalls`` is a mixin: a store gives it ``_board_read`` and ``_board_write`` (running a
function on an ``data.ranking.Sql`` adapter of its reader, or inside one write transaction),
and ``player_stats``; everything else (the queries, the rating model) is in ``data.ranking``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from . import ranking
from .ranking import Sql
from .records import (
    BoardEntries,
    GameKind,
    HeadToHead,
    LeaderboardRow,
    PlayerCard,
    PlayerStats,
    ServerRecord,
)

_T = TypeVar("_T")

#: How many of a player's last games the stats picture draws.
RECENT_GAMES = 20


class BoardCalls:
    """Seasons, the board, stats cards, head-to-head, records and removals (see ``Store``)."""

    async def _board_read(self, work: Callable[[Sql], Awaitable[_T]]) -> _T:
        raise NotImplementedError

    async def _board_write(self, work: Callable[[Sql], Awaitable[_T]]) -> _T:
        raise NotImplementedError

    def _now(self) -> float:
        raise NotImplementedError

    async def player_stats(
        self, guild_id: int, user_id: int, game_kind: GameKind = "shanghai"
    ) -> PlayerStats | None:
        raise NotImplementedError

    async def current_season(self, guild_id: int) -> int:
        """The guild's season now: 1 until an admin starts the next."""
        return await self._board_read(lambda sql: ranking.current_season(sql, guild_id))

    async def start_season(self, guild_id: int, user_id: int) -> int:
        """Open the guild's next season, started by ``user_id``; its number. Nothing is
        deleted: earlier seasons' boards stay readable."""
        now = self._now()
        return await self._board_write(
            lambda sql: ranking.start_season(sql, guild_id, user_id, now)
        )

    async def leaderboard(
        self,
        guild_id: int,
        game_kind: GameKind = "shanghai",
        limit: int = 10,
        season: int | None = None,
    ) -> list[LeaderboardRow]:
        """A season's board (default: the current season): players with at least
        ``ranking.MIN_RANKED_GAMES`` ranked games, best rating (ordinal) first."""
        return await self._board_read(
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

        return await self._board_read(work)

    async def head_to_head(
        self, guild_id: int, user_id: int, other_id: int, game_kind: GameKind = "shanghai"
    ) -> HeadToHead:
        """Every game ``user_id`` and ``other_id`` played together in the guild."""
        return await self._board_read(
            lambda sql: ranking.head_to_head(sql, guild_id, game_kind, user_id, other_id)
        )

    async def server_records(
        self, guild_id: int, game_kind: GameKind = "shanghai"
    ) -> list[ServerRecord]:
        """The guild's records over its ranked games (see ``ranking.server_records``)."""
        return await self._board_read(lambda sql: ranking.server_records(sql, guild_id, game_kind))

    async def board_entries(self, guild_id: int, user_id: int) -> BoardEntries:
        """What a member has on the guild's board now (for the removal's confirmation)."""
        return await self._board_read(lambda sql: ranking.board_entries(sql, guild_id, user_id))

    async def remove_from_board(self, guild_id: int, user_id: int) -> BoardEntries:
        """Take a member's results off the guild's board; what was removed."""
        return await self._board_write(
            lambda sql: ranking.remove_from_board(sql, guild_id, user_id)
        )

    async def _rebuild_if_migrated(self) -> None:
        """Replay the ratings once after migration 0004 (its marker in ``meta``), in one
        transaction that also deletes the marker, so two processes never both replay."""
        now = self._now()
        pending = await self._board_read(
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

        await self._board_write(work)
