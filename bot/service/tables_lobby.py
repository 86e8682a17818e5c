"""The lobby desk: a table from its lobby to its end, and the seats that leave a running game.

``lobby.py`` checks each request and returns the seats or options it leads to; this desk has
the committer write them (the table's lock held) and tell the listener. Starting deals the
first hand and saves it with its deadlines in one write; ending (by the host, a vanished
channel, or the bot's own timers) records why and forgets the table. A player who leaves a
running game, is removed by the host, or leaves the server has their seat played by the bot.
"""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from dataclasses import replace
from typing import Any

from bot.ground.errors import NotSeated, UserError
from bot.ground.logs import at_table
from bot.service import lobby
from bot.service.buy_window import BuyWindow
from bot.service.live import Clock, DealtAlike, LiveTable, Store, rules_for
from bot.service.table_snapshot import TableSnapshot
from bot.service.tables_commit import Committer
from bot.service.tables_core import Settings, Tables, playing, seated
from bot.service.timers import Timers
from data.records import AwayState, Seat
from engine import Game

log = logging.getLogger("bot.service")


class Lobby:
    """A table from its lobby to its end; built with the committer that writes it, the open
    tables, the timers, the clock, the settings and the store (read only: a finished table's
    row, for Play again)."""

    def __init__(
        self,
        committer: Committer,
        tables: Tables,
        timers: Timers,
        clock: Clock,
        settings: Settings,
        store: Store,
    ) -> None:
        self.committer = committer
        self.tables = tables
        self.timers = timers
        self.clock = clock
        self.settings = settings
        self.store = store

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        options: dict[str, Any],
    ) -> LiveTable:
        """Open a lobby with the host in the first seat; raises ``TableExists``."""
        rules = rules_for(options)  # validate before writing anything
        # Armed at once: a lobby nobody starts closes itself.
        table = await self.committer.open_lobby(
            guild_id, channel_id, rules.game, Seat(host_id, host_name), options
        )
        self.committer.notify(table, "lobby", actor=host_id)
        return table

    async def play_again(
        self, old_id: int, guild_id: int, channel_id: int, host_id: int, host_name: str
    ) -> LiveTable:
        """A new lobby with the same rules and the same people as the finished table
        ``old_id``: the clicker hosts, the others are seated again (each may
        Leave), computers keep their levels. A game played in a thread opens its new lobby in
        the channel the thread belongs to. Refused for a table of another channel, one not
        finished, or a channel with an open table (``TableExists``)."""
        old = await self.store.get_table(old_id)
        where = (None,) if old is None else (old.channel_id, old.parent_channel_id)
        if old is None or channel_id not in where or old.guild_id != guild_id:
            raise UserError(
                "That control belongs to a table in another channel, so nothing was done.",
                code="elsewhere",
            )
        if old.status != "finished":
            raise UserError("That game has not finished.", code="not_finished")
        if not any(seat.user_id == host_id for seat in old.seats):
            raise NotSeated()
        # A duplicate round's mark stays with its table: the new game is dealt its own cards.
        dropped = ("server_defaults", "casual", "dealt_alike")
        options = {k: v for k, v in old.options.items() if k not in dropped}
        home = old.parent_channel_id or old.channel_id  # a thread's game: back in its channel
        table = await self.open_table(guild_id, home, host_id, host_name, options)
        others = tuple(seat for seat in old.seats if seat.user_id != host_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, host_id, (*table.record.seats, *others))
        self.committer.notify(table, "lobby", actor=host_id)
        return table

    async def _update_lobby(
        self,
        table: LiveTable,
        user_id: int,
        seats: tuple[Seat, ...] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Write the lobby's new seats or options (lock held), then keep and show them."""
        seats = table.record.seats if seats is None else seats
        options = dict(table.record.options) if options is None else options
        await self.committer.save_lobby(table, seats, options)

    async def join(self, table_id: int, user_id: int, name: str) -> TableSnapshot:
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, user_id, lobby.seats_after_join(table, user_id, name))
        self.committer.notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def leave(self, table_id: int, user_id: int) -> TableSnapshot:
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            await self._update_lobby(table, user_id, lobby.seats_after_leave(table, user_id))
        self.committer.notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def add_computer(self, table_id: int, user_id: int, level: str) -> TableSnapshot:
        """The host seats a computer player of ``level`` ('easy', 'normal' or 'expert')."""
        if level not in lobby.COMPUTER_LEVELS:
            raise UserError(
                "Computer players are 'easy', 'normal' or 'expert'.", code="computer_level"
            )
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            seats = lobby.seats_with_computer(table, user_id, level)
            await self._update_lobby(table, user_id, seats)
        self.committer.notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def remove_computer(self, table_id: int, user_id: int) -> TableSnapshot:
        """The host removes the last computer seated in the lobby."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            seats = lobby.seats_without_computer(table, user_id)
            await self._update_lobby(table, user_id, seats)
        self.committer.notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def set_house_rule(
        self,
        table_id: int,
        user_id: int,
        *,
        preset: str | None = None,
        option: str | None = None,
        value: Any = None,
    ) -> TableSnapshot:
        """The host changes the lobby's rule set (which resets the options) or one option."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            options = lobby.options_with_house_rule(
                table, user_id, preset=preset, option=option, value=value
            )
            await self._update_lobby(table, user_id, options=options)
        self.committer.notify(table, "lobby", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    def _table_seed(self, table: LiveTable) -> int:
        if self.settings.seed is None:
            return random.SystemRandom().randrange(2**62)
        return self.settings.seed * 1_000_003 + table.id

    def _secret(self, seed: int) -> bytes:
        """The secret every deal's seed comes from (``engine/shuffle.py``): random in play, so
        nobody can predict a deal from its announced hash; from the seed in a seeded run, so a
        test or a try session deals the same cards every time."""
        if self.settings.seed is None:
            return secrets.token_bytes(32)
        return hashlib.sha256(b"shanghai table seed %d" % seed).digest()

    def check_start(self, table_id: int, user_id: int) -> None:
        """Raise what ``start`` would refuse now (before a thread is made for the game)."""
        lobby.players_to_start(self.tables.find(table_id), user_id)

    async def start(
        self,
        table_id: int,
        user_id: int,
        *,
        thread_id: int | None = None,
        dealt: DealtAlike | None = None,
    ) -> LiveTable:
        """Deal the first hand; host only, with enough players. With ``thread_id`` the game
        is played in that thread, made from the lobby message (``move_to_thread``). With
        ``dealt`` the game is dealt, and its stock drawn, exactly as every other table given
        the same value with as many seats (a duplicate event's round)."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            players = lobby.players_to_start(table, user_id)
            if thread_id is not None:
                await self.committer.save_thread(table, thread_id)
            rules = rules_for(dict(table.record.options))
            if dealt is None:
                seed = self._table_seed(table)
                secret = self._secret(seed)
            else:
                secret, seed = dealt.secret, dealt.dealer_seed
                rules = rules.with_options(stock_draws=dealt.stock_draws)
            game = Game.new(players, rules, seed, secret=secret)
            now = self.clock()
            buy_seconds, turn_seconds = self.settings.table_seconds(table)
            buy_deadline = now + buy_seconds if game.buy_window_open else None
            turn_deadline = now + turn_seconds
            state = game.to_json()
            await self.committer.save_start(table, state, buy_deadline, turn_deadline)
            table.record = replace(table.record, status="playing")
            table.game, table.version, table.saved_state = game, 0, state
            table.last_person = now
            table.turn_deadline = turn_deadline
            table.away = [AwayState() for _ in players]
            table.window = BuyWindow(deadline=buy_deadline, ends=buy_deadline)
            table.buy_prefs = {  # each person starts with the server's default
                seat: self.settings.buy_preference
                for seat, sitter in enumerate(table.record.seats)
                if not sitter.is_computer
            }
            if buy_deadline is not None:
                self.committer.open_window(table, now, buy_seconds)
            self.timers.arm(table)
        self.committer.notify(table, "start", actor=user_id, new_turn=True)
        return table

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        """The table message now lives at ``message_id`` (the publisher moved it, or
        ``/shanghai table`` posted it again)."""
        table = self.tables.by_id.get(table_id)
        if table is None:
            return
        await self.committer.save_message(table, message_id)

    async def end(self, table_id: int, user_id: int | None) -> TableSnapshot:
        """Close the table without results (the host or a moderator asked)."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            await self.committer.record_end(table)
            self.committer.forget(table)
        self.committer.notify(table, "end", actor=user_id)
        return TableSnapshot.of(table, self.clock())

    async def abandon(self, table_id: int, reason: str) -> LiveTable | None:
        """End a table whose channel or server is gone: recorded as ``abandoned`` (not
        ``ended``, which is a host's decision), no results, so nothing reaches the leaderboard
        and no seat is played on to a phantom winner. Returns the table, or ``None`` if it was
        not open. Harmless to call twice."""
        table = self.tables.by_id.get(table_id)
        if table is None or table.closed:
            return None
        async with table.held():
            if table.closed:
                return None
            try:
                await self.committer.record_end(table, abandoned=True)
            except Exception as error:  # a restart ends it again: its channel is still gone
                log.warning("%s: could not record its end (%s)", at_table(table), error)
            self.committer.forget(table)
        log.info("%s abandoned: %s", at_table(table), reason)
        self.committer.notify(table, "abandoned")
        return table

    async def expire(self, table: LiveTable, why: str) -> None:
        """End a table the bot closes itself (lock held): a lobby nobody started, a game nobody
        played. Recorded as ``abandoned``, with no results, so nothing reaches the leaderboard."""
        await self.committer.record_end(table, abandoned=True)
        self.committer.forget(table)
        self.committer.notify(table, "end", note=why)

    # -- seats that leave a running game ----------------------------------------------------------

    async def leave_game(self, table_id: int, user_id: int) -> TableSnapshot:
        """A player leaves a running game: the computer plays their seat from now on."""
        table = self.tables.find(table_id)
        async with table.held_for_a_click():
            playing(table)
            seat = seated(table, user_id)
            if seat in table.removed:
                raise UserError(
                    "You already left this game; the computer plays your seat.",
                    code="already_left",
                )
            await self._remove_seat(table, seat)
        self.committer.notify(table, "left", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def kick(self, table_id: int, user_id: int) -> TableSnapshot:
        """The host removes a player: from the lobby, or (in a game) the bot plays the seat."""
        table = self.tables.find(table_id)
        if table.game is None:
            return await self.leave(table_id, user_id)
        async with table.held_for_a_click():
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if user_id == table.record.host_id:
                raise UserError(
                    "The host can't remove themself; use `/shanghai end`.",
                    code="host_cannot_kick_self",
                )
            await self._remove_seat(table, seat)  # saved before the host is answered
        self.committer.notify(table, "kick", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def member_gone(self, table_id: int, user_id: int) -> TableSnapshot | None:
        """A seated person is no longer a member of the server (Discord said so): the bot plays
        their seat from now on, at once, instead of waiting out each turn's limit. Returns
        None when there was nothing to do (no such game, seat, or already played for good)."""
        table = self.tables.by_id.get(table_id)
        if table is None or table.closed or table.game is None:
            return None
        async with table.held():
            seat = table.seat_of(user_id)
            if table.closed or seat is None or seat in table.removed:
                return None
            await self._remove_seat(table, seat)
        self.committer.notify(table, "gone", seat=seat)
        return TableSnapshot.of(table, self.clock())

    async def _remove_seat(self, table: LiveTable, seat: int) -> None:
        memento = table.memento()
        table.removed = {*table.removed, seat}
        await self.committer.write_away(table, memento)
        self.timers.arm(table)
