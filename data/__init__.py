"""Persistence for the bot: tables, game state, deadlines and results in SQLite.

Start at ``store.Store`` (the async interface), ``records`` (the values it returns) and
``errors`` (what it raises). ``migrations`` applies the numbered SQL files in ``migrations/``.
The engine's game state passes through as opaque JSON text.
"""

from .errors import StaleVersion, TableExists, TableNotFound
from .migrations import MigrationError, SchemaTooNew
from .records import (
    OPEN_STATUSES,
    ActionRecord,
    AwayState,
    GameKind,
    LeaderboardRow,
    PlayerStats,
    ResultRow,
    Seat,
    TableRecord,
    TableStatus,
    lower_is_better,
)
from .store import Store

__all__ = [
    "OPEN_STATUSES",
    "ActionRecord",
    "AwayState",
    "GameKind",
    "LeaderboardRow",
    "MigrationError",
    "PlayerStats",
    "ResultRow",
    "SchemaTooNew",
    "Seat",
    "StaleVersion",
    "Store",
    "TableExists",
    "TableNotFound",
    "TableRecord",
    "TableStatus",
    "lower_is_better",
]
