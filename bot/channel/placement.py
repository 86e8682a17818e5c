"""Where the table message is: posted anew at the bottom, edited in place, stripped when moved
away from, and its id recorded; and the plain notice messages beside it.

Every call spends the channel's pace first (``RATE``). ``Publisher`` decides what to draw and
when; these steps only place what it drew. A table message goes through a person's click when
the ``Courier`` holds one young enough (posted as the click's public follow-up, edited and
stripped through the token that posted it), else through the bot's REST calls; a click's
webhook that fails hands the same call to REST.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.channel.budget import STRIP, TokenBudget
from bot.channel.courier import Carrier, Courier
from bot.channel.delivery import UNKNOWN_MESSAGE, may_have_landed, strays
from bot.channel.outbox import RATE, Outbox
from bot.channel.pacing import ChannelPace
from bot.channel.table_text import fingerprint
from bot.ground.logs import at_table
from bot.i18n import DEFAULT_LANGUAGE, t, table_language
from bot.screens.attachments import (
    table_file,
)
from bot.views.table import plain_layout, render_table

if TYPE_CHECKING:
    from bot.service import TableService
    from bot.service.table_snapshot import TableSnapshot

log = logging.getLogger(__name__)

#: The age (seconds) from which the table message is posted anew rather than edited: Discord
#: limits edits of messages older than an hour much more strictly (error 30046), so a game
#: that lasts days keeps a margin under that hour.
EDIT_AGE_LIMIT = 55 * 60.0

MENTION_USERS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)


def left_behind(posted: str | None, reposted: str) -> str | None:
    """The words a moved table message keeps: the lines it was posted with that its new copy
    does not show again (its ping, a deal's last moves gone from the news). A line the new
    copy shows, such as a deal's seed hash, stays in one message only, so the thread reads
    each thing once. None: nothing of its own is left (it then says that it moved)."""
    if not posted:
        return None
    again = set(reposted.splitlines())
    kept = [line for line in posted.splitlines() if line and line not in again]
    return "\n".join(kept) or None


class Placement:
    """The table message's placement in its channel, and the channel calls that place it."""

    bot: Any
    interval: float
    pace: ChannelPace
    courier: Courier
    budget: TokenBudget
    edits: int
    notices: int
    _hurry: bool

    @property
    def service(self) -> TableService:
        return self.bot.service  # type: ignore[no-any-return]

    async def _channel(self, channel_id: int) -> Any:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel

    async def _spend(self, box: Outbox) -> None:
        """Wait until this channel may make another call (``RATE``); unpaced bots don't."""
        if self.interval <= 0 or self._hurry:
            return
        await self.pace.spend(box.channel_id, RATE)  # the channel's, whichever table

    @staticmethod
    def _message_id(box: Outbox, table: TableSnapshot) -> int | None:
        return box.message_id if box.message_id is not None else table.record.message_id

    def _aged(self, box: Outbox, table: TableSnapshot) -> bool:
        """Whether the table message is too old to edit (``EDIT_AGE_LIMIT``), by the time its
        id carries and Discord's clock."""
        message_id = self._message_id(box, table)
        if message_id is None:
            return False
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return discord.utils.utcnow().timestamp() - posted >= EDIT_AGE_LIMIT

    async def _move(
        self,
        box: Outbox,
        table: TableSnapshot,
        text: str,
        layout: discord.ui.LayoutView,
        picture: bytes,
        *,
        old_gone: bool = False,
    ) -> None:
        """Post the table message (``layout``, with ``text`` on top) anew at the bottom; the
        old one keeps only its text (what happened, the ping), so the channel reads as a short
        log with one table at the end. ``old_gone``: the old one was deleted, so there is
        nothing to strip.

        By REST the old one is stripped *before* the new one is posted, so that from the
        moment the new one is in the channel it is the only message with live table controls,
        whatever Discord refuses on the way. A refused strip posts nothing (the old message
        stays the live one until the retry). A refused post gives the old message its
        controls back, drawn as now, unless the post may have landed despite its error (a
        5xx, a timeout): then the channel is looked at, and a post found there becomes the
        table message.

        Onto a click (the courier holds a fresh one) the new copy is posted *first*: it costs
        the token nothing and shows the game at once, while the old one's strip is a call on
        the token that would otherwise hold the move up, and many tables starting together
        would queue a strip each. The old copy is stripped afterwards at the lowest priority
        (``_strip_later``); meanwhile its controls still work, since they act on the table,
        not on the message (a hand opened there is the same hand), so for those seconds two
        messages have controls and then only the new one."""
        channel = await self._channel(table.channel_id)
        old = None if old_gone else self._message_id(box, table)
        fresh = self.courier.fresh(table.id, table.channel_id) is not None
        later = old is not None and old != box.stripped and fresh
        kept = None if old is None else left_behind(box.posted_text, text)
        if not later:
            if old is not None and old != box.stripped:
                box.to_strip.append((old, kept))
            await self._strip_old(box)
            box.stripped = old
        await self._spend(box)
        try:
            message = await self._post(table, channel, layout, picture)
        except Exception as error:
            landed_maybe = may_have_landed(error)
            found = await strays(channel, self.bot.user.id, old, 0) if landed_maybe else []
            if found:  # it landed, ping and all: it is the table message, drawn anew
                landed = max(found)
                box.to_strip.extend(stray for stray in found if stray != landed)
                if later and old is not None:
                    self._strip_later(box, old, kept)
                await self._adopt(box, table, landed[0], text, layout, picture)
                return
            if old is not None and not later:  # stripped ahead: its controls come back
                await self._restore(box, table, picture)
            raise
        self.notices += 1
        if later and old is not None:
            self._strip_later(box, old, kept)
        box.stripped = None
        box.message_id, box.posted_text, box.after = message.id, text, 0
        box.shown = fingerprint(layout)
        box.id_unsaved = True
        await self._save_message_id(box, table.id)

    async def _post(
        self, table: TableSnapshot, channel: Any, layout: discord.ui.LayoutView, picture: bytes
    ) -> Any:
        """Post the table message: as the public follow-up of a person's recent click when the
        courier holds one (no call on the token), else in the channel. A follow-up refused
        outright goes the REST way; one that may have landed raises, for ``_move`` to look."""
        language = table_language(table.record.options)
        carrier = self.courier.fresh(table.id, table.channel_id)
        if carrier is not None:
            try:
                message = await carrier.webhook.send(
                    view=layout,
                    file=table_file(picture, language),
                    allowed_mentions=MENTION_USERS,
                    wait=True,
                )
            except Exception as error:
                if may_have_landed(error):
                    raise
                self._carrier_failed(table.channel_id, carrier, error)
            else:
                self.courier.posted(carrier, message.id)
                self.courier.carried += 1
                return message
        return await channel.send(
            view=layout, file=table_file(picture, language), allowed_mentions=MENTION_USERS
        )

    def _carrier_failed(self, channel_id: int, carrier: Carrier, error: BaseException) -> None:
        """A click's webhook refused a call (its token ran out, Discord said no): it carries
        nothing more, and the call goes the REST way."""
        self.courier.dropped(carrier)
        status = error.status if isinstance(error, discord.HTTPException) else type(error).__name__
        log.info("channel %s: a click's webhook refused a call (%s); by REST", channel_id, status)

    async def _restore(self, box: Outbox, table: TableSnapshot, picture: bytes) -> None:
        """The move's post did not land: the stripped table message gets its controls back,
        drawn as now under its own words (the new ping waits for the move), so the channel
        keeps one live table until the move is retried."""
        language = table_language(table.record.options)
        alt = t("picture.alt_table", language)
        layout = render_table(table, news=box.posted_text or "", picture=alt)
        files = [table_file(picture, language)]
        try:
            if await self._edit_message(box, table, layout, files):
                box.stripped, box.shown = None, fingerprint(layout)
        except Exception as error:
            log.info(
                "%s: the table message waits for the retry without controls (%s)",
                at_table(table),
                type(error).__name__,
            )

    async def _adopt(
        self,
        box: Outbox,
        table: TableSnapshot,
        message_id: int,
        text: str,
        layout: discord.ui.LayoutView,
        picture: bytes,
    ) -> None:
        """Make ``message_id``, a post that landed despite its error, the table message, and
        edit it into ``layout`` (it shows the try that failed). Its ping went out with it, so
        the move is done even if this edit or a strip is refused: the next round retries the
        strips, and the next change draws the table again."""
        box.message_id, box.posted_text, box.after, box.stripped = message_id, text, 0, None
        box.shown, box.id_unsaved = None, True
        await self._save_message_id(box, table.id)
        files = [table_file(picture, table_language(table.record.options))]
        try:
            await self._strip_old(box)
            if await self._edit_message(box, table, layout, files):
                box.shown = fingerprint(layout)
        except Exception as error:
            log.info(
                "%s: the table message waits for its next edit (%s)",
                at_table(table),
                type(error).__name__,
            )

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
        Discord refuses to leave a message with nothing in it (50006). The text goes in a
        Components V2 text display, which a message posted by an older release (content and an
        embed) takes too once its content and embeds are cleared. A failure leaves the rest
        queued and is retried before the next round posts anything."""
        while box.to_strip:
            await self._strip(box, *box.to_strip[0])
            del box.to_strip[0]

    async def _strip(self, box: Outbox, old: int, had_text: str | None) -> None:
        """Take the controls and picture off ``old``: through the click's webhook that posted
        it while its token lives, else by REST (a message gone is stripped already)."""
        channel = await self._channel(box.channel_id)
        language = box.last.language if box.last is not None else DEFAULT_LANGUAGE
        await self._spend(box)
        words = had_text or t("table.moved", language)
        fields: dict[str, Any] = {
            "content": None,
            "embeds": [],
            "attachments": [],
            "view": plain_layout(words),
        }
        with contextlib.suppress(discord.NotFound):
            if not await self._carried_edit(box.channel_id, old, fields):
                await channel.get_partial_message(old).edit(**fields)

    def _strip_later(self, box: Outbox, old: int, had_text: str | None) -> None:
        """Strip ``old`` once the token has room for its lowest priority (``STRIP``: after
        even the spectators' redraws), in a task of its own so the table's redraws never wait
        for it."""
        box.late.append((old, had_text))
        if box.late_task is None or box.late_task.done():
            box.late_task = asyncio.get_running_loop().create_task(
                self._strip_late(box), name=f"shanghai-strip-{box.channel_id}"
            )

    async def _strip_late(self, box: Outbox) -> None:
        """The strips left behind by moves onto clicks, one at a time, at the lowest priority:
        nothing a player needs waits behind them. A refused one goes to ``to_strip``, which
        the next round retries before it posts anything."""
        while box.late:
            old, had_text = box.late[0]
            carried = self.courier.editor(old) is not None
            if not (carried or self._hurry):
                await self.budget.wait_room(STRIP)
            try:
                with self.budget.tagged(STRIP):
                    await self._strip(box, old, had_text)
            except Exception as error:
                log.info(
                    "channel %s: an old table message keeps its buttons for now (%s)",
                    box.channel_id,
                    type(error).__name__,
                )
                box.to_strip.append((old, had_text))
            del box.late[0]

    async def _edit_message(
        self,
        box: Outbox,
        table: TableSnapshot,
        layout: discord.ui.LayoutView,
        files: list[discord.File] | None,
    ) -> bool:
        """Edit the table message into ``layout``; ``files`` None keeps its attachments (the
        layout names them), a list replaces them. Content and embeds are cleared every time: a
        message posted by an older release has them, and a Components V2 message may not."""
        message_id = self._message_id(box, table)
        if message_id is None:
            return False
        channel = await self._channel(table.channel_id)
        kwargs: dict[str, Any] = {"content": None, "embeds": [], "view": layout}
        if files is not None:
            kwargs["attachments"] = files
        await self._spend(box)
        try:
            if not await self._carried_edit(table.channel_id, message_id, kwargs):
                await channel.get_partial_message(message_id).edit(**kwargs)
            self.edits += 1
            return True
        except discord.NotFound as error:
            if error.code != UNKNOWN_MESSAGE:
                raise
            log.info("%s: its message is gone; posting it anew", at_table(table))
            box.gone = True
            return False

    async def _carried_edit(self, channel_id: int, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit ``message_id`` through the click's webhook that posted it, while its token may
        (``Courier.editor``); False: no such token, or it refused, and REST is to edit it. A
        message gone raises ``NotFound`` as the REST edit would."""
        carrier = self.courier.editor(message_id)
        if carrier is None:
            return False
        try:
            await carrier.webhook.edit_message(message_id, **fields)
        except discord.NotFound as error:
            if error.code == UNKNOWN_MESSAGE:
                raise
            self._carrier_failed(channel_id, carrier, error)
            return False
        except Exception as error:
            if isinstance(error, discord.HTTPException) and error.status >= 500:
                raise  # Discord's trouble, not the token's: retried with back-off
            self._carrier_failed(channel_id, carrier, error)
            for file in fields.get("attachments", ()):
                if isinstance(file, discord.File):
                    file.reset()
            return False
        self.courier.carried += 1
        return True

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
