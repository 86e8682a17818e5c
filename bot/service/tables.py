"""The table service: the only code that calls the engine, and the owner of each table's lock.

Data flows one way: a click becomes an engine action, ``TableService.play`` applies it under
the table's lock, commits the new state and deadlines to the store in one transaction, and
answers with the acting seat's ``SeatSnapshot`` (what its screen shows now); the ``Listener``
is told of the change, so the table message and other players' open hands follow. Nothing here
imports discord: the benchmark drives the same code without a bot.

The collaborators, one file each: ``buy_window.py`` (who may still buy, the held draw),
``timers.py`` (deadlines, timeouts, absent seats), ``computers.py`` (computer seats),
``results.py`` (leaderboard rows), ``snapshot.py`` (a seat's screen), ``live.py`` (the
in-memory table and the terms they share).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import replace
from typing import Any

from bot import quarantine
from bot.errors import NoTable, NotHost, NotSeated, UserError, WrongPhase, rules_refusal
from bot.i18n import t, table_language
from bot.logs import at_table
from data.records import AwayState, Seat
from engine import Game
from engine.actions import Action, CancelBuy, RequestBuy
from engine.events import DealStarted, Discarded, Event

from .buy_window import BuyWindows, clear_held
from .computers import ComputerSeats
from .live import (
    REMOVED,
    ActResult,
    Change,
    ChangeKind,
    Clock,
    Listener,
    LiveTable,
    Store,
    rules_for,
)
from .results import result_rows
from .snapshot import SeatSnapshot, seat_snapshot, what_changed
from .timers import Timers

log = logging.getLogger("bot.service")


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
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}
        self.windows = BuyWindows(self)
        self.timers = Timers(self)
        self.computers = ComputerSeats(self)

    # -- lookup --------------------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise NoTable("That table is closed.", code="closed")
        return table

    def for_channel(self, channel_id: int) -> LiveTable | None:
        table_id = self.by_channel.get(channel_id)
        return None if table_id is None else self.tables.get(table_id)

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
        if table.pending is not None and not table.pending.future.done():
            table.pending.future.cancel()
        table.pending = None

    def _notify(self, change: Change) -> None:
        if self.listener is not None:
            try:
                self.listener.table_changed(change)
            except Exception:
                log.exception("%s: listener failed", at_table(change.table))

    def buy_window_running(self, table: LiveTable) -> bool:
        """Whether buy requests are accepted now (the engine window and our deadline)."""
        return self.windows.running(table)

    def options(self, table: LiveTable) -> dict[str, Any]:
        return dict(table.record.options)

    def table_seconds(self, table: LiveTable) -> tuple[float, float]:
        options = table.record.options
        return (
            float(options.get("buy_seconds", self.buy_seconds)),
            float(options.get("turn_seconds", self.turn_seconds)),
        )

    # -- lobby -----------------------------------------------------------------------------------

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
        self._notify(Change(table, "lobby", actor=host_id))
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> LiveTable:
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You already have a seat at this table.", code="already_seated")
            rules = rules_for(dict(table.record.options))
            if len(table.record.seats) >= rules.players[1]:
                raise UserError(
                    f"The table is full ({rules.players[1]} players).",
                    code="table_full",
                    count=rules.players[1],
                )
            seats = (*table.record.seats, Seat(user_id, name))
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def leave(self, table_id: int, user_id: int) -> LiveTable:
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if table.seat_of(user_id) is None:
                raise UserError("You don't have a seat at this table.", code="no_seat")
            if user_id == table.record.host_id:
                raise UserError(
                    "The host can't leave; use `/shanghai end` to close the table.",
                    code="host_cannot_leave",
                )
            seats = tuple(s for s in table.record.seats if s.user_id != user_id)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def add_computer(self, table_id: int, user_id: int, level: str) -> LiveTable:
        """The host seats a computer player of ``level`` ('easy', 'normal' or 'expert')."""
        if level not in ("easy", "normal", "expert"):
            raise UserError(
                "Computer players are 'easy', 'normal' or 'expert'.", code="computer_level"
            )
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("add a computer player", code="not_host.add_computer")
            rules = rules_for(dict(table.record.options))
            if len(table.record.seats) >= rules.players[1]:
                raise UserError(
                    f"The table is full ({rules.players[1]} players).",
                    code="table_full",
                    count=rules.players[1],
                )
            taken = {s.user_id for s in table.record.seats}
            # Negative ids: Discord snowflakes are positive, so a computer never collides.
            number = next(n for n in range(1, 100) if -n not in taken)
            # Named once, in the table's language: the name is shown as stored everywhere.
            language = table_language(table.record.options)
            worded_level = t(f"lobby.level.{level}", language)
            name = t("lobby.computer_name", language, number=number, level=worded_level)
            seat = Seat(-number, name, is_computer=True, level=level)
            seats = (*table.record.seats, seat)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def remove_computer(self, table_id: int, user_id: int) -> LiveTable:
        """The host removes the last computer seated in the lobby."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("remove a computer player", code="not_host.remove_computer")
            computers = [s for s in table.record.seats if s.is_computer]
            if not computers:
                raise UserError("There is no computer player at this table.", code="no_computer")
            gone = computers[-1]
            seats = tuple(s for s in table.record.seats if s is not gone)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def set_house_rule(
        self,
        table_id: int,
        user_id: int,
        *,
        preset: str | None = None,
        option: str | None = None,
        value: Any = None,
    ) -> LiveTable:
        """The host changes the lobby's rule set (which resets the options) or one option;
        validated as a whole ``Rules`` and stored with the table's options (issue 11)."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("change the house rules", code="not_host.house_rules")
            options = dict(table.record.options)
            overrides = dict(options.get("rules") or {})
            if preset is not None:
                options["preset"], overrides = preset, {}
            elif option is not None:
                overrides[option] = value
            options["rules"] = overrides
            try:
                rules = rules_for(options)
            except ValueError as error:
                raise UserError(
                    f"That house rule can't be used here: {error}", code="house_rule_invalid"
                ) from rules_refusal(error)
            if rules.game != table.record.game_kind:
                raise UserError("That rule set is for another game.", code="other_game_rules")
            if len(table.record.seats) > rules.players[1]:
                raise UserError(
                    f"Too many players are seated for {rules.players[1]} players.",
                    code="too_many_seated",
                    count=rules.players[1],
                )
            await self.store.update_lobby(table.id, table.record.seats, options)
            table.record = replace(table.record, options=options)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    def _require_lobby(self, table: LiveTable) -> None:
        if table.game is not None:
            raise WrongPhase("The game has already started.", code="started")

    def _table_seed(self, table: LiveTable) -> int:
        if self.seed is None:
            return random.SystemRandom().randrange(2**62)
        return self.seed * 1_000_003 + table.id

    async def start(self, table_id: int, user_id: int) -> LiveTable:
        """Deal the first hand; host only, with enough players."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("start the game", code="not_host.start")
            rules = rules_for(dict(table.record.options))
            low = rules.players[0]
            count = len(table.record.seats)
            if count < low:
                raise UserError(
                    f"This game needs at least {low} players; {count} seated.",
                    code="too_few_players",
                    low=low,
                    count=count,
                )
            players = [str(seat.user_id) for seat in table.record.seats]
            game = Game.new(players, rules, self._table_seed(table))
            now = self.clock()
            buy_seconds, turn_seconds = self.table_seconds(table)
            buy_deadline = now + buy_seconds if game.buy_window_open else None
            turn_deadline = now + turn_seconds
            away = [AwayState() for _ in players]
            await self.store.start_game(
                table.id, list(table.record.seats), game.to_json(), buy_deadline, turn_deadline
            )
            table.record = replace(table.record, status="playing")
            table.game = game
            table.version = 0
            table.last_person = now
            table.buy_deadline, table.turn_deadline, table.away = buy_deadline, turn_deadline, away
            table.window_ends = buy_deadline
            self.timers.arm(table)
        self._notify(Change(table, "start", actor=user_id, new_turn=True))
        return table

    async def set_message(self, table: LiveTable, message_id: int | None) -> None:
        await self.store.set_message(table.id, message_id)
        table.record = replace(table.record, message_id=message_id)

    async def end(self, table_id: int, user_id: int | None) -> LiveTable:
        """Close the table without results (the host or a moderator asked)."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            await self.store.end_table(table.id)
            self._forget(table)
        self._notify(Change(table, "end", actor=user_id))
        return table

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
        self._notify(Change(table, "abandoned"))
        return table

    # -- playing ---------------------------------------------------------------------------------

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

    def view(self, table_id: int, user_id: int | None) -> Any:
        """The engine's view for this user (None: spectator); raises ``NotSeated``."""
        table = self.get(table_id)
        game = self._playing(table)
        if user_id is None:
            return game.view(None)
        self._seat(table, user_id)
        return game.view(str(user_id))

    def legal_actions(self, table_id: int, user_id: int) -> list[Action]:
        table = self.get(table_id)
        game = self._playing(table)
        self._seat(table, user_id)
        return game.legal_actions(str(user_id))

    def snapshot(self, table_id: int, user_id: int, notes: tuple[str, ...] = ()) -> SeatSnapshot:
        """What ``user_id``'s screen shows now; raises ``NotSeated`` / ``WrongPhase``."""
        table = self.get(table_id)
        self._playing(table)
        self._seat(table, user_id)
        return seat_snapshot(self, table, user_id, notes)

    async def play(self, table_id: int, user_id: int, action: Action) -> SeatSnapshot:
        """One click's whole trip: apply ``action`` for ``user_id`` and answer with their
        screen, a note of what happened for them included; raises ``ValueError``s."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            game = self._playing(table)
            seat = self._seat(table, user_id)
            before = list(game.hand_of(str(user_id)))
            result = await self._act_locked(table, user_id, action)
            changed = what_changed(action, before, table, user_id, result)
            if table.closed or table.game is None:
                return SeatSnapshot.finished(table, user_id, seat, changed)
            return seat_snapshot(self, table, user_id, changed)

    async def pass_buy(self, table_id: int, user_id: int) -> None:
        """``user_id`` will not buy the upcard on offer: one fewer to wait for."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            game = self._playing(table)
            seat = self._seat(table, user_id)
            if not self.windows.running(table):
                raise UserError("That buy window has closed already.", code="buy_window_over")
            if seat == game.current:
                raise UserError(
                    "It's your turn: draw or take the upcard instead.", code="own_turn_take"
                )
            self._mark_present(table, seat)
            table.decided.add(seat)
            await self.windows.settle(table)

    async def act(self, table_id: int, user_id: int, action: Action) -> ActResult:
        """Apply one player's action: lock, apply, commit, notify; raises ``ValueError``s."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            return await self._act_locked(table, user_id, action)

    async def _act_locked(self, table: LiveTable, user_id: int, action: Action) -> ActResult:
        """``act`` with the table's lock held (computer seats come in here too)."""
        game = self._playing(table)
        seat = self._seat(table, user_id)
        player = str(user_id)
        present_changed = self._mark_present(table, seat)
        if not table.is_computer(seat):
            table.last_person = self.clock()
        self.windows.check_request(table, seat, action)
        if self.windows.must_hold(table, seat, action):
            if present_changed:
                self._notify(Change(table, "away"))
            return await self.windows.hold(table, seat, action)
        superseded = table.pending if table.pending is not None and seat == game.current else None
        events = game.apply(player, action)
        if superseded is not None:
            table.pending = None
            clear_held(table, superseded.seat)
        if isinstance(action, (RequestBuy, CancelBuy)):
            table.decided.add(seat)
        result = await self._commit(table, user_id, action, events)
        if superseded is not None and not superseded.future.done():
            superseded.future.set_result(replace(result, superseded=True))
        if isinstance(action, RequestBuy):
            await self.windows.settle(table)
        return result

    async def _commit(
        self,
        table: LiveTable,
        user_id: int,
        action: Action,
        events: list[Event],
        *,
        kind: ChangeKind = "act",
        auto_seat: int | None = None,
        auto_actions: list[Action] | None = None,
        notify: bool = True,
    ) -> ActResult:
        """Save the state and deadlines the action produced, then tell the listener."""
        game = table.game
        assert game is not None
        now = self.clock()
        buy_seconds, turn_seconds = self.table_seconds(table)
        new_turn = any(type(e).__name__ == "TurnStarted" for e in events)
        if new_turn:
            table.turn_deadline = now + turn_seconds
        table.auto_due = now + self.computer_delay
        if game.buy_window_open and any(isinstance(e, (Discarded, DealStarted)) for e in events):
            self.windows.opened(table, buy_seconds)
        if not game.buy_window_open:
            table.buy_deadline = None
        if game.is_over:
            table.buy_deadline = table.turn_deadline = None
        state = game.to_json()
        try:
            if game.is_over:
                table.version = await self.store.finish_game(
                    table.id,
                    table.version,
                    state,
                    result_rows(table),
                    user_id=user_id,
                    action_text=str(action),
                )
            else:
                table.version = await self.store.save_action(
                    table.id,
                    table.version,
                    user_id,
                    str(action),
                    state,
                    table.buy_deadline,
                    table.turn_deadline,
                    list(table.away),
                )
        except BaseException:
            # The engine already moved on; go back to what the store holds.
            await self._reload(table)
            raise
        if failures := table.backoff.succeeded():
            log.warning("%s saves again after %d failed timer run(s)", at_table(table), failures)
        result = ActResult(events, table.version)
        if game.is_over:
            self._forget(table)
        else:
            self.timers.arm(table)
        if notify:
            self._notify(
                Change(
                    table,
                    kind,
                    events,
                    actor=user_id,
                    auto_seat=auto_seat,
                    auto_actions=(auto_actions or [action]) if auto_seat is not None else [],
                    new_turn=new_turn,
                )
            )
        return result

    async def _reload(self, table: LiveTable) -> None:
        record = await self.store.get_table(table.id)
        if record is None:
            raise NoTable()
        table.record = record
        table.version = record.version
        table.game = Game.from_json(record.state) if record.state else None
        table.buy_deadline, table.turn_deadline = record.buy_deadline, record.turn_deadline
        table.away = list(record.away) or [AwayState() for _ in record.seats]

    async def run_due(self, table_id: int) -> None:
        """Do now whatever the table's deadlines ask for at ``clock()`` (tests, benchmarks)."""
        table = self.get(table_id)
        async with table.lock:
            await self.timers.on_timer(table)
            self.timers.arm(table)

    async def expire(self, table: LiveTable, why: str) -> None:
        """End a table the bot closes itself (lock held): a lobby nobody started, a game nobody
        played. Recorded as ``abandoned``, with no results, so nothing reaches the leaderboard."""
        await self.store.end_table(table.id, status="abandoned")
        self._forget(table)
        self._notify(Change(table, "end", note=why))

    async def leave_game(self, table_id: int, user_id: int) -> LiveTable:
        """A player leaves a running game: the computer plays their seat from now on."""
        table = self.get(table_id)
        async with table.held_for_a_click():
            self._playing(table)
            seat = self._seat(table, user_id)
            if table.away[seat].timeouts >= REMOVED:
                raise UserError(
                    "You already left this game; the computer plays your seat.",
                    code="already_left",
                )
            away = list(table.away)
            away[seat] = AwayState(REMOVED, True)
            await self.store.set_away(table.id, away)
            table.away = away
            self.timers.arm(table)
        self._notify(Change(table, "left", seat=seat))
        return table

    # -- absent players ------------------------------------------------------------------------

    async def kick(self, table_id: int, user_id: int) -> LiveTable:
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
            away = list(table.away)
            away[seat] = AwayState(REMOVED, True)
            await self.store.set_away(table.id, away)  # saved before the host is answered
            table.away = away
            self.timers.arm(table)
        self._notify(Change(table, "kick", seat=seat))
        return table

    def _mark_present(self, table: LiveTable, seat: int) -> bool:
        """A player who acts is no longer away (the change is saved with the next action)."""
        if seat < len(table.away) and table.away[seat].timeouts >= REMOVED:
            raise UserError(
                "You left this game or the host removed you; the computer plays your seat.",
                code="kicked",
            )
        state = table.away[seat] if seat < len(table.away) else AwayState()
        if state.timeouts or state.away:
            table.away[seat] = replace(state, timeouts=0, away=False)
            return True
        return False

    async def mark_present(self, table_id: int, user_id: int) -> None:
        """Any click by a player clears their away mark."""
        table = self.tables.get(table_id)
        if table is None or table.game is None:
            return
        seat = table.seat_of(user_id)
        if seat is not None and seat < len(table.away) and table.away[seat].away:
            if table.away[seat].timeouts >= REMOVED:
                raise UserError(
                    "You left this game or the host removed you; the computer plays your seat.",
                    code="kicked",
                )
            async with table.lock:
                if self._mark_present(table, seat):
                    self.timers.arm(table)
                    self._notify(Change(table, "away"))

    # -- start-up ----------------------------------------------------------------------------------

    async def restore(self) -> list[LiveTable]:
        """Load every open table, re-arm its timers; past-due deadlines fire at once. A row that
        cannot be read is ended and logged (``bot.quarantine``): one bad table never keeps the
        others, or the bot, down."""
        restored = []
        for record in await self.store.open_tables():
            table = await quarantine.revive(self, record)
            if table is None:
                continue
            self.windows.revive_held(table)
            table.last_person = record.updated_at
            table.window_ends = record.buy_deadline
            self._remember(table)
            self.timers.arm(table)
            restored.append(table)
        return restored

    async def close(self) -> None:
        for table in list(self.tables.values()):
            if table.timer is not None:
                table.timer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.timer
