"""Computer seats: which move a computer (or a seat the bot plays) makes, and its buys.

A computer decides from that seat's own ``PlayerView`` and legal actions only, with the
strategy of its level (``engine.players.strategy``), and acts through the service's normal
path like a click. Buys are decided as soon as a window opens (a computer never holds a
window open); a turn's moves wait ``computer_delay`` between them so people can follow. The
expert searches for up to its budget per decision, so its decisions run in a worker thread
(``asyncio.to_thread``) on a view taken under the table's lock, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from bot.logs import at_table
from data.errors import StoreBusy
from engine import Game
from engine.actions import Action, RequestBuy
from engine.players.expert import ExpertStrategy
from engine.players.strategy import EasyStrategy, Strategy, make_strategy
from engine.view import PlayerView

from .live import LiveTable

if TYPE_CHECKING:
    from .tables import TableService

log = logging.getLogger("bot.service")

#: Levels whose decisions search (up to a budget) and so run off the event loop.
SEARCHING_LEVELS = frozenset({"expert"})
T = TypeVar("T")


class ComputerSeats:
    """The strategies of one service, and the moves they make for its tables."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._strategies: dict[str, Strategy] = {}

    def strategy(self, level: str) -> Strategy:
        if level == "expert":  # fresh per decision (it runs in a thread), with a clock cap
            return ExpertStrategy(clock=time.perf_counter)
        strategy = self._strategies.get(level)
        if strategy is None:
            strategy = self._strategies[level] = make_strategy(level)
        return strategy

    def rng(self, table: LiveTable, seat: int) -> random.Random:
        seed = self.service.seed
        if seed is None:
            return random.Random()
        return random.Random(f"{seed}:{table.id}:{table.version}:{seat}")

    def action(self, table: LiveTable, seat: int, level: str) -> Action | None:
        """The strategy's move for ``seat`` from that seat's own view and legal actions only;
        the simple rule of ``choose_auto_action`` if the strategy fails."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        legal = game.legal_actions(player)
        if not legal:
            return None
        try:
            return self.strategy(level).choose(game.view(player), legal, self.rng(table, seat))
        except Exception:
            log.exception("%s: strategy %s failed; using the simple rule", at_table(table), level)
            return choose_auto_action(game, player)

    def undecided_buyers(self, table: LiveTable) -> list[int]:
        """Computer seats not yet asked whether they want the upcard on offer now."""
        game = table.game
        if game is None or not self.service.windows.running(table):
            return []
        request = RequestBuy()
        return [
            seat
            for seat, player in enumerate(game.players)
            if table.is_computer(seat)
            and seat != game.current
            and seat not in table.decided
            and game.is_legal(player, request)
        ]

    async def decide_buys(self, table: LiveTable) -> None:
        """Each computer seat that may buy the upcard decides now; buyers ask like people do."""
        game = table.game
        assert game is not None
        for seat in self.undecided_buyers(table):
            if not self.service.windows.running(table):
                break
            table.decided.add(seat)
            player = game.players[seat]
            level = table.record.seats[seat].level or "normal"
            try:
                if level not in SEARCHING_LEVELS:
                    wants = self.strategy(level).wants_buy(game.view(player), self.rng(table, seat))
                else:
                    wants = await self._off_loop(
                        level, lambda s, v, r: s.wants_buy(v, r), game.view(player), table, seat
                    )
            except Exception:
                log.exception("%s: wants_buy failed", at_table(table))
                wants = False
            if wants:
                try:
                    await self.service._act_locked(table, int(player), RequestBuy())
                except StoreBusy:
                    table.decided.discard(seat)  # asked again when the timer retries
                    raise
                except ValueError as error:
                    why = getattr(error, "code", "refused")
                    log.info("%s: computer buy refused (%s)", at_table(table), why)

    async def move(self, table: LiveTable, seat: int) -> None:
        """One action of a computer seat's turn, through the same path as a click."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        level = table.record.seats[seat].level or "normal"
        table.auto_due = self.service.clock() + self.service.computer_delay  # no busy loop
        if level in SEARCHING_LEVELS:
            action = await self._searched_action(table, seat, level)
        else:
            action = self.action(table, seat, level)
        if action is None:
            return
        try:
            await self.service._act_locked(table, int(player), action)
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
            game = table.game  # a failed commit reloads the table: decide from what it holds
            if game is None or table.closed:
                return
            fallback = choose_auto_action(game, player)
            if fallback is not None and fallback != action:
                await self.service._act_locked(table, int(player), fallback)

    async def _searched_action(self, table: LiveTable, seat: int, level: str) -> Action | None:
        """``action`` for a searching level: view and legal list taken here, the choice in a
        worker thread; the simple rule if the strategy fails."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        legal = game.legal_actions(player)
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
