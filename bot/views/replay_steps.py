"""The finished games the replay message steps through: rebuilt from the store, kept a while.

A replay is played again by the engine (``engine.replay``) from the table's stored state and
action log, so what the message shows is what the rules make of the log. Only what a screen
may draw is kept of each step: the spectators' view, the events, the hands a deal's end laid
open, and each seat's own hand (shown to that player alone, by "Show my hand"). Rebuilding a
long game takes a few tenths of a second of CPU, so it runs in a worker thread and the last
few replays are kept in a small LRU (``ReplayCache``), one per process: a click that steps
through a game that is being watched answers from memory.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.ground.errors import UserError
from bot.i18n import Language, table_language
from bot.service.live import FOUR_COLOUR_OPTION
from bot.service.results import record_of_table
from data.records import TableRecord
from data.store import Store
from engine.actions import Action
from engine.cards import Card
from engine.events import DealStarted, Event
from engine.record import GameRecord
from engine.replay import replay
from engine.view import PlayerView

#: How many replays one process keeps (a 4-seat, 10-deal game of 3,300 actions keeps about
#: 11 MB: a spectator's view and four hands per step).
CACHE_SIZE = 8


def round_playing() -> UserError:
    """The refusal of a game whose duplicate round other tables are still playing: its
    cards are theirs too, so nothing of it shows before the round's last table ends."""
    return UserError(
        "Other tables of this event are still playing the same deals: this game is shown "
        "when the round's last table ends.",
        code="event.round_playing",
    )


def no_such_game(table_id: int) -> UserError:
    """The refusal of a number that names no finished game of this server."""
    return UserError(
        f"There is no finished game #{table_id} on this server.",
        code="no_such_game",
        table=table_id,
    )


@dataclass(frozen=True, slots=True)
class Step:
    """The game after ``index`` actions, as much of it as a screen may draw."""

    index: int
    seat: int | None
    action: Action | None
    events: tuple[Event, ...]
    #: The spectators' view: what everyone at the table saw.
    public: PlayerView
    #: Each seat's own hand, by seat (for that player's eyes only).
    hands: tuple[tuple[Card, ...], ...]
    #: The hands a deal that ended at this step laid open, by seat; empty at other steps.
    revealed: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class GameReplay:
    """One finished game, step by step."""

    table: TableRecord
    record: GameRecord
    steps: tuple[Step, ...]
    #: The step at which each deal (each attempt, a void deal's redeal too) starts.
    deal_starts: tuple[int, ...]
    #: The other games dealt the same cards (a duplicate event's round), by number.
    same_deals: tuple[int, ...] = ()

    @property
    def table_id(self) -> int:
        return self.table.id

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.table.seats]

    @property
    def language(self) -> Language:
        return table_language(self.table.options)

    @property
    def four_colour(self) -> bool:
        return bool(self.table.options.get(FOUR_COLOUR_OPTION, False))

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def step(self, index: int) -> Step:
        """The step ``index``, held to the game's first and last."""
        return self.steps[max(0, min(index, self.last))]

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.table.seats):
            if player.user_id == user_id and not player.is_computer:
                return seat
        return None

    def deal_of(self, index: int) -> int:
        """The position (0-based) in ``deal_starts`` of the deal step ``index`` belongs to."""
        return max(n for n, start in enumerate(self.deal_starts) if start <= index)

    def next_deal(self, index: int) -> int:
        """The first step of the next deal, or the last step from the last deal."""
        later = [start for start in self.deal_starts if start > index]
        return later[0] if later else self.last


def build(table: TableRecord, record: GameRecord) -> GameReplay:
    """Play ``record`` again and keep what the screens draw (CPU work: run it in a thread).
    Raises ``ValueError`` (``ReplayError``) for a record the engine refuses."""
    steps: list[Step] = []
    starts = [0]
    for step in replay(record):
        if step.index and any(isinstance(event, DealStarted) for event in step.events):
            starts.append(step.index)
        hands = tuple(step.view(player).hand or () for player in record.seats)
        steps.append(
            Step(
                step.index,
                step.seat,
                step.action,
                step.events,
                step.view(None),
                hands,
                step.revealed,
            )
        )
    return GameReplay(table, record, tuple(steps), tuple(starts))


class ReplayCache:
    """The last ``size`` replays built, newest last; one build per game at a time."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._replays: OrderedDict[int, GameReplay] = OrderedDict()
        self._building: dict[int, asyncio.Lock] = {}

    def __contains__(self, table_id: int) -> bool:
        return table_id in self._replays

    async def get(
        self,
        store: Store,
        guild_id: int,
        table_id: int,
        before_build: Callable[[], Awaitable[None]] | None = None,
    ) -> GameReplay:
        """The replay of finished game ``table_id`` of guild ``guild_id``. Raises
        ``no_such_game`` for a game of another server, one not finished, or none at all.
        ``before_build`` runs once the game is known to be replayable and is not kept (a
        caller defers its interaction there: a long game takes a second or two to rebuild)."""
        cached = self._replays.get(table_id)
        if cached is not None:
            self._replays.move_to_end(table_id)
            return _checked(cached, guild_id, table_id)
        lock = self._building.setdefault(table_id, asyncio.Lock())
        async with lock:
            try:
                cached = self._replays.get(table_id)
                if cached is None:
                    cached = await self._load(store, guild_id, table_id, before_build)
                    self._replays[table_id] = cached
                    while len(self._replays) > self.size:
                        self._replays.popitem(last=False)
            finally:  # a refused number leaves no lock behind
                self._building.pop(table_id, None)
        return _checked(cached, guild_id, table_id)

    async def _load(
        self,
        store: Store,
        guild_id: int,
        table_id: int,
        before_build: Callable[[], Awaitable[None]] | None,
    ) -> GameReplay:
        table = await store.get_table(table_id)
        if table is None or table.guild_id != guild_id or table.status != "finished":
            raise no_such_game(table_id)
        seated = await store.table_round(table_id)
        if seated is not None and seated.hidden:
            raise round_playing()
        same_deals = () if seated is None else seated.same_deals()
        if before_build is not None:
            await before_build()
        try:
            record = await record_of_table(store, table_id)
            built = await asyncio.to_thread(build, table, record)
            return replace(built, same_deals=same_deals)
        except ValueError:
            raise UserError(
                f"Game #{table_id} cannot be replayed: its stored moves do not replay.",
                code="replay_broken",
                table=table_id,
            ) from None


def _checked(found: GameReplay, guild_id: int, table_id: int) -> GameReplay:
    if found.table.guild_id != guild_id:
        raise no_such_game(table_id)
    return found
