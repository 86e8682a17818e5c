"""The buy window: who may still ask for the upcard, when it closes, and the held draw.

The window is a timed race decided by seat priority (RULES.md Part E), but nobody waits for
nothing: it closes as soon as every seat that could still ask has decided. A person decides
with **Buy** or **Pass**; a seat that cannot buy (limit reached, down, no supply), an away seat
and a computer (asked at once) count as decided. P's draw from the stock, held while the window
runs, is applied the moment it closes.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.actions import Action, CancelBuy, DrawStock, RequestBuy, TakeUpcard, parse_action
from engine.errors import IllegalAction

from .live import ActResult, Change, LiveTable, Pending

if TYPE_CHECKING:
    from .tables import TableService


class BuyWindows:
    """The buy windows of one service's tables."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def running(self, table: LiveTable) -> bool:
        """Whether buy requests are accepted now (the engine window and our deadline)."""
        game = table.game
        return (
            game is not None
            and game.buy_window_open
            and table.buy_deadline is not None
            and self.service.clock() < table.buy_deadline
        )

    def opened(self, table: LiveTable, seconds: float) -> None:
        """A new upcard is on offer: start its window with nobody decided."""
        table.buy_deadline = table.window_ends = self.service.clock() + seconds
        table.decided = set()

    def undecided(self, table: LiveTable) -> list[int]:
        """People who could still ask for the upcard and have not said Buy or Pass."""
        game = table.game
        assert game is not None
        request = RequestBuy()
        return [
            seat
            for seat, player in enumerate(game.players)
            if seat != game.current
            and seat not in table.decided
            and not table.is_away(seat)
            and game.is_legal(player, request)
        ]

    def may_still_change(self, table: LiveTable) -> bool:
        """Whether anyone could still ask: if not, the window has nothing left to wait for."""
        return self.running(table) and bool(self.undecided(table))

    def must_hold(self, table: LiveTable, seat: int, action: Action) -> bool:
        """P's draw waits while the window runs; so does a down P's take when buys beat it."""
        game = table.game
        assert game is not None
        if seat != game.current or not self.running(table):
            return False
        if isinstance(action, DrawStock):
            return True
        return (
            isinstance(action, TakeUpcard)
            and not game.rules.down_player_blocks_buy
            and game.view(None).seats[seat].is_down
        )

    def check_request(self, table: LiveTable, seat: int, action: Action) -> None:
        """Buy, withdraw and pass are only for the window that is running now."""
        game = table.game
        assert game is not None
        if (
            isinstance(action, (RequestBuy, CancelBuy))
            and not self.running(table)
            and game.buy_window_open
            and seat != game.current
        ):
            raise IllegalAction(
                "The buy window has closed: the upcard can't be bought now",
                code="buy.window_closed",
            )

    async def settle(self, table: LiveTable) -> None:
        """After anything that may have been the last decision: close the window early and
        apply the held draw when nobody is left to decide."""
        game = table.game
        if game is None or game.is_over or table.closed or not self.running(table):
            return
        if self.undecided(table):
            return
        if table.pending is not None:
            await self.run_pending(table)
        else:
            table.buy_deadline = None
            table.window_ends = self.service.clock()
            self.service.timers.arm(table)
            self.service._notify(Change(table, "window"))

    async def hold(self, table: LiveTable, seat: int, action: Action) -> ActResult:
        """Hold P's draw until the window closes (at once if nobody is left to decide)."""
        game = table.game
        assert game is not None
        player = game.players[seat]
        if table.pending is not None:
            return ActResult([], table.version, pending=table.pending.future)
        if not game.is_legal(player, action):
            game.apply(player, action)  # raises the engine's reason; nothing changes
        future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
        table.pending = Pending(seat, action, future)
        if not self.undecided(table):
            result = await self.run_pending(table)
            return replace(result, pending=None)
        # Saved with the seat's away flags, so a restart keeps the held draw.
        away = list(table.away)
        away[seat] = replace(away[seat], held=str(action))
        await self.service.store.set_away(table.id, away)
        table.away = away
        self.service.timers.arm(table)
        self.service._notify(Change(table, "window", actor=int(player)))
        return ActResult([], table.version, pending=future)

    def revive_held(self, table: LiveTable) -> None:
        """After a restart: hold again the draw a seat had asked for (``AwayState.held``)."""
        game = table.game
        if game is None or game.is_over:
            return
        for seat, state in enumerate(table.away):
            if not state.held:
                continue
            table.away[seat] = replace(state, held="")
            if seat == game.current and game.step == "draw":
                future: asyncio.Future[ActResult] = asyncio.get_running_loop().create_future()
                table.pending = Pending(seat, parse_action(state.held), future)

    async def run_pending(self, table: LiveTable) -> ActResult:
        """Submit the held draw now (the window ended or nobody else can buy)."""
        pending = table.pending
        assert pending is not None and table.game is not None
        table.pending = None
        game = table.game
        player = game.players[pending.seat]
        clear_held(table, pending.seat)
        try:
            events = game.apply(player, pending.action)
        except IllegalAction as error:
            # The state moved on (e.g. P took the upcard meanwhile); tell the waiter.
            if not pending.future.done():
                pending.future.set_exception(error)
            raise
        result = await self.service._commit(table, int(player), pending.action, events)
        if not pending.future.done():
            pending.future.set_result(result)
        return result


def clear_held(table: LiveTable, seat: int) -> None:
    """The held draw of ``seat`` ran or was replaced: the next commit saves it gone."""
    if seat < len(table.away) and table.away[seat].held:
        table.away[seat] = replace(table.away[seat], held="")
