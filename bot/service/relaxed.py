"""What a relaxed table's clock does beside the live rules: the one reminder of a turn and the
warning a day before a table nobody plays ends.

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
