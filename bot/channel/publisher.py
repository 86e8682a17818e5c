"""What the channel sees of a change: one table message, kept at hand and rarely touched.

Discord allows about 5 messages per 5 seconds per channel and 50 requests per second per bot,
so the channel gets as few calls as the players need:

- What happened (a discard, a buy, a lay-down) is written into the table message's own text,
  the last few lines of it, instead of a new message per event; a burst of changes becomes a
  single edit drawn from the latest state (one per ``interval``, 1.5 s by default).
- When every present person follows their open hand (their turn, and the buy window's Buy
  and Pass, reach them there), the table message is only read: edits by REST wait
  ``quiet_interval`` (8 intervals, 12 s), so a turn's draw, discard and window, or two quick
  turns, are one call on the token. An edit carried on a click (below) costs the token
  nothing but is still one of the channel's calls: it waits ``carried_interval``
  (``CARRIED_TURNS`` intervals, a little less than the quiet pace) and brings a changed
  picture in the same edit.
- An edit that would show nothing new is not sent, and the table picture is uploaded only
  when it changed (the message keeps its attachment otherwise, and its layout's media gallery
  names it again): it draws the seats and their melds, while the upcard, the stock and the
  turn are the layout's words, so most turns keep it.
- The table message is *moved* (posted anew at the bottom, the old one deleted) only when it
  must be: a person's turn begins and their open hand can't be updated for them (no live
  interaction), so the new message pings them and offers **My hand**; or other messages have
  pushed it out of the last three; or it is nearly an hour old and something changed
  (Discord limits edits of older messages much more strictly, so a game over days never
  edits one). Computers and players who follow their hand get no ping.
- Each channel spends at most 5 calls in any 5 s (``RATE``), waiting otherwise, and every
  call counts against the token's budget (``bot.channel.budget``): when the token is busy, an
  edit only spectators read waits for room and merges with the changes after it, while pings
  and recaps go first.
- A table message rides on people's clicks when it can (``bot.channel.courier``): posted as
  the public follow-up of a click in a hand, edited through that click's token while it is
  young, so a busy table where people click spends none of the token's budget on it; when no
  click is young enough (computers only, a quiet or relaxed table) it goes the REST way above.
- Score sheets after each deal and the final standings are messages of their own; the deal's
  last moves open its score sheet's words rather than a message before it.

Every message here is a Components V2 layout (``bot.views.table.public_layout``): words in
text displays, the picture full width, the buttons last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.channel.budget import PING, RECAP, TABLE, TokenBudget, process_share
from bot.channel.courier import Courier
from bot.channel.delivery import Delivery
from bot.channel.pacing import ChannelPace
from bot.i18n import t, table_language
from bot.interactions.threads import result_line
from bot.screens.attachments import (
    SHEET_FILE,
    score_sheet_picture,
    table_file,
    table_image,
    table_key,
    table_picture,
)
from bot.service.live import FOUR_COLOUR_OPTION
from bot.service.pace import is_relaxed
from bot.views.table import next_deal_row, play_again_row, render_table, sheet_layout
from engine.events import (
    DealEnded,
    GameEnded,
)

if TYPE_CHECKING:
    from bot.service import Change, TableService
    from bot.service.table_snapshot import TableSnapshot

from bot.channel.outbox import CARRIED_TURNS, QUIET_TURNS, RATE, RECENT_LINES, Outbox, Sheet
from bot.channel.placement import Placement
from bot.channel.table_text import (
    change_lines,
    deal_end_text,
    fingerprint,
    relaxed_notices,
    restart_line,
    worth_showing,
)

log = logging.getLogger(__name__)

__all__ = ["RATE", "Outbox", "Publisher", "Sheet"]


class Publisher(Placement):
    """The service's listener on the Discord side."""

    def __init__(
        self,
        bot: Any,
        interval: float = 1.5,
        quiet_interval: float | None = None,
        carried_interval: float | None = None,
        courier: Courier | None = None,
    ) -> None:
        self.bot = bot
        #: The clicks' tokens that may carry a table's messages instead of the bot's token.
        self.courier = courier if courier is not None else Courier()
        self.interval = interval
        #: Whether a turn that begins with its player's hand closed mentions them, which
        #: posts the table message again at the bottom (an edit notifies nobody). The try
        #: session, where one person sees everything, turns it off.
        self.ping_turns = True
        #: The pace of a table whose players all follow their hands: a few turns per edit.
        self.quiet_interval = QUIET_TURNS * interval if quiet_interval is None else quiet_interval
        #: The pace of such a table whose redraws ride on a click (``CARRIED_TURNS``).
        self.carried_interval = (
            CARRIED_TURNS * interval if carried_interval is None else carried_interval
        )
        self.boxes: dict[int, Outbox] = {}
        #: This process's share of the token's calls; every REST call on the token counts.
        shards = getattr(bot, "shard_set", None)
        share = process_share(len(shards.ids), shards.count) if shards is not None else None
        self.budget = TokenBudget() if share is None else TokenBudget(share)
        http = getattr(bot, "http", None)
        if http is not None and hasattr(http, "request"):
            self.budget.attach(http)
        self.edits = 0
        self.notices = 0
        #: Set by ``flush``: outboxes stop pacing and send what they hold at once.
        self._hurry = False
        self.delivery = Delivery(self)
        #: Each channel's recent calls, kept across its tables (``bot.channel.pacing``).
        self.pace = ChannelPace()
        #: Each channel's lines held back while a deal's recap stands alone (by channel).
        self.pausing: dict[int, list[str]] = {}
        #: One-off posts beside the outboxes (a thread's result line in its channel).
        self._side_tasks: set[asyncio.Task[None]] = set()
        add_listener = getattr(bot, "add_listener", None)
        if add_listener is not None:
            add_listener(self.on_message, "on_message")

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[no-any-return]

    def table_changed(self, change: Change) -> None:
        table = change.table
        if change.kind == "abandoned":  # its channel is gone: nothing to show, nowhere
            self.forget(table.channel_id)
            return
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.last = table
        lines = self._lines(change)
        if change.pause_until is not None:  # the recap stands alone; the rest comes after
            self.pausing[table.channel_id] = self.pausing.get(table.channel_id, []) + lines
            lines = []
        else:  # the pause is over (its ``deal`` change, or anything that ended it)
            lines = self.pausing.pop(table.channel_id, []) + lines
        if worth_showing(change):
            box.table = table  # else its lines wait for the next change worth an edit
        box.lines.extend(lines)
        ping = self._ping_for(change)
        # A relaxed table's people were told of their turn when it began (saved once the notice
        # was out) and open their hands afresh each time they come: a restart tells only the
        # one whose turn's notice is due and was not sent.
        quiet_restart = change.kind == "restore" and is_relaxed(table.record.options)
        if quiet_restart:
            ping = self._untold(table)
        untold = table.untold_turn
        if ping is not None and untold is None and is_relaxed(table.record.options):
            ping = None  # this turn's person was told already (before a restart, say)
        # No ping for a present person: their open hand shows the turn, so they are told.
        followed = self.ping_turns and change.new_turn and ping is None
        followed = followed and self._untold(table) is not None
        if untold is not None and followed:
            self._later(self._mark_told(table.id, untold))
        if change.kind == "restore" and not quiet_restart:  # said once, in the next post
            hands = getattr(self.bot, "hands", None)
            line = restart_line(
                change, lambda user: hands is not None and hands.follows(table.id, user), ping
            )
            box.pings.extend([line] if line else [])
        view = table.view
        if ping is not None and view is not None:
            language = table_language(table.record.options)
            key = "notice.your_turn" if view.rules.game == "shanghai" else "notice.your_turn_rummy"
            told = None if untold is None else (table.id, untold)
            self._tell(box, table, ping, t(key, language, user=ping, deal=view.deal), told)
        for user, line in relaxed_notices(change):
            self._tell(box, table, user, line)
        ended = [e for e in change.events if isinstance(e, DealEnded) and e.reason != "void"]
        if view is not None and ended:
            sheet = [list(r) for r in view.score_sheet]
            over = next((e for e in change.events if isinstance(e, GameEnded)), None)
            box.sheets.append(
                Sheet(
                    list(table.names),
                    sheet,
                    table.language,
                    deal_end_text(change, ended[-1], table.language),
                    tuple(over.winners) if over is not None else None,
                )
            )
        if box.table is not None or box.sheets or box.to_strip:
            self._kick(box)
        if any(isinstance(e, GameEnded) for e in change.events):
            line = result_line(table)
            if line is not None and table.record.parent_channel_id is not None:
                self._later(self._tell_parent(table.record.parent_channel_id, table.id, line))

    def _tell(
        self,
        box: Outbox,
        table: TableSnapshot,
        user: int | None,
        line: str,
        told: tuple[int, float] | None = None,
    ) -> None:
        """A notice for ``user`` (None: for everyone): a mention in the table's channel, or a
        direct message for a relaxed table's person who chose that (``dm_users``). ``told``:
        the relaxed turn (table, deadline) the notice starts, saved as told once it is out."""
        if user is not None and user in table.dm_users:
            link = f"https://discord.com/channels/{table.record.guild_id}/{table.channel_id}"
            self._later(self._direct(box, user, f"{line}\n{link}", line, told))
        else:
            self._ping(box, line, told)

    def _ping(self, box: Outbox, line: str, told: tuple[int, float] | None) -> None:
        box.pings.append(line)
        if told is not None:
            box.told.append((line, *told))

    async def _direct(
        self, box: Outbox, user_id: int, text: str, line: str, told: tuple[int, float] | None
    ) -> None:
        """Send ``text`` to ``user_id`` directly; if Discord refuses (their DMs are closed),
        the notice goes to the table's channel after all."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text, allowed_mentions=discord.AllowedMentions.none())
            self.notices += 1
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            log.info("a direct notice was refused (%s); told in the channel", type(error).__name__)
            self._ping(box, line, told)
            self._kick(box)
            return
        if told is not None:
            await self._mark_told(*told)

    async def _mark_told(self, table_id: int, deadline: float) -> None:
        """Save that a relaxed turn's person got its notice; a refused write is logged, and
        the notice may then come again after a restart (better twice than never)."""
        try:
            await self.service.turn_told(table_id, deadline)
        except Exception as error:
            log.info(
                "table %s: the turn's notice is not saved as sent (%s)",
                table_id,
                type(error).__name__,
            )

    def _untold(self, table: TableSnapshot) -> int | None:
        """The person of the relaxed turn whose notice is due (None: none, or a computer's)."""
        view = table.view
        if table.untold_turn is None or view is None or table.closed:
            return None
        seat = view.current
        if table.is_computer(seat) or table.is_away(seat):
            return None
        return int(table.record.seats[seat].user_id)

    def announce(self, table: TableSnapshot, line: str) -> None:
        """A line for the table's channel, posted with its next message (a thread's welcome,
        which mentions the players so the thread is in their list)."""
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.last = box.last or table
        box.lines.append(line)
        box.table = box.table or table
        self._kick(box)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    async def _tell_parent(self, channel_id: int, table_id: int, line: str) -> None:
        """The channel a thread's game came from gets one result line; a
        refusal is logged, not retried: the thread holds the whole result anyway."""
        try:
            channel = await self._channel(channel_id)
            await channel.send(line, allowed_mentions=discord.AllowedMentions.none())
            self.notices += 1
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
            log.info(
                "table %s: the channel did not take the game's result (%s)",
                table_id,
                type(error).__name__,
            )

    def _ping_for(self, change: Change) -> int | None:
        """The person whose turn began and who can't be reached through their open hand."""
        table, view = change.table, change.table.view
        if not (self.ping_turns and change.new_turn) or view is None or view.is_over:
            return None
        if table.closed:
            return None
        seat = view.current
        if table.is_computer(seat) or table.is_away(seat):
            return None
        user_id = table.record.seats[seat].user_id
        hands = getattr(self.bot, "hands", None)
        if hands is not None and hands.follows(table.id, user_id):
            return None
        return int(user_id)

    async def on_message(self, message: discord.Message) -> None:
        """Someone wrote in a table's channel: the table message slides up. (The bot's own
        posts are counted where they are sent.)"""
        me = getattr(self.bot, "user", None)
        if me is not None and message.author.id == me.id:
            return
        box = self.boxes.get(message.channel.id)
        if box is not None:
            box.after += 1

    def forget(self, channel_id: int) -> None:
        """Drop a channel's outbox and whatever it still meant to send there."""
        box = self.boxes.pop(channel_id, None)
        for task in (None, None) if box is None else (box.task, box.late_task):
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()

    def _pause(self, box: Outbox) -> float:
        """How long the table message waits after its last call. ``interval`` when a person
        needs it (a ping, a score sheet, a notice, someone who does not follow their hand, a
        message pushed up). Otherwise it is only read by spectators, since every present
        person follows their open hand, where the turn's controls and the buy window's Buy
        and Pass reach them: ``quiet_interval`` by REST, to spare the token's budget, and
        ``carried_interval`` when the redraw rides on a click (``_rides``). That one costs
        the token nothing but still counts as one of the channel's calls and uploads the
        changed picture with it, so it is paced too, a little faster than the quiet pace."""
        table = box.table
        hands = getattr(self.bot, "hands", None)
        if table is None or hands is None or box.sheets or box.pings or box.after >= 2:
            return self.interval
        if not table.playing or not self._all_follow(table):
            return self.interval
        return self.carried_interval if self._rides(box, TABLE) else self.quiet_interval

    def _all_follow(self, table: TableSnapshot) -> bool:
        """Whether every present person at ``table`` follows their open hand."""
        hands = getattr(self.bot, "hands", None)
        if hands is None:
            return False
        return all(
            hands.follows(table.id, seat.user_id)
            for number, seat in enumerate(table.record.seats)
            if not table.is_computer(number) and not table.is_away(number)
        )

    def _rank(self, box: Outbox) -> int:
        """The budget priority of what ``box`` holds: a ping or a strip before a recap
        before an edit only spectators read (``bot.channel.budget``)."""
        if box.pings or box.to_strip:
            return PING
        if box.sheets or box.lines or box.table is None or not box.table.playing:
            return RECAP
        return TABLE

    def _rides(self, box: Outbox, rank: int) -> bool:
        """Whether what ``box`` holds goes through a click's webhook rather than the token (a
        spectator's edit of a message a young click posted, or a move onto one): then it
        need not wait for the token's room."""
        table = box.table
        if rank != TABLE or table is None:
            return False
        message_id = self._message_id(box, table)
        if self.courier.editor(message_id) is not None:
            return True
        return self.courier.fresh(table.id, table.channel_id) is not None

    def watched(self, table_id: int) -> tuple[int, ...]:
        """The channel side needs no seat's screen."""
        return ()

    def refresh(self, table: TableSnapshot) -> None:
        """Redraw the table message (no notice)."""
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.table = box.last = table
        self._kick(box)

    def posted(self, table: TableSnapshot, message_id: int) -> None:
        """The table message was posted anew by a command (``/shanghai new``, ``table``):
        edits go there from now on, and the messages above it no longer count."""
        box = self.boxes.setdefault(table.channel_id, Outbox(table.channel_id))
        box.message_id, box.after, box.shown, box.picture = message_id, 0, None, None
        box.posted_text = None  # no words on top: stripped, it says that it moved
        box.last = box.last or table

    def _kick(self, box: Outbox) -> None:
        if box.task is None or box.task.done():
            box.task = asyncio.get_running_loop().create_task(
                self._drain(box), name=f"shanghai-outbox-{box.channel_id}"
            )

    async def _drain(self, box: Outbox) -> None:
        loop = asyncio.get_running_loop()
        while box.table is not None or box.sheets or box.to_strip:
            while not self._hurry:
                after = self._pause(box)
                wait = (box.backoff.hold(box.last_sent + after) or 0.0) - loop.time()
                if wait <= 0:
                    break
                box.pacing = True  # nothing taken from the box yet: ``flush`` may cancel this
                try:  # in steps, so a change that can't wait ends a quiet wait early
                    await asyncio.sleep(min(wait, self.interval) if self.interval > 0 else wait)
                finally:
                    box.pacing = False
            rank = self._rank(box)
            busy = rank >= RECAP and not self.budget.has_room(rank)
            if not self._hurry and busy and not self._rides(box, rank):
                box.pacing = True  # the token is busy: what this box holds keeps merging
                try:  # then draws what is latest; a click meanwhile carries it at once
                    await self.budget.wait_room(rank, until=partial(self._rides, box, rank))
                finally:
                    box.pacing = False
            if self.boxes.get(box.channel_id) is not box:
                return  # forgotten while waiting: its channel is gone
            rank = self._rank(box)
            table, box.table = box.table, None
            lines, box.lines = box.lines, []
            sheets, box.sheets = box.sheets, []
            try:
                if lines and sheets and not (table is not None and table.playing):
                    # The deal's last moves open its recap, not a message of their own.
                    sheets[0] = replace(sheets[0], text="\n".join([*lines, sheets[0].text]))
                    lines = []
                with self.budget.tagged(rank):
                    await self._strip_old(box)
                    if box.id_unsaved and box.last is not None:
                        await self._save_message_id(box, box.last.id)
                    if table is not None and table.playing:
                        await self._show_game(box, table, lines)
                        table, lines = None, []
                    else:
                        if table is not None:
                            await self._edit(box, table)
                            table = None
                        await self._send(box, lines)
                while sheets:
                    done = sheets[0]
                    channel = await self._channel(box.channel_id)
                    await self._spend(box)
                    picture = await score_sheet_picture(
                        done.names, done.sheet, done.language, winners=done.winners
                    )
                    rows: list[list[discord.ui.Item[Any]]] = []
                    if done.winners is not None and box.last is not None:  # the game's end
                        rows.append(play_again_row(box.last.id, done.language))
                    elif box.channel_id in self.pausing and box.last is not None:
                        rows.append(next_deal_row(box.last.id, done.language))
                    alt = t("picture.alt_sheet", done.language)
                    with self.budget.tagged(RECAP):
                        await channel.send(
                            view=sheet_layout(done.text, (SHEET_FILE, alt), rows),
                            file=picture,
                            allowed_mentions=discord.AllowedMentions.none(),
                        )
                    box.after += 1
                    self.notices += 1
                    del sheets[0]
            except Exception as error:
                # Give back what did not go out, ahead of anything newer.
                box.table = box.table or table
                box.lines[:0], box.sheets[:0] = lines, sheets
                await self.delivery.failed(box, error, loop.time())
                if self._hurry:  # shutting down: that was the last try
                    log.warning("channel %s still refuses its updates at shutdown", box.channel_id)
                    return
            else:
                self.delivery.delivered(box)
            box.last_sent = loop.time()
        closed = box.last is None or box.last.closed
        if closed and self.boxes.get(box.channel_id) is box:
            del self.boxes[box.channel_id]  # its table has closed and everything is out
            if box.last is not None:
                self.courier.forget(box.last.id)

    async def flush(self) -> None:
        """Send every pending edit and notice now, without pacing, and wait until they are out.

        Shutdown calls this so that the last changes before a restart reach the channel;
        afterwards the publisher stays unpaced, which only matters to a bot about to close.
        """
        self._hurry = True
        if self._side_tasks:
            await asyncio.gather(*self._side_tasks, return_exceptions=True)
        for box in list(self.boxes.values()):
            late = box.late_task
            if late is not None and not late.done():  # a strip waiting for the token's room
                late.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await late
            if box.late:  # the drain strips them now, unpaced
                box.to_strip.extend(box.late)
                box.late.clear()
                self._kick(box)
            if box.task is not None and box.pacing:
                box.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await box.task
                self._kick(box)
        while pending := [b.task for b in self.boxes.values() if b.task and not b.task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def _show_game(self, box: Outbox, table: TableSnapshot, lines: list[str]) -> None:
        """The table message of a game in play: edited in place, or moved when it must be."""
        recent = (box.recent + [line for line in lines if line])[-RECENT_LINES:]
        pings = list(box.pings)
        public = table.view
        assert public is not None
        language = table_language(table.record.options)
        four = bool(table.record.options.get(FOUR_COLOUR_OPTION, False))
        # The picture shows the seats and their melds only (the text says the upcard, the
        # stock and whose turn it is), so most edits keep it: it is drawn and uploaded only
        # when what it draws changed.
        digest = table_key(
            public, table.names, compact=True, language=language, four_colour=four, mark_turn=False
        )

        async def picture() -> bytes:
            return await table_image(
                public,
                table.names,
                compact=True,
                language=language,
                four_colour=four,
                mark_turn=False,
            )

        alt = t("picture.alt_table", language)
        text = "\n".join(recent)
        layout = None
        message_id = self._message_id(box, table)
        move = pings or box.after >= 2 or message_id is None
        # Posted anew if it changed: a message too old to edit, or one a fresher click may
        # carry (it is edited through that click's token from then on).
        handover = self.courier.handover(table.id, message_id, table.channel_id)
        if not move and (self._aged(box, table) or handover):
            layout = render_table(table, news=text, picture=alt)
            if fingerprint(layout) == box.shown and digest == box.picture:
                box.recent = recent
                return
            move = True
        if move:
            posted = "\n".join(x for x in (text, *pings) if x)
            data = await picture()
            if layout is None or posted != text:
                layout = render_table(table, news=posted, picture=alt)
            await self._move(box, table, posted, layout, data)
            # Posted: from here on nothing may post it again (the ping, the lines are out).
            box.picture, box.recent = digest, recent
            del box.pings[: len(pings)]
            sent = [mark for mark in box.told if mark[0] in pings]
            box.told = [mark for mark in box.told if mark[0] not in pings]
            for _, table_id, deadline in sent:
                self._later(self._mark_told(table_id, deadline))
            try:  # at once when it can; else the next round retries it before anything else
                await self._strip_old(box)
            except Exception as error:
                log.info(
                    "channel %s: an old table message keeps its buttons for now (%s)",
                    box.channel_id,
                    type(error).__name__,
                )
            return
        layout = layout or render_table(table, news=text, picture=alt)
        shown = fingerprint(layout)
        changed = digest != box.picture
        if shown == box.shown and not changed:
            box.recent = recent
            return  # nothing visible would change
        files = None  # None: the message keeps the attachment it has, the layout names it
        if changed:
            data = await picture()
            files = [table_file(data, language)]
        if await self._edit_message(box, table, layout, files):
            box.shown = shown
            if changed:
                box.picture = digest
        elif box.gone:  # someone deleted the table message: post it anew
            box.gone = False
            data = await picture()
            await self._move(box, table, text, layout, data, old_gone=True)
            box.picture = digest
        box.recent = recent

    async def _edit(self, box: Outbox, table: TableSnapshot) -> None:
        """The lobby, or a table that ended: its message as it stands; a game that ended
        shows the whole table's picture, uploaded with the edit."""
        language = table_language(table.record.options)
        drawn = table.view is not None and not table.closed
        news = "\n".join(box.recent) if table.view is not None else ""
        alt = t("picture.alt_table", language) if drawn else None
        layout = render_table(table, news=news, picture=alt)
        shown = fingerprint(layout)
        if shown == box.shown:
            return
        box.shown = shown
        attachments: list[discord.File] = []
        if drawn and table.view is not None:
            four = bool(table.record.options.get(FOUR_COLOUR_OPTION, False))
            picture = await table_picture(table.view, table.names, language, four_colour=four)
            attachments.append(picture)
        await self._edit_message(box, table, layout, attachments)

    def _lines(self, change: Change) -> list[str]:
        return change_lines(change)
