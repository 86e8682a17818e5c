"""What a relaxed table's clock does beside the live rules: the one reminder of a turn, the
warning a day before a table nobody plays ends, and that end, scored as the game stands; and
a game's people agreeing to go on at another pace ("Continue later", and back).

``timers.reminder_due`` and ``timers.warning_due`` say when; these carry it out with the
table's lock held. They decide and mark memory; the clock desk has the committer save the
mark first (on the seats' stored records, ``AwayState.reminded`` and ``AwayState.warned``),
then tell the listener, so a restart neither sends a reminder again nor forgets one that was
not written. A write the store refuses puts memory back and raises, and the timer tries again
with its back-off.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bot.ground.errors import NotSeated, UserError
from bot.service.live import LiveTable
from bot.service.pace import PACES, pace_of, with_pace
from bot.service.ranked import people_places
from bot.service.restore import table_seconds
from bot.service.results import result_rows
from data.records import ResultRow


def mark_reminded(table: LiveTable) -> int:
    """Mark, in memory, that the person whose relaxed turn runs now was reminded of it; the
    seat to remind. The committer saves the mark before anyone is told."""
    game = table.game
    assert game is not None and table.turn_deadline is not None
    seat = game.current
    table.away[seat] = replace(table.away[seat], reminded=table.turn_deadline)
    return seat


def mark_warned(table: LiveTable) -> None:
    """Mark, in memory, that everyone at a relaxed table nobody played for six days was
    warned it ends in a day; the committer saves it before the warning goes out."""
    mark = max(table.last_person, table.record.created_at)
    table.away = [replace(state, warned=mark) for state in table.away]


def rows_as_it_stands(table: LiveTable) -> list[ResultRow]:
    """The result rows of a relaxed table nobody played for ``pace.RELAXED_IDLE_SECONDS``,
    scored by the places at this moment (``ranked.people_places``: the totals so far, those
    the computer played for after those who stayed); the first place wins. They reach the
    leaderboard and the stats as a finished game's do."""
    places = people_places(table)
    return [replace(row, is_winner=places[row.seat] == 1) for row in result_rows(table)]


@dataclass(frozen=True)
class PaceVote:
    """Where a request to go on at another pace stands: the people who asked, of those
    needed (every person at the table the computer does not play), and whether it changed."""

    pace: str
    votes: int
    needed: int
    changed: bool


@dataclass(frozen=True)
class PaceChange:
    """What a table that agreed on another pace saves: its new options and turn deadline."""

    options: dict[str, Any]
    turn_deadline: float | None


def vote_pace(
    table: LiveTable,
    user_id: int,
    pace: str,
    hours: int | None,
    now: float,
    seconds: tuple[float, float],
) -> tuple[PaceVote, PaceChange | None]:
    """``user_id`` asks to go on at ``pace`` ("Continue later": relaxed, or live again). Once
    every person the computer does not play has asked, the table changes: its options (the
    turn's hours, the last ``hours`` proposed, or the default) and its turn's deadline,
    counted anew from ``now`` (``seconds``: the service's live buy window and turn), returned
    as a ``PaceChange`` for the committer to save before memory changes.
    Raises the ``UserError`` that says why not (not seated, played by the computer, already
    at that pace)."""
    if pace not in PACES:
        raise UserError("The pace is 'live' or 'relaxed'.", code="pace_unknown")
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated()
    if seat in table.removed:
        raise UserError(
            "You left this game or the host removed you; the computer plays your seat.",
            code="kicked",
        )
    if pace_of(table.record.options) == pace:
        raise UserError(f"This game is {pace} already.", code=f"pace_already_{pace}")
    for other, votes in table.pace_votes.items():
        if other != pace:
            votes.discard(seat)
    votes = table.pace_votes.setdefault(pace, set())
    votes.add(seat)
    if hours is not None:
        table.pace_hours = hours
    needed = {
        number
        for number, person in enumerate(table.record.seats)
        if not person.is_computer and not table.is_away(number)
    } | {seat}
    if not needed <= votes:
        return PaceVote(pace, len(votes & needed), len(needed), changed=False), None
    options = with_pace(dict(table.record.options), pace, hours=table.pace_hours)
    _, turn = table_seconds(options, *seconds)
    deadline = None if table.turn_deadline is None else now + turn
    vote = PaceVote(pace, len(needed), len(needed), changed=True)
    return vote, PaceChange(options, deadline)
