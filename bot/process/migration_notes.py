"""What each schema migration changes that an admin would notice, by migration number.

``python -m bot check`` prints these for the migrations a database has not seen yet, so an
upgrade is read before it is run. The same number means the same change in both dialects
(``data/migrations/sqlite`` and ``data/migrations/postgres``); a test fails when a migration
has no note here. Say what players and admins will see, what is kept, and what takes time or
disk; not how the SQL does it.
"""

from __future__ import annotations

from typing import Final

from data.ranking import MIN_RANKED_GAMES

NOTES: Final[dict[int, str]] = {
    1: "creates the tables of games, their moves and their results (a new database)",
    2: (
        "adds a small table of the bot's own facts: the slash commands are then uploaded again "
        "only when they changed, not at every start"
    ),
    3: (
        "games whose channel or server went, or that no person played for a day, end as "
        "'abandoned' rather than 'ended' (neither has results); the games table is copied "
        "once, so a large database takes a moment and needs as much free disk again"
    ),
    4: (
        "the ranked leaderboard: every finished game is kept and sorted into ranked (two or "
        "more people, played to full length) and casual (history and stats only); the ratings "
        "are worked out from the old ranked games at the first start, which takes a while on "
        f"a long history; a player appears on the board after {MIN_RANKED_GAMES} ranked games "
        "of the season; every server starts in season 1"
    ),
    5: (
        "/shanghai settings: per-server defaults (language, preset, buy window, turn time); "
        "none is set by the upgrade, so every server keeps the bot-wide settings until an "
        "admin chooses"
    ),
    6: (
        "a game may move into a thread made from its lobby message when it starts "
        "(SHANGHAI_THREADS, on unless set to false, where the bot may create threads); games "
        "already open stay in their channel"
    ),
    7: (
        "remembers the servers the bot is removed from: their games, results, ratings and "
        "settings are deleted SHANGHAI_DEPARTED_GUILD_DAYS (30 unless set) after it left, "
        "unless it is added back first; nothing is deleted by the upgrade itself"
    ),
    8: (
        "events (/shanghai event): tables for events, their sign-ups and the seating of "
        "each round; nothing changes until an organiser opens one"
    ),
    9: (
        "event tables: how many computer players fill their empty seats, and the places of "
        "a table the organiser ended; old event tables get neither"
    ),
    10: (
        "an event's table goes with its game table, so the data of a server the bot left is "
        "deleted even when it ran an event; the event tables are rebuilt, their rows kept"
    ),
}
