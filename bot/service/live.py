"""What the table service holds in memory for one open table, and what it tells others.

Terminology (shared by every file of ``bot/service/``):
- *buy window*: the seconds after a discard (or the first upcard) in which others may ask to
  buy it. The engine keeps the upcard live until the in-turn player P draws; the service closes
  the window for requests at the window's deadline, or earlier once every seat that could still ask
  has decided (asked, passed, or cannot ask: computers and away seats decide at once).
- *pending draw* (held draw): P asked to draw from the stock while the window is running. The
  draw is held (RULES.md Part E) and submitted when the window ends, so that buy requests can
  still come in; the engine then awards the upcard by seat priority, whoever clicked first.
  It is saved with the deadlines, so a restart keeps it.
- *timeout*: P's ``turn_deadline`` passed; the bot plays the turn with the ``normal``
  strategy. After ``away_after`` timeouts in a row the seat is *away* and played at once.
- *computer seat*: a ``Seat(is_computer=True, level=...)`` with a negative id.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from bot.ground.backoff import Backoff
from bot.service.buy_window import BuyWhy, BuyWindow
from bot.service.nudges import TurnNudges
from data.errors import StoreBusy
from data.records import AwayState, EndStatus, TablePlace, TableRecord
from data.store import PLAYER_WAIT_SECONDS
from engine import Game, Rules
from engine.actions import Action
from engine.events import Event
from engine.view import PlayerView

if TYPE_CHECKING:
    from bot.service.snapshot import SeatSnapshot
    from bot.service.table_snapshot import TableSnapshot

Clock = Callable[[], float]

#: How long a click waits for its table's lock: the table's timer may hold it while it waits out
#: a locked database (up to half a minute), but Discord gives a click 3 s for its answer.
CLICK_WAIT_SECONDS = PLAYER_WAIT_SECONDS
ChangeKind = Literal[
    "lobby",
    "start",
    "act",
    "timeout",
    "window",
    "restore",
    "end",
    "away",
    "left",
    "gone",
    "kick",
    "abandoned",
    "deal",
    "remind",
    "idle_warning",
    "pace",
]

#: ``AwayState.timeouts`` of a seat the host removed: played by the bot for good.
REMOVED = 1_000

#: The table option that draws clubs green and diamonds blue in every picture.
FOUR_COLOUR_OPTION = "four_colour"

#: Options a table may override at /shanghai new, with the types they must have.
TABLE_OPTION_KEYS = ("preset", "buy_seconds", "turn_seconds", "rules")


@dataclass
class LiveTable:
    """One open table in memory: its record, its game, its deadlines and its lock.

    ``TableService`` alone changes these fields (the buy window's through ``BuyWindow``'s
    methods); everyone else reads a ``TableSnapshot`` or a ``SeatSnapshot``."""

    record: TableRecord
    game: Game | None
    version: int
    #: The engine state of ``version`` as the store holds it: a failed commit goes back to it
    #: without reading the database (which may be what failed).
    saved_state: str | None = None
    turn_deadline: float | None = None
    away: list[AwayState] = field(default_factory=list)
    #: Seats the bot plays for good: their player left the game or the host removed them.
    removed: set[int] = field(default_factory=set)
    #: Each seat's buy preference where its player chose one (``buy_window.BuyPref``).
    buy_prefs: dict[int, str] = field(default_factory=dict)
    window: BuyWindow = field(default_factory=BuyWindow)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: When the table next wakes, on the service's clock (``Timers.arm``); None: nothing due.
    alarm: float | None = None
    #: A wake that went off and runs (or waits for the lock); ``timer_busy`` while it works.
    timer: asyncio.Task[None] | None = None
    timer_busy: bool = False
    closed: bool = False
    #: When the next computer (or away) move may be made: a short visible delay after the
    #: last change. Memory only; ``restore`` sets it to now + the delay.
    auto_due: float | None = None
    #: When a person last acted (a computer's or the bot's move doesn't count): a game idle
    #: for ``idle_seconds`` ends as abandoned. Memory only; ``restore`` takes the row's
    #: last update.
    last_person: float = 0.0
    #: Until when the last deal's recap stands alone before the next deal is shown (the
    #: engine has dealt it already; its deadlines start at this moment). Memory only: the
    #: stored deadlines include the pause, so a table restored mid-pause simply resumes.
    pause_until: float | None = None
    #: Failed timer runs in a row (a disk that refuses writes): the next run waits.
    backoff: Backoff = field(default_factory=Backoff)
    #: This turn's nudge and skip votes (``nudges.TurnNudges``; memory only).
    nudges: TurnNudges = field(default_factory=TurnNudges)
    #: The people who asked to go on at another pace, by the pace they asked for (memory
    #: only: ``relaxed.vote_pace``, saved by ``Committer.save_pace``).
    pace_votes: dict[str, set[int]] = field(default_factory=dict)
    #: The turn's hours the last of them proposed, for a relaxed pace.
    pace_hours: int | None = None
    #: Views of ``game`` as it is now, each built once while the lock is held: a click's
    #: snapshots, the buy window's questions and the listener's screens share them. Dropped
    #: at each change of the game and whenever the lock is taken or given back, so a game
    #: changed from outside (a test setting a hand) is never seen through an old view.
    views: dict[str | None, PlayerView] = field(default_factory=dict, compare=False, repr=False)
    views_of: Game | None = field(default=None, compare=False, repr=False)
    #: Each seat's last answer to "does the upcard help this hand" and what it was asked
    #: about (``buy_window.buy_why_seat``): the same hand and upcard are not searched twice.
    helps: dict[int, tuple[object, BuyWhy | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: The events of the last change told to the listener and the screens it was told with
    #: (by user id), while nothing changed since: a click's answer is its screen from there.
    told: tuple[Sequence[Event], dict[int, SeatSnapshot]] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def id(self) -> int:
        return self.record.id

    def view(self, player: str | None) -> PlayerView:
        """``game.view(player)``, built once per state while the lock is held."""
        game = self.game
        assert game is not None
        if not self.lock.locked():
            return game.view(player)
        if self.views_of is not game:
            self.views.clear()
            self.views_of = game
        view = self.views.get(player)
        if view is None:
            view = self.views[player] = game.view(player)
        return view

    def game_changed(self) -> None:
        """The game changed (an action applied, memory put back, the lock taken or given
        back): views built before are out of date."""
        self.views.clear()
        self.views_of = None
        self.told = None

    @contextlib.asynccontextmanager
    async def held_for_a_click(self) -> AsyncIterator[None]:
        """The table's lock for a person's click: refused as busy (``StoreBusy``, nothing
        changed) after ``CLICK_WAIT_SECONDS`` rather than waiting behind a timer that waits out
        a locked database, so the click is answered before Discord gives up on it."""
        try:
            async with asyncio.timeout(CLICK_WAIT_SECONDS):
                await self.lock.acquire()
        except TimeoutError:
            raise StoreBusy() from None
        self.game_changed()
        try:
            yield
        finally:
            self.game_changed()
            self.lock.release()

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """The table's lock for the bot's own work (a timer, a departure, shutting a table):
        the views kept under it are dropped on taking it and on giving it back."""
        async with self.lock:
            self.game_changed()
            try:
                yield
            finally:
                self.game_changed()

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
        return [i for i in range(len(self.record.seats)) if self.is_away(i)]

    def is_computer(self, seat: int) -> bool:
        seats = self.record.seats
        return 0 <= seat < len(seats) and seats[seat].is_computer

    def is_away(self, seat: int) -> bool:
        """Played by the bot now: marked away after timeouts, or removed for good."""
        return seat in self.removed or (seat < len(self.away) and self.away[seat].away)

    def stored_away(self) -> list[AwayState]:
        """The seats' away flags as the store keeps them (one JSON object per seat): a removed
        seat is ``AwayState(REMOVED, True)`` and the held draw rides on its seat, so a restart
        gets both back (``restore.revive``)."""
        held = self.window.held
        held_seat = None if held is None else held.seat
        prefs = self.buy_prefs
        return [
            state.stored(
                held=str(held.action) if held is not None and seat == held_seat else state.held,
                buy=prefs.get(seat, state.buy),
                removed_as=REMOVED if seat in self.removed else None,
            )
            for seat, state in enumerate(self.away)
        ]

    def memento(self) -> Memento:
        """What a failed commit restores (see ``Memento``)."""
        return Memento(
            self.record,
            self.version,
            self.turn_deadline,
            list(self.away),
            set(self.removed),
            dict(self.buy_prefs),
            self.window.copy(),
            self.auto_due,
            self.last_person,
        )

    def go_back(self, memento: Memento, *, game_moved: bool) -> None:
        """Undo everything since ``memento``: the engine state from ``saved_state`` when the
        game had moved, every other field from the memento. Nothing is read from the store."""
        self.game_changed()
        if game_moved:
            self.game = Game.from_json(self.saved_state) if self.saved_state else None
        (
            self.record,
            self.version,
            self.turn_deadline,
            self.away,
            self.removed,
            self.buy_prefs,
            self.window,
            self.auto_due,
            self.last_person,
        ) = (
            memento.record,
            memento.version,
            memento.turn_deadline,
            memento.away,
            memento.removed,
            memento.buy_prefs,
            memento.window,
            memento.auto_due,
            memento.last_person,
        )


@dataclass(frozen=True)
class Memento:
    """A table's fields before an action, so that a save the store refused leaves memory
    exactly as it was before the click (memory is never ahead of the database)."""

    record: TableRecord
    version: int
    turn_deadline: float | None
    away: list[AwayState]
    removed: set[int]
    buy_prefs: dict[int, str]
    window: BuyWindow
    auto_due: float | None
    last_person: float


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

    table: TableSnapshot
    kind: ChangeKind
    events: list[Event] = field(default_factory=list)
    actor: int | None = None
    #: Seat the bot played for (timeout or away), if any.
    auto_seat: int | None = None
    auto_actions: list[Action] = field(default_factory=list)
    new_turn: bool = False
    #: The seat a ``left``/``kick`` change is about.
    seat: int | None = None
    #: Why the table ended, for an ``end`` the bot decided itself (a lobby nobody started, a
    #: game nobody played).
    note: str | None = None
    #: Set while the deal's recap stands alone: the next deal is shown at this moment (a
    #: ``deal`` change), so nothing of it is drawn or pinged before.
    pause_until: float | None = None
    #: The screens of the players the listener follows (``Listener.watched``), by user id,
    #: built under the table's lock with the change.
    seats: dict[int, SeatSnapshot] = field(default_factory=dict)


class Listener(Protocol):
    def table_changed(self, change: Change) -> None:
        """Called after each committed change; must not block (schedule work instead)."""

    def watched(self, table_id: int) -> Collection[int]:
        """The user ids whose screens the listener wants with each change of this table."""


class Store(Protocol):  # the parts of data.Store this service uses
    async def create_table(self, *args: Any, **kwargs: Any) -> TableRecord: ...
    async def get_table(self, table_id: int) -> TableRecord | None: ...
    async def open_tables(self) -> Sequence[TableRecord]: ...
    async def open_places(self) -> Sequence[TablePlace]: ...
    async def seated_open_tables(self, guild_id: int, user_id: int) -> Sequence[int]: ...
    async def update_lobby(self, *args: Any, **kwargs: Any) -> None: ...
    async def set_message(self, table_id: int, message_id: int | None) -> Any: ...
    async def move_to_thread(self, table_id: int, thread_id: int) -> None: ...
    async def start_game(self, *args: Any, **kwargs: Any) -> Any: ...
    async def save_action(self, *args: Any, **kwargs: Any) -> int: ...
    async def finish_game(self, *args: Any, **kwargs: Any) -> Any: ...
    async def end_table(self, table_id: int, status: EndStatus = "ended") -> Any: ...
    async def set_away(self, table_id: int, away: Sequence[AwayState]) -> None: ...
    async def set_pace(self, *args: Any, **kwargs: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class DealtAlike:
    """What deals a table exactly as every other table given the same value and as many
    seats (a duplicate event's round): the game secret, the seed that picks the first dealer,
    and how the stock is drawn (``Rules.stock_draws``: one lane a seat, so that each seat's
    draws match too; rounds dealt before lanes existed draw from one shared stock)."""

    secret: bytes
    dealer_seed: int
    stock_draws: Literal["shared", "per_seat"]


def rules_for(options: dict[str, Any]) -> Rules:
    """The engine rules of a table from its stored options."""
    rules = Rules.preset(str(options.get("preset", "standard")))
    overrides = dict(options.get("rules") or {})
    return rules.with_options(**overrides) if overrides else rules


class Listeners:
    """Several listeners as one: the table message's publisher and the hands' follower."""

    def __init__(self, *listeners: Listener) -> None:
        self.listeners = listeners

    def table_changed(self, change: Change) -> None:
        for listener in self.listeners:
            listener.table_changed(change)

    def watched(self, table_id: int) -> Collection[int]:
        return {user for listener in self.listeners for user in listener.watched(table_id)}
