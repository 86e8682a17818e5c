"""What a relaxed table's clock does beside the live rules: the one reminder of a turn, the
warning a day before a table nobody plays ends, and that end, scored as the game stands; and
a game's people agreeing to go on at another pace ("Continue later", and back).

``timers.reminder_due`` and ``timers.warning_due`` say when; these carry it out with the
table's lock held: the mark that it was done is written first (on the seats' stored records,
``AwayState.reminded`` and ``AwayState.warned``), then the listener is told, so a restart
neither sends a reminder again nor forgets one that was not written. A write the store refuses
puts memory back and raises, and the timer tries again with its back-off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.ground.errors import NotSeated, UserError
from bot.service.live import ChangeKind, LiveTable
from bot.service.pace import PACES, pace_of, with_pace
from bot.service.ranked import people_places
from bot.service.restore import table_seconds
from bot.service.results import is_ranked, result_rows
from data.records import AwayState


class AwayWriter(Protocol):
    async def set_away(self, table_id: int, away: Any) -> None: ...


Notify = Callable[..., None]


async def _write(table: LiveTable, store: AwayWriter, before: list[AwayState]) -> None:
    try:
        await store.set_away(table.id, table.stored_away())
    except BaseException:
        table.away = before
        raise


async def remind(table: LiveTable, store: AwayWriter, notify: Notify) -> None:
    """The person whose relaxed turn runs now is reminded of it, once."""
    game = table.game
    assert game is not None and table.turn_deadline is not None
    seat = game.current
    before = list(table.away)
    table.away[seat] = replace(table.away[seat], reminded=table.turn_deadline)
    await _write(table, store, before)
    kind: ChangeKind = "remind"
    notify(table, kind, seat=seat)


async def warn_idle(table: LiveTable, store: AwayWriter, notify: Notify) -> None:
    """Everyone at a relaxed table nobody played for six days is told it ends in a day."""
    mark = max(table.last_person, table.record.created_at)
    before = list(table.away)
    table.away = [replace(state, warned=mark) for state in table.away]
    await _write(table, store, before)
    kind: ChangeKind = "idle_warning"
    notify(table, kind)


class Finisher(Protocol):
    async def finish_game(self, *args: Any, **kwargs: Any) -> Any: ...


async def end_as_it_stands(table: LiveTable, store: Finisher) -> None:
    """A relaxed table nobody played for ``pace.RELAXED_IDLE_SECONDS`` ends, scored by the
    places at this moment (``ranked.people_places``: the totals so far, those the computer
    played for after those who stayed); the first place wins. Its rows reach the
    leaderboard and the stats as a finished game's do."""
    game = table.game
    assert game is not None
    places = people_places(table)
    rows = [replace(row, is_winner=places[row.seat] == 1) for row in result_rows(table)]
    await store.finish_game(
        table.id,
        table.version,
        game.to_json(),
        rows,
        status="ended",
        ranked=is_ranked(table),
    )


@dataclass(frozen=True)
class PaceVote:
    """Where a request to go on at another pace stands: the people who asked, of those
    needed (every person at the table the computer does not play), and whether it changed."""

    pace: str
    votes: int
    needed: int
    changed: bool


class PaceWriter(Protocol):
    async def set_pace(self, table_id: int, options: Any, turn_deadline: float | None) -> None: ...


async def vote_pace(
    table: LiveTable,
    user_id: int,
    pace: str,
    hours: int | None,
    store: PaceWriter,
    now: float,
    seconds: tuple[float, float],
) -> PaceVote:
    """``user_id`` asks to go on at ``pace`` ("Continue later": relaxed, or live again). Once
    every person the computer does not play has asked, the table changes: its options (the
    turn's hours, the last ``hours`` proposed, or the default) and its turn's deadline,
    counted anew from ``now`` (``seconds``: the service's live buy window and turn), written
    before memory changes.
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
        return PaceVote(pace, len(votes & needed), len(needed), changed=False)
    options = with_pace(dict(table.record.options), pace, hours=table.pace_hours)
    _, turn = table_seconds(options, *seconds)
    deadline = None if table.turn_deadline is None else now + turn
    await store.set_pace(table.id, options, deadline)
    table.record = replace(table.record, options=options)
    table.turn_deadline = deadline
    table.pace_votes.clear()
    table.pace_hours = None
    return PaceVote(pace, len(needed), len(needed), changed=True)
