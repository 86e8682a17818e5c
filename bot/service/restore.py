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

import asyncio
import logging
from dataclasses import replace

from bot.service.buy_window import BUY_PREFS, BuyWindow, HeldDraw
from bot.service.live import REMOVED, ActResult, LiveTable, rules_for
from bot.service.pace import is_relaxed, relaxed_seconds
from data.records import AwayState, TableRecord
from engine import Game
from engine.actions import parse_action

log = logging.getLogger(__name__)


def table_seconds(options: dict[str, object], buy: float, turn: float) -> tuple[float, float]:
    """A table's buy window and turn limit: its own options over the service's defaults; a
    relaxed table counts them in minutes and hours (``pace.relaxed_seconds``)."""
    if is_relaxed(options):
        return relaxed_seconds(options)
    return (float(options.get("buy_seconds", buy)), float(options.get("turn_seconds", turn)))  # type: ignore[arg-type]


def live_table(record: TableRecord, now: float, computer_delay: float) -> LiveTable:
    """The live table of ``record``; raises whatever its first unreadable part raises.

    The stored away flags carry two things that have fields of their own in memory: a seat
    removed for good (``AwayState(REMOVED, ...)``) and the draw held for the buy window
    (``AwayState.held``), which is held again if its seat is still to draw."""
    rules_for(dict(record.options))  # the lobby and the timings read these
    game = Game.from_json(record.state) if record.state else None
    if record.status == "playing" and game is None:
        raise ValueError("a game in play without a state")
    if game is not None and list(game.players) != [str(s.user_id) for s in record.seats]:
        raise ValueError("the seats do not match the game's players")
    stored = list(record.away) or [AwayState() for _ in record.seats]
    if len(stored) != len(record.seats):
        raise ValueError("the away flags do not match the seats")
    table_seconds(dict(record.options), 0.0, 0.0)  # float() of the stored timings
    removed = {seat for seat, state in enumerate(stored) if state.timeouts >= REMOVED}
    away = [
        replace(state, timeouts=0, away=True, held="", buy="")
        if seat in removed
        else replace(state, held="", buy="")
        for seat, state in enumerate(stored)
    ]
    prefs: dict[int, str] = {
        seat: state.buy for seat, state in enumerate(stored) if state.buy in BUY_PREFS
    }
    window = BuyWindow(deadline=record.buy_deadline, ends=record.buy_deadline)
    if game is not None and not game.is_over:
        for seat, state in enumerate(stored):
            if state.held and seat == game.current and game.step == "draw":
                future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
                window.hold(HeldDraw(seat, parse_action(state.held), future))
    return LiveTable(
        record,
        game,
        record.version,
        saved_state=record.state,
        turn_deadline=record.turn_deadline,
        away=away,
        removed=removed,
        buy_prefs=prefs,
        window=window,
        auto_due=now + computer_delay,
        last_person=last_person(record, stored),
    )


def last_person(record: TableRecord, stored: list[AwayState]) -> float:
    """When a person last acted at ``record``'s table: at a relaxed table, the latest of the
    seats' own moves (the computer's moves there go on for days and must not count); at a live
    one, its last save, as it always was."""
    if not is_relaxed(record.options):
        return record.updated_at
    acted = max((state.acted for state in stored), default=0.0)
    return acted or record.created_at


def revive(record: TableRecord, now: float, computer_delay: float) -> LiveTable | None:
    """``record`` as a live table, or ``None`` when it cannot be read (the reason is logged; the
    service's committer then ends it without results)."""
    try:
        return live_table(record, now, computer_delay)
    except Exception as error:
        reason = f"{type(error).__name__}: {str(error)[:120]}"
    log.error(
        "table %s (channel %s) cannot be restored (%s); ending it without results",
        record.id,
        record.channel_id,
        reason,
    )
    return None
