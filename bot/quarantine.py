"""Bringing a stored table back to life at start-up, or ending it if its row cannot be read.

A row can be unreadable for reasons no player caused: a state written by a newer engine, a
hand-edited database, a preset that was renamed. Before this module one such row raised out of
``TableService.restore`` and every table in every server stayed down with the bot. Now the row
is checked the way the service will use it (the engine state parses and agrees with the seats,
the options make rules and timings) and, if anything fails, the table is ended without results
(so nothing reaches the leaderboard and its channel is free) and its id is logged for the
operator. The reason is logged by exception type and message only, never the state text, which
holds every hand.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from data.records import AwayState, TableRecord
from engine import Game

if TYPE_CHECKING:
    from .service import LiveTable, TableService

log = logging.getLogger(__name__)


def _check(service: TableService, record: TableRecord) -> LiveTable:
    """The live table of ``record``; raises whatever its first unreadable part raises."""
    from .service import LiveTable, rules_for

    rules_for(dict(record.options))  # the lobby and the timings read these
    game = Game.from_json(record.state) if record.state else None
    if record.status == "playing" and game is None:
        raise ValueError("a game in play without a state")
    if game is not None and list(game.players) != [str(s.user_id) for s in record.seats]:
        raise ValueError("the seats do not match the game's players")
    away = list(record.away) or [AwayState() for _ in record.seats]
    if len(away) != len(record.seats):
        raise ValueError("the away flags do not match the seats")
    table = LiveTable(
        record,
        game,
        record.version,
        buy_deadline=record.buy_deadline,
        turn_deadline=record.turn_deadline,
        away=away,
        auto_due=service.clock() + service.computer_delay,
    )
    service.table_seconds(table)  # float() of the stored timings
    return table


async def revive(service: TableService, record: TableRecord) -> LiveTable | None:
    """``record`` as a live table, or ``None`` after ending it because it cannot be read."""
    try:
        return _check(service, record)
    except Exception as error:
        reason = f"{type(error).__name__}: {str(error)[:120]}"
    log.error(
        "table %s (channel %s) cannot be restored (%s); ending it without results",
        record.id,
        record.channel_id,
        reason,
    )
    try:
        await service.store.end_table(record.id)
    except Exception as error:
        log.error("table %s could not be ended either (%s)", record.id, type(error).__name__)
    return None
