"""What the publisher does when Discord refuses a table edit or a notice.

Before, the outbox dropped the table and its notice lines on any exception: the message kept
an old state (live Buy buttons on a finished game, if that was the last change) and that
batch's "your turn" ping was lost; with a permanent 403 nobody learnt that the bot could not
post. Now every failure is sorted into one of four kinds:

- *gone*: 404 Unknown Channel, or a 403 from a server the bot is no longer in. The channel will
  not come back: its table is abandoned (``TableService.abandon``) and the outbox dropped.
- *permission*: any other 403. What did not go out stays queued, in order, and is retried with
  back-off; the host gets one direct message naming the missing permissions, again only after
  a delivery has succeeded in between.
- *transient*: other HTTP errors, timeouts, connection errors. Queued and retried with
  back-off (2 s doubling to a minute), one log line per run of failures, no traceback.
- *bug*: anything else (a rendering error). Retrying would repeat it forever, so it is logged
  with its traceback and that batch is dropped, as before.

An outbox whose channel has no open table any more gives up after ``GIVE_UP_AFTER`` failures in
a row, so a closed table in a channel the bot lost access to is not retried for ever.
"""

from __future__ import annotations

import logging
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

import aiohttp
import discord

from bot.ground.logs import at_ids, at_table
from bot.i18n import DEFAULT_LANGUAGE, Language, t, table_language
from bot.interactions.permissions import NEEDED

if TYPE_CHECKING:
    from bot.channel.outbox import Outbox
    from bot.service import TableService

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
#: A post to an archived thread that Discord did not un-archive by itself.
THREAD_ARCHIVED = 50083
GIVE_UP_AFTER = 8
#: Notice lines an outbox keeps while its channel refuses them; older ones are summarised.
MAX_QUEUED_LINES = 400


class Fault(Enum):
    GONE = "gone"
    PERMISSION = "permission"
    TRANSIENT = "transient"
    BUG = "bug"


def classify(error: BaseException, bot: Any, guild_id: int | None) -> Fault:
    """Which kind of failure ``error`` is, for a channel of server ``guild_id``."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return Fault.GONE
    if isinstance(error, discord.Forbidden):
        if guild_id is not None and bot.get_guild(guild_id) is None:
            return Fault.GONE
        return Fault.PERMISSION
    if isinstance(error, (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)):
        return Fault.TRANSIENT
    return Fault.BUG


def may_have_landed(error: BaseException) -> bool:
    """Whether a post that failed with ``error`` may be in the channel all the same: Discord
    can answer 500 (or not answer in time) after the message was made."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, (aiohttp.ClientError, OSError, TimeoutError))


def has_controls(message: discord.Message) -> bool:
    """Whether ``message`` has a button or a select anywhere, nested in a Components V2
    layout too (a score sheet or a moved table message has words and no controls)."""

    def walk(items: Any) -> bool:
        for item in items or ():
            if isinstance(item, (discord.Button, discord.SelectMenu)):
                return True
            accessory = getattr(item, "accessory", None)
            nested = [*(getattr(item, "children", None) or ()), *([accessory] if accessory else [])]
            if walk(nested):
                return True
        return False

    return walk(message.components)


def news_of(message: discord.Message) -> str | None:
    """The words on top of a Components V2 table message (what happened, the ping), which
    its content held before: what it keeps once stripped."""
    first = message.components[0] if message.components else None
    if isinstance(first, discord.TextDisplay):
        return first.content or None
    return None


#: How far back a stray table message is looked for (the retry comes soon after the failure).
STRAY_LOOKBACK = 20


async def strays(
    channel: Any, bot_id: int, after: int | None, keep: int
) -> list[tuple[int, str | None]]:
    """The bot's messages with live controls posted since ``after`` (the table message moved
    away from), other than ``keep``: posts Discord made despite a failure, to be stripped as a
    moved-away table message is. Nothing is found without ``after`` (an older message with
    controls, such as a finished game's **Play again**, is not the moving table's)."""
    if after is None:
        return []
    found: list[tuple[int, str | None]] = []
    try:
        async for message in channel.history(limit=STRAY_LOOKBACK, after=discord.Object(after)):
            if message.author.id == bot_id and has_controls(message) and message.id != keep:
                found.append((message.id, message.content or news_of(message)))
    except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as error:
        log.info(
            "channel %s: could not look for stray table messages (%s)", channel.id, _summary(error)
        )
    return found


def missing_permissions(bot: Any, channel_id: int) -> list[str]:
    """The permission flags the bot lacks in the channel (may be empty if the channel is not
    in the cache)."""
    channel = bot.get_channel(channel_id)
    guild = getattr(channel, "guild", None)
    if channel is None or guild is None or guild.me is None:
        return []
    have = channel.permissions_for(guild.me)
    return [name for name in NEEDED if not getattr(have, name)]


class Served(Protocol):
    """What the delivery needs of the publisher it serves: the bot, the table service, and a
    way to forget a channel. Named here so the delivery sits below the publisher."""

    bot: Any

    @property
    def service(self) -> TableService: ...

    def forget(self, channel_id: int) -> None: ...


class Delivery:
    """The publisher's handling of failed deliveries; one per publisher."""

    def __init__(self, publisher: Served) -> None:
        self.publisher = publisher

    @property
    def bot(self) -> Any:
        return self.publisher.bot

    def delivered(self, box: Outbox) -> None:
        """A drain round went out in full."""
        if failures := box.backoff.succeeded():
            log.info("channel %s takes updates again after %d failure(s)", box.channel_id, failures)
        box.host_told = False

    async def failed(self, box: Outbox, error: BaseException, now: float) -> None:
        """A drain round failed with ``error`` (what did not go out is back in ``box``)."""
        table = box.last if box.last is not None and not box.last.closed else None
        guild_id = table.record.guild_id if table is not None else None
        fault = classify(error, self.bot, guild_id)
        if fault is Fault.GONE:
            if table is not None:
                await self.publisher.service.abandon(table.id, "its channel is gone")
            self.publisher.forget(box.channel_id)
            return
        if fault is Fault.BUG:
            log.error(
                "%s: could not update channel %s; dropping that update",
                at_table(table) if table is not None else "no table",
                box.channel_id,
                exc_info=(type(error), error, error.__traceback__),
            )
            box.table, box.lines, box.sheets = None, [], []
            return
        if isinstance(error, discord.HTTPException) and error.code == THREAD_ARCHIVED:
            await self._unarchive(box.channel_id)
        first = box.backoff.failed(now)
        if first:
            log.warning(
                "%s: could not update channel %s (%s); retrying with back-off",
                at_table(table) if table is not None else "no table",
                box.channel_id,
                _summary(error),
            )
        _trim(box, table_language(table.record.options) if table is not None else DEFAULT_LANGUAGE)
        if table is None and box.backoff.failures >= GIVE_UP_AFTER:
            log.warning("giving up on channel %s: its table has closed", box.channel_id)
            self.publisher.forget(box.channel_id)
            return
        if fault is Fault.PERMISSION and table is not None and not box.host_told:
            box.host_told = True
            language = table_language(table.record.options)
            await self._tell_host(
                table.record.host_id, table.id, box.channel_id, language, table.record.guild_id
            )

    async def _unarchive(self, thread_id: int) -> None:
        """Open a game's archived thread again, so the retry goes out (a thread auto-archives
        after a day without messages; a game may be left overnight)."""
        try:
            channel = self.bot.get_channel(thread_id) or await self.bot.fetch_channel(thread_id)
            if isinstance(channel, discord.Thread):
                await channel.edit(archived=False)
                log.info("thread %s was archived: opened it again", thread_id)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.info("thread %s stays archived (%s)", thread_id, _summary(error))

    async def _tell_host(
        self,
        host_id: int,
        table_id: int,
        channel_id: int,
        language: Language = DEFAULT_LANGUAGE,
        guild_id: int | None = None,
    ) -> None:
        missing = missing_permissions(self.bot, channel_id) or list(NEEDED)
        # Discord's own names for them, as the host's settings show them in that language.
        names = ", ".join(f"**{t(f'permission.{flag}', language)}**" for flag in missing)
        text = t(
            "notice.missing_permissions",
            language,
            table=table_id,
            channel=channel_id,
            missing=names,
        )
        try:
            user = self.bot.get_user(host_id) or await self.bot.fetch_user(host_id)
            await user.send(text)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError):
            where = at_ids(guild_id, table_id)
            log.info("%s: could not tell the host about missing permissions", where)


def _trim(box: Outbox, language: Language = DEFAULT_LANGUAGE) -> None:
    """Keep a refused channel's queue bounded: the newest lines, and how many were left out."""
    extra = len(box.lines) - MAX_QUEUED_LINES
    if extra > 0:
        box.lines[: extra + 1] = [t("notice.left_out", language, count=extra + 1)]


def _summary(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}, code {error.code}"
    return type(error).__name__
