"""Computer seats: which move a computer (or a seat the bot plays) makes, and its buys.

A computer decides from that seat's own ``PlayerView`` and legal actions only, with the
strategy of its level (``engine.players.strategy``); ``TableService`` applies what this file
chooses through the same path as a click. Buys are decided as soon as a window opens (a
computer never holds a window open); a turn's moves wait ``computer_delay`` between them
so people can follow. The expert searches for up to its budget per decision, so its
decisions run in a worker thread (``asyncio.to_thread``) on a view taken under the table's
lock, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from bot.ground.logs import at_table
from bot.service.legal_plays import LEGAL
from bot.service.live import LiveTable
from engine import Game
from engine.actions import Action
from engine.players.expert import ExpertStrategy
from engine.players.levels import make_strategy
from engine.players.strategy import EasyStrategy, Strategy
from engine.view import PlayerView

log = logging.getLogger("bot.service")

#: Levels whose decisions search (up to a budget) and so run off the event loop.
SEARCHING_LEVELS = frozenset({"expert"})
T = TypeVar("T")


class ComputerSeats:
    """The strategies of one service, and the moves they choose for its tables' seats.

    It decides and returns; ``TableService`` applies what it returns through its one commit,
    so a computer's move takes exactly the path of a click."""

    def __init__(self, seed: int | None) -> None:
        self.seed = seed
        self._strategies: dict[str, Strategy] = {}

    def strategy(self, level: str) -> Strategy:
        if level == "expert":  # fresh per decision (it runs in a thread), with a clock cap
            return ExpertStrategy(clock=time.perf_counter)
        strategy = self._strategies.get(level)
        if strategy is None:
            strategy = self._strategies[level] = make_strategy(level)
        return strategy

    def rng(self, table: LiveTable, seat: int) -> random.Random:
        if self.seed is None:
            return random.Random()
        return random.Random(f"{self.seed}:{table.id}:{table.version}:{seat}")

    def action(self, table: LiveTable, seat: int, level: str) -> Action | None:
        """The strategy's move for ``seat`` from that seat's own view and legal actions only;
        the simple rule of ``choose_auto_action`` if the strategy fails."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        legal = list(LEGAL.now(game, player))  # computed off the loop by ``move`` / autoplay
        if not legal:
            return None
        try:
            return self.strategy(level).choose(game.view(player), legal, self.rng(table, seat))
        except Exception:
            log.exception("%s: strategy %s failed; using the simple rule", at_table(table), level)
            return choose_auto_action(game, player)

    async def wants_buy(self, table: LiveTable, seat: int) -> bool:
        """Whether computer ``seat`` asks for the upcard on offer (the expert in a thread)."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        level = table.record.seats[seat].level or "normal"
        try:
            if level not in SEARCHING_LEVELS:
                return self.strategy(level).wants_buy(game.view(player), self.rng(table, seat))
            return await self._off_loop(
                level, lambda s, v, r: s.wants_buy(v, r), game.view(player), table, seat
            )
        except Exception:
            log.exception("%s: wants_buy failed", at_table(table))
            return False

    async def move(self, table: LiveTable, seat: int) -> Action | None:
        """The next action of computer ``seat``'s turn (a searching level in a thread)."""
        level = table.record.seats[seat].level or "normal"
        game = table.game
        assert game is not None
        await LEGAL.ready(game, game.players[seat])  # a huge hand's, off the event loop
        if level in SEARCHING_LEVELS:
            return await self._searched_action(table, seat, level)
        return self.action(table, seat, level)

    async def _searched_action(self, table: LiveTable, seat: int, level: str) -> Action | None:
        """``action`` for a searching level: view and legal list taken here, the choice in a
        worker thread; the simple rule if the strategy fails."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        legal = list(LEGAL.now(game, player))
        if not legal:
            return None
        try:
            return await self._off_loop(
                level, lambda s, v, r: s.choose(v, legal, r), game.view(player), table, seat
            )
        except Exception:
            log.exception("%s: strategy %s failed; using the simple rule", at_table(table), level)
            return choose_auto_action(game, player)

    async def _off_loop(
        self,
        level: str,
        ask: Callable[[Strategy, PlayerView, random.Random], T],
        view: PlayerView,
        table: LiveTable,
        seat: int,
    ) -> T:
        """Ask the strategy of ``level`` about ``view`` (immutable) in a worker thread."""
        return await asyncio.to_thread(ask, self.strategy(level), view, self.rng(table, seat))


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
