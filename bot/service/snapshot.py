"""A seat's screen as data: everything its hand message needs after a change.

``TableService.play`` answers a click with the acting seat's snapshot (one trip down, one trip
up), and the same snapshot is what the Discord side pushes to another player's open hand when a
change reaches them (their turn begins, a bought card or penalty arrives, a held draw resolves,
a new deal is dealt, the game ends). Built under the table's lock, so view, legal plays and
deadlines agree.

``tag`` fingerprints what the seat's controls depend on, so a push is sent only when the
player's screen would change, not for every move of the others.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.actions import Action
from engine.cards import Card
from engine.view import PlayerView

from .live import ActResult, LiveTable

if TYPE_CHECKING:
    from .tables import TableService


@dataclass(frozen=True)
class SeatSnapshot:
    """What one seat sees and may do now."""

    table_id: int
    user_id: int
    seat: int
    names: tuple[str, ...]
    view: PlayerView
    #: The seat's legal plays now (empty off turn and once the game is over).
    legal: tuple[Action, ...]
    tag: str
    #: P's draw is held until the buy window closes.
    pending: bool = False
    buy_deadline: float | None = None
    #: The action this snapshot answers, and the cards it brought into the hand.
    action: Action | None = None
    gained: tuple[Card, ...] = ()
    #: Anything else to tell the player above their hand.
    notes: tuple[str, ...] = field(default_factory=tuple)
    closed: bool = False
    #: The upcard on offer to this seat, still undecided (Buy / Pass in the hand): the
    #: window's tag, so the tag and the buttons change with each window.
    buy_offer: str | None = None
    #: This seat asked for the upcard of the running window (it may take that back).
    buy_requested: bool = False

    @property
    def over(self) -> bool:
        return self.view.is_over or self.closed

    @property
    def my_turn(self) -> bool:
        return self.view.current == self.seat and not self.over

    @staticmethod
    def finished(table: LiveTable, user_id: int, seat: int, notes: Changed) -> SeatSnapshot:
        """The snapshot of a table that closed with this action (game over or ended)."""
        assert table.game is not None
        view = table.game.view(str(user_id))
        return SeatSnapshot(
            table.id,
            user_id,
            seat,
            tuple(table.names),
            view,
            (),
            seat_tag(view, pending=False),
            action=notes.action,
            gained=notes.gained,
            closed=True,
        )


@dataclass(frozen=True)
class Changed:
    """What an action did to the acting player's hand."""

    action: Action | None = None
    gained: tuple[Card, ...] = ()


def seat_tag(view: PlayerView, *, pending: bool, offer: str | None = None) -> str:
    """A short fingerprint of what this seat's controls depend on (stable off turn, but
    for a buy window this seat has still to decide on)."""
    mine = view.current == view.seat and not view.is_over
    hand = sorted(str(c) for c in view.hand or ())
    down = view.seats[view.seat].is_down if view.seat is not None else "-"
    turn = f"{view.step}|{len(view.melds)}|{view.upcard_live}|{view.went_down_this_turn}"
    key = f"{view.deal}|{mine}|{turn if mine else ''}|{' '.join(hand)}|{down}|{view.is_over}"
    key += f"|{pending}" + (f"|{offer}" if offer else "")
    return f"{zlib.crc32(key.encode()):08x}"


def seat_snapshot(
    service: TableService,
    table: LiveTable,
    user_id: int,
    notes: Changed | Sequence[str] = (),
) -> SeatSnapshot:
    """The snapshot of ``user_id``'s seat at ``table`` now (the table's lock held or not)."""
    game = table.game
    assert game is not None
    seat = table.seat_of(user_id)
    assert seat is not None
    player = str(user_id)
    view = game.view(player)
    over = view.is_over or table.closed
    legal = tuple(game.legal_actions(player)) if view.current == seat and not over else ()
    pending = table.pending is not None and table.pending.seat == seat
    offer = buy_offer(service, table, seat)
    requested = service.windows.running(table) and seat in game.buy_requests
    changed = notes if isinstance(notes, Changed) else Changed()
    return SeatSnapshot(
        table.id,
        user_id,
        seat,
        tuple(table.names),
        view,
        legal,
        seat_tag(view, pending=pending, offer=offer or ("asked" if requested else None)),
        pending=pending,
        buy_deadline=table.buy_deadline if service.windows.running(table) else None,
        action=changed.action,
        gained=changed.gained,
        notes=() if isinstance(notes, Changed) else tuple(notes),
        closed=table.closed,
        buy_offer=offer,
        buy_requested=requested,
    )


def buy_offer(service: TableService, table: LiveTable, seat: int) -> str | None:
    """The running window's tag when ``seat`` may still say Buy or Pass to its upcard (the
    hand then offers both, so the table message need not change for a window)."""
    game = table.game
    if game is None or table.closed or seat == game.current or seat in table.decided:
        return None
    if not service.windows.running(table) or seat not in service.windows.undecided(table):
        return None
    return window_tag(table)


def window_tag(table: LiveTable) -> str:
    """Which upcard a Buy or Pass is for: its deal, the discarder's turn and the pile."""
    game = table.game
    assert game is not None
    view = game.view(None)
    return f"{view.deal}.{view.current}.{view.discard_size}.{view.restocks}"


def what_changed(
    action: Action, before: Sequence[Card], table: LiveTable, user_id: int, result: ActResult
) -> Changed:
    """The cards ``action`` brought into ``user_id``'s hand (none while a draw is held)."""
    game = table.game
    if game is None or result.pending is not None:
        return Changed(action)
    after = Counter(game.hand_of(str(user_id))) if not game.is_over else Counter()
    gained = tuple(sorted((after - Counter(before)).elements(), key=Card.sort_key))
    return Changed(action, gained)
