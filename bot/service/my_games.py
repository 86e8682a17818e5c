"""Which open tables of one server a person sits at, the ones waiting on them first.

``/shanghai games`` answers a person seated at several relaxed tables (or one live one) with
one list: for each table whose turn it is, how long that turn has left and where the table is.
A table waits on a person when it is their turn, or while the game is still in its lobby and
they are its host (only they can start it). The list is drawn from ``TableSnapshot``\\ s, never
the live games, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.service.pace import is_relaxed
from bot.service.table_snapshot import TableSnapshot


@dataclass(frozen=True)
class SeatedTable:
    """One table of the list: whose turn it is (None in the lobby), the turn's time left in
    seconds (None: no deadline runs), and whether it waits on the person who asked."""

    table: TableSnapshot
    waiting_on_me: bool
    turn_name: str | None
    seconds_left: float | None
    relaxed: bool

    @property
    def link(self) -> str:
        """The table message (or its channel, before one is posted)."""
        record = self.table.record
        base = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"
        return base if record.message_id is None else f"{base}/{record.message_id}"


def seated_tables(
    tables: Iterable[TableSnapshot], user_id: int, guild_id: int, now: float
) -> list[SeatedTable]:
    """The open tables of ``guild_id`` at which ``user_id`` sits, waiting-on-them first, then
    by the least time left."""
    found: list[SeatedTable] = []
    for table in tables:
        record = table.record
        if table.closed or record.guild_id != guild_id or not record.is_open:
            continue
        seat = table.seat_of(user_id)
        if seat is None:
            continue
        view = table.view
        relaxed = is_relaxed(record.options)
        if view is None or view.is_over:
            found.append(SeatedTable(table, user_id == record.host_id, None, None, relaxed))
            continue
        current = view.current
        left = None if table.turn_deadline is None else max(0.0, table.turn_deadline - now)
        found.append(
            SeatedTable(
                table,
                current == seat and not table.is_away(seat),
                table.names[current],
                left,
                relaxed,
            )
        )
    found.sort(
        key=lambda s: (
            not s.waiting_on_me,
            s.seconds_left if s.seconds_left is not None else float("inf"),
            s.table.id,
        )
    )
    return found
