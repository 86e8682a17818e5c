"""Persistence for the bot: tables, game state, deadlines and results.

Start at ``store.Store`` (the interface the bot codes against), ``records`` (the values it
returns) and ``errors`` (what it raises). ``opening.open_store`` opens one from a setting:
``sqlite_store.SqliteStore`` for a file path (the default), ``postgres_store.PostgresStore``
for a ``postgresql://`` URL. The calls both stores make alike are written once, one module a
concern: ``games`` (tables, the game, its log), ``board`` (results, statistics, the ranked board,
with ``ranking`` and ``rating``) and ``guild_settings``; each store keeps its connections and its
group commit (``sqlite_connection``, ``sqlite_commit``, ``postgres_connection``,
``postgres_commit``). ``shards`` says which guilds a process owns, ``fence`` keeps two
processes off one shard. Migrations live per dialect in ``migrations/sqlite/`` and
``migrations/postgres/``. The engine's game state passes through as opaque JSON text.
"""

from .errors import ShardTaken, StaleVersion, StoreBusy, TableExists, TableNotFound
from .migrations import MigrationError, SchemaTooNew
from .opening import describe, is_postgres_url, open_store
from .records import (
    END_STATUSES,
    OPEN_STATUSES,
    ActionRecord,
    AwayState,
    BoardEntries,
    EndStatus,
    GameKind,
    HeadToHead,
    HistoryEntry,
    LeaderboardRow,
    PlayedGame,
    PlayerCard,
    PlayerStats,
    ResultRow,
    Seat,
    ServerRecord,
    TablePlace,
    TableRecord,
    TableStatus,
    lower_is_better,
)
from .shards import ShardSet, shard_of
from .sqlite_store import SqliteStore
from .store import Store

__all__ = [
    "END_STATUSES",
    "OPEN_STATUSES",
    "ActionRecord",
    "AwayState",
    "BoardEntries",
    "EndStatus",
    "GameKind",
    "HeadToHead",
    "HistoryEntry",
    "LeaderboardRow",
    "MigrationError",
    "PlayedGame",
    "PlayerCard",
    "PlayerStats",
    "ResultRow",
    "SchemaTooNew",
    "Seat",
    "ServerRecord",
    "ShardSet",
    "ShardTaken",
    "SqliteStore",
    "StaleVersion",
    "Store",
    "StoreBusy",
    "TableExists",
    "TableNotFound",
    "TablePlace",
    "TableRecord",
    "TableStatus",
    "describe",
    "is_postgres_url",
    "lower_is_better",
    "open_store",
    "shard_of",
]
