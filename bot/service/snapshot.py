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

import asyncio
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from bot.service.buy_window import (
    DEFAULT_BUY_PREF,
    BuyWhy,
    buy_why_seat,
    order_limit,
    undecided,
    window_tag,
)
from bot.service.legal_plays import LEGAL
from bot.service.live import FOUR_COLOUR_OPTION, ActResult, LiveTable
from bot.service.pace import is_relaxed
from bot.service.shortcuts import NONE, Plays, Shortcuts, shortcuts_for
from data.records import lower_is_better
from engine import Game
from engine.actions import Action
from engine.cards import Card
from engine.events import DealEnded, Event, WentOut
from engine.view import PlayerView


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
    #: Why buying the offered upcard is worth it (``buy_window.buy_worth_it``), for the
    #: question's few words; None when it is not, or nothing is on offer.
    buy_why: BuyWhy | None = None
    #: This seat asked for the upcard of the running window (it may take that back).
    buy_requested: bool = False
    #: The control clicked was drawn from an older screen (its tag differs from this one's
    #: before the click): a refusal is then explained with the hand redrawn.
    stale: bool = False
    #: Why the click was refused, for a stale control (the hand is redrawn with the reason).
    refusal: ValueError | None = None
    #: When this player wants to be asked about buys (``buy_window.BuyPref``).
    buy_pref: str = DEFAULT_BUY_PREF
    #: The bot plays this seat for good (its player left or was removed).
    removed: bool = False
    #: The deal that just ended, as this seat saw it (None: no deal ended with this change).
    deal_end: DealRecap | None = None
    #: While the deal's recap stands alone: when the next deal is shown (its hand and
    #: controls wait until then).
    paused_until: float | None = None
    #: The compound plays open to the seat (lay off all, then discard, swap and place).
    shortcuts: Shortcuts = NONE
    #: Every action the click made, in order, when it made more than one (``action`` is the
    #: last of them).
    actions: tuple[Action, ...] = ()
    #: The table draws clubs green and diamonds blue (its ``four_colour`` option).
    four_colour: bool = False
    #: The table is relaxed (``pace.py``): the hand tells more of what happened since.
    relaxed: bool = False
    #: At a relaxed table, this player is told of their turn by direct message.
    notice_dm: bool = False
    #: At a relaxed table, the most cards a deal this player's standing order buys (None: no
    #: limit of their own).
    buy_limit: int | None = None
    #: The game as it was, when ``legal`` (and ``shortcuts``) are still to be computed
    #: (``settled`` does it off the event loop); None once they are complete.
    later: Game | None = field(default=None, compare=False, repr=False)

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
        view = table.view(str(user_id))
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
            actions=notes.actions,
            closed=True,
        )


#: What a click asks for, given the seat's screen as it is when the click lands (under the
#: table's lock): the action, a compound play (its actions in order), or None to only answer
#: with the screen.
Resolver = Callable[[SeatSnapshot], Action | Plays | None]


@dataclass(frozen=True)
class Named:
    """A click that names its action whatever the screen shows (Draw, the card to discard, a
    lay-off's place): the service applies it without building the seat's screen first, and
    computes no legal plays for a screen nobody reads. ``not_when_stale``: on an out-of-date
    screen it does nothing and the hand is redrawn, for a control whose play the screen worked
    out (Take names no card)."""

    action: Action
    not_when_stale: bool = False

    def on(self, stale: bool) -> Action | None:
        """The action, or None when the screen is out of date and that matters."""
        return None if stale and self.not_when_stale else self.action

    def __call__(self, snap: SeatSnapshot) -> Action | None:
        """As a ``Resolver`` (``tools.reachable`` asks every control alike)."""
        return self.on(snap.stale)


@dataclass(frozen=True)
class DealRecap:
    """A deal's end for one seat: who went out, what the deal cost this seat, and where it
    stands in the game now (a private word for each player)."""

    deal: int
    points: int
    total: int
    #: 1 is best; seats on the same total share a place.
    place: int
    seats: int
    #: Points behind the leader (0: leading or level), and the leader's seat.
    behind: int
    leader: int
    out_seat: int | None
    you_out: bool
    blind: bool
    exhausted: bool


def deal_recap(table: LiveTable, seat: int, events: Sequence[Event]) -> DealRecap | None:
    """``seat``'s recap of the deal that ended among ``events``, if one did."""
    ended = next((e for e in events if isinstance(e, DealEnded) and e.reason != "void"), None)
    game = table.game
    if ended is None or game is None:
        return None
    out = next((e for e in events if isinstance(e, WentOut)), None)
    totals = game.totals
    sign = 1 if lower_is_better(table.record.game_kind) else -1  # the best total is the least
    mine = totals[seat]
    place = 1 + sum(1 for other in totals if sign * other < sign * mine)
    leader = min(range(len(totals)), key=lambda other: sign * totals[other])
    return DealRecap(
        deal=ended.deal,
        points=ended.scores[seat],
        total=mine,
        place=place,
        seats=len(totals),
        behind=abs(mine - totals[leader]),
        leader=leader,
        out_seat=ended.out_player,
        you_out=ended.out_player == seat,
        blind=out is not None and out.player == seat and out.blind,
        exhausted=ended.reason == "exhausted",
    )


@dataclass(frozen=True)
class Changed:
    """What an action did to the acting player's hand."""

    action: Action | None = None
    gained: tuple[Card, ...] = ()
    #: All the click's actions when it made several (``action`` is the last).
    actions: tuple[Action, ...] = ()


def seat_tag(
    view: PlayerView, *, pending: bool, offer: str | None = None, removed: bool = False
) -> str:
    """A short fingerprint of what this seat's controls depend on (stable off turn, but
    for a buy window this seat has still to decide on)."""
    mine = view.current == view.seat and not view.is_over
    hand = sorted(str(c) for c in view.hand or ())
    down = view.seats[view.seat].is_down if view.seat is not None else "-"
    # The upcard too: a hand that drew a card and threw it back holds the same cards on its
    # next turn, where Take would take another card than the one an old screen names.
    upcard = f"{view.upcard}|{view.upcard_live}"
    turn = f"{view.step}|{len(view.melds)}|{upcard}|{view.went_down_this_turn}"
    key = f"{view.deal}|{mine}|{turn if mine else ''}|{' '.join(hand)}|{down}|{view.is_over}"
    key += f"|{pending}" + (f"|{offer}" if offer else "") + ("|removed" if removed else "")
    return f"{zlib.crc32(key.encode()):08x}"


def seat_snapshot(
    table: LiveTable,
    user_id: int,
    now: float,
    notes: Changed | Sequence[str] = (),
    events: Sequence[Event] = (),
    *,
    lazy: bool = False,
    running: bool | None = None,
) -> SeatSnapshot:
    """The snapshot of ``user_id``'s seat at ``table`` at ``now`` (the table's lock held).

    ``lazy``: legal plays nobody computed yet are left to ``settled`` (which computes them in
    a worker thread) instead of being computed here, on the event loop. ``running``: whether
    the buy window runs at ``now``, when the caller asked already (the listener's change
    builds every followed seat's snapshot of one state)."""
    game = table.game
    assert game is not None
    seat = table.seat_of(user_id)
    assert seat is not None
    player = str(user_id)
    view = table.view(player)
    over = view.is_over or table.closed
    mine = view.current == seat and not over and seat not in table.removed
    later: Game | None = None
    if not mine:
        legal: tuple[Action, ...] = ()
    elif not lazy:
        legal = LEGAL.now(game, player)
    else:
        known = LEGAL.known(game, player)
        legal, later = (known, None) if known is not None else ((), game.copy())
    if running is None:
        running = table.window.is_running(game, now)
    pending, offer, requested = _window_for(table, seat, now, running)
    changed = notes if isinstance(notes, Changed) else Changed()
    return SeatSnapshot(
        table.id,
        user_id,
        seat,
        tuple(table.names),
        view,
        legal,
        seat_tag(
            view,
            pending=pending,
            offer=offer or ("asked" if requested else None),
            removed=seat in table.removed,
        ),
        pending=pending,
        buy_deadline=table.window.deadline if running else None,
        action=changed.action,
        gained=changed.gained,
        actions=changed.actions,
        notes=() if isinstance(notes, Changed) else tuple(notes),
        closed=table.closed,
        deal_end=deal_recap(table, seat, events),
        paused_until=None if over else table.pause_until,
        buy_offer=offer,
        buy_why=buy_why_seat(table, seat) if offer is not None else None,
        buy_requested=requested,
        buy_pref=table.buy_prefs.get(seat, DEFAULT_BUY_PREF),
        removed=seat in table.removed,
        shortcuts=shortcuts_for(game, seat, legal) if legal else NONE,
        four_colour=bool(table.record.options.get(FOUR_COLOUR_OPTION, False)),
        relaxed=is_relaxed(table.record.options),
        notice_dm=seat < len(table.away) and table.away[seat].dm,
        buy_limit=order_limit(table, seat),
        later=later,
    )


async def settled(snap: SeatSnapshot) -> SeatSnapshot:
    """``snap`` with its legal plays, computed off the event loop if ``lazy`` left them."""
    if snap.later is None:
        return snap
    game = snap.later
    legal = await LEGAL.ready(game, str(snap.user_id))
    shortcuts = await asyncio.to_thread(shortcuts_for, game, snap.seat, legal) if legal else NONE
    return replace(snap, legal=legal, shortcuts=shortcuts, later=None)


def _window_for(
    table: LiveTable, seat: int, now: float, running: bool
) -> tuple[bool, str | None, bool]:
    """What the buy window (``running`` or not at ``now``) means for ``seat``: its draw is
    held, the offer it may still decide on (the window's tag), and whether it asked for the
    upcard."""
    game = table.game
    assert game is not None
    held = table.window.held
    pending = held is not None and held.seat == seat
    requested = running and seat in game.buy_requests
    return pending, buy_offer(table, seat, now, running=running), requested


def current_tag(table: LiveTable, seat: int, now: float, *, running: bool | None = None) -> str:
    """The ``tag`` the seat's snapshot would have now (no legal plays needed): a control drawn
    with another tag is out of date. ``running``: as for ``seat_snapshot``."""
    game = table.game
    assert game is not None
    if running is None:
        running = table.window.is_running(game, now)
    pending, offer, requested = _window_for(table, seat, now, running)
    view = table.view(game.players[seat])
    return seat_tag(
        view,
        pending=pending,
        offer=offer or ("asked" if requested else None),
        removed=seat in table.removed,
    )


def buy_offer(
    table: LiveTable, seat: int, now: float, *, running: bool | None = None
) -> str | None:
    """The running window's tag when ``seat`` may still say Buy or Pass to its upcard (the
    hand then offers both, so the table message need not change for a window)."""
    game = table.game
    if game is None or table.closed or seat == game.current or seat in table.window.decided:
        return None
    if seat not in undecided(table.window, game, table.is_away, now=now, running=running):
        return None
    return window_tag(game, table.view(None))


def what_changed(
    action: Action | Plays,
    before: Sequence[Card],
    table: LiveTable,
    user_id: int,
    result: ActResult,
) -> Changed:
    """The cards ``action`` (or the last of several) brought into ``user_id``'s hand (none
    while a draw is held)."""
    actions = action if isinstance(action, tuple) else ()
    last = actions[-1] if actions else action
    assert not isinstance(last, tuple)
    game = table.game
    if game is None or result.pending is not None:
        return Changed(last, actions=actions)
    after = Counter(game.hand_of(str(user_id))) if not game.is_over else Counter()
    gained = tuple(sorted((after - Counter(before)).elements(), key=Card.sort_key))
    return Changed(last, gained, actions)
