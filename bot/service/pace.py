"""A table's pace: *live*, everyone at the table at once, or *relaxed*, a game over days.

A live table counts its turn and its buy window in seconds (the ``turn_seconds`` and
``buy_seconds`` options). A relaxed table counts a turn in hours (``turn_hours``, 1 to 72) and
lets a person who asked to be asked about a buy keep the window open for at most
``relaxed_buy_minutes``; everyone else's buys are decided at once by their standing order
(``buy_window.standing_order``). Both are stored as options of the table, so a restart reads
them back with the rest, and every deadline they lead to is a wall time the store keeps.

The functions here read options and answer; they change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

Pace = Literal["live", "relaxed"]
PACES: tuple[Pace, ...] = ("live", "relaxed")

#: The table options this module reads.
PACE_OPTION = "pace"
TURN_HOURS_OPTION = "turn_hours"
RELAXED_BUY_OPTION = "relaxed_buy_minutes"

#: A relaxed turn's length in hours: its bounds and the default.
TURN_HOURS_MIN, TURN_HOURS_MAX = 1, 72
DEFAULT_TURN_HOURS = 24
#: How long a relaxed buy window waits at most for those who asked to be asked (minutes).
RELAXED_BUY_MIN, RELAXED_BUY_MAX = 5, 720
DEFAULT_RELAXED_BUY_MINUTES = 60

#: Missed turns in a row after which a relaxed seat is played by the computer until its
#: person clicks again.
RELAXED_AWAY_AFTER = 2
#: A relaxed table where no person acted for this long ends, scored as it stands.
RELAXED_IDLE_SECONDS = 7 * 24 * 3600.0
#: How long before that end its people are warned.
RELAXED_IDLE_WARNING = 24 * 3600.0
#: The share of a relaxed turn left when its player is reminded (once).
REMINDER_SHARE = 0.25


def pace_of(options: Mapping[str, Any]) -> Pace:
    """The table's pace; anything but ``relaxed`` is live."""
    return "relaxed" if options.get(PACE_OPTION) == "relaxed" else "live"


def is_relaxed(options: Mapping[str, Any]) -> bool:
    return pace_of(options) == "relaxed"


def _bounded(value: Any, low: int, high: int, default: int) -> int:
    try:
        number = int(float(value))
    except (TypeError, ValueError):
        return default
    return min(high, max(low, number))


def turn_hours(options: Mapping[str, Any]) -> int:
    """A relaxed table's turn time in hours (the default where none is stored)."""
    return _bounded(
        options.get(TURN_HOURS_OPTION, DEFAULT_TURN_HOURS),
        TURN_HOURS_MIN,
        TURN_HOURS_MAX,
        DEFAULT_TURN_HOURS,
    )


def relaxed_buy_minutes(options: Mapping[str, Any]) -> int:
    """How long a relaxed table's buy window waits at most for those who asked to be asked."""
    return _bounded(
        options.get(RELAXED_BUY_OPTION, DEFAULT_RELAXED_BUY_MINUTES),
        RELAXED_BUY_MIN,
        RELAXED_BUY_MAX,
        DEFAULT_RELAXED_BUY_MINUTES,
    )


def relaxed_seconds(options: Mapping[str, Any]) -> tuple[float, float]:
    """A relaxed table's buy window and turn limit in seconds."""
    return (relaxed_buy_minutes(options) * 60.0, turn_hours(options) * 3600.0)


def away_after(options: Mapping[str, Any], live: int) -> int:
    """Missed turns in a row before a seat is played by the computer: ``live`` at a live
    table, ``RELAXED_AWAY_AFTER`` at a relaxed one."""
    return RELAXED_AWAY_AFTER if is_relaxed(options) else live


def idle_seconds(options: Mapping[str, Any], live: float) -> float:
    """How long a game may go without a person's action before it ends."""
    return RELAXED_IDLE_SECONDS if is_relaxed(options) else live


def lobby_seconds(options: Mapping[str, Any], live: float) -> float:
    """How long a lobby nobody starts stays open: a relaxed table's people join over days."""
    return RELAXED_IDLE_SECONDS if is_relaxed(options) else live


def reminder_at(options: Mapping[str, Any], turn_deadline: float | None) -> float | None:
    """When the player of a relaxed turn ending at ``turn_deadline`` is reminded (None: a live
    table, or no turn running)."""
    if turn_deadline is None or not is_relaxed(options):
        return None
    return turn_deadline - turn_hours(options) * 3600.0 * REMINDER_SHARE


def with_pace(
    options: dict[str, Any],
    pace: str | None,
    hours: int | None = None,
    buy_minutes: int | None = None,
) -> dict[str, Any]:
    """``options`` with the pace chosen (``None``: keep what they hold): a relaxed table keeps
    its turn hours and buy wait, a live one drops them."""
    chosen = dict(options)
    if pace is not None:
        chosen[PACE_OPTION] = pace if pace in PACES else "live"
    if hours is not None:
        chosen[TURN_HOURS_OPTION] = _bounded(
            hours, TURN_HOURS_MIN, TURN_HOURS_MAX, DEFAULT_TURN_HOURS
        )
    if buy_minutes is not None:
        chosen[RELAXED_BUY_OPTION] = _bounded(
            buy_minutes, RELAXED_BUY_MIN, RELAXED_BUY_MAX, DEFAULT_RELAXED_BUY_MINUTES
        )
    if is_relaxed(chosen):
        chosen[TURN_HOURS_OPTION] = turn_hours(chosen)
        chosen[RELAXED_BUY_OPTION] = relaxed_buy_minutes(chosen)
    else:  # live is the default and is stored as nothing
        chosen.pop(PACE_OPTION, None)
        chosen.pop(TURN_HOURS_OPTION, None)
        chosen.pop(RELAXED_BUY_OPTION, None)
        kept = (PACE_OPTION, TURN_HOURS_OPTION)
        applied = [key for key in chosen.get("server_defaults") or [] if key not in kept]
        if "server_defaults" in chosen:
            chosen["server_defaults"] = applied
            if not applied:
                del chosen["server_defaults"]
    return chosen
