"""The table service: the only code that calls the engine, and the owner of each table's state.

Data flows one way: a click becomes an engine action, ``TableService.play`` (or, for the buy
window, ``decide_buy``) applies it under the table's lock, commits the new state and deadlines
to the store in one transaction, and answers with the acting seat's ``SeatSnapshot`` (what its
screen shows now); the ``Listener`` is told of the change with a ``TableSnapshot`` and the
followed seats' snapshots, so the table message and other players' open hands follow without
touching the live game. Nothing here imports discord: the benchmark drives the same code.

Collaborators decide and return; the service carries out. ``lobby.py`` checks lobby requests
and returns the seats or options they lead to; ``buy_window.py`` owns the window's fields and
answers who is undecided and whether P's draw must wait; ``timers.py`` says when a table wakes
and what is due (a ``Due``); ``computers.py`` chooses computer seats' moves and buys;
``restore.py`` turns a stored row back into a ``LiveTable``; ``results.py`` the leaderboard
rows; ``snapshot.py`` and ``table_snapshot.py`` the screens; ``live.py`` the in-memory table.

``TableService`` is a facade: it holds the open tables (``tables_core.Tables``), the timers
and one ``Committer`` (``tables_commit.py``: the one writer, which applies, saves in one
transaction, tells, holds P's draw and settles the buy window), builds the desks with what
each needs and hands each public verb to the desk that does it:

- ``self.lobby`` (``tables_lobby.Lobby``): a table from its lobby to its end, and the seats
  that leave a running game;
- ``self.turns`` (``tables_turns.Turns``): a seat's screen and clicks;
- ``self.table_clock`` (``tables_clock.TableClock``): what a table's deadlines ask for, built
  with the turn and lobby desks it asks (a computer's move, a table's expiry);
- ``self.residence`` (``tables_residency.Residence``): the tables nobody uses out of memory
  (``residency.Residency`` decides which) and back on a click, a command or their wake, and
  the start-up restore in the background. The open tables' registry asks the residency
  too, so a table out of memory is refused as busy rather than as closed by a verb that
  did not bring it back first (``TableService.resident``).

Every call between them is an attribute call (``self.turns.act_locked(...)``). The facade
itself keeps the bot's start-up and shutdown. Every change goes through the committer: a save
the store refuses puts memory back exactly as it was before the click (``LiveTable.memento``),
without reading the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from bot.service.buy_window import DEFAULT_BUY_PREF, BuyPref
from bot.service.computers import ComputerSeats
from bot.service.legal_plays import needs_time
from bot.service.live import ActResult, Clock, DealtAlike, Listener, LiveTable, Store
from bot.service.nudges import SkipVote
from bot.service.ranked import finishes_now
from bot.service.relaxed import PaceVote
from bot.service.residency import Residency
from bot.service.restore import revive
from bot.service.snapshot import Resolver, SeatSnapshot
from bot.service.table_snapshot import TableSnapshot
from bot.service.tables_clock import TableClock
from bot.service.tables_commit import Committer
from bot.service.tables_core import Settings, Tables
from bot.service.tables_lobby import Lobby
from bot.service.tables_residency import Place, Residence
from bot.service.tables_turns import WINDOW_CLOSED, BuyChoice, Turns
from bot.service.timers import Timers, Timings
from engine.actions import Action
from engine.players.hints import Hint

__all__ = ["WINDOW_CLOSED", "BuyChoice", "TableService"]


class TableService:
    """Tables by id, each with one lock; every engine call and every commit goes through here.

    The public verbs are the cogs', views' and tools' whole view of the service; each is
    answered by the desk named in its body."""

    def __init__(
        self,
        store: Store,
        *,
        buy_seconds: float = 8.0,
        turn_seconds: float = 90.0,
        seed: int | None = None,
        away_after: int = 3,
        clock: Clock = time.time,
        listener: Listener | None = None,
        computer_delay: float = 2.0,
        lobby_seconds: float = 30 * 60,
        idle_seconds: float = 24 * 3600,
        buy_preference: BuyPref = DEFAULT_BUY_PREF,
    ) -> None:
        self.store = store
        self.clock = clock
        self.settings = Settings(
            buy_seconds=buy_seconds,
            turn_seconds=turn_seconds,
            seed=seed,
            away_after=away_after,
            computer_delay=computer_delay,
            lobby_seconds=lobby_seconds,
            idle_seconds=idle_seconds,
            buy_preference=buy_preference,
        )
        #: The open tables out of memory, and when those in memory were last asked for.
        self.residency = Residency(store, clock, computer_delay)
        self.open_tables = Tables(self.residency)
        self.computers = ComputerSeats(seed)
        timings = Timings(lobby_seconds, idle_seconds, buy_preference)
        self.timers = Timers(clock, timings, self._wake, revive=self.resident)
        self.committer = Committer(
            store, clock, self.settings, self.open_tables, self.timers, listener
        )
        self.residence = Residence(
            store, clock, self.residency, self.open_tables, self.timers, self.committer
        )
        self.lobby = Lobby(
            self.committer, self.open_tables, self.timers, clock, self.settings, store
        )
        self.turns = Turns(self.committer, self.open_tables, self.timers, clock, self.settings)
        self.table_clock = TableClock(
            self.committer,
            self.turns,
            self.lobby,
            self.open_tables,
            self.timers,
            self.computers,
            clock,
            self.settings,
        )

    @property
    def tables(self) -> dict[int, LiveTable]:
        """The open tables by id (closed ones leave at once)."""
        return self.open_tables.by_id

    @property
    def listener(self) -> Listener | None:
        """Who is told of every change (the committer tells them)."""
        return self.committer.listener

    async def _wake(self, table: LiveTable) -> None:
        """A table's alarm went off (``timers``): the clock desk does what is due."""
        await self.table_clock.wake(table)

    # -- tables out of memory (the residence) -------------------------------------------------

    async def resident(self, table_id: int) -> LiveTable | None:
        """The open table ``table_id`` in memory, brought back from the store if it slept
        (``tables_residency``); None if it is not open."""
        return await self.residence.resident(table_id)

    async def resident_in(self, channel_id: int) -> LiveTable | None:
        return await self.residence.resident_in(channel_id)

    def places(self) -> list[Place]:
        return self.residence.places()

    def asleep_in(self, guild_id: int) -> bool:
        """Whether a table of ``guild_id`` is out of memory (``seated_public`` may then read
        from the store before it answers)."""
        return self.residence.asleep_in(guild_id)

    async def seated_public(self, guild_id: int, user_id: int) -> list[TableSnapshot]:
        """What everyone sees of each open table of ``guild_id`` where ``user_id`` sits, those
        out of memory read back first (``/shanghai games``). Not a use of the tables: none
        stays in memory longer for being listed."""
        tables = await self.residence.seated_in(guild_id, user_id)
        now = self.clock()
        return [TableSnapshot.of(table, now) for table in tables]

    def rest(self) -> int:
        """The resting tables out of memory now; how many. The process asks again
        ``next_look`` seconds later."""
        return self.residence.rest()

    def next_look(self) -> float:
        return self.residence.next_look()

    async def restore_lazily(self) -> asyncio.Task[int]:
        return await self.residence.restore_lazily()

    # -- lookup -----------------------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        return self.open_tables.find(table_id)

    def for_channel(self, channel_id: int) -> LiveTable | None:
        return self.open_tables.for_channel(channel_id)

    def public(self, table_id: int) -> TableSnapshot:
        """What everyone sees of an open table now (``/shanghai table``, History)."""
        return TableSnapshot.of(self.get(table_id), self.clock())

    def finishes_now(self, table_id: int) -> list[tuple[int, int, int]]:
        """``(user, place, total)`` for each person at an open table as its game stands now:
        what an event scores for a table its organiser ends (``ranked.finishes_now``)."""
        return finishes_now(self.get(table_id))

    def needs_time(self, table_id: int, user_id: int) -> bool:
        """Whether a click of ``user_id`` at ``table_id`` should be deferred at once (a held
        lock, a big hand to move: ``legal_plays.needs_time``). False for no open table."""
        return needs_time(self.tables.get(table_id), user_id)

    # -- the lobby desk ---------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
    ) -> LiveTable:
        return await self.lobby.open_table(guild_id, channel_id, host_id, host_name, options)

    async def play_again(
        self, old_id: int, guild_id: int, channel_id: int, host_id: int, host_name: str
    ) -> LiveTable:
        return await self.lobby.play_again(old_id, guild_id, channel_id, host_id, host_name)

    async def join(self, table_id: int, user_id: int, name: str) -> TableSnapshot:
        return await self.lobby.join(table_id, user_id, name)

    async def leave(self, table_id: int, user_id: int) -> TableSnapshot:
        return await self.lobby.leave(table_id, user_id)

    async def add_computer(self, table_id: int, user_id: int, level: str) -> TableSnapshot:
        return await self.lobby.add_computer(table_id, user_id, level)

    async def remove_computer(self, table_id: int, user_id: int) -> TableSnapshot:
        return await self.lobby.remove_computer(table_id, user_id)

    async def set_house_rule(
        self,
        table_id: int,
        user_id: int,
        *,
        preset: str | None = None,
        option: str | None = None,
        value: Any = None,
    ) -> TableSnapshot:
        return await self.lobby.set_house_rule(
            table_id, user_id, preset=preset, option=option, value=value
        )

    def check_start(self, table_id: int, user_id: int) -> None:
        self.lobby.check_start(table_id, user_id)

    async def start(
        self,
        table_id: int,
        user_id: int,
        *,
        thread_id: int | None = None,
        dealt: DealtAlike | None = None,
    ) -> LiveTable:
        return await self.lobby.start(table_id, user_id, thread_id=thread_id, dealt=dealt)

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self.resident(table_id)  # the publisher may move the message of one asleep
        await self.lobby.set_message(table_id, message_id)

    async def end(self, table_id: int, user_id: int | None) -> TableSnapshot:
        return await self.lobby.end(table_id, user_id)

    async def abandon(self, table_id: int, reason: str) -> LiveTable | None:
        await self.resident(table_id)  # a deleted channel's table may be out of memory
        return await self.lobby.abandon(table_id, reason)

    async def leave_game(self, table_id: int, user_id: int) -> TableSnapshot:
        return await self.lobby.leave_game(table_id, user_id)

    async def kick(self, table_id: int, user_id: int) -> TableSnapshot:
        return await self.lobby.kick(table_id, user_id)

    async def member_gone(self, table_id: int, user_id: int) -> TableSnapshot | None:
        await self.resident(table_id)
        return await self.lobby.member_gone(table_id, user_id)

    # -- the turn desk ----------------------------------------------------------------------------

    def snapshot(self, table_id: int, user_id: int, notes: tuple[str, ...] = ()) -> SeatSnapshot:
        return self.turns.snapshot(table_id, user_id, notes)

    def legal_actions(self, table_id: int, user_id: int) -> list[Action]:
        return self.turns.legal_actions(table_id, user_id)

    async def play(
        self,
        table_id: int,
        user_id: int,
        action: Action | Resolver | None = None,
        *,
        shown: str | None = None,
    ) -> SeatSnapshot:
        return await self.turns.play(table_id, user_id, action, shown=shown)

    async def decide_buy(
        self,
        table_id: int,
        user_id: int,
        choice: BuyChoice,
        *,
        window: str | None = None,
        shown: str | None = None,
    ) -> SeatSnapshot:
        return await self.turns.decide_buy(table_id, user_id, choice, window=window, shown=shown)

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatSnapshot, Hint]:
        return await self.turns.hint(table_id, user_id)

    async def set_buy_preference(self, table_id: int, user_id: int, pref: BuyPref) -> SeatSnapshot:
        return await self.turns.set_buy_preference(table_id, user_id, pref)

    async def set_notice_by_dm(self, table_id: int, user_id: int, dm: bool) -> SeatSnapshot:
        return await self.turns.set_notice_by_dm(table_id, user_id, dm)

    async def set_buy_limit(self, table_id: int, user_id: int, limit: int | None) -> SeatSnapshot:
        return await self.turns.set_buy_limit(table_id, user_id, limit)

    async def act(self, table_id: int, user_id: int, action: Action) -> ActResult:
        return await self.turns.act(table_id, user_id, action)

    # -- the clock desk ---------------------------------------------------------------------------

    async def run_due(self, table_id: int) -> None:
        await self.table_clock.run_due(table_id)

    async def turn_told(self, table_id: int, deadline: float) -> bool:
        if await self.resident(table_id) is None:
            return False
        return await self.table_clock.turn_told(table_id, deadline)

    async def next_deal_now(self, table_id: int, user_id: int) -> bool:
        return await self.table_clock.next_deal_now(table_id, user_id)

    async def nudge(self, table_id: int, user_id: int) -> int:
        return await self.table_clock.nudge(table_id, user_id)

    async def vote_skip(self, table_id: int, user_id: int) -> SkipVote:
        return await self.table_clock.vote_skip(table_id, user_id)

    async def vote_pace(
        self, table_id: int, user_id: int, pace: str, hours: int | None = None
    ) -> PaceVote:
        return await self.table_clock.vote_pace(table_id, user_id, pace, hours)

    # -- start-up and shutdown --------------------------------------------------------------------

    async def restore(self) -> list[LiveTable]:
        """Load every open table, re-arm its timers; past-due deadlines fire at once. A row that
        cannot be read is ended and logged (``restore.revive``): one bad table never keeps the
        others, or the bot, down."""
        restored = []
        for record in await self.store.open_tables():
            table = revive(record, self.clock(), self.settings.computer_delay)
            if table is None:
                await self.committer.end_unreadable(record)
                continue
            self.open_tables.remember(table)
            self.timers.arm(table)
            restored.append(table)
            if table.game is not None and not table.game.is_over:
                # Open hands do not survive a restart: the channel says so once, and the
                # player to move is pinged with the table message's My hand.
                self.committer.notify(table, "restore", new_turn=True)
        return restored

    async def close(self) -> None:
        """Stop every timer. One that is writing is let finish first (cancelling it would
        leave its write to a store about to close under it); the others are cancelled. The
        tables out of memory stay asleep, the background restore stops."""
        await self.residence.stop_restoring()
        for table in list(self.tables.values()):
            working = self.timers.disarm(table)
            if working is None:
                continue
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await working
            self.timers.disarm(table)  # what the finished wake armed
