"""The table service: the only code that calls the engine, and the owner of each table's state.

Data flows one way: a click becomes an engine action, ``TableService.play`` (or, for the buy
window, ``decide_buy``) applies it under the table's lock, commits the new state and deadlines
to the store in one transaction, and answers with the acting seat's ``SeatSnapshot`` (what its
screen shows now); the ``Listener`` is told of the change with a ``TableSnapshot`` and the
followed seats' snapshots, so the table message and other players' open hands follow without
touching the live game. Nothing here imports discord: the benchmark drives the same code.

Collaborators decide and return; this class carries out. ``lobby.py`` checks lobby requests
and returns the seats or options they lead to; ``buy_window.py`` owns the window's fields and
answers who is undecided and whether P's draw must wait; ``timers.py`` says when a table wakes
and what is due (a ``Due``); ``computers.py`` chooses computer seats' moves and buys;
``restore.py`` turns a stored row back into a ``LiveTable``; ``results.py`` the leaderboard
rows; ``snapshot.py`` and ``table_snapshot.py`` the screens; ``live.py`` the in-memory table.

The service itself is cut by verb, each part one module on the shared ``TableCore``
(``tables_core.py``: the tables, the listener, the checks every request starts with):
``tables_commit.py`` the one way a table changes (apply, save in one transaction, tell; the held
draw), ``tables_lobby.py`` a table from its lobby to its end, ``tables_turns.py`` a seat's
screen and clicks, ``tables_clock.py`` what its deadlines ask for. This module adds the seats
that leave a running game and the bot's start-up and shutdown.

Every change goes through ``_apply`` and ``_commit``: a save the store refuses puts memory
back exactly as it was before the click (``LiveTable.memento``), without reading the store.
"""

from __future__ import annotations

import asyncio
import contextlib

from bot.ground.errors import NotSeated, UserError
from bot.service.legal_plays import needs_time
from bot.service.live import LiveTable
from bot.service.restore import revive
from bot.service.table_snapshot import TableSnapshot
from bot.service.tables_clock import TableClock
from bot.service.tables_lobby import Lobby
from bot.service.tables_residency import Residence
from bot.service.tables_turns import WINDOW_CLOSED, BuyChoice, Turns

__all__ = ["WINDOW_CLOSED", "BuyChoice", "TableService"]


class TableService(Lobby, Turns, TableClock, Residence):
    """Tables by id, each with one lock; every engine call and every commit goes through here."""

    # -- seats that leave -------------------------------------------------------------------------

    async def leave_game(self, table_id: int, user_id: int) -> TableSnapshot:
        """A player leaves a running game: the computer plays their seat from now on."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._playing(table)
            seat = self._seat(table, user_id)
            if seat in table.removed:
                raise UserError(
                    "You already left this game; the computer plays your seat.",
                    code="already_left",
                )
            await self._remove_seat(table, seat)
        self._notify(table, "left", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def kick(self, table_id: int, user_id: int) -> TableSnapshot:
        """The host removes a player: from the lobby, or (in a game) the bot plays the seat."""
        table = self.get(table_id)
        if table.game is None:
            return await self.leave(table_id, user_id)
        async with table.held_for_a_click():
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if user_id == table.record.host_id:
                raise UserError(
                    "The host can't remove themself; use `/shanghai end`.",
                    code="host_cannot_kick_self",
                )
            await self._remove_seat(table, seat)  # saved before the host is answered
        self._notify(table, "kick", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def member_gone(self, table_id: int, user_id: int) -> TableSnapshot | None:
        """A seated person is no longer a member of the server (Discord said so): the bot plays
        their seat from now on, at once, instead of waiting out each turn's limit. Returns
        None when there was nothing to do (no such game, seat, or already played for good)."""
        table = await self.resident(table_id)
        if table is None or table.closed or table.game is None:
            return None
        async with table.held():
            seat = table.seat_of(user_id)
            if table.closed or seat is None or seat in table.removed:
                return None
            await self._remove_seat(table, seat)
        self._notify(table, "gone", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def _remove_seat(self, table: LiveTable, seat: int) -> None:
        memento = table.memento()
        table.removed = {*table.removed, seat}
        await self._write_away(table, memento)
        self.timers.arm(table)

    # -- start-up and shutdown --------------------------------------------------------------------

    async def restore(self) -> list[LiveTable]:
        """Load every open table, re-arm its timers; past-due deadlines fire at once. A row that
        cannot be read is ended and logged (``restore.revive``): one bad table never keeps the
        others, or the bot, down."""
        restored = []
        for record in await self.store.open_tables():
            table = await revive(self.store, record, self.clock(), self.computer_delay)
            if table is None:
                continue
            self._remember(table)
            self.timers.arm(table)
            restored.append(table)
            if table.game is not None and not table.game.is_over:
                # Open hands do not survive a restart: the channel says so once, and the
                # player to move is pinged with the table message's My hand.
                self._notify(table, "restore", new_turn=True)
        return restored

    async def close(self) -> None:
        """Stop every timer. One that is writing is let finish first (cancelling it would
        leave its write to a store about to close under it); the others are cancelled. The
        tables out of memory stay asleep, the background restore stops."""
        await self.stop_restoring()
        for table in list(self.tables.values()):
            working = self.timers.disarm(table)
            if working is None:
                continue
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await working
            self.timers.disarm(table)  # what the finished wake armed

    def needs_time(self, table_id: int, user_id: int) -> bool:
        """Whether a click of ``user_id`` at ``table_id`` should be deferred at once (a held
        lock, a big hand to move: ``legal_plays.needs_time``). False for no open table."""
        return needs_time(self.tables.get(table_id), user_id)
