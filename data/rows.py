"""How the rows the stores read become records, for every store.

Both stores select the same columns; they differ only in how a JSON column arrives (SQLite
hands back text, asyncpg's jsonb codec hands back Python values). One decoder keeps the two
stores from drifting apart when a column is added.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from .records import (
    AwayState,
    GameKind,
    PlayerStats,
    ResultRow,
    Seat,
    TableRecord,
)


class Row(Protocol):
    """A row read by column name: ``sqlite3.Row`` and ``asyncpg.Record`` both are."""

    def __getitem__(self, key: str, /) -> Any: ...


#: One encoder for every small column: ``json.dumps`` with options builds a new one per call,
#: which cost more than encoding a seat's few fields.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(value: Any) -> str:
    """Compact JSON for the small columns; non-ASCII names stay readable in a database shell."""
    return _ENCODER.encode(value)


def table_record(row: Row, json_value: Callable[[Any], Any]) -> TableRecord:
    """The record of one ``tables`` row; ``json_value`` turns a JSON column into Python."""
    return TableRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_kind=row["game_kind"],
        status=row["status"],
        host_id=row["host_id"],
        message_id=row["message_id"],
        seats=tuple(Seat.from_json(obj) for obj in json_value(row["seats"])),
        options=json_value(row["options"]),
        state=row["state"],
        version=row["version"],
        buy_deadline=row["buy_deadline"],
        turn_deadline=row["turn_deadline"],
        away=tuple(AwayState.from_json(obj) for obj in json_value(row["away"])),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        parent_channel_id=row["parent_channel_id"],
    )


def result_row(row: Row) -> ResultRow:
    """One ``results`` row (``is_winner`` is 0/1 in SQLite, a boolean in PostgreSQL)."""
    return ResultRow(
        user_id=row["user_id"],
        name=row["name"],
        seat=row["seat"],
        total=row["total"],
        is_winner=bool(row["is_winner"]),
        deals_out=row["deals_out"],
        blind_outs=row["blind_outs"],
        buys_used=row["buys_used"],
        place=row["place"],
    )


def stats_record(row: Row, user_id: int, game_kind: GameKind) -> PlayerStats:
    """A player's record from the stats query's one row."""
    return PlayerStats(
        user_id=user_id,
        name=row["name"],
        game_kind=game_kind,
        games=row["games"],
        wins=row["wins"],
        average_total=float(row["average_total"]),
        best_total=row["best_total"],
        deals_out=row["deals_out"],
        blind_outs=row["blind_outs"],
        buys_used=row["buys_used"],
    )
