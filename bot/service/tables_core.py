"""What every desk of the table service reads: its settings, the open tables, and the checks
every request starts with.

``Settings`` holds the service's timings and defaults, ``Tables`` the open tables by id and by
channel (the one registry: the lobby desk adds to it, the committer drops a closed table from
it), and the functions below are the steps every verb takes first: the game of a table that
is playing, the seat of a person at it, a seat that acts being present again. None of them
writes to the store or tells anyone; ``tables_commit.Committer`` does both.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.ground.errors import NoTable, NotSeated, UserError, WrongPhase
from bot.service.buy_window import DEFAULT_BUY_PREF, BuyPref
from bot.service.live import LiveTable
from bot.service.residency import Residency
from bot.service.restore import table_seconds
from data.errors import StoreBusy
from data.records import AwayState
from engine import Game


@dataclass(frozen=True)
class Settings:
    """The service's timings and defaults, as the bot was started with them."""

    buy_seconds: float = 8.0
    turn_seconds: float = 90.0
    seed: int | None = None
    away_after: int = 3
    computer_delay: float = 2.0
    lobby_seconds: float = 30 * 60
    idle_seconds: float = 24 * 3600
    #: The buy preference of a person who has not chosen one (``SHANGHAI_BUY_PREFERENCE``).
    buy_preference: BuyPref = DEFAULT_BUY_PREF

    def table_seconds(self, table: LiveTable) -> tuple[float, float]:
        """The buy window's and the turn's seconds at ``table`` (its options, else ours)."""
        return table_seconds(dict(table.record.options), self.buy_seconds, self.turn_seconds)


class Tables:
    """The open tables in memory by id, and every open table by channel (one out of memory
    too: ``residency``). Only memory: who adds and drops a table (the lobby desk, the
    committer) writes the store itself."""

    def __init__(self, residency: Residency | None = None) -> None:
        self.by_id: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        #: The open tables out of memory, and when those in memory were last asked for.
        self.residency = residency

    def find(self, table_id: int) -> LiveTable:
        """The open table ``table_id``; raises ``NoTable`` for one closed or unknown. One
        out of memory (``TableService.resident`` brings it back) is refused as busy: whatever
        asked for it came in without bringing it back first."""
        table = self.by_id.get(table_id)
        residency = self.residency
        if table is None and residency is not None and residency.is_asleep(table_id):
            raise StoreBusy()
        if table is None or table.closed:
            raise NoTable("That table is closed.", code="closed")
        if residency is not None:
            residency.saw(table_id)
        return table

    def for_channel(self, channel_id: int) -> LiveTable | None:
        table_id = self.by_channel.get(channel_id)
        return None if table_id is None else self.by_id.get(table_id)

    def remember(self, table: LiveTable) -> LiveTable:
        self.by_id[table.id] = table
        self.by_channel[table.channel_id] = table.id
        if self.residency is not None:
            self.residency.arrived(table.id)
        return table

    def moved(self, table: LiveTable, parent: int) -> None:
        """``table`` now lives in its thread: its old channel ``parent`` is free again."""
        if self.by_channel.get(parent) == table.id:
            del self.by_channel[parent]
        self.by_channel[table.channel_id] = table.id

    def drop(self, table: LiveTable) -> None:
        self.by_id.pop(table.id, None)
        if self.residency is not None:
            self.residency.gone(table.id)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]


# -- checks every request starts with -------------------------------------------------------------


def playing(table: LiveTable) -> Game:
    """The game of ``table``; refuses a closed table or a lobby."""
    if table.closed:
        raise NoTable("That table is closed.", code="closed")
    if table.game is None:
        raise WrongPhase("The game hasn't started yet.", code="not_started")
    return table.game


def seated(table: LiveTable, user_id: int) -> int:
    """The seat of ``user_id`` at ``table``; refuses a person who is not seated."""
    seat = table.seat_of(user_id)
    if seat is None:
        raise NotSeated()
    return seat


def present(table: LiveTable, seat: int) -> bool:
    """A player who acts is no longer away (memory; saved with the next action): True when
    that changed. A seat the bot plays for good refuses its player's clicks."""
    if seat in table.removed:
        raise UserError(
            "You left this game or the host removed you; the computer plays your seat.",
            code="kicked",
        )
    state = table.away[seat] if seat < len(table.away) else AwayState()
    if state.timeouts or state.away:
        table.away[seat] = replace(state, timeouts=0, away=False)
        return True
    return False
