"""The turn desk: a seat's screen, its plays, and its Buy, Pass and buy preference.

A click becomes one trip here: the player is marked present, the action (or a resolver of the
screen the click was drawn on) is applied through the commit path, and the answer is the seat's
``SeatSnapshot`` with what the action brought into the hand. The seat's legal plays are
computed off the event loop (``legal_plays``) before the lock and for the answer after it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Literal

from bot.ground.errors import UserError
from bot.service.buy_window import (
    BUY_PREFS,
    BuyPref,
    check_request,
    decided_at_once,
    must_hold,
    undecided,
    window_tag,
)
from bot.service.hints import advice_for, plain_hint
from bot.service.legal_plays import prepare
from bot.service.live import ActResult, Clock, LiveTable
from bot.service.shortcuts import Plays
from bot.service.snapshot import (
    Changed,
    Named,
    Resolver,
    SeatSnapshot,
    current_tag,
    seat_snapshot,
    settled,
    what_changed,
)
from bot.service.tables_commit import Committer
from bot.service.tables_core import Settings, Tables, playing, present, seated
from bot.service.timers import Timers
from engine.actions import Action, CancelBuy, RequestBuy
from engine.buying import check_has_buying
from engine.players.hints import Hint

BuyChoice = Literal["buy", "pass", "unbuy"]
#: The refusal of a Buy, Pass or take-back whose window has closed, worded once for the table
#: message's buttons and the hand's.
WINDOW_CLOSED = (
    "That buy window has closed: the card can no longer be bought.",
    "buy_window_closed",
)


class Turns:
    """What a seat's screen shows and what its clicks do; built with the committer that
    carries the clicks out, the open tables, the timers, the clock and the settings."""

    def __init__(
        self, committer: Committer, tables: Tables, timers: Timers, clock: Clock, settings: Settings
    ) -> None:
        self.committer = committer
        self.tables = tables
        self.timers = timers
        self.clock = clock
        self.settings = settings

    def snapshot(self, table_id: int, user_id: int, notes: tuple[str, ...] = ()) -> SeatSnapshot:
        """What ``user_id``'s screen shows now; raises ``NotSeated`` / ``WrongPhase``. (Tests
        and tools; a click asks ``play``, which also marks its player present.)"""
        table = self.tables.find(table_id)
        playing(table)
        seated(table, user_id)
        return seat_snapshot(table, user_id, self.clock(), notes)

    def legal_actions(self, table_id: int, user_id: int) -> list[Action]:
        table = self.tables.find(table_id)
        game = playing(table)
        seated(table, user_id)
        return game.legal_actions(str(user_id))

    async def play(
        self,
        table_id: int,
        user_id: int,
        action: Action | Resolver | None = None,
        *,
        shown: str | None = None,
    ) -> SeatSnapshot:
        """One click's whole trip: mark its player present, apply ``action`` and answer with
        their screen, what the action brought them included. ``action`` may be a ``Resolver``
        (the click's meaning depends on the screen: the proposed lay-down, "lay off all"),
        called here with the seat's snapshot; None, or a resolver's None, only looks.

        ``shown`` is the tag of the screen the control was drawn on: when it is out of date and
        the action is refused, the answer carries the refusal (``stale``, ``refusal``) so the
        hand is redrawn with the reason; a refusal on an up-to-date screen raises.

        The seat's legal plays are computed in a worker thread (``legal_plays``): before the
        lock, so a huge hand holds nobody up, and those of the answer after it. A click that
        names its action (an ``Action``, or ``Named``) reads no screen before it is applied,
        so none is built and no legal plays are computed for it."""
        table = self.tables.find(table_id)
        version = table.version  # the state ``prepare`` computes for, whatever happens meanwhile
        if action is None or (callable(action) and not isinstance(action, Named)):
            await prepare(table, user_id)
        snap = await self._play(table_id, user_id, action, shown=shown, prepared=version)
        return await settled(snap)

    async def _play(
        self,
        table_id: int,
        user_id: int,
        action: Action | Resolver | None,
        *,
        shown: str | None,
        prepared: int | None = None,
    ) -> SeatSnapshot:
        """``play`` under the table's lock; the answer's legal plays may be left to
        ``settled``. ``prepared``: the version whose legal plays ``play`` prepared."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            game = playing(table)
            seat = seated(table, user_id)
            now = self.clock()
            running = table.window.is_running(game, now)  # one answer for the screens before
            stale = shown is not None and shown != current_tag(table, seat, now, running=running)
            if present(table, seat):
                self.timers.arm(table)
                self.committer.notify(table, "away")
            try:
                asked: Action | Plays | None
                if isinstance(action, Named):
                    asked = action.on(stale)
                elif action is not None and callable(action):
                    if table.version != prepared:  # the table moved since ``play`` prepared
                        await prepare(table, user_id)
                    screen = seat_snapshot(table, user_id, now, running=running)
                    asked = action(replace(screen, stale=stale))
                else:
                    asked = action
                if asked is None:
                    screen = seat_snapshot(table, user_id, now, lazy=True, running=running)
                    return replace(screen, stale=stale)
                before = list(game.hand_of(str(user_id)))
                plays = asked if isinstance(asked, tuple) else (asked,)
                result = await self.act_locked(table, user_id, plays[0])
                for then in plays[1:]:  # a compound play: its actions in order, each committed
                    if table.closed or table.game is None or result.pending is not None:
                        break
                    result = await self.act_locked(table, user_id, then)
            except ValueError as error:
                if not stale or table.closed:
                    raise
                answer = seat_snapshot(table, user_id, self.clock(), lazy=True)
                return replace(answer, stale=True, refusal=error)
            changed = what_changed(asked, before, table, user_id, result)
            if table.closed or table.game is None:
                return SeatSnapshot.finished(table, user_id, seat, changed)
            told = table.told
            if told is not None and told[0] is result.events and user_id in told[1]:
                # The listener was just told with this screen and nothing changed since.
                mine = told[1][user_id]
                return replace(
                    mine, action=changed.action, gained=changed.gained, actions=changed.actions
                )
            return seat_snapshot(
                table, user_id, self.clock(), changed, events=result.events, lazy=True
            )

    async def decide_buy(
        self,
        table_id: int,
        user_id: int,
        choice: BuyChoice,
        *,
        window: str | None = None,
        shown: str | None = None,
    ) -> SeatSnapshot:
        """Buy, Pass, or take a buy request back, for one window only: the table message's
        buttons name it (``window``), the hand's were drawn on a screen (``shown``). A control
        of a window that has closed changes nothing and answers with ``refusal`` set."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            game = playing(table)
            check_has_buying(game)
            seat = seated(table, user_id)
            now = self.clock()
            running = table.window.is_running(game, now)
            closed = (
                not running
                or (window is not None and window != window_tag(game, table.view(None)))
                or (shown is not None and shown != current_tag(table, seat, now))
            )
            if choice == "pass" and seat == game.current and not closed:
                raise UserError(
                    "It's your turn: draw or take the upcard instead.", code="own_turn_take"
                )
            if closed:
                refusal = UserError(WINDOW_CLOSED[0], code=WINDOW_CLOSED[1])
                return replace(seat_snapshot(table, user_id, now), stale=True, refusal=refusal)
            if choice == "pass":
                present(table, seat)
                table.window.decide(seat)
                await self.committer.settle(table)
            else:
                request = RequestBuy() if choice == "buy" else CancelBuy()
                await self.act_locked(table, user_id, request)
            if table.closed:  # the buy was the last thing the game waited for
                return SeatSnapshot.finished(table, user_id, seat, Changed())
            return seat_snapshot(table, user_id, self.clock())

    async def hint(self, table_id: int, user_id: int) -> tuple[SeatSnapshot, Hint]:
        """The Hint button: the seat's screen and the advice for it. The expert's part is
        searched in a worker thread without the lock; if the table moved on meanwhile, the
        advice is the plain hint of the screen as it is now."""
        snap = await self.play(table_id, user_id)
        advice = await advice_for(snap.view, snap.legal, seeded=self.settings.seed is not None)
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            playing(table)
            now = seat_snapshot(table, user_id, self.clock(), lazy=True)
        if now.tag != snap.tag:
            advice = await asyncio.to_thread(plain_hint, now.view)  # a huge hand's is slow
        return await settled(now), advice

    async def set_buy_preference(self, table_id: int, user_id: int, pref: BuyPref) -> SeatSnapshot:
        """The player chooses when to be asked about buys (saved with the seat, so a restart
        keeps it). A window running now applies it at once: choosing ``never`` decides this
        seat, which may close the window."""
        if pref not in BUY_PREFS:
            raise UserError("That is not a buy preference.", code="not_a_buy_pref")
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            game = playing(table)
            check_has_buying(game)
            seat = seated(table, user_id)
            present(table, seat)
            memento = table.memento()
            table.buy_prefs = {**table.buy_prefs, seat: pref}
            await self.committer.write_away(table, memento)
            now = self.clock()
            if seat in undecided(table.window, game, table.is_away, now=now) and (
                decided_at_once(table, seat, pref)
            ):
                table.window.decide(seat)
                await self.committer.settle(table)
            self.timers.arm(table)  # a relaxed standing order that buys is carried out at once
            return seat_snapshot(table, user_id, self.clock())

    async def set_notice_by_dm(self, table_id: int, user_id: int, dm: bool) -> SeatSnapshot:
        """The player chooses where a relaxed table tells them of their turn: by direct
        message, or in the game's thread (saved with the seat, so a restart keeps it)."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            playing(table)
            seat = seated(table, user_id)
            present(table, seat)
            memento = table.memento()
            table.away[seat] = replace(table.away[seat], dm=dm)
            await self.committer.write_away(table, memento)
            return seat_snapshot(table, user_id, self.clock())

    async def set_buy_limit(self, table_id: int, user_id: int, limit: int | None) -> SeatSnapshot:
        """The player limits how many cards a deal their standing buy order buys at a relaxed
        table (None: as many as the rules allow); saved with the seat."""
        if limit is not None and not 0 <= limit <= 9:
            raise UserError("That is not a buy limit.", code="not_a_buy_limit")
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            check_has_buying(playing(table))
            seat = seated(table, user_id)
            present(table, seat)
            memento = table.memento()
            table.away[seat] = replace(table.away[seat], buy_limit=-1 if limit is None else limit)
            await self.committer.write_away(table, memento)
            return seat_snapshot(table, user_id, self.clock())

    async def act(self, table_id: int, user_id: int, action: Action) -> ActResult:
        """Apply one player's action (tests, tools and the soak): lock, apply, commit, notify."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            return await self.act_locked(table, user_id, action)

    async def act_locked(self, table: LiveTable, user_id: int, action: Action) -> ActResult:
        """``act`` with the table's lock held (computer seats come in here too)."""
        game = playing(table)
        seat = seated(table, user_id)
        present_changed = present(table, seat)
        memento = table.memento()
        now = self.clock()
        if not table.is_computer(seat):
            table.last_person = now
        window = table.window
        try:
            check_request(window, game, seat, action, now=now)
        except BaseException:
            table.go_back(memento, game_moved=False)
            raise
        if must_hold(window, game, seat, action, now=now):
            if present_changed:
                self.committer.notify(table, "away")
            return await self.committer.hold(table, seat, action, memento)
        superseded = window.held if window.held is not None and seat == game.current else None
        if superseded is not None:
            window.release()
        if isinstance(action, (RequestBuy, CancelBuy)):
            window.decide(seat)
        result = await self.committer.apply(table, seat, action, before=memento)
        if superseded is not None and not superseded.future.done():
            superseded.future.set_result(replace(result, superseded=True))
        if isinstance(action, RequestBuy):
            await self.committer.settle(table)
        return result
