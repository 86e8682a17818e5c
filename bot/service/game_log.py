"""One log line when a game starts and one when it ends, named by guild and table.

A listener of the table service (beside the publisher and the hands' follower): it sees every
committed change and writes only the two that matter to an operator reading the log, plus a
table closed before its game ended. Only public facts go in: seat counts, the preset, the
number of deals and of actions; never a hand, a card, a name or message text.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.ground.logs import at_table

if TYPE_CHECKING:
    from bot.service import Change

log = logging.getLogger("bot.games")


class GameLog:
    """Logs a game's start and end (``bot.games`` logger, INFO)."""

    def __init__(self) -> None:
        self._ended: set[int] = set()

    def watched(self, table_id: int) -> tuple[int, ...]:
        """A log needs no seat's screen."""
        return ()

    def table_changed(self, change: Change) -> None:
        table = change.table
        where = at_table(table)
        if change.kind == "start" and table.view is not None:
            seats = table.record.seats
            computers = sum(1 for seat in seats if seat.is_computer)
            log.info(
                "%s: game started: %d seat(s), %d computer(s), preset %s, %d deal(s)",
                where,
                len(seats),
                computers,
                table.record.options.get("preset", "standard"),
                table.view.rules.num_deals,
            )
            return
        if table.id in self._ended:
            return
        game = table.view
        if game is not None and game.is_over:
            self._ended.add(table.id)
            log.info("%s: game finished after %d action(s)", where, table.version)
        elif change.kind in ("end", "abandoned"):
            self._ended.add(table.id)
            state = "lobby" if game is None else "game"
            log.info(
                "%s: %s closed (%s) after %d action(s)", where, state, change.kind, table.version
            )
