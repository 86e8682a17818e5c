"""A seat's legal plays, computed once per game state and never on the event loop's time.

``Game.legal_actions`` is quick for a hand of 11-15 cards, but a hand piled up under the
``buy_limit: unlimited`` house rule (80 cards at an 8-player table in deal 10) took 0.1-9.5 s
on this machine. Run on the event loop, that froze every table on the bot and
made Discord give up on the click. So the service asks here instead:

- ``ready`` computes them off the event loop, and two askers of the same state share one
  computation: a hand of ``BIG_HAND`` cards or more in a worker process (the game pickled
  to it: the engine alone is imported there),
  since a thread of this process would still share the interpreter lock and the garbage
  collector's pauses with the loop (the loop stalled 100-260 ms at a time on a loaded machine
  while a thread computed an 80-card hand); a smaller hand in a worker thread, on a copy of
  the game (``Game.copy``: the thread never reads a game the loop may change);
- ``known`` and ``now`` answer from what was computed, keyed by the full game state and the
  player (``state_key``), so a snapshot built under the table's lock right after ``ready``
  costs nothing; ``now`` computes on the spot only when nobody prepared the state (tests and
  tools that read a snapshot directly), as before.

The legal plays are a pure function of the game state, so a key hit is always right, and a
state that changed (a test that set a hand by hand included) is simply a miss. The key is the
state's fields themselves, not their JSON: serialising the whole game for every look-up cost
more than the look-ups saved.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.service.live import LiveTable
from engine import Game
from engine.actions import Action

log = logging.getLogger("bot.service")

Plays = tuple[Action, ...]

#: States remembered (each a few dozen actions): enough for every table whose player is
#: thinking right now on a busy bot, small enough to be nothing in memory.
KEEP = 2048
#: A hand this big may take long over its legal plays (11-15 cards take milliseconds; the
#: 80 of an unlimited-buys table up to seconds): a click on it is deferred at once, and its
#: plays are computed in the worker process.
BIG_HAND = 24


#: Fields of a ``Game`` that no legal play depends on: caches (they never change an answer),
#: and the record of what was played and scored (the legal moves never read them; hashing a
#: deal's whole history on every look-up is most of a key's cost).
NOT_STATE = frozenset(
    {
        "contract_memos",
        "_seat_of",
        "history",
        "score_sheet",
        "deals_out",
        "blind_outs",
        "buys_total",
        "winner_seats",
    }
)

StateKey = tuple[object, ...]


def _frozen(value: object) -> object:
    """A game field as a hashable value: its lists (the hands: lists of lists) as tuples."""
    if type(value) is list:
        if value and type(value[0]) is list:
            return tuple(map(tuple, value))
        return tuple(value)
    return value


def state_key(game: Game, player: str) -> StateKey:
    """``game``'s whole state and ``player`` as one hashable value: equal keys, equal legal
    plays. Every field of the game but ``NOT_STATE`` is in it (lists as tuples; cards and
    melds are immutable values), so a field the engine adds later is covered without a change
    here."""
    fields = vars(game)
    return (
        player,
        *((name, _frozen(fields[name])) for name in sorted(fields) if name not in NOT_STATE),
    )


class LegalPlays:
    """Legal plays by game state: remembered, and computed off the event loop when asked."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._known: OrderedDict[StateKey, Plays] = OrderedDict()
        self._running: dict[StateKey, asyncio.Future[Plays]] = {}
        #: Computations run in the worker process, a worker thread, and on the event loop
        #: (tests and tools that read a snapshot directly).
        self.in_process = 0
        self.threaded = 0
        self.inline = 0

    def known(self, game: Game, player: str, key: StateKey | None = None) -> Plays | None:
        """The legal plays of this state if they were computed, else None (nothing is run)."""
        key = state_key(game, player) if key is None else key
        plays = self._known.get(key)
        if plays is not None:
            self._known.move_to_end(key)
        return plays

    def now(self, game: Game, player: str) -> Plays:
        """The legal plays of this state: remembered, or computed here and now."""
        key = state_key(game, player)
        plays = self.known(game, player, key)
        if plays is None:
            self.inline += 1
            plays = self._remember(key, tuple(game.legal_actions(player)))
        return plays

    async def ready(self, game: Game, player: str) -> Plays:
        """The legal plays of ``game``'s state as it is at this call, computed in a worker
        thread on a copy taken now (so ``game`` may change meanwhile); the state's next
        ``known`` or ``now`` answers at once."""
        key = state_key(game, player)
        plays = self.known(game, player, key)
        if plays is not None:
            return plays
        running = self._running.get(key)
        if running is None:
            if len(game.hand_of(player)) >= BIG_HAND:
                work = self._in_process(key, game.copy(), player)
            else:
                work = self._in_thread(key, game.copy(), player)
            running = asyncio.ensure_future(work)
            self._running[key] = running
        return await asyncio.shield(running)

    async def _in_thread(self, key: StateKey, game: Game, player: str) -> Plays:
        try:
            self.threaded += 1
            plays = await asyncio.to_thread(game.legal_actions, player)
            return self._remember(key, tuple(plays))
        finally:
            self._running.pop(key, None)

    async def _in_process(self, key: StateKey, game: Game, player: str) -> Plays:
        """In the worker process; in a thread after all if the process can't be had."""
        try:
            loop = asyncio.get_running_loop()
            try:
                plays = await loop.run_in_executor(_worker(), Game.legal_actions, game, player)
            except (BrokenProcessPool, OSError, RuntimeError) as error:
                log.warning("legal plays: no worker process (%s); in a thread", error)
                _drop_worker()
                return await self._in_thread(key, game, player)
            self.in_process += 1
            return self._remember(key, tuple(plays))
        finally:
            self._running.pop(key, None)

    def _remember(self, key: StateKey, plays: Plays) -> Plays:
        self._known[key] = plays
        self._known.move_to_end(key)
        while len(self._known) > self.keep:
            self._known.popitem(last=False)
        return plays


_pool: ProcessPoolExecutor | None = None


def _worker() -> Executor:
    """The one worker process, started the first time a big hand needs it ("spawn": a fresh
    interpreter, not a fork of this one with its threads and connections)."""
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return _pool


def _drop_worker() -> None:
    global _pool
    pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def shutdown() -> None:
    """Stop the worker process (the bot closing)."""
    _drop_worker()


#: The process's one store of legal plays (the game state is the key, so tables, services
#: and restarts may share it).
LEGAL = LegalPlays()


async def prepare(table: LiveTable, user_id: int) -> None:
    """Compute ``user_id``'s legal plays at ``table`` off the event loop when they are to move
    (their snapshot needs them); nothing when it is not their turn or already known."""
    game = table.game
    seat = table.seat_of(user_id)
    if game is None or seat is None or table.closed or game.is_over:
        return
    if game.current != seat or seat in table.removed:
        return
    await LEGAL.ready(game, str(user_id))


def needs_time(table: LiveTable | None, user_id: int) -> bool:
    """Whether a click of ``user_id`` at ``table`` is likely to pass a second: its table's
    lock is held (a timer, a slow write), or the seat is to move with a big hand (almost
    every click there changes the state, whose legal plays then take time, or searches the
    hand, like the Hint). Cheap: nothing is computed here."""
    if table is None or table.closed:
        return False
    if table.lock.locked():
        return True
    game = table.game
    seat = table.seat_of(user_id)
    if game is None or seat is None or game.is_over or game.current != seat:
        return False
    return len(game.hand_of(str(user_id))) >= BIG_HAND
