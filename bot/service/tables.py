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

Every change goes through ``_apply`` and ``_commit``: a save the store refuses puts memory
back exactly as it was before the click (``LiveTable.memento``), without reading the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import replace
from typing import Any, Literal

from bot.i18n import t, table_language
from bot.interactions.errors import NoTable, NotSeated, UserError, WrongPhase
from bot.process.logs import at_table
from bot.service import lobby, nudges
from bot.service.buy_window import (
    BUY_PREFS,
    DEFAULT_BUY_PREF,
    BuyPref,
    BuyWindow,
    HeldDraw,
    check_request,
    computer_buyers,
    decided_by_preference,
    must_hold,
    undecided,
    window_tag,
)
from bot.service.computers import ComputerSeats, choose_auto_action
from bot.service.hints import advice_for, plain_hint
from bot.service.legal_plays import LEGAL, needs_time, prepare
from bot.service.live import (
    ActResult,
    Change,
    ChangeKind,
    Clock,
    Listener,
    LiveTable,
    Memento,
    Store,
    rules_for,
)
from bot.service.ranked import tally
from bot.service.restore import revive, table_seconds
from bot.service.results import is_ranked, result_rows
from bot.service.shortcuts import Plays
from bot.service.snapshot import (
    Changed,
    Resolver,
    SeatSnapshot,
    current_tag,
    seat_snapshot,
    settled,
    what_changed,
)
from bot.service.table_snapshot import TableSnapshot
from bot.service.timers import Timers, Timings, what_is_due
from data.errors import StoreBusy
from data.records import AwayState, Seat
from engine import Game
from engine.actions import Action, CancelBuy, RequestBuy
from engine.errors import IllegalAction
from engine.events import DealStarted, Discarded, Event, TurnStarted
from engine.players.hints import Hint

log = logging.getLogger("bot.service")

BuyChoice = Literal["buy", "pass", "unbuy"]
#: The refusal of a Buy, Pass or take-back whose window has closed, worded once for the table
#: message's buttons and the hand's.
WINDOW_CLOSED = (
    "That buy window has closed: the card can no longer be bought.",
    "buy_window_closed",
)


class TableService:
    """Tables by id, each with one lock; every engine call and every commit goes through here."""

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
        self.buy_seconds = buy_seconds
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.away_after = away_after
        self.clock = clock
        self.listener = listener
        self.computer_delay = computer_delay
        self.lobby_seconds = lobby_seconds
        self.idle_seconds = idle_seconds
        #: The buy preference of a person who has not chosen one (``SHANGHAI_BUY_PREFERENCE``).
        self.buy_preference = buy_preference
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        self.computers = ComputerSeats(seed)
        self.timers = Timers(clock, Timings(lobby_seconds, idle_seconds), self._wake)

    # -- lookup -----------------------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise NoTable("That table is closed.", code="closed")
        return table

    def for_channel(self, channel_id: int) -> LiveTable | None:
        table_id = self.by_channel.get(channel_id)
        return None if table_id is None else self.tables.get(table_id)

    def public(self, table_id: int) -> TableSnapshot:
        """What everyone sees of an open table now (``/shanghai table``, History)."""
        return TableSnapshot.of(self.get(table_id), self.clock())

    def _remember(self, table: LiveTable) -> LiveTable:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id
        return table

    def _forget(self, table: LiveTable) -> None:
        table.closed = True
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
        if table.timer is not None and not table.timer_busy:
            table.timer.cancel()
        held = table.window.release()
        if held is not None and not held.future.done():
            held.future.cancel()

    def _notify(self, table: LiveTable, kind: ChangeKind, **fields: Any) -> None:
        """Tell the listener, with the snapshots it draws from (taken here, under the lock)."""
        if self.listener is None:
            return
        try:
            now = self.clock()
            seats: dict[int, SeatSnapshot] = {}
            if table.game is not None:
                events = fields.get("events", ())
                for user_id in self.listener.watched(table.id):
                    if table.seat_of(user_id) is not None:
                        seats[user_id] = seat_snapshot(
                            table, user_id, now, events=events, lazy=True
                        )
            change = Change(TableSnapshot.of(table, now), kind, seats=seats, **fields)
            self.listener.table_changed(change)
        except Exception:
            log.exception("%s: listener failed", at_table(table))

    def table_seconds(self, table: LiveTable) -> tuple[float, float]:
        return table_seconds(dict(table.record.options), self.buy_seconds, self.turn_seconds)

    # -- lobby ------------------------------------------------------------------------------------

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
    ) -> LiveTable:
        """Open a lobby with the host in the first seat; raises ``TableExists``."""
        rules = rules_for(options)  # validate before writing anything
        record = await self.store.create_table(
            guild_id, channel_id, rules.game, host_id, [Seat(host_id, host_name)], options
        )
        table = self._remember(LiveTable(record, None, record.version))
        self.timers.arm(table)  # a lobby nobody starts closes itself
        self._notify(table, "lobby", actor=host_id)
        return table

    async def play_again(
        self, old_id: int, guild_id: int, channel_id: int, host_id: int, host_name: str
    ) -> LiveTable:
        """A new lobby with the same rules and the same people as the finished table
        ``old_id`` (issue 24.3): the clicker hosts, the others are seated again (each may
        Leave), computers keep their levels. A game played in a thread opens its new lobby in
        the channel the thread belongs to. Refused for a table of another channel, one not
        finished, or a channel with an open table (``TableExists``)."""
        old = await self.store.get_table(old_id)
        where = (None,) if old is None else (old.channel_id, old.parent_channel_id)
        if old is None or channel_id not in where or old.guild_id != guild_id:
            raise UserError(
                "That control belongs to a table in another channel, so nothing was done.",
                code="elsewhere",
            )
        if old.status != "finished":
            raise UserError("That game has not finished.", code="not_finished")
        if not any(seat.user_id == host_id for seat in old.seats):
            raise NotSeated()
        options = {k: v for k, v in old.options.items() if k != "server_defaults"}
        home = old.parent_channel_id or old.channel_id  # a thread's game: back in its channel
        table = await self.open_table(guild_id, home, host_id, host_name, options)
        others = tuple(seat for seat in old.seats if seat.user_id != host_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, host_id, (*table.record.seats, *others))
        self._notify(table, "lobby", actor=host_id)
        return table

    async def _update_lobby(
        self,
        table: LiveTable,
        user_id: int,
        seats: tuple[Seat, ...] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Write the lobby's new seats or options (lock held), then keep and show them."""
        seats = table.record.seats if seats is None else seats
        options = dict(table.record.options) if options is None else options
        await self.store.update_lobby(table.id, seats, options)
        table.record = replace(table.record, seats=seats, options=options)

    async def join(self, table_id: int, user_id: int, name: str) -> TableSnapshot:
        table = self.get(table_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, user_id, lobby.seats_after_join(table, user_id, name))
        self._notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def leave(self, table_id: int, user_id: int) -> TableSnapshot:
        table = self.get(table_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, user_id, lobby.seats_after_leave(table, user_id))
        self._notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def add_computer(self, table_id: int, user_id: int, level: str) -> TableSnapshot:
        """The host seats a computer player of ``level`` ('easy', 'normal' or 'expert')."""
        if level not in lobby.COMPUTER_LEVELS:
            raise UserError(
                "Computer players are 'easy', 'normal' or 'expert'.", code="computer_level"
            )
        table = self.get(table_id)
        async with table.held_for_a_click():
            seats = lobby.seats_with_computer(table, user_id, level)
            await self._update_lobby(table, user_id, seats)
        self._notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def remove_computer(self, table_id: int, user_id: int) -> TableSnapshot:
        """The host removes the last computer seated in the lobby."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            seats = lobby.seats_without_computer(table, user_id)
            await self._update_lobby(table, user_id, seats)
        self._notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def set_house_rule(
        self,
        table_id: int,
        user_id: int,
        *,
        preset: str | None = None,
        option: str | None = None,
        value: Any = None,
    ) -> TableSnapshot:
        """The host changes the lobby's rule set (which resets the options) or one option."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            options = lobby.options_with_house_rule(
                table, user_id, preset=preset, option=option, value=value
            )
            await self._update_lobby(table, user_id, options=options)
        self._notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    def _table_seed(self, table: LiveTable) -> int:
        if self.seed is None:
            return random.SystemRandom().randrange(2**62)
        return self.seed * 1_000_003 + table.id

    def check_start(self, table_id: int, user_id: int) -> None:
        """Raise what ``start`` would refuse now (before a thread is made for the game)."""
        lobby.players_to_start(self.get(table_id), user_id)

    async def start(
        self, table_id: int, user_id: int, *, thread_id: int | None = None
    ) -> LiveTable:
        """Deal the first hand; host only, with enough players. With ``thread_id`` the game
        is played in that thread, made from the lobby message (``move_to_thread``)."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            players = lobby.players_to_start(table, user_id)
            if thread_id is not None:
                await self._move_to_thread(table, thread_id)
            game = Game.new(players, rules_for(dict(table.record.options)), self._table_seed(table))
            now = self.clock()
            buy_seconds, turn_seconds = self.table_seconds(table)
            buy_deadline = now + buy_seconds if game.buy_window_open else None
            turn_deadline = now + turn_seconds
            state = game.to_json()
            await self.store.start_game(
                table.id, list(table.record.seats), state, buy_deadline, turn_deadline
            )
            table.record = replace(table.record, status="playing")
            table.game, table.version, table.saved_state = game, 0, state
            table.last_person = now
            table.turn_deadline = turn_deadline
            table.away = [AwayState() for _ in players]
            table.window = BuyWindow(deadline=buy_deadline, ends=buy_deadline)
            table.buy_prefs = {  # each person starts with the server's default
                seat: self.buy_preference
                for seat, sitter in enumerate(table.record.seats)
                if not sitter.is_computer
            }
            if buy_deadline is not None:
                self._open_window(table, now, buy_seconds)
            self.timers.arm(table)
        self._notify(table, "start", actor=user_id, new_turn=True)
        return table

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """The table message now lives at ``message_id`` (the publisher moved it, or
        ``/shanghai table`` posted it again)."""
        table = self.tables.get(table_id)
        if table is None:
            return
        await self.store.set_message(table.id, message_id)
        table.record = replace(table.record, message_id=message_id)

    async def _move_to_thread(self, table: LiveTable, thread_id: int) -> None:
        """The table is thread ``thread_id``'s from now on (issue 24.2): its message, pings
        and notices go there, and its channel is free for another table; the channel it came
        from is kept for the result at the end."""
        await self.store.move_to_thread(table.id, thread_id)
        parent = table.channel_id
        if self.by_channel.get(parent) == table.id:
            del self.by_channel[parent]
        table.record = replace(
            table.record, channel_id=thread_id, parent_channel_id=parent, message_id=None
        )
        self.by_channel[thread_id] = table.id

    async def end(self, table_id: int, user_id: int | None) -> TableSnapshot:
        """Close the table without results (the host or a moderator asked)."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            await self.store.end_table(table.id)
            self._forget(table)
        self._notify(table, "end", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def abandon(self, table_id: int, reason: str) -> LiveTable | None:
        """End a table whose channel or server is gone: recorded as ``abandoned`` (not
        ``ended``, which is a host's decision), no results, so nothing reaches the leaderboard
        and no seat is played on to a phantom winner. Returns the table, or ``None`` if it was
        not open. Harmless to call twice."""
        table = self.tables.get(table_id)
        if table is None or table.closed:
            return None
        async with table.lock:
            if table.closed:
                return None
            try:
                await self.store.end_table(table.id, status="abandoned")
            except Exception as error:  # a restart ends it again: its channel is still gone
                log.warning("%s: could not record its end (%s)", at_table(table), error)
            self._forget(table)
        log.info("%s abandoned: %s", at_table(table), reason)
        self._notify(table, "abandoned")
        return table

    async def expire(self, table: LiveTable, why: str) -> None:
        """End a table the bot closes itself (lock held): a lobby nobody started, a game nobody
        played. Recorded as ``abandoned``, with no results, so nothing reaches the leaderboard."""
        await self.store.end_table(table.id, status="abandoned")
        self._forget(table)
        self._notify(table, "end", note=why)

    # -- a seat's screen and its clicks -----------------------------------------------------------

    def _playing(self, table: LiveTable) -> Game:
        if table.closed:
            raise NoTable("That table is closed.", code="closed")
        if table.game is None:
            raise WrongPhase("The game hasn't started yet.", code="not_started")
        return table.game

    def _seat(self, table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return seat

    def snapshot(self, table_id: int, user_id: int, notes: tuple[str, ...] = ()) -> SeatSnapshot:
        """What ``user_id``'s screen shows now; raises ``NotSeated`` / ``WrongPhase``. (Tests
        and tools; a click asks ``play``, which also marks its player present.)"""
        table = self.get(table_id)
        self._playing(table)
        self._seat(table, user_id)
        return seat_snapshot(table, user_id, self.clock(), notes)

    def legal_actions(self, table_id: int, user_id: int) -> list[Action]:
        table = self.get(table_id)
        game = self._playing(table)
        self._seat(table, user_id)
        return game.legal_actions(str(user_id))

    async def play(
        self,
        table_id: int,
        user_id: int,
        action: Action | Resolver | None = None,
        *,
        shown: str | None = None,
    ) -> SeatSnapshot:
        """One click's whole trip: mark its player present, apply ``action`` and answer with
        their screen, what the action brought them included. ``action`` may be a ``Resolver``
        (the click's meaning depends on the screen: the proposed lay-down, "lay off all"),
        called here with the seat's snapshot; None, or a resolver's None, only looks.

        ``shown`` is the tag of the screen the control was drawn on: when it is out of date and
        the action is refused, the answer carries the refusal (``stale``, ``refusal``) so the
        hand is redrawn with the reason; a refusal on an up-to-date screen raises.

        The seat's legal plays are computed in a worker thread (``legal_plays``): before the
        lock, so a huge hand holds nobody up, and those of the answer after it."""
        await prepare(self.get(table_id), user_id)
        snap = await self._play(table_id, user_id, action, shown=shown)
        return await settled(snap)

    async def _play(
        self,
        table_id: int,
        user_id: int,
        action: Action | Resolver | None,
        *,
        shown: str | None,
    ) -> SeatSnapshot:
        """``play`` under the table's lock; the answer's legal plays may be left to
        ``settled``."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            game = self._playing(table)
            seat = self._seat(table, user_id)
            now = self.clock()
            stale = shown is not None and shown != current_tag(table, seat, now)
            if self._present(table, seat):
                self.timers.arm(table)
                self._notify(table, "away")
            try:
                asked: Action | Plays | None
                if action is not None and callable(action):
                    await prepare(table, user_id)  # known unless the table moved meanwhile
                    asked = action(replace(seat_snapshot(table, user_id, now), stale=stale))
                else:
                    asked = action
                if asked is None:
                    return replace(seat_snapshot(table, user_id, now, lazy=True), stale=stale)
                before = list(game.hand_of(str(user_id)))
                plays = asked if isinstance(asked, tuple) else (asked,)
                result = await self._act_locked(table, user_id, plays[0])
                for then in plays[1:]:  # a compound play: its actions in order, each committed
                    if table.closed or table.game is None or result.pending is not None:
                        break
                    result = await self._act_locked(table, user_id, then)
            except ValueError as error:
                if not stale or table.closed:
                    raise
                answer = seat_snapshot(table, user_id, self.clock(), lazy=True)
                return replace(answer, stale=True, refusal=error)
            changed = what_changed(asked, before, table, user_id, result)
            if table.closed or table.game is None:
                return SeatSnapshot.finished(table, user_id, seat, changed)
            return seat_snapshot(
                table, user_id, self.clock(), changed, events=result.events, lazy=True
            )

    async def decide_buy(
        self,
        table_id: int,
        user_id: int,
        choice: BuyChoice,
        *,
        window: str | None = None,
        shown: str | None = None,
    ) -> SeatSnapshot:
        """Buy, Pass, or take a buy request back, for one window only: the table message's
        buttons name it (``window``), the hand's were drawn on a screen (``shown``). A control
        of a window that has closed changes nothing and answers with ``refusal`` set."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            game = self._playing(table)
            seat = self._seat(table, user_id)
            now = self.clock()
            running = table.window.is_running(game, now)
            closed = (
                not running
                or (window is not None and window != window_tag(game))
                or (shown is not None and shown != current_tag(table, seat, now))
            )
            if choice == "pass" and seat == game.current and not closed:
                raise UserError(
                    "It's your turn: draw or take the upcard instead.", code="own_turn_take"
                )
            if closed:
                refusal = UserError(WINDOW_CLOSED[0], code=WINDOW_CLOSED[1])
                return replace(seat_snapshot(table, user_id, now), stale=True, refusal=refusal)
            if choice == "pass":
                self._present(table, seat)
                table.window.decide(seat)
                await self._settle(table)
            else:
                request = RequestBuy() if choice == "buy" else CancelBuy()
                await self._act_locked(table, user_id, request)
            if table.closed:  # the buy was the last thing the game waited for
                return SeatSnapshot.finished(table, user_id, seat, Changed())
            return seat_snapshot(table, user_id, self.clock())

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatSnapshot, Hint]:
        """The Hint button: the seat's screen and the advice for it. The expert's part is
        searched in a worker thread without the lock; if the table moved on meanwhile, the
        advice is the plain hint of the screen as it is now."""
        snap = await self.play(table_id, user_id)
        advice = await advice_for(snap.view, snap.legal, seeded=self.seed is not None)
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._playing(table)
            now = seat_snapshot(table, user_id, self.clock(), lazy=True)
        if now.tag != snap.tag:
            advice = await asyncio.to_thread(plain_hint, now.view)  # a huge hand's is slow
        return await settled(now), advice

    async def set_buy_preference(self, table_id: int, user_id: int, pref: BuyPref) -> SeatSnapshot:
        """The player chooses when to be asked about buys (saved with the seat, so a restart
        keeps it). A window running now applies it at once: choosing ``never`` decides this
        seat, which may close the window."""
        if pref not in BUY_PREFS:
            raise UserError("That is not a buy preference.", code="not_a_buy_pref")
        table = self.get(table_id)
        async with table.held_for_a_click():
            game = self._playing(table)
            seat = self._seat(table, user_id)
            self._present(table, seat)
            memento = table.memento()
            table.buy_prefs = {**table.buy_prefs, seat: pref}
            await self._write_away(table, memento)
            now = self.clock()
            if seat in undecided(table.window, game, table.is_away, now=now) and (
                decided_by_preference(table, seat, pref)
            ):
                table.window.decide(seat)
                await self._settle(table)
            return seat_snapshot(table, user_id, self.clock())

    def _present(self, table: LiveTable, seat: int) -> bool:
        """A player who acts is no longer away (memory; saved with the next action). A seat the
        bot plays for good refuses its player's clicks."""
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

    async def act(self, table_id: int, user_id: int, action: Action) -> ActResult:
        """Apply one player's action (tests, tools and the soak): lock, apply, commit, notify."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            return await self._act_locked(table, user_id, action)

    async def _act_locked(self, table: LiveTable, user_id: int, action: Action) -> ActResult:
        """``act`` with the table's lock held (computer seats come in here too)."""
        game = self._playing(table)
        seat = self._seat(table, user_id)
        present_changed = self._present(table, seat)
        memento = table.memento()
        now = self.clock()
        if not table.is_computer(seat):
            table.last_person = now
        window = table.window
        try:
            check_request(window, game, seat, action, now=now)
        except BaseException:
            table.go_back(memento, game_moved=False)
            raise
        if must_hold(window, game, seat, action, now=now):
            if present_changed:
                self._notify(table, "away")
            return await self._hold(table, seat, action, memento)
        superseded = window.held if window.held is not None and seat == game.current else None
        if superseded is not None:
            window.release()
        if isinstance(action, (RequestBuy, CancelBuy)):
            window.decide(seat)
        result = await self._apply(table, seat, action, before=memento)
        if superseded is not None and not superseded.future.done():
            superseded.future.set_result(replace(result, superseded=True))
        if isinstance(action, RequestBuy):
            await self._settle(table)
        return result

    # -- the one way a table changes --------------------------------------------------------------

    async def _apply(
        self,
        table: LiveTable,
        seat: int,
        action: Action,
        *,
        before: Memento | None = None,
        kind: ChangeKind = "act",
        auto_seat: int | None = None,
        auto_actions: list[Action] | None = None,
    ) -> ActResult:
        """Apply ``action`` for ``seat`` and commit it. If the engine refuses it or the store
        does not take it, memory goes back to ``before`` (taken now if not given)."""
        memento = before or table.memento()
        game = self._playing(table)
        player = game.players[seat]
        try:
            events = game.apply(player, action)
        except BaseException:
            table.go_back(memento, game_moved=False)  # the engine changed nothing
            raise
        try:
            return await self._commit(
                table, int(player), action, events, kind, auto_seat, auto_actions
            )
        except BaseException:
            table.go_back(memento, game_moved=True)
            raise

    async def _commit(
        self,
        table: LiveTable,
        user_id: int,
        action: Action,
        events: list[Event],
        kind: ChangeKind,
        auto_seat: int | None,
        auto_actions: list[Action] | None,
    ) -> ActResult:
        """Save the state and deadlines the action produced in one transaction, then tell the
        listener. Nothing is visible before the save succeeded; ``_apply`` undoes a failure."""
        game = table.game
        assert game is not None
        now = self.clock()
        buy_seconds, turn_seconds = self.table_seconds(table)
        new_turn = any(isinstance(e, TurnStarted) for e in events)
        if new_turn:
            table.turn_deadline = now + turn_seconds
        table.auto_due = now + self.computer_delay
        window = table.window
        if game.buy_window_open and any(isinstance(e, (Discarded, DealStarted)) for e in events):
            self._open_window(table, now, buy_seconds)
        if not game.buy_window_open:
            window.lapse()
        if game.is_over:
            window.lapse()
            table.turn_deadline = None
        state = game.to_json()
        tally(table, user_id, auto_seat)  # who made the seat's actions: its person or the bot
        if game.is_over:
            version = await self.store.finish_game(
                table.id,
                table.version,
                state,
                result_rows(table),
                user_id=user_id,
                action_text=str(action),
                ranked=is_ranked(table),
            )
        else:
            version = await self.store.save_action(
                table.id,
                table.version,
                user_id,
                str(action),
                state,
                window.deadline,
                table.turn_deadline,
                table.stored_away(),
            )
        table.version, table.saved_state = version, state
        if failures := table.backoff.succeeded():
            log.warning("%s saves again after %d failed timer run(s)", at_table(table), failures)
        result = ActResult(events, table.version)
        if game.is_over:
            self._forget(table)
        else:
            self.timers.arm(table)
        self._notify(
            table,
            kind,
            events=events,
            actor=user_id,
            auto_seat=auto_seat,
            auto_actions=(auto_actions or [action]) if auto_seat is not None else [],
            new_turn=new_turn,
        )
        return result

    async def _write_away(self, table: LiveTable, memento: Memento) -> None:
        """Save the seats' away flags (and the held draw) as they are now in memory; if the
        store refuses, memory goes back to ``memento``."""
        try:
            await self.store.set_away(table.id, table.stored_away())
        except BaseException:
            table.go_back(memento, game_moved=False)
            raise

    # -- the buy window and the held draw ---------------------------------------------------------

    async def _hold(
        self, table: LiveTable, seat: int, action: Action, memento: Memento
    ) -> ActResult:
        """Hold P's draw until the window closes (at once if nobody is left to decide). The
        held draw is written before anyone is told, so a refused write holds nothing."""
        game = self._playing(table)
        player = game.players[seat]
        held = table.window.held
        if held is not None:
            return ActResult([], table.version, pending=held.future)
        if not game.is_legal(player, action):
            table.go_back(memento, game_moved=False)
            game.apply(player, action)  # raises the engine's reason; nothing changes
        if not undecided(table.window, game, table.is_away, now=self.clock()):
            result = await self._apply(table, seat, action, before=memento)
            return replace(result, pending=None)
        future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
        table.window.hold(HeldDraw(seat, action, future))
        await self._write_away(table, memento)
        self.timers.arm(table)
        self._notify(table, "window", actor=int(player))
        return ActResult([], table.version, pending=future)

    def _open_window(self, table: LiveTable, now: float, seconds: float) -> None:
        """A new upcard is on offer: each person whose buy preference needs no question about
        it is decided for at once, and with nobody left to ask (and no computer to ask) the
        window closes there and then, so P's draw is never held for nothing."""
        game = self._playing(table)
        window = table.window
        window.open(now, seconds)
        for seat in undecided(window, game, table.is_away, now=now):
            pref = table.buy_prefs.get(seat, self.buy_preference)
            if not table.is_computer(seat) and decided_by_preference(table, seat, pref):
                window.decide(seat)
        if not undecided(window, game, table.is_away, now=now) and not computer_buyers(table, now):
            window.close(now)

    async def _settle(self, table: LiveTable) -> None:
        """After anything that may have been the last decision: close the window early and
        run the held draw when nobody is left to decide."""
        game = table.game
        now = self.clock()
        if game is None or game.is_over or table.closed or not table.window.is_running(game, now):
            return
        if undecided(table.window, game, table.is_away, now=now):
            return
        if table.window.held is not None:
            await self._run_held(table)
        else:
            table.window.close(now)
            self.timers.arm(table)
            self._notify(table, "window")

    async def _run_held(self, table: LiveTable, before: Memento | None = None) -> ActResult:
        """Submit the held draw now (the window ended or nobody else can buy)."""
        memento = before or table.memento()
        held = table.window.release()
        assert held is not None
        try:
            result = await self._apply(table, held.seat, held.action, before=memento)
        except IllegalAction as error:
            # The state moved on (e.g. P took the upcard meanwhile); tell the waiter.
            table.window.release()
            if not held.future.done():
                held.future.set_exception(error)
            raise
        if not held.future.done():
            held.future.set_result(result)
        return result

    # -- the timer: what is due, carried out ------------------------------------------------------

    async def run_due(self, table_id: int) -> None:
        """Do now whatever the table's deadlines ask for at ``clock()`` (tests, benchmarks)."""
        table = self.get(table_id)
        async with table.lock:
            await self._wake(table)
            self.timers.arm(table)

    async def _wake(self, table: LiveTable) -> None:
        """Carry out what ``timers.what_is_due`` says (the table's lock held)."""
        timings = self.timers.timings
        for _ in range(2):  # computers' buys first, then whatever the turn needs
            due = what_is_due(table, self.clock(), timings)
            if due is None:
                return
            language = table_language(table.record.options)
            if due.kind == "lobby_expired":
                minutes = round(self.lobby_seconds / 60)
                await self.expire(table, t("notice.lobby_expired", language, minutes=minutes))
            elif due.kind == "idle_expired":
                hours = round(self.idle_seconds / 3600)
                await self.expire(table, t("notice.idle_expired", language, hours=hours))
            elif due.kind == "window_over":
                await self._window_over(table)
            elif due.kind == "computer_buys":
                await self._computer_buys(table)
                await self._settle(table)
                if not table.closed and table.game is not None and not table.game.is_over:
                    continue
            elif due.kind == "computer_move":
                assert due.seat is not None
                await self._computer_move(table, due.seat)
            elif due.kind == "timeout":
                assert due.seat is not None
                await self._time_out(table, due.seat)
            elif due.kind == "away_play":
                assert due.seat is not None
                await self._autoplay(table, due.seat, timeout=False)
            return

    async def _time_out(self, table: LiveTable, seat: int) -> None:
        """``seat``'s turn ran out (or the others voted to skip it): the bot plays it, and
        the seat counts one more timeout towards being marked away."""
        memento = table.memento()
        state = table.away[seat]
        timeouts = state.timeouts + 1
        marked = state.away or timeouts >= self.away_after
        table.away[seat] = replace(state, timeouts=timeouts, away=marked)
        await self._autoplay(table, seat, timeout=True, before=memento)

    # -- nudge and skip (issue 24.4) ----------------------------------------------------------

    async def nudge(self, table_id: int, user_id: int) -> int:
        """The host nudges the player to move: the user id to ping (once a turn)."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            _, turn_seconds = self.table_seconds(table)
            target = nudges.check_nudge(table, user_id, self.clock(), turn_seconds)
            table.nudges.for_turn(table.turn_deadline).nudge()
            return target

    async def vote_skip(self, table_id: int, user_id: int) -> nudges.SkipVote:
        """One more vote to let the bot play the absent player's turn now; at a majority of
        the other people it does, as a timed-out turn."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            _, turn_seconds = self.table_seconds(table)
            voter, needed = nudges.check_skip(table, user_id, self.clock(), turn_seconds)
            game = self._playing(table)
            seat = game.current
            votes = table.nudges.for_turn(table.turn_deadline).vote(voter)
            if votes < needed:
                return nudges.SkipVote(votes, needed, played=False)
            await self._time_out(table, seat)
            return nudges.SkipVote(votes, needed, played=True)

    async def _window_over(self, table: LiveTable) -> None:
        """The buy deadline passed: no more requests; the held draw runs now."""
        game = self._playing(table)
        memento = table.memento()
        table.window.lapse()
        if table.window.held is None:
            self._notify(table, "window")
            return
        await self._run_held(table, before=memento)
        if table.closed or game.is_over:
            return
        seat = game.current
        if game.step == "play" and table.is_away(seat) and not table.is_computer(seat):
            await self._autoplay(table, seat, timeout=False)

    async def _autoplay(
        self, table: LiveTable, seat: int, *, timeout: bool, before: Memento | None = None
    ) -> None:
        """Play the rest of ``seat``'s turn with the normal strategy; one notice names it all."""
        done: list[Action] = []
        held = table.window.held
        if held is not None and held.seat == seat:
            done.append(held.action)
            await self._run_held(table, before=before)
            before = None
        for _ in range(40):
            game = table.game
            if table.closed or game is None or game.is_over or game.current != seat:
                break
            await LEGAL.ready(game, game.players[seat])  # a huge hand's, off the loop
            action = self.computers.action(table, seat, "normal")
            if action is None:
                break
            done.append(action)
            await self._apply(
                table,
                seat,
                action,
                before=before,
                kind="timeout" if timeout else "away",
                auto_seat=seat,
                auto_actions=list(done),
            )
            before = None

    async def _computer_buys(self, table: LiveTable) -> None:
        """Each computer seat that may buy the upcard decides now; buyers ask like people do."""
        game = self._playing(table)
        for seat in computer_buyers(table, self.clock()):
            if not table.window.is_running(game, self.clock()):
                break
            table.window.decide(seat)
            if not await self.computers.wants_buy(table, seat):
                continue
            try:
                await self._act_locked(table, int(game.players[seat]), RequestBuy())
            except StoreBusy:
                table.window.undecide(seat)  # asked again when the timer retries
                raise
            except ValueError as error:
                why = getattr(error, "code", "refused")
                log.info("%s: computer buy refused (%s)", at_table(table), why)

    async def _computer_move(self, table: LiveTable, seat: int) -> None:
        """One action of a computer seat's turn, through the same path as a click."""
        game = self._playing(table)
        player = game.players[seat]
        table.auto_due = self.clock() + self.computer_delay  # no busy loop
        action = await self.computers.move(table, seat)
        if action is None:
            return
        try:
            await self._act_locked(table, int(player), action)
        except StoreBusy:
            raise  # the move is fine, the store is busy: the timer backs off and tries again
        except ValueError as error:
            # The kind of move only: its card would show what a computer holds.
            log.warning(
                "%s: computer move %s refused (%s)",
                at_table(table),
                type(action).__name__,
                getattr(error, "code", "refused"),
            )
            game_now = table.game  # decide again from what memory holds now
            if game_now is None or table.closed:
                return
            fallback = choose_auto_action(game_now, player)
            if fallback is not None and fallback != action:
                await self._act_locked(table, int(player), fallback)

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
        table = self.tables.get(table_id)
        if table is None or table.closed or table.game is None:
            return None
        async with table.lock:
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
                # player to move is pinged with the table message's My hand (issue 23.5).
                self._notify(table, "restore", new_turn=True)
        return restored

    async def close(self) -> None:
        """Stop every timer. One that is writing is let finish first (cancelling it would
        leave its write to a store about to close under it); the others are cancelled."""
        for table in list(self.tables.values()):
            timer = table.timer
            if timer is None:
                continue
            if not table.timer_busy:
                timer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await timer

    def needs_time(self, table_id: int, user_id: int) -> bool:
        """Whether a click of ``user_id`` at ``table_id`` should be deferred at once (a held
        lock, a big hand to move: ``legal_plays.needs_time``). False for no open table."""
        return needs_time(self.tables.get(table_id), user_id)
