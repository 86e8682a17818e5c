"""The Discord side of events: the runner's ``Hall`` (a thread per table, the event message,
a line in the event's channel) and the event message's buttons.

Apart from the cog (``bot.cogs.events``) because the bot builds the hall in ``setup_hook``
with the table service's other listeners, and an extension's module is loaded as a copy of
its own: classes shared by both must live in an ordinary module.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, Final, Protocol, cast

import discord

from bot.events.event_text import event_text
from bot.ground.errors import UserError
from bot.i18n import Language, t
from bot.interactions.controls import Control
from bot.interactions.ids import parse_id
from data.events import EventRecord

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.events.runner import EventView

#: How long a table's thread stays visible without activity, in minutes (a day).
ARCHIVE_MINUTES: Final = 1440


class Clicks(Protocol):
    """What answers the event message's buttons (the ``Events`` cog)."""

    async def clicked(
        self, interaction: discord.Interaction[Any], event_id: int, what: str
    ) -> None: ...


def event_language(event: EventRecord) -> Language:
    """The language the event was opened in (its message, its tables)."""
    language = event.options.get("language", "en")
    return language if language in ("en", "nl", "es") else "en"


class DiscordHall:
    """The runner's Discord side: threads for tables, the event message, a line in the
    event's channel."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    async def open_thread(
        self, event: EventRecord, name: str, members: Collection[int] = ()
    ) -> int:
        """A public thread for the table; with ``members``, a private thread only they (and
        the server's moderators) see, each added now (a duplicate round's table, whose play
        would tell the other tables their cards)."""
        channel = self.bot.get_channel(event.channel_id) or await self.bot.fetch_channel(
            event.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise UserError("The event's channel cannot hold threads.", code="event.no_threads")
        if not members:
            thread = await channel.create_thread(
                name=name[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=ARCHIVE_MINUTES,
            )
            return thread.id
        thread = await channel.create_thread(
            name=name[:100],
            type=discord.ChannelType.private_thread,
            auto_archive_duration=ARCHIVE_MINUTES,
            invitable=False,
        )
        for member in members:
            with contextlib.suppress(discord.HTTPException):
                await thread.add_user(discord.Object(member))
        return thread.id

    def can_open_threads(self, event: EventRecord) -> bool:
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return False
        granted = channel.permissions_for(channel.guild.me)
        private = granted.create_private_threads or not event.options.get("duplicate")
        return granted.create_public_threads and granted.send_messages_in_threads and private

    async def announce(self, event: EventRecord, key: str, **values: Any) -> None:
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        # The organiser is pinged when the line asks them to act; nobody else, whatever the
        # event's name holds.
        organiser = values.get("organiser")
        users = [discord.Object(int(organiser))] if organiser is not None else False
        with contextlib.suppress(discord.HTTPException):
            await channel.send(
                t(key, event_language(event), **values),
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=users),
            )

    async def tell(self, event: EventRecord, user_id: int, key: str, **values: Any) -> None:
        """A private line to one player, as a direct message (a player whose messages are
        closed to the bot simply does not get it)."""
        with contextlib.suppress(discord.HTTPException):
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(
                t(key, event_language(event), **values),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    async def show(self, view: EventView) -> None:
        """Edit the event message to draw ``view``, as the runner computed it."""
        event = view.event
        if event.message_id is None:
            return
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        language = event_language(event)
        with contextlib.suppress(discord.HTTPException):
            await channel.get_partial_message(event.message_id).edit(
                content=event_text(view, language), view=controls(event, language)
            )


def controls(event: EventRecord, language: Language) -> discord.ui.View | None:
    """The event message's buttons for where the event is."""
    wanted: tuple[str, ...]
    if event.status == "signup":
        wanted = ("in", "out", "start", "cancel")
    elif event.status in ("running", "paused"):
        wanted = ("cancel",)
    else:
        return None
    view = discord.ui.View(timeout=None)
    for what in wanted:
        view.add_item(EventButton(event.id, what, label=t(f"event.button.{what}", language)))
    return view


class EventButton(
    Control[discord.ui.Button[Any]],
    template=r"sh:ev:(?P<event>[0-9]{1,19}):(?P<what>in|out|start|cancel)",
):
    """Sign up, Drop out, Start and Cancel on the event message."""

    STYLES: Final = {
        "in": discord.ButtonStyle.success,
        "out": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
        "cancel": discord.ButtonStyle.danger,
    }

    def __init__(self, event_id: int, what: str, *, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=self.STYLES[what], custom_id=f"sh:ev:{event_id}:{what}"
            )
        )
        self.event_id, self.what = event_id, what

    @classmethod
    def from_match(cls, match: re.Match[str]) -> EventButton:
        return cls(parse_id(match["event"]), match["what"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        bot: commands.Bot = interaction.client
        cog = bot.get_cog("Events")
        if cog is None:
            raise UserError("That event no longer exists.", code="event.gone")
        await cast(Clicks, cog).clicked(interaction, self.event_id, self.what)
