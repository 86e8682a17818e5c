"""What the channel sees of a change: one table message, kept at hand and rarely touched.

Discord allows about 5 messages per 5 seconds per channel and 50 requests per second per bot,
so the channel gets as few calls as the players need (issue 10):

- What happened (a discard, a buy, a lay-down) is written into the table message's own text,
  the last few lines of it, instead of a new message per event; a burst of changes becomes a
  single edit drawn from the latest state (one per ``interval``, 1.5 s by default).
- When every present person follows their open hand (their turn, and the buy window's Buy
  and Pass, reach them there), the table message is only read: edits wait ``quiet_interval``
  (5 intervals, 7.5 s), so a turn's draw, discard and window, or two quick turns, are one edit.
- An edit that would show nothing new is not sent, and the table picture is uploaded only
  when it changed (the message keeps its attachment otherwise).
- The table message is *moved* (posted anew at the bottom, the old one deleted) only when it
  must be: a person's turn begins and their open hand can't be updated for them (no live
  interaction), so the new message pings them and offers **My hand**; or other messages have
  pushed it out of the last three. Computers and players who follow their hand get no ping.
- Each channel spends at most 5 calls in any 5 s (``RATE``), waiting otherwise.
- Score sheets after each deal and the final standings are messages of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.channel.delivery import UNKNOWN_MESSAGE, Delivery, new_backoff
from bot.channel.pacing import ChannelPace
from bot.channel.threads import result_line
from bot.i18n import DEFAULT_LANGUAGE, Language, t, table_language
from bot.process.backoff import Backoff
from bot.process.logs import at_table
from bot.screens.attachments import (
    TABLE_FILE,
    score_sheet_picture,
    table_file,
    table_picture,
    table_png,
)
from bot.screens.text import (
    card_text,
    event_lines,
    layoff_item_text,
    meld_text,
    score_sheet_text,
    standings_text,
)
from bot.service.live import FOUR_COLOUR_OPTION
from bot.views.table import render_table
from engine.actions import (
    Action,
    BuyInTurn,
    Discard,
    DrawStock,
    GoDown,
    LayMelds,
    LayOff,
    SwapJoker,
    TakeUpcard,
)
from engine.events import (
    BuyAwarded,
    DealEnded,
    DealStarted,
    Event,
    GameEnded,
    TurnStarted,
    WentDown,
    WentOut,
)

if TYPE_CHECKING:
    from bot.service import Change, TableService
    from bot.service.table_snapshot import TableSnapshot

log = logging.getLogger(__name__)

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)


@dataclass(frozen=True)
class Sheet:
    """A deal's end in the channel: who went out, the scores (words for screen readers and
    members who load no pictures) and the chart, in one message (issue 23.2)."""

    names: list[str]
    sheet: list[list[int]]
    language: Language
    text: str
    winners: tuple[int, ...] | None = None


@dataclass
class Outbox:
    """One channel's pending edit and notice lines."""

    channel_id: int
    #: The table as it should be drawn next (None: nothing to redraw).
    table: TableSnapshot | None = None
    #: The latest snapshot seen, drawn or not: what the channel's table looks like now.
    last: TableSnapshot | None = None
    #: Where the table message is, once this outbox posted it or was told (``posted``), and
    #: the text it was posted with (None: a command posted it, with an embed only).
    message_id: int | None = None
    posted_text: str | None = None
    #: The message id is not recorded in the database yet (its write was refused).
    id_unsaved: bool = False
    #: Table messages moved away from whose controls are still to be taken off: (id, whether
    #: it has text of its own).
    to_strip: list[tuple[int, str | None]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: Score sheets to post after each deal, each one message with its words and picture.
    sheets: list[Sheet] = field(default_factory=list)
    last_sent: float = float("-inf")
    task: asyncio.Task[None] | None = None
    #: True while the drain waits out the pacing interval (and holds nothing in hand).
    pacing: bool = False
    #: The "your turn" lines for the next move of the table message, in order (one normally;
    #: more when Discord refused a move for a while: none is lost).
    pings: list[str] = field(default_factory=list)
    #: The last lines of what happened, shown in the table message's text.
    recent: list[str] = field(default_factory=list)
    #: What the table message shows now (text, embed, buttons) and its picture's digest.
    shown: str | None = None
    picture: str | None = None
    #: Messages posted in the channel since the table message (by anyone).
    after: int = 0
    #: Failed drain rounds in a row (Discord down, a permission revoked): retry later.
    backoff: Backoff = field(default_factory=new_backoff)
    #: Whether the host has been told that the bot lacks a permission here.
    host_told: bool = False
    #: The table message was deleted (an edit found it gone): the next draw posts it anew.
    gone: bool = False


#: At most this many channel calls in any window of this many seconds (Discord's limit).
RATE = (5, 5.0)
#: Lines of what happened kept in the table message's text.
RECENT_LINES = 6
#: When every person follows their open hand (their turn, Buy and Pass reach them there),
#: the table message is only read: it is redrawn at most once per this many ``interval``s,
#: so a turn's draw, discard and window become one edit and quick turns share one.
QUIET_TURNS = 5


class Publisher:
    """The service's listener on the Discord side."""

    def __init__(
        self, bot: Any, interval: float = 1.5, quiet_interval: float | None = None
    ) -> None:
        self.bot = bot
        self.interval = interval
        #: The pace of a table whose players all follow their hands: a few turns per edit.
        self.quiet_interval = QUIET_TURNS * interval if quiet_interval is None else quiet_interval
        self.boxes: dict[int, Outbox] = {}
        self.edits = 0
        self.notices = 0
        #: Set by ``flush``: outboxes stop pacing and send what they hold at once.
        self._hurry = False
        self.delivery = Delivery(self)
        #: Each channel's recent calls, kept across its tables (``bot.channel.pacing``).
        self.pace = ChannelPace()
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
        if worth_showing(change):
            box.table = table  # else its lines wait for the next change worth an edit
        box.lines.extend(lines)
        ping = self._ping_for(change)
        view = table.view
        if ping is not None and view is not None:
            language = table_language(table.record.options)
            key = "notice.your_turn" if view.rules.game == "shanghai" else "notice.your_turn_rummy"
            box.pings.append(t(key, language, user=ping, deal=view.deal))
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
        """The channel a thread's game came from gets one result line (issue 24.2); a
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
        if not change.new_turn or view is None or view.is_over or table.closed:
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

    async def _spend(self, box: Outbox) -> None:
        """Wait until this channel may make another call (``RATE``); unpaced bots don't."""
        if self.interval <= 0 or self._hurry:
            return
        await self.pace.spend(box.channel_id, RATE)  # the channel's, whichever table

    def forget(self, channel_id: int) -> None:
        """Drop a channel's outbox and whatever it still meant to send there."""
        box = self.boxes.pop(channel_id, None)
        task = None if box is None else box.task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    def _quiet(self, box: Outbox) -> bool:
        """Whether the table message may wait ``quiet_interval``: a game in play whose every
        present person follows their open hand, where the turn's controls and the buy
        window's Buy / Pass reach them anyway; no ping, score sheet or notice waits."""
        table = box.table
        hands = getattr(self.bot, "hands", None)
        if table is None or hands is None or box.sheets or box.pings or box.after >= 2:
            return False
        if not table.playing:
            return False
        return all(
            hands.follows(table.id, seat.user_id)
            for number, seat in enumerate(table.record.seats)
            if not table.is_computer(number) and not table.is_away(number)
        )

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
        box.posted_text = None  # an embed only: stripping it would leave it empty
        box.last = box.last or table

    @staticmethod
    def _message_id(box: Outbox, table: TableSnapshot) -> int | None:
        return box.message_id if box.message_id is not None else table.record.message_id

    def _kick(self, box: Outbox) -> None:
        if box.task is None or box.task.done():
            box.task = asyncio.get_running_loop().create_task(
                self._drain(box), name=f"shanghai-outbox-{box.channel_id}"
            )

    async def _drain(self, box: Outbox) -> None:
        loop = asyncio.get_running_loop()
        while box.table is not None or box.sheets or box.to_strip:
            while not self._hurry:
                after = self.quiet_interval if self._quiet(box) else self.interval
                wait = (box.backoff.hold(box.last_sent + after) or 0.0) - loop.time()
                if wait <= 0:
                    break
                box.pacing = True  # nothing taken from the box yet: ``flush`` may cancel this
                try:  # in steps, so a change that can't wait ends a quiet wait early
                    await asyncio.sleep(min(wait, self.interval) if self.interval > 0 else wait)
                finally:
                    box.pacing = False
            if self.boxes.get(box.channel_id) is not box:
                return  # forgotten while waiting: its channel is gone
            table, box.table = box.table, None
            lines, box.lines = box.lines, []
            sheets, box.sheets = box.sheets, []
            try:
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
                    await channel.send(
                        done.text[:2000] or None,
                        file=picture,
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                    box.after += 1
                    self.notices += 1
                    del sheets[0]
            except Exception as error:
                # Give back what did not go out, ahead of anything newer (issue 16.6).
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

    async def flush(self) -> None:
        """Send every pending edit and notice now, without pacing, and wait until they are out.

        Shutdown calls this so that the last changes before a restart reach the channel;
        afterwards the publisher stays unpaced, which only matters to a bot about to close.
        """
        self._hurry = True
        if self._side_tasks:
            await asyncio.gather(*self._side_tasks, return_exceptions=True)
        for box in list(self.boxes.values()):
            if box.task is not None and box.pacing:
                box.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await box.task
                self._kick(box)
        while pending := [b.task for b in self.boxes.values() if b.task and not b.task.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def _show_game(self, box: Outbox, table: TableSnapshot, lines: list[str]) -> None:
        """The table message of a game in play: edited in place, or moved when it must be."""
        recent = (box.recent + [line for line in lines if line])[-RECENT_LINES:]
        pings = list(box.pings)
        embed, view = render_table(table)
        public = table.view
        assert public is not None
        language = table_language(table.record.options)
        four = bool(table.record.options.get(FOUR_COLOUR_OPTION, False))
        png = await table_png(
            public, table.names, compact=True, language=language, four_colour=four
        )
        digest = hashlib.sha1(png).hexdigest()
        embed.set_image(url=f"attachment://{TABLE_FILE}")
        text = "\n".join(recent)
        if pings or box.after >= 2 or self._message_id(box, table) is None:
            posted = "\n".join(x for x in (text, *pings) if x)
            await self._move(box, table, posted, embed, view, png)
            # Posted: from here on nothing may post it again (the ping, the lines are out).
            box.picture, box.recent = digest, recent
            del box.pings[: len(pings)]
            try:  # at once when it can; else the next round retries it before anything else
                await self._strip_old(box)
            except Exception as error:
                log.info(
                    "channel %s: an old table message keeps its buttons for now (%s)",
                    box.channel_id,
                    type(error).__name__,
                )
            return
        shown = _fingerprint(text, embed, view)
        if shown == box.shown and digest == box.picture:
            box.recent = recent
            return  # nothing visible would change
        files = [table_file(png, language)] if digest != box.picture else None
        if await self._edit_message(box, table, text, embed, view, files):
            box.shown, box.picture = shown, digest
        elif box.gone:  # someone deleted the table message: post it anew (issue 24.5)
            box.gone = False
            await self._move(box, table, text, embed, view, png, old_gone=True)
            box.picture = digest
        box.recent = recent

    async def _move(
        self,
        box: Outbox,
        table: TableSnapshot,
        text: str,
        embed: discord.Embed,
        view: discord.ui.View | None,
        png: bytes,
        *,
        old_gone: bool = False,
    ) -> None:
        """Post the table message anew at the bottom; the old one keeps only its text (what
        happened, the ping), so the channel reads as a short log with one table at the end.
        ``old_gone``: the old one was deleted, so there is nothing to strip."""
        channel = await self._channel(table.channel_id)
        old = None if old_gone else self._message_id(box, table)
        await self._spend(box)
        language = table_language(table.record.options)
        kwargs: dict[str, Any] = {"embed": embed, "file": table_file(png, language)}
        if view is not None:
            kwargs["view"] = view
        message = await channel.send(text[:2000] or None, allowed_mentions=MENTION_USERS, **kwargs)
        self.notices += 1
        if old is not None:  # stripped by ``_strip_old``, retried until it is (issue 25.3)
            box.to_strip.append((old, box.posted_text or None))
        box.message_id, box.posted_text, box.after = message.id, text, 0
        box.shown = _fingerprint(text, embed, view)
        box.id_unsaved = True
        await self._save_message_id(box, table.id)

    async def _save_message_id(self, box: Outbox, table_id: int) -> None:
        """Record where the table message is; a refused write is retried with the next round
        (the message is posted already, so nothing is posted again for it)."""
        if not box.id_unsaved or box.message_id is None:
            return
        try:
            await self.service.set_message(table_id, box.message_id)
            box.id_unsaved = False
        except Exception as error:
            log.warning("table %s: could not record its message (%s)", table_id, error)

    async def _strip_old(self, box: Outbox) -> None:
        """Take the controls and picture off the table messages that were moved away from, so
        only the newest one has live buttons. A message that had no text gets one line, since
        Discord refuses to leave a message with nothing in it (50006). A failure leaves the
        rest queued and is retried before the next round posts anything."""
        if not box.to_strip:
            return
        channel = await self._channel(box.channel_id)
        language = box.last.language if box.last is not None else DEFAULT_LANGUAGE
        while box.to_strip:
            old, had_text = box.to_strip[0]
            await self._spend(box)
            kwargs: dict[str, Any] = {"embed": None, "view": None, "attachments": []}
            if not had_text:
                kwargs["content"] = t("table.moved", language)
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(old).edit(**kwargs)
            del box.to_strip[0]

    async def _edit_message(
        self,
        box: Outbox,
        table: TableSnapshot,
        text: str | None,
        embed: discord.Embed | None,
        view: discord.ui.View | None,
        files: list[discord.File] | None,
    ) -> bool:
        message_id = self._message_id(box, table)
        if message_id is None:
            return False
        channel = await self._channel(table.channel_id)
        kwargs: dict[str, Any] = {"embed": embed, "view": view}
        if text is not None:
            kwargs["content"] = text[:2000]
        if files is not None:
            kwargs["attachments"] = files
        await self._spend(box)
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
            self.edits += 1
            return True
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.info("%s: its message is gone; posting it anew", at_table(table))
            box.gone = True
            return False

    async def _edit(self, box: Outbox, table: TableSnapshot) -> None:
        """The lobby, or a table that ended: its message as it stands, without a picture."""
        embed, view = render_table(table)
        if embed is not None:
            shown = _fingerprint("", embed, view)
            if shown == box.shown:
                return
            box.shown = shown
        attachments: list[discord.File] = []
        if table.view is not None and not table.closed and embed is not None:
            language = table_language(table.record.options)
            four = bool(table.record.options.get(FOUR_COLOUR_OPTION, False))
            picture = await table_picture(table.view, table.names, language, four_colour=four)
            attachments.append(picture)
            embed.set_image(url=f"attachment://{TABLE_FILE}")
        content = "\n".join(box.recent) if table.view is not None and box.recent else None
        await self._edit_message(box, table, content, embed, view, attachments)

    async def _send(self, box: Outbox, lines: list[str]) -> None:
        """Post ``lines`` in messages of at most 2,000 characters, whole lines where they fit.

        Lines are removed from ``lines`` as their message goes out, so after a failure the list
        holds exactly what the channel has not seen.
        """
        if not lines:
            return
        channel = await self._channel(box.channel_id)
        while lines:
            count, size = 0, 0
            while count < len(lines) and size + len(lines[count]) + (count > 0) <= 2000:
                size += len(lines[count]) + (count > 0)
                count += 1
            await self._spend(box)
            if count == 0:  # one line longer than a message: send its first part
                head, lines[0] = lines[0][:2000], lines[0][2000:]
                await channel.send(head, allowed_mentions=MENTION_USERS)
            else:
                await channel.send("\n".join(lines[:count]), allowed_mentions=MENTION_USERS)
                del lines[:count]
            box.after += 1
            self.notices += 1

    # -- what to say ---------------------------------------------------------------------------

    def _lines(self, change: Change) -> list[str]:
        table = change.table
        names = table.names
        language = table_language(table.record.options)
        lines: list[str] = []
        if change.kind == "restore":
            # The hands opened before the restart can't be followed (their interaction tokens
            # were in memory): each person is told in this one ping to open theirs again.
            people = [
                f"<@{seat.user_id}>"
                for number, seat in enumerate(table.record.seats)
                if not table.is_computer(number)
            ]
            return [t("notice.restarted", language, players=", ".join(people))]
        if change.kind in ("lobby", "window"):
            return lines
        if change.kind == "end":
            why = change.note or t("notice.ended", language)
            return [t("notice.start_new", language, why=why)]
        if change.kind in ("left", "kick", "gone") and change.seat is not None:
            name = names[change.seat]
            keys = {"left": "notice.left", "kick": "notice.kicked", "gone": "notice.left_server"}
            return [t(keys[change.kind], language, name=name)]
        if change.auto_seat is not None:
            name = names[change.auto_seat]
            if change.auto_actions and isinstance(change.auto_actions[-1], Discard):
                key = "notice.timeout_did" if change.kind == "timeout" else "notice.away_did"
                did = did_text(change.auto_actions, language)
                lines.append(t(key, language, name=name, did=did))
                if change.kind == "timeout" and table.is_away(change.auto_seat):
                    lines.append(t("notice.now_away", language, name=name))
        # A deal's end (who went out, an exhausted deal) goes in the score sheet's message.
        lines.extend(event_lines(_other_events(change.events), names, language))
        return lines


def _deal_end_events(events: list[Event]) -> list[Event]:
    """The events the deal's score sheet message words, when a deal ended among ``events``."""
    if not any(isinstance(e, DealEnded) and e.reason != "void" for e in events):
        return []
    return [e for e in events if isinstance(e, (WentOut, DealEnded))]


def _other_events(events: list[Event]) -> list[Event]:
    """The events the table message's recent lines word: all but the deal's end."""
    ending = _deal_end_events(events)
    return [e for e in events if not any(e is end for end in ending)]


def deal_end_text(change: Change, ended: DealEnded, language: Language) -> str:
    """The score sheet message's words: who went out (a blind out celebrated), the sheet
    after the deal, and at the game's end the final standings."""
    table = change.table
    names = table.names
    view = table.view
    assert view is not None
    parts = [line for line in event_lines(_deal_end_events(change.events), names, language) if line]
    key = "notice.sheet_after_deal" if view.rules.game == "shanghai" else "notice.sheet_after_hand"
    parts.append(t(key, language, deal=ended.deal))
    parts.append(score_sheet_text(names, view.score_sheet, language))
    over = next((e for e in change.events if isinstance(e, GameEnded)), None)
    if over is not None:
        parts.append(t("notice.game_over", language))
        parts.append(standings_text(names, list(over.totals), over.winners))
    return "\n".join(parts)


def did_text(actions: list[Action], language: Language = DEFAULT_LANGUAGE) -> str:
    """What the bot did for a seat, in order: ``drew from the stock, went down, laid off 7♥
    on #2 and discarded K♠`` (the timeout notice names every step, not a fixed phrase)."""
    parts: list[str] = []
    and_ = t("did.and", language)
    for action in actions:
        if isinstance(action, DrawStock):
            parts.append(t("did.drew", language))
        elif isinstance(action, TakeUpcard):
            parts.append(t("did.took", language))
        elif isinstance(action, BuyInTurn):
            parts.append(t("did.bought", language))
        elif isinstance(action, GoDown):
            parts.append(t("did.went_down", language))
        elif isinstance(action, LayMelds):
            melds = and_.join(meld_text(m, language) for m in action.melds)
            parts.append(t("did.laid", language, melds=melds))
        elif isinstance(action, LayOff):
            items = ", ".join(layoff_item_text(i, language) for i in action.items)
            parts.append(t("did.laid_off", language, items=items))
        elif isinstance(action, SwapJoker):
            parts.append(t("did.swapped", language, card=card_text(action.swap.card)))
        elif isinstance(action, Discard):
            parts.append(t("did.discarded", language, card=card_text(action.card)))
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + and_ + parts[-1]
    return parts[0] if parts else t("did.played", language)


def _fingerprint(text: str, embed: discord.Embed | None, view: discord.ui.View | None) -> str:
    """What a table message shows, to skip edits that would change nothing."""
    parts = {
        "text": text,
        "embed": embed.to_dict() if embed is not None else None,
        "view": view.to_components() if view is not None else None,
    }
    return hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


#: Events that change what the table message must show at once: a new upcard on offer (the
#: turn passed), a new deal, the end, and the news players wait for (a buy awarded, a player
#: down). Everything else in a turn (a draw, a lay-off, a window that closes) is shown with
#: the turn's end, a few seconds later, in the same edit; meanwhile the window's countdown
#: says it closed and a stale Buy button answers so.
VISIBLE = (TurnStarted, DealStarted, DealEnded, GameEnded, WentOut, BuyAwarded, WentDown)


def worth_showing(change: Change) -> bool:
    """Whether ``change`` needs the table message redrawn now (issue 10: a third of the calls)."""
    view = change.table.view
    if change.kind not in ("act", "timeout", "window") or view is None or view.is_over:
        return True  # lobby, start, end, away, kicks, departures and the end: always shown
    return any(isinstance(event, VISIBLE) for event in change.events)
