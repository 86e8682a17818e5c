"""The clock desk: what is due when a table's deadline passes, carried out.

``timers.py`` says when a table wakes and what is due (a ``Due``); this desk does it with the
table's lock held, asking the lobby desk to expire a table and the turn desk to play a
computer's or an absent seat's action as a click would be: a lobby or a game nobody plays
expires, a buy window ends and its held draw runs, computers buy and move, a turn that ran out
(or that the others voted to skip) is played by the bot and counts towards marking its seat
away, and an away seat's turn is played at once.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.ground.errors import NotHost
from bot.ground.logs import at_table
from bot.i18n import duration, t, table_language
from bot.service import nudges, relaxed
from bot.service.buy_window import (
    computer_buyers,
    standing_buyers,
)
from bot.service.computers import ComputerSeats, choose_auto_action
from bot.service.legal_plays import LEGAL
from bot.service.live import Clock, LiveTable, Memento
from bot.service.pace import away_after, is_relaxed, lobby_seconds
from bot.service.tables_commit import Committer
from bot.service.tables_core import Settings, Tables, playing
from bot.service.tables_lobby import Lobby
from bot.service.tables_turns import Turns
from bot.service.timers import Timers, what_is_due
from data.errors import StoreBusy
from engine.actions import Action, RequestBuy

log = logging.getLogger("bot.service")


class TableClock:
    """Deadlines carried out: expiries, the window's end, computers, timeouts, away seats.

    Built with the committer, the turn desk (a computer's buy and move go through its
    ``act_locked``, as a click does), the lobby desk (``expire``), the open tables, the
    timers, the computer seats, the clock and the settings."""

    def __init__(
        self,
        committer: Committer,
        turns: Turns,
        lobby: Lobby,
        tables: Tables,
        timers: Timers,
        computers: ComputerSeats,
        clock: Clock,
        settings: Settings,
    ) -> None:
        self.committer = committer
        self.turns = turns
        self.lobby = lobby
        self.tables = tables
        self.timers = timers
        self.computers = computers
        self.clock = clock
        self.settings = settings

    async def turn_told(self, table_id: int, deadline: float) -> bool:
        """The person of a relaxed turn (the one ending at ``deadline``) got its notice: saved,
        so a restart does not tell them again. False: the table or that turn is over."""
        table = self.tables.by_id.get(table_id)
        if table is None or table.closed:
            return False
        async with table.held():
            return await self.committer.mark_told(table, deadline)

    async def run_due(self, table_id: int) -> None:
        """Do now whatever the table's deadlines ask for at ``clock()`` (tests, benchmarks)."""
        table = self.tables.find(table_id)
        async with table.held():
            await self.wake(table)
            self.timers.arm(table)

    async def wake(self, table: LiveTable) -> None:
        """Carry out what ``timers.what_is_due`` says (the table's lock held)."""
        timings = self.timers.timings
        for _ in range(2):  # computers' buys first, then whatever the turn needs
            due = what_is_due(table, self.clock(), timings)
            if due is None:
                return
            language = table_language(table.record.options)
            if due.kind == "lobby_expired":
                lobby = lobby_seconds(table.record.options, self.settings.lobby_seconds)
                waited = duration(lobby, language)
                await self.lobby.expire(table, t("notice.lobby_expired", language, duration=waited))
            elif due.kind == "idle_expired" and is_relaxed(table.record.options):
                await self.committer.finish_as_it_stands(table, relaxed.rows_as_it_stands(table))
                self.committer.forget(table)
                self.committer.notify(table, "end", note=t("notice.relaxed_idle_end", language))
            elif due.kind == "idle_expired":
                hours = round(self.settings.idle_seconds / 3600)
                await self.lobby.expire(table, t("notice.idle_expired", language, hours=hours))
            elif due.kind == "pause_over":
                self.committer.end_pause(table)
                continue  # a computer may be first to move in the new deal
            elif due.kind == "window_over":
                await self._window_over(table)
            elif due.kind == "computer_buys":
                await self._computer_buys(table)
                await self.committer.settle(table)
                if not table.closed and table.game is not None and not table.game.is_over:
                    continue
            elif due.kind == "computer_move":
                assert due.seat is not None
                await self._computer_move(table, due.seat)
            elif due.kind == "timeout":
                assert due.seat is not None
                await self._time_out(table, due.seat)
            elif due.kind == "away_play":
                assert due.seat is not None
                await self._autoplay(table, due.seat, timeout=False)
            elif due.kind == "remind":
                memento = table.memento()
                seat = relaxed.mark_reminded(table)
                await self.committer.write_away(table, memento)
                self.committer.notify(table, "remind", seat=seat)
            elif due.kind == "idle_warning":
                memento = table.memento()
                relaxed.mark_warned(table)
                await self.committer.write_away(table, memento)
                self.committer.notify(table, "idle_warning")
            return

    async def _time_out(self, table: LiveTable, seat: int) -> None:
        """``seat``'s turn ran out (or the others voted to skip it): the bot plays it, and
        the seat counts one more timeout towards being marked away."""
        memento = table.memento()
        state = table.away[seat]
        timeouts = state.timeouts + 1
        marked = state.away or timeouts >= away_after(
            table.record.options, self.settings.away_after
        )
        table.away[seat] = replace(state, timeouts=timeouts, away=marked)
        await self._autoplay(table, seat, timeout=True, before=memento)

    async def next_deal_now(self, table_id: int, user_id: int) -> bool:
        """The host ends the breath between deals early: False when the next deal is already
        shown (an old button)."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            playing(table)
            if user_id != table.record.host_id:
                raise NotHost("start the next deal early", code="not_host.next_deal")
            if table.pause_until is None:
                return False
            self.committer.end_pause(table)
            return True

    # -- nudge and skip -------------------------------------------------------------------------

    async def nudge(self, table_id: int, user_id: int) -> int:
        """The host nudges the player to move: the user id to ping (once a turn)."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            _, turn_seconds = self.settings.table_seconds(table)
            target = nudges.check_nudge(table, user_id, self.clock(), turn_seconds)
            table.nudges.for_turn(table.turn_deadline).nudge()
            return target

    async def vote_skip(self, table_id: int, user_id: int) -> nudges.SkipVote:
        """One more vote to let the bot play the absent player's turn now; at a majority of
        the other people it does, as a timed-out turn."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            _, turn_seconds = self.settings.table_seconds(table)
            voter, needed = nudges.check_skip(table, user_id, self.clock(), turn_seconds)
            game = playing(table)
            seat = game.current
            votes = table.nudges.for_turn(table.turn_deadline).vote(voter)
            if votes < needed:
                return nudges.SkipVote(votes, needed, played=False)
            await self._time_out(table, seat)
            return nudges.SkipVote(votes, needed, played=True)

    async def vote_pace(
        self, table_id: int, user_id: int, pace: str, hours: int | None = None
    ) -> relaxed.PaceVote:
        """One more person asks to go on at ``pace``; when all have, the game does."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            playing(table)
            seconds = (self.settings.buy_seconds, self.settings.turn_seconds)
            vote, change = relaxed.vote_pace(table, user_id, pace, hours, self.clock(), seconds)
            if change is not None:
                await self.committer.save_pace(table, change.options, change.turn_deadline)
                self.timers.arm(table)
                self.committer.notify(table, "pace")
            return vote

    async def _window_over(self, table: LiveTable) -> None:
        """The buy deadline passed: no more requests; the held draw runs now."""
        game = playing(table)
        memento = table.memento()
        table.window.lapse()
        if table.window.held is None:
            self.committer.notify(table, "window")
            return
        await self.committer.run_held(table, before=memento)
        if table.closed or game.is_over:
            return
        seat = game.current
        if game.step == "play" and table.is_away(seat) and not table.is_computer(seat):
            await self._autoplay(table, seat, timeout=False)

    async def _autoplay(
        self, table: LiveTable, seat: int, *, timeout: bool, before: Memento | None = None
    ) -> None:
        """Play the rest of ``seat``'s turn with the normal strategy; one notice names it all."""
        done: list[Action] = []
        held = table.window.held
        if held is not None and held.seat == seat:
            done.append(held.action)
            await self.committer.run_held(table, before=before)
            before = None
        for _ in range(40):
            game = table.game
            if table.closed or game is None or game.is_over or game.current != seat:
                break
            await LEGAL.ready(game, game.players[seat])  # a huge hand's, off the loop
            action = self.computers.action(table, seat, "normal")
            if action is None:
                break
            done.append(action)
            await self.committer.apply(
                table,
                seat,
                action,
                before=before,
                kind="timeout" if timeout else "away",
                auto_seat=seat,
                auto_actions=list(done),
            )
            before = None

    async def _computer_buys(self, table: LiveTable) -> None:
        """Each computer seat that may buy the upcard decides now; buyers ask like people do."""
        game = playing(table)
        for seat in computer_buyers(table, self.clock()):
            if not table.window.is_running(game, self.clock()):
                break
            table.window.decide(seat)
            if not await self.computers.wants_buy(table, seat):
                continue
            try:
                await self.turns.act_locked(table, int(game.players[seat]), RequestBuy())
            except StoreBusy:
                table.window.undecide(seat)  # asked again when the timer retries
                raise
            except ValueError as error:
                why = getattr(error, "code", "refused")
                log.info("%s: computer buy refused (%s)", at_table(table), why)
        await self._standing_buys(table)

    async def _standing_buys(self, table: LiveTable) -> None:
        """At a relaxed table, each person whose standing order buys the upcard asks for it
        now, as the bot acting on their order (not as their own click: it neither brings an
        away seat back nor counts as their play); the rules' seat order still decides."""
        game = playing(table)
        for seat in standing_buyers(table, self.clock(), self.settings.buy_preference):
            if not table.window.is_running(game, self.clock()):
                break
            memento = table.memento()
            table.window.decide(seat)
            try:
                await self.committer.apply(table, seat, RequestBuy(), before=memento)
            except StoreBusy:
                raise  # asked again when the timer retries (memory went back)
            except ValueError as error:
                why = getattr(error, "code", "refused")
                log.info("%s: standing buy refused (%s)", at_table(table), why)

    async def _computer_move(self, table: LiveTable, seat: int) -> None:
        """One action of a computer seat's turn, through the same path as a click."""
        game = playing(table)
        player = game.players[seat]
        table.auto_due = self.clock() + self.settings.computer_delay  # no busy loop
        action = await self.computers.move(table, seat)
        if action is None:
            return
        try:
            await self.turns.act_locked(table, int(player), action)
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
            game_now = table.game  # decide again from what memory holds now
            if game_now is None or table.closed:
                return
            fallback = choose_auto_action(game_now, player)
            if fallback is not None and fallback != action:
                await self.turns.act_locked(table, int(player), fallback)
