"""The public table as data: everything the table message and the channel's notices need.

``SeatSnapshot`` is one seat's screen; ``TableSnapshot`` is the channel's. It is built under the
table's lock with each change (``TableService`` hands it to the listener in the ``Change``),
so the publisher, the table renderer and the channel's notices draw from a value that cannot
move under them, and none of them touches the live ``Game`` or calls back into the service.
It holds only public information: the spectators' ``PlayerView`` (no hand but the table's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Language, table_language
from bot.service.buy_window import undecided, window_tag
from bot.service.pace import is_relaxed
from data.records import TableRecord
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.service.live import LiveTable


@dataclass(frozen=True)
class TableSnapshot:
    """What everyone at the table and in the channel may see now."""

    record: TableRecord
    #: The number of actions committed so far.
    version: int
    #: The spectators' view of the game; None in the lobby.
    view: PlayerView | None
    closed: bool
    #: The seats the bot plays now (away or removed), and those it plays for good.
    away_seats: tuple[int, ...]
    removed: frozenset[int]
    turn_deadline: float | None
    #: The upcard on offer's window: whether requests are accepted now, its tag (what a Buy
    #: button is for), its deadline and when it ends or ended.
    window_running: bool
    window: str | None
    buy_deadline: float | None
    window_ends: float | None
    #: At a relaxed table, the people asked about the upcard on offer (their standing order
    #: says "ask me"): the channel mentions them, since their hands are rarely open.
    asked: tuple[int, ...] = ()
    #: The people who want a relaxed table's notices by direct message.
    dm_users: frozenset[int] = frozenset()
    #: At a relaxed table, the turn deadline whose start its person has not been told of yet
    #: (None: nothing due), as saved with the turn: the publisher tells it and says so.
    untold_turn: float | None = None

    @classmethod
    def of(cls, table: LiveTable, now: float, *, running: bool | None = None) -> TableSnapshot:
        """The snapshot of ``table`` at ``now`` (the table's lock held); ``running``: whether
        the buy window runs now, when the caller asked already."""
        game = table.game
        if running is None:
            running = table.window.is_running(game, now)
        return cls(
            record=table.record,
            version=table.version,
            view=table.view(None) if game is not None else None,
            closed=table.closed,
            away_seats=tuple(table.away_seats),
            removed=frozenset(table.removed),
            turn_deadline=table.turn_deadline,
            window_running=running,
            window=window_tag(game, table.view(None)) if game is not None and running else None,
            buy_deadline=table.window.deadline,
            window_ends=table.window.ends,
            asked=asked_people(table, now) if running else (),
            dm_users=frozenset(
                seat.user_id
                for seat, state in zip(table.record.seats, table.away, strict=False)
                if state.dm
            ),
            untold_turn=untold_turn(table),
        )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def channel_id(self) -> int:
        return self.record.channel_id

    @property
    def language(self) -> Language:
        return table_language(self.record.options)

    @property
    def game_name(self) -> str:
        """'Rummy' or 'Shanghai': the game the table plays (a name, never translated)."""
        return "Rummy" if self.record.game_kind == "rummy" else "Shanghai"

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def totals(self) -> list[int]:
        """Each seat's total so far (the score sheet's columns)."""
        view = self.view
        if view is None:
            return []
        return [sum(row[seat] for row in view.score_sheet) for seat in range(len(view.seats))]

    @property
    def playing(self) -> bool:
        """A game in play: dealt, not over, not closed."""
        return self.view is not None and not self.view.is_over and not self.closed

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.record.seats):
            if seat.user_id == user_id:
                return index
        return None

    def is_computer(self, seat: int) -> bool:
        seats = self.record.seats
        return 0 <= seat < len(seats) and seats[seat].is_computer

    def is_away(self, seat: int) -> bool:
        return seat in self.away_seats


def asked_people(table: LiveTable, now: float) -> tuple[int, ...]:
    """The user ids of the people a relaxed table's running window waits on (``asked``)."""
    game = table.game
    if game is None or not is_relaxed(table.record.options):
        return ()
    seats = table.record.seats
    return tuple(
        seats[seat].user_id
        for seat in undecided(table.window, game, table.is_away, now=now)
        if not seats[seat].is_computer
    )


def untold_turn(table: LiveTable) -> float | None:
    """The deadline of a relaxed turn whose person was not told it began (None: none due)."""
    game, deadline = table.game, table.turn_deadline
    if game is None or deadline is None or game.is_over or not is_relaxed(table.record.options):
        return None
    seat = game.current
    if seat >= len(table.away) or table.is_computer(seat) or table.away[seat].away:
        return None
    return None if table.away[seat].told == deadline else deadline
