"""The ranked board, shared by both stores: ratings, seasons, records, head-to-head.

A player appears on a season's board only after ``MIN_RANKED_GAMES`` ranked games of it; the
ratings themselves come from ``data.rating``. Every query here is written once, with ``?``
placeholders, and runs through a store's ``data.sql.Sql``; sums of booleans are ``CASE``
expressions, so the same text runs on both dialects.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from .rating import Rating, longest_streak, people_of, rate_game
from .records import (
    BoardEntries,
    GameKind,
    HeadToHead,
    HistoryEntry,
    LeaderboardRow,
    ResultRow,
    ServerRecord,
    lower_is_better,
)
from .sql import Sql

#: Ranked games of a season before a player appears on its board: three full games (some
#: three hours) say something about a player; one lucky evening does not.
MIN_RANKED_GAMES: Final = 3

#: The meta key migration 0004 leaves behind: the ratings of the games it ranked are to be
#: replayed by the store, in Python, the next time it opens.
REBUILD_KEY: Final = "ratings_rebuild"

#: The server records, in the order they are shown.
RECORD_KINDS: Final = ("wins", "best_game", "win_streak", "zero_deals", "blind_outs")


# -- the queries ----------------------------------------------------------------------------

_CURRENT_SEASON = "SELECT COALESCE(MAX(number), 1) AS season FROM seasons WHERE guild_id = ?"
_TABLE_OF = "SELECT guild_id, game_kind FROM tables WHERE id = ?"
_RATING_OF = """
SELECT user_id, name, mu, sigma, games, wins, sum_total, best_total, best_table, deals_out,
       blind_outs, streak, best_streak
FROM ratings
WHERE guild_id = ? AND game_kind = ? AND season = ? AND user_id = ?
"""
_UPSERT_RATING = """
INSERT INTO ratings (guild_id, game_kind, season, user_id, name, mu, sigma, ordinal, games, wins,
                     sum_total, best_total, best_table, deals_out, blind_outs, streak,
                     best_streak, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (guild_id, game_kind, season, user_id) DO UPDATE SET
    name = excluded.name, mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
    games = excluded.games, wins = excluded.wins, sum_total = excluded.sum_total,
    best_total = excluded.best_total, best_table = excluded.best_table,
    deals_out = excluded.deals_out, blind_outs = excluded.blind_outs, streak = excluded.streak,
    best_streak = excluded.best_streak, updated_at = excluded.updated_at
"""
BOARD_SQL = """
SELECT user_id, name, games, wins, sum_total, best_total, mu, sigma, ordinal FROM ratings
WHERE guild_id = ? AND game_kind = ? AND season = ? AND games >= ?
ORDER BY ordinal DESC, games DESC, user_id
LIMIT ?
"""
_START_SEASON = """
INSERT INTO seasons (guild_id, number, started_at, started_by) VALUES (?, ?, ?, ?)
"""
_HISTORY = """
SELECT table_id, finished_at, total, is_winner, ranked, place, deals_out, blind_outs, buys_used
FROM results
WHERE guild_id = ? AND game_kind = ? AND user_id = ?
ORDER BY finished_at DESC, table_id DESC
LIMIT ?
"""
_RANKED_WINS_IN_ORDER = """
SELECT is_winner, total FROM results
WHERE guild_id = ? AND game_kind = ? AND user_id = ? AND ranked = ?
ORDER BY finished_at, table_id
"""
#: Both sides are one player's rows of the guild and game (``results_by_player``), joined by
#: table: a few hundred rows each, whatever the server's size.
_HEAD_TO_HEAD = """
SELECT me.total AS my_total, other.total AS other_total, me.place AS my_place,
       other.place AS other_place, me.ranked AS ranked
FROM results AS me
JOIN results AS other
  ON other.table_id = me.table_id AND other.guild_id = me.guild_id
 AND other.game_kind = me.game_kind AND other.user_id = ?
WHERE me.guild_id = ? AND me.game_kind = ? AND me.user_id = ?
"""
#: The records read the ratings table (one row per player and season, kept by every ranked
#: game), not the results: a few hundred rows however many games a server played.
_RECORD_SUMS = """
SELECT user_id, SUM(wins) AS wins, SUM(deals_out) AS deals_out, SUM(blind_outs) AS blind_outs,
       MAX(best_streak) AS best_streak
FROM ratings WHERE guild_id = ? AND game_kind = ?
GROUP BY user_id
"""
_RECORD_BEST = {
    lower: f"""
SELECT user_id, best_total, best_table FROM ratings WHERE guild_id = ? AND game_kind = ?
ORDER BY best_total {"ASC" if lower else "DESC"}, best_table LIMIT 1
"""
    for lower in (True, False)
}
_LATEST_NAME = """
SELECT name FROM results WHERE guild_id = ? AND game_kind = ? AND user_id = ?
ORDER BY finished_at DESC, table_id DESC LIMIT 1
"""
_BOARD_ENTRIES = """
SELECT season, ranked, COUNT(*) AS count FROM results
WHERE guild_id = ? AND user_id = ? AND on_board = ?
GROUP BY season, ranked
"""
_REMOVE_RESULTS = """
UPDATE results SET on_board = ? WHERE guild_id = ? AND user_id = ? AND on_board = ?
"""
_REMOVE_RATINGS = "DELETE FROM ratings WHERE guild_id = ? AND user_id = ?"
_RANKED_FOR_REPLAY = """
SELECT table_id, guild_id, game_kind, season, user_id, name, seat, total, is_winner, place,
       deals_out, blind_outs, on_board
FROM results
WHERE ranked = ? AND user_id > 0
ORDER BY finished_at, table_id, seat
"""


async def current_season(sql: Sql, guild_id: int) -> int:
    """The guild's season now: 1 until an admin starts the next."""
    rows = await sql.fetch(_CURRENT_SEASON, guild_id)
    return int(rows[0]["season"])


async def start_season(sql: Sql, guild_id: int, user_id: int, now: float) -> int:
    """Open the guild's next season (inside the caller's write transaction); its number."""
    number = await current_season(sql, guild_id) + 1
    await sql.execute(_START_SEASON, guild_id, number, now, user_id)
    return number


async def _save_ratings(
    sql: Sql, guild_id: int, game_kind: GameKind, season: int, ratings: Iterable[Rating], now: float
) -> None:
    for r in ratings:
        await sql.execute(
            _UPSERT_RATING,
            guild_id,
            game_kind,
            season,
            r.user_id,
            r.name,
            r.mu,
            r.sigma,
            r.ordinal,
            r.games,
            r.wins,
            r.sum_total,
            r.best_total,
            r.best_table,
            r.deals_out,
            r.blind_outs,
            r.streak,
            r.best_streak,
            now,
        )


def _rating(row: Any) -> Rating:
    return Rating(
        user_id=int(row["user_id"]),
        name=str(row["name"]),
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        sum_total=int(row["sum_total"]),
        best_total=int(row["best_total"]),
        best_table=int(row["best_table"]),
        deals_out=int(row["deals_out"]),
        blind_outs=int(row["blind_outs"]),
        streak=int(row["streak"]),
        best_streak=int(row["best_streak"]),
    )


async def rate_ranked_game(
    sql: Sql, table_id: int, results: Sequence[ResultRow], season: int, now: float
) -> list[Rating]:
    """Update the people's ratings for one ranked game, inside the transaction storing it.

    Fewer than two people rate nobody (the caller should not have called it ranked).
    """
    people = people_of(results)
    if len(people) < 2:
        return []
    [table] = await sql.fetch(_TABLE_OF, table_id)
    guild_id, game_kind = int(table["guild_id"]), table["game_kind"]
    before: list[Rating | None] = []
    for row in people:
        found = await sql.fetch(_RATING_OF, guild_id, game_kind, season, row.user_id)
        before.append(_rating(found[0]) if found else None)
    after = rate_game(game_kind, before, people, table_id)
    await _save_ratings(sql, guild_id, game_kind, season, after, now)
    return after


async def rebuild_ratings(sql: Sql, now: float) -> int:
    """Replay every ranked game, oldest first, into fresh ratings; the games replayed.

    Run once after migration 0004 ranked the games written before it. Members removed from
    the board still count as the opponents they were, but get no rating row.
    """
    rows = await sql.fetch(_RANKED_FOR_REPLAY, True)
    games: dict[int, list[Any]] = {}
    for row in rows:
        games.setdefault(int(row["table_id"]), []).append(row)
    ratings: dict[tuple[int, GameKind, int, int], Rating] = {}
    removed: set[tuple[int, GameKind, int, int]] = set()
    for seats in games.values():
        if len(seats) < 2:
            continue
        first = seats[0]
        guild_id, game_kind, season = (
            int(first["guild_id"]),
            first["game_kind"],
            int(first["season"]),
        )
        keys = [(guild_id, game_kind, season, int(s["user_id"])) for s in seats]
        results = [
            ResultRow(
                user_id=int(s["user_id"]),
                name=str(s["name"]),
                seat=int(s["seat"]),
                total=int(s["total"]),
                is_winner=bool(s["is_winner"]),
                deals_out=int(s["deals_out"]),
                blind_outs=int(s["blind_outs"]),
                place=int(s["place"]),
            )
            for s in seats
        ]
        before = [ratings.get(key) for key in keys]
        after = rate_game(game_kind, before, results, int(first["table_id"]))
        for key, rating, seat in zip(keys, after, seats, strict=True):
            ratings[key] = rating
            if not bool(seat["on_board"]):
                removed.add(key)
    await sql.execute("DELETE FROM ratings")
    by_season: dict[tuple[int, GameKind, int], list[Rating]] = {}
    for key, rating in ratings.items():
        if key not in removed:
            by_season.setdefault(key[:3], []).append(rating)
    for (guild_id, game_kind, season), kept in by_season.items():
        await _save_ratings(sql, guild_id, game_kind, season, kept, now)
    return len(games)


async def leaderboard(
    sql: Sql, guild_id: int, game_kind: GameKind, limit: int, season: int | None
) -> list[LeaderboardRow]:
    """A season's board (default: the current one): ranked players by their ordinal."""
    if season is None:
        season = await current_season(sql, guild_id)
    rows = await sql.fetch(BOARD_SQL, guild_id, game_kind, season, MIN_RANKED_GAMES, limit)
    return [
        LeaderboardRow(
            user_id=int(row["user_id"]),
            name=str(row["name"]),
            games=int(row["games"]),
            wins=int(row["wins"]),
            average_total=int(row["sum_total"]) / int(row["games"]),
            best_total=int(row["best_total"]),
            rating=float(row["ordinal"]),
            mu=float(row["mu"]),
            sigma=float(row["sigma"]),
        )
        for row in rows
    ]


async def rating_of(
    sql: Sql, guild_id: int, game_kind: GameKind, season: int, user_id: int
) -> Rating | None:
    """One player's rating row of a season, or ``None``."""
    found = await sql.fetch(_RATING_OF, guild_id, game_kind, season, user_id)
    return _rating(found[0]) if found else None


async def history(
    sql: Sql, guild_id: int, game_kind: GameKind, user_id: int, limit: int
) -> list[HistoryEntry]:
    """A player's last ``limit`` games, oldest first, ranked and casual."""
    rows = await sql.fetch(_HISTORY, guild_id, game_kind, user_id, limit)
    return [
        HistoryEntry(
            table_id=int(row["table_id"]),
            finished_at=float(row["finished_at"]),
            total=int(row["total"]),
            is_winner=bool(row["is_winner"]),
            ranked=bool(row["ranked"]),
            place=int(row["place"]),
            deals_out=int(row["deals_out"]),
            blind_outs=int(row["blind_outs"]),
            buys_used=int(row["buys_used"]),
        )
        for row in reversed(rows)
    ]


async def ranked_summary(
    sql: Sql, guild_id: int, game_kind: GameKind, user_id: int
) -> tuple[int, int | None, int]:
    """A player's ranked games: how many, the best total (``None`` if none), longest streak."""
    rows = await sql.fetch(_RANKED_WINS_IN_ORDER, guild_id, game_kind, user_id, True)
    if not rows:
        return 0, None, 0
    better = min if lower_is_better(game_kind) else max
    best = better(int(row["total"]) for row in rows)
    return len(rows), best, longest_streak(bool(row["is_winner"]) for row in rows)


async def head_to_head(
    sql: Sql, guild_id: int, game_kind: GameKind, user_id: int, other_id: int
) -> HeadToHead:
    """Every game both played: who finished ahead among the people (by place)."""
    rows = await sql.fetch(_HEAD_TO_HEAD, other_id, guild_id, game_kind, user_id)
    ahead = sum(1 for row in rows if row["my_place"] < row["other_place"])
    behind = sum(1 for row in rows if row["my_place"] > row["other_place"])
    count = len(rows)
    return HeadToHead(
        user_id=user_id,
        other_id=other_id,
        games=count,
        ranked_games=sum(1 for row in rows if bool(row["ranked"])),
        ahead=ahead,
        behind=behind,
        level=count - ahead - behind,
        average_total=sum(int(r["my_total"]) for r in rows) / count if count else None,
        other_average_total=sum(int(r["other_total"]) for r in rows) / count if count else None,
    )


async def server_records(sql: Sql, guild_id: int, game_kind: GameKind) -> list[ServerRecord]:
    """The guild's records over its ranked games (every season; members on the board only).

    Most wins, the best single game, the longest win streak within a season, the most deals
    gone out (each a zero-point deal) and the most blind outs. A tie goes to whoever reached
    it first (the best game) or to the lower user id (the rest), so the answer is stable.
    """
    sums = await sql.fetch(_RECORD_SUMS, guild_id, game_kind)
    if not sums:
        return []
    found: dict[str, tuple[int, int, int | None]] = {}

    def leader(column: str) -> Any:
        return min(sums, key=lambda r: (-int(r[column]), int(r["user_id"])))

    for kind, column in (
        ("wins", "wins"),
        ("win_streak", "best_streak"),
        ("zero_deals", "deals_out"),
        ("blind_outs", "blind_outs"),
    ):
        row = leader(column)
        if int(row[column]) > 0:
            found[kind] = (int(row["user_id"]), int(row[column]), None)
    [best] = await sql.fetch(_RECORD_BEST[lower_is_better(game_kind)], guild_id, game_kind)
    found["best_game"] = (int(best["user_id"]), int(best["best_total"]), int(best["best_table"]))
    records = []
    for kind in RECORD_KINDS:
        if kind not in found:
            continue
        user, value, table = found[kind]
        [name] = await sql.fetch(_LATEST_NAME, guild_id, game_kind, user)
        records.append(ServerRecord(kind, user, str(name["name"]), value, table))
    return records


async def board_entries(sql: Sql, guild_id: int, user_id: int) -> BoardEntries:
    """What a member has on the guild's board (results not removed), to confirm a removal."""
    rows = await sql.fetch(_BOARD_ENTRIES, guild_id, user_id, True)
    results = sum(int(row["count"]) for row in rows)
    ranked = sum(int(row["count"]) for row in rows if bool(row["ranked"]))
    seasons = tuple(sorted({int(row["season"]) for row in rows if bool(row["ranked"])}))
    return BoardEntries(user_id, results, ranked, seasons)


async def remove_from_board(sql: Sql, guild_id: int, user_id: int) -> BoardEntries:
    """Take a member's results off the guild's board (inside a write transaction).

    Their result rows stay (the other players' history and ratings are made of them) but no
    longer count for the board or the records, and their ratings of every season are deleted;
    a game they play later counts afresh. Returns what was removed.
    """
    entries = await board_entries(sql, guild_id, user_id)
    await sql.execute(_REMOVE_RESULTS, False, guild_id, user_id, True)
    await sql.execute(_REMOVE_RATINGS, guild_id, user_id)
    return entries
