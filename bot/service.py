"""The table service: the only code that calls the engine, and the owner of locks and timers.

Data flows one way: a click becomes an engine action, ``TableService.act`` applies it under
the table's lock, commits the new state and deadlines to the store in one transaction, and
only then returns the events (and tells the ``Listener``, which redraws the table message).
Nothing here imports discord: the benchmark drives the same code without a bot.

Terminology:
- *buy window*: the seconds after a discard (or the first upcard) in which others may ask to
  buy it. The engine keeps the upcard live until the in-turn player P draws; this service
  closes the window for requests at ``buy_deadline``.
- *pending draw*: P asked to draw from the stock while the window is running. The draw is held
  (RULES.md Part E) and submitted when the window ends, so that buy requests can still come in;
  the engine then awards the upcard by seat priority, whoever clicked first.
- *timeout*: P's ``turn_deadline`` passed; the bot plays the turn with the ``normal`` strategy
  (the simple ``choose_auto_action`` rule if the strategy fails). After ``away_after`` timeouts
  in a row the seat is *away* and played at once until its player acts.
- *computer seat*: a ``Seat(is_computer=True, level=...)`` with a negative id. On its turn the
  timer plays one action every ``computer_delay`` seconds (``auto_due``), chosen by its strategy
  from that seat's own ``PlayerView`` and legal actions, through ``_act_locked`` like a click;
  while a buy window runs, each computer that may buy is asked ``wants_buy`` once and, if
  willing, requests the buy the same way. ``restore`` sets ``auto_due`` so computers resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from data.errors import TableExists
from data.records import AwayState, ResultRow, Seat, TableRecord
from engine import Game, Rules
from engine.actions import (
    Action,
    DrawStock,
    RequestBuy,
    TakeUpcard,
)
from engine.errors import IllegalAction
from engine.events import BuyAwarded, DealStarted, Discarded, Event, GameEnded
from engine.strategy import EasyStrategy, Strategy, make_strategy

from . import quarantine
from .backoff import Backoff
from .errors import NoTable, NotHost, NotSeated, UserError, WrongPhase

log = logging.getLogger(__name__)

Clock = Callable[[], float]
ChangeKind = Literal[
    "lobby", "start", "act", "timeout", "window", "restore", "end", "away", "abandoned"
]

#: ``AwayState.timeouts`` of a seat the host removed: played by the bot for good.
REMOVED = 1_000

#: Options a table may override at /shanghai new, with the types they must have.
TABLE_OPTION_KEYS = ("preset", "buy_seconds", "turn_seconds", "rules")


@dataclass
class Pending:
    """P's draw (or take) held until the buy window closes."""

    seat: int
    action: Action
    future: asyncio.Future[ActResult]


@dataclass
class LiveTable:
    """One open table in memory: its record, its game, its deadlines and its lock."""

    record: TableRecord
    game: Game | None
    version: int
    buy_deadline: float | None = None
    turn_deadline: float | None = None
    away: list[AwayState] = field(default_factory=list)
    pending: Pending | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    timer_busy: bool = False
    closed: bool = False
    #: When the next computer (or away) move may be made: a short visible delay after the
    #: last change. Memory only; ``restore`` sets it to now + the delay.
    auto_due: float | None = None
    #: Computer seats already asked about the upcard now on offer.
    buy_asked: set[int] = field(default_factory=set)
    #: Failed timer runs in a row (a disk that refuses writes): the next run waits.
    backoff: Backoff = field(default_factory=Backoff)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def channel_id(self) -> int:
        return self.record.channel_id

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def seat_ids(self) -> list[int]:
        return [seat.user_id for seat in self.record.seats]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.record.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def away_seats(self) -> list[int]:
        return [i for i, state in enumerate(self.away) if state.away]

    def is_computer(self, seat: int) -> bool:
        seats = self.record.seats
        return 0 <= seat < len(seats) and seats[seat].is_computer


@dataclass
class ActResult:
    """What one accepted action did. ``pending`` is set when P's draw waits for the window."""

    events: list[Event]
    version: int
    pending: asyncio.Future[ActResult] | None = None
    superseded: bool = False


@dataclass
class Change:
    """A change the Discord side may want to show."""

    table: LiveTable
    kind: ChangeKind
    events: list[Event] = field(default_factory=list)
    actor: int | None = None
    #: Seat the bot played for (timeout or away), if any.
    auto_seat: int | None = None
    auto_actions: list[Action] = field(default_factory=list)
    new_turn: bool = False


class Listener(Protocol):
    def table_changed(self, change: Change) -> None:
        """Called after each committed change; must not block (schedule work instead)."""


class Store(Protocol):  # the parts of data.Store this service uses
    async def create_table(self, *args: Any, **kwargs: Any) -> TableRecord: ...
    async def get_table(self, table_id: int) -> TableRecord | None: ...
    async def open_tables(self) -> Sequence[TableRecord]: ...
    async def update_lobby(self, *args: Any, **kwargs: Any) -> None: ...
    async def set_message(self, table_id: int, message_id: int | None) -> Any: ...
    async def start_game(self, *args: Any, **kwargs: Any) -> Any: ...
    async def save_action(self, *args: Any, **kwargs: Any) -> int: ...
    async def finish_game(self, *args: Any, **kwargs: Any) -> Any: ...
    async def end_table(self, table_id: int) -> Any: ...
    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None: ...


def rules_for(options: dict[str, Any]) -> Rules:
    """The engine rules of a table from its stored options."""
    rules = Rules.preset(str(options.get("preset", "standard")))
    overrides = dict(options.get("rules") or {})
    return rules.with_options(**overrides) if overrides else rules


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
    ) -> None:
        self.store = store
        self.buy_seconds = buy_seconds
        self.turn_seconds = turn_seconds
        self.seed = seed
        self.away_after = away_after
        self.clock = clock
        self.listener = listener
        self.computer_delay = computer_delay
        self._strategies: dict[str, Strategy] = {}
        self.tables: dict[int, LiveTable] = {}
        self.by_channel: dict[int, int] = {}

    # -- lookup --------------------------------------------------------------------------------

    def get(self, table_id: int) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None or table.closed:
            raise NoTable("That table is closed.")
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
                log.exception("listener failed for table %s", change.table.id)

    def buy_window_running(self, table: LiveTable) -> bool:
        """Whether buy requests are accepted now (the engine window and our deadline)."""
        game = table.game
        return (
            game is not None
            and game.buy_window_open
            and table.buy_deadline is not None
            and self.clock() < table.buy_deadline
        )

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
        self._notify(Change(table, "lobby", actor=host_id))
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat_of(user_id) is not None:
                raise UserError("You already have a seat at this table.")
            rules = rules_for(dict(table.record.options))
            if len(table.record.seats) >= rules.players[1]:
                raise UserError(f"The table is full ({rules.players[1]} players).")
            seats = (*table.record.seats, Seat(user_id, name))
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def leave(self, table_id: int, user_id: int) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat_of(user_id) is None:
                raise UserError("You don't have a seat at this table.")
            if user_id == table.record.host_id:
                raise UserError("The host can't leave; use `/shanghai end` to close the table.")
            seats = tuple(s for s in table.record.seats if s.user_id != user_id)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def add_computer(self, table_id: int, user_id: int, level: str) -> LiveTable:
        """The host seats a computer player of ``level`` ('easy' or 'normal')."""
        if level not in ("easy", "normal"):
            raise UserError("Computer players are 'easy' or 'normal'.")
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("add a computer player")
            rules = rules_for(dict(table.record.options))
            if len(table.record.seats) >= rules.players[1]:
                raise UserError(f"The table is full ({rules.players[1]} players).")
            taken = {s.user_id for s in table.record.seats}
            # Negative ids: Discord snowflakes are positive, so a computer never collides.
            number = next(n for n in range(1, 100) if -n not in taken)
            seat = Seat(-number, f"Computer {number} ({level})", is_computer=True, level=level)
            seats = (*table.record.seats, seat)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    async def remove_computer(self, table_id: int, user_id: int) -> LiveTable:
        """The host removes the last computer seated in the lobby."""
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("remove a computer player")
            computers = [s for s in table.record.seats if s.is_computer]
            if not computers:
                raise UserError("There is no computer player at this table.")
            gone = computers[-1]
            seats = tuple(s for s in table.record.seats if s is not gone)
            await self.store.update_lobby(table.id, seats, dict(table.record.options))
            table.record = replace(table.record, seats=seats)
        self._notify(Change(table, "lobby", actor=user_id))
        return table

    def _require_lobby(self, table: LiveTable) -> None:
        if table.game is not None:
            raise WrongPhase("The game has already started.")

    def _table_seed(self, table: LiveTable) -> int:
        if self.seed is None:
            return random.SystemRandom().randrange(2**62)
        return self.seed * 1_000_003 + table.id

    async def start(self, table_id: int, user_id: int) -> LiveTable:
        """Deal the first hand; host only, with enough players."""
        table = self.get(table_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.record.host_id:
                raise NotHost("start the game")
            rules = rules_for(dict(table.record.options))
            low = rules.players[0]
            count = len(table.record.seats)
            if count < low:
                raise UserError(f"This game needs at least {low} players; {count} seated.")
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
            table.buy_deadline, table.turn_deadline, table.away = buy_deadline, turn_deadline, away
            self._arm(table)
        self._notify(Change(table, "start", actor=user_id, new_turn=True))
        return table

    async def set_message(self, table: LiveTable, message_id: int | None) -> None:
        await self.store.set_message(table.id, message_id)
        table.record = replace(table.record, message_id=message_id)

    async def end(self, table_id: int, user_id: int | None) -> LiveTable:
        """Close the table without results (the host or a moderator asked)."""
        table = self.get(table_id)
        async with table.lock:
            await self.store.end_table(table.id)
            self._forget(table)
        self._notify(Change(table, "end", actor=user_id))
        return table

    async def abandon(self, table_id: int, reason: str) -> LiveTable | None:
        """End a table whose channel or server is gone: recorded as ended, no results, so
        nothing reaches the leaderboard and no seat is played on to a phantom winner. Returns
        the table, or ``None`` if it was not open. Harmless to call twice."""
        table = self.tables.get(table_id)
        if table is None or table.closed:
            return None
        async with table.lock:
            if table.closed:
                return None
            try:
                await self.store.end_table(table.id)
            except Exception as error:  # a restart ends it again: its channel is still gone
                log.warning("table %s: could not record its end (%s)", table.id, error)
            self._forget(table)
        log.info("table %s abandoned: %s", table.id, reason)
        self._notify(Change(table, "abandoned"))
        return table

    # -- playing ---------------------------------------------------------------------------------

    def _playing(self, table: LiveTable) -> Game:
        if table.closed:
            raise NoTable("That table is closed.")
        if table.game is None:
            raise WrongPhase("The game hasn't started yet.")
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

    async def act(self, table_id: int, user_id: int, action: Action) -> ActResult:
        """Apply one player's action: lock, apply, commit, notify; raises ``ValueError``s."""
        table = self.get(table_id)
        async with table.lock:
            return await self._act_locked(table, user_id, action)

    async def _act_locked(self, table: LiveTable, user_id: int, action: Action) -> ActResult:
        """``act`` with the table's lock held (computer seats come in here too)."""
        game = self._playing(table)
        seat = self._seat(table, user_id)
        player = str(user_id)
        present_changed = self._mark_present(table, seat)
        if (
            isinstance(action, RequestBuy)
            and not self.buy_window_running(table)
            and game.buy_window_open
            and seat != game.current
        ):
            raise IllegalAction("The buy window has closed: the upcard can't be bought now")
        if self._must_hold(table, seat, action):
            if table.pending is not None:
                return ActResult([], table.version, pending=table.pending.future)
            if not game.is_legal(player, action):
                game.apply(player, action)  # raises the engine's reason; nothing changes
            future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
            table.pending = Pending(seat, action, future)
            if not self._anyone_may_still_buy(table):
                result = await self._run_pending(table)
                return replace(result, pending=None)
            self._arm(table)
            if present_changed:
                self._notify(Change(table, "away"))
            return ActResult([], table.version, pending=future)
        superseded = table.pending if table.pending is not None and seat == game.current else None
        events = game.apply(player, action)
        if superseded is not None:
            table.pending = None
        result = await self._commit(table, user_id, action, events)
        if superseded is not None and not superseded.future.done():
            superseded.future.set_result(replace(result, superseded=True))
        if (
            isinstance(action, RequestBuy)
            and table.pending is not None
            and not self._anyone_may_still_buy(table)
        ):
            await self._run_pending(table)
        return result

    def _must_hold(self, table: LiveTable, seat: int, action: Action) -> bool:
        """P's draw waits while the window runs; so does a down P's take when buys beat it."""
        game = table.game
        assert game is not None
        if seat != game.current or not self.buy_window_running(table):
            return False
        if isinstance(action, DrawStock):
            return True
        return (
            isinstance(action, TakeUpcard)
            and not game.rules.down_player_blocks_buy
            and game.view(None).seats[seat].is_down
        )

    def _anyone_may_still_buy(self, table: LiveTable) -> bool:
        """Whether a seat that has not asked yet could still ask to buy the upcard."""
        game = table.game
        assert game is not None
        request = RequestBuy()
        return any(
            game.is_legal(player, request)
            for seat, player in enumerate(game.players)
            if seat != game.current
        )

    async def _run_pending(self, table: LiveTable) -> ActResult:
        """Submit the held draw now (the window ended or nobody else can buy)."""
        pending = table.pending
        assert pending is not None and table.game is not None
        table.pending = None
        game = table.game
        player = game.players[pending.seat]
        try:
            events = game.apply(player, pending.action)
        except IllegalAction as error:
            # The state moved on (e.g. P took the upcard meanwhile); tell the waiter.
            if not pending.future.done():
                pending.future.set_exception(error)
            raise
        result = await self._commit(table, int(player), pending.action, events)
        if not pending.future.done():
            pending.future.set_result(result)
        return result

    async def kick(self, table_id: int, user_id: int) -> LiveTable:
        """The host removes a player: from the lobby, or (in a game) the bot plays the seat."""
        table = self.get(table_id)
        if table.game is None:
            return await self.leave(table_id, user_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if user_id == table.record.host_id:
                raise UserError("The host can't remove themself; use `/shanghai end`.")
            away = list(table.away)
            away[seat] = AwayState(REMOVED, True)
            await self.store.set_away(table.id, away)  # saved before the host is answered
            table.away = away
            self._arm(table)
        self._notify(Change(table, "away"))
        return table

    def _mark_present(self, table: LiveTable, seat: int) -> bool:
        """A player who acts is no longer away (the change is saved with the next action)."""
        if seat < len(table.away) and table.away[seat].timeouts >= REMOVED:
            raise UserError("The host removed you from this game; the bot plays your seat.")
        if seat < len(table.away) and table.away[seat] != AwayState():
            table.away[seat] = AwayState()
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
                raise UserError("The host removed you from this game; the bot plays your seat.")
            async with table.lock:
                if self._mark_present(table, seat):
                    self._arm(table)
                    self._notify(Change(table, "away"))

    async def _commit(
        self,
        table: LiveTable,
        user_id: int,
        action: Action,
        events: list[Event],
        *,
        kind: ChangeKind = "act",
        auto_seat: int | None = None,
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
            table.buy_deadline = now + buy_seconds
            table.buy_asked = set()
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
                    self._results(table),
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
            log.warning("table %s saves again after %d failed timer run(s)", table.id, failures)
        result = ActResult(events, table.version)
        if game.is_over:
            self._forget(table)
        else:
            self._arm(table)
        if notify:
            self._notify(
                Change(
                    table,
                    kind,
                    events,
                    actor=user_id,
                    auto_seat=auto_seat,
                    auto_actions=[action] if auto_seat is not None else [],
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

    def _results(self, table: LiveTable) -> list[ResultRow]:
        game = table.game
        assert game is not None
        totals = game.totals
        winners = set(game.winner_seats)
        rows = []
        for index, seat in enumerate(table.record.seats):
            if seat.is_computer:
                continue
            rows.append(
                ResultRow(
                    user_id=seat.user_id,
                    name=seat.name,
                    seat=index,
                    total=totals[index],
                    is_winner=index in winners,
                    deals_out=game.deals_out[index],
                    blind_outs=game.blind_outs[index],
                    buys_used=game.buys_total[index],
                )
            )
        return rows

    # -- timers ----------------------------------------------------------------------------------

    def _next_wake(self, table: LiveTable) -> float | None:
        game = table.game
        if game is None or game.is_over or table.closed:
            return None
        times = [t for t in (table.buy_deadline, table.turn_deadline) if t is not None]
        current_away = table.away[game.current].away if game.current < len(table.away) else False
        if current_away and not table.is_computer(game.current):
            times.append(self.clock() if not self.buy_window_running(table) else table.buy_deadline)  # type: ignore[arg-type]
        due = table.auto_due if table.auto_due is not None else self.clock()
        if table.is_computer(game.current):
            # A computer's turn has no deadline: only the buy window and its delay count.
            times = [t for t in (table.buy_deadline,) if t is not None]
            window_end = table.buy_deadline
            if game.step == "draw" and window_end is not None and self.buy_window_running(table):
                due = max(due, window_end)
            times.append(due)
        elif self._computer_buyers(table):
            times.append(due)
        return table.backoff.hold(min(times)) if times else None

    def _computer_buyers(self, table: LiveTable) -> list[int]:
        """Computer seats not yet asked whether they want the upcard on offer now."""
        game = table.game
        if game is None or not self.buy_window_running(table):
            return []
        request = RequestBuy()
        return [
            seat
            for seat, player in enumerate(game.players)
            if table.is_computer(seat)
            and seat != game.current
            and seat not in table.buy_asked
            and game.is_legal(player, request)
        ]

    def _strategy(self, level: str) -> Strategy:
        strategy = self._strategies.get(level)
        if strategy is None:
            strategy = self._strategies[level] = make_strategy(level)
        return strategy

    def _rng(self, table: LiveTable, seat: int) -> random.Random:
        if self.seed is None:
            return random.Random()
        return random.Random(f"{self.seed}:{table.id}:{table.version}:{seat}")

    def _strategy_action(self, table: LiveTable, seat: int, level: str) -> Action | None:
        """The strategy's move for ``seat`` from that seat's own view and legal actions only;
        the simple rule of ``choose_auto_action`` if the strategy fails."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        legal = game.legal_actions(player)
        if not legal:
            return None
        try:
            return self._strategy(level).choose(game.view(player), legal, self._rng(table, seat))
        except Exception:
            log.exception("strategy %s failed at table %s; using the simple rule", level, table.id)
            return choose_auto_action(game, player)

    async def _computer_buys(self, table: LiveTable) -> None:
        """Each computer seat that may buy the upcard decides; buyers ask like people do."""
        game = table.game
        assert game is not None
        table.auto_due = self.clock() + self.computer_delay  # no busy loop if this fails
        for seat in self._computer_buyers(table):
            if not self.buy_window_running(table):
                break
            table.buy_asked.add(seat)
            player = game.players[seat]
            level = table.record.seats[seat].level or "normal"
            try:
                wants = self._strategy(level).wants_buy(game.view(player), self._rng(table, seat))
            except Exception:
                log.exception("wants_buy failed at table %s", table.id)
                wants = False
            if wants:
                try:
                    await self._act_locked(table, int(player), RequestBuy())
                except ValueError as error:
                    log.info("computer buy refused at table %s: %s", table.id, error)

    async def _computer_move(self, table: LiveTable, seat: int) -> None:
        """One action of a computer seat's turn, through the same path as a click."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        level = table.record.seats[seat].level or "normal"
        table.auto_due = self.clock() + self.computer_delay  # no busy loop if this fails
        action = self._strategy_action(table, seat, level)
        if action is None:
            return
        try:
            await self._act_locked(table, int(player), action)
        except ValueError as error:
            log.warning("computer move %s refused at table %s: %s", action, table.id, error)
            fallback = choose_auto_action(game, player)
            if fallback is not None and fallback != action:
                await self._act_locked(table, int(player), fallback)

    def _arm(self, table: LiveTable) -> None:
        """(Re)start the table's one timer task for its next deadline."""
        old = table.timer
        if old is not None and not old.done() and not table.timer_busy:
            old.cancel()
        when = self._next_wake(table)
        if when is None:
            table.timer = None
            return
        table.timer = asyncio.get_running_loop().create_task(
            self._sleep_until(table, when), name=f"shanghai-table-{table.id}-timer"
        )

    async def _sleep_until(self, table: LiveTable, when: float) -> None:
        delay = when - self.clock()
        if delay > 0:
            await asyncio.sleep(delay)
        me = asyncio.current_task()
        async with table.lock:
            if table.timer is not me or table.closed:
                return
            table.timer_busy = True
            try:
                await self._on_timer(table)
            except Exception:
                if table.backoff.failed(self.clock()):
                    log.exception("timer failed for table %s; retrying with back-off", table.id)
            finally:
                table.timer_busy = False
                if table.timer is me:
                    table.timer = None
                    if not table.closed:
                        self._arm(table)

    async def run_due(self, table_id: int) -> None:
        """Do now whatever the table's deadlines ask for at ``clock()`` (tests, benchmarks)."""
        table = self.get(table_id)
        async with table.lock:
            await self._on_timer(table)
            self._arm(table)

    async def _on_timer(self, table: LiveTable) -> None:
        """Whatever is due now: close the buy window, run a held draw, play for the absent."""
        game = table.game
        if game is None or game.is_over:
            return
        now = self.clock()
        if table.buy_deadline is not None and now >= table.buy_deadline:
            table.buy_deadline = None
            if table.pending is not None:
                await self._run_pending(table)
                seat = game.current
                if game.step == "play" and table.away[seat].away and not table.is_computer(seat):
                    await self._autoplay(table, seat, timeout=False)
            else:
                self._notify(Change(table, "window"))
            return
        due = table.auto_due if table.auto_due is not None else now
        if now >= due and self._computer_buyers(table):
            await self._computer_buys(table)
            if table.closed or game.is_over:
                return
        seat = game.current
        if table.is_computer(seat):
            waiting = game.step == "draw" and self.buy_window_running(table)
            if now >= due and not waiting:
                await self._computer_move(table, seat)
            return
        if table.turn_deadline is not None and now >= table.turn_deadline:
            state = table.away[seat]
            timeouts = state.timeouts + 1
            table.away[seat] = AwayState(timeouts, state.away or timeouts >= self.away_after)
            await self._autoplay(table, seat, timeout=True)
            return
        if table.away[seat].away and not self.buy_window_running(table):
            await self._autoplay(table, seat, timeout=False)

    async def _autoplay(self, table: LiveTable, seat: int, *, timeout: bool) -> None:
        """Play the rest of ``seat``'s turn: decline the upcard, draw, discard (Part E)."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        if table.pending is not None and table.pending.seat == seat:
            await self._run_pending(table)
        for _ in range(40):
            if table.closed or game.is_over or game.current != seat:
                break
            action = self._strategy_action(table, seat, "normal")
            if action is None:
                break
            events = game.apply(player, action)
            await self._commit(
                table,
                int(player),
                action,
                events,
                kind="timeout" if timeout else "away",
                auto_seat=seat,
            )

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
            self._remember(table)
            self._arm(table)
            restored.append(table)
        return restored

    async def close(self) -> None:
        for table in list(self.tables.values()):
            if table.timer is not None:
                table.timer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.timer


def choose_auto_action(game: Game, player: str) -> Action | None:
    """The fallback move for a seat the bot plays when its strategy fails: the engine's easy
    strategy (draw, lay down when it can, discard the dearest card that helps least), from that
    seat's own view; failing even that, the first legal action."""
    legal = game.legal_actions(player)
    if not legal:
        return None
    try:
        return EasyStrategy(buy_chance=0).choose(game.view(player), legal, random.Random(0))
    except Exception:
        log.exception("the easy strategy failed too; playing the first legal action")
        return legal[0]


__all__ = [
    "ActResult",
    "Change",
    "Listener",
    "LiveTable",
    "TableExists",
    "TableService",
    "choose_auto_action",
    "rules_for",
]

_ = BuyAwarded, GameEnded  # re-exported event names used by listeners
