"""What a relaxed table's clock does beside the live rules: the one reminder of a turn, the
warning a day before a table nobody plays ends, and that end, scored as the game stands.

``timers.reminder_due`` and ``timers.warning_due`` say when; these carry it out with the
table's lock held: the mark that it was done is written first (on the seats' stored records,
``AwayState.reminded`` and ``AwayState.warned``), then the listener is told, so a restart
neither sends a reminder again nor forgets one that was not written. A write the store refuses
puts memory back and raises, and the timer tries again with its back-off.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from bot.service.live import ChangeKind, LiveTable
from bot.service.ranked import people_places
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
