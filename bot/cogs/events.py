"""/shanghai event: a server-wide event at several tables over rounds, with standings.

``/shanghai event new`` (members with Manage Events or Manage Server) posts the event message
with its buttons: Sign up and Drop out for everyone until the start, Start and Cancel for the
organiser. The buttons are dynamic items (their custom id carries the event), so they work
after a restart. The rounds themselves are ``bot.events.runner.EventRunner``'s; this cog gives
it the Discord side (``DiscordHall``: a thread per table, the event message) and joins it to
the table service's listeners, so it hears when a table ends.

The group joins ``/shanghai`` of ``bot.cogs.shanghai`` (loaded before this cog), and the
permission is checked on every call: Discord can restrict a top-level command only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.shanghai import PRESETS
from bot.events.runner import EventRunner
from bot.i18n import Language, interaction_language, server_language, t
from bot.interactions.errors import UserError
from bot.interactions.handler import guard
from bot.interactions.ids import parse_id
from bot.screens.event_text import event_text
from bot.service import Listeners
from data.events import EventRecord

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

log = logging.getLogger("bot.events")

#: The most players one event takes (tables at once: this over the table size, rounded up).
MAX_EVENT_PLAYERS: Final = 48
#: The most events a server may have open (taking sign-ups or playing) at once.
MAX_OPEN_EVENTS: Final = 2
#: How long a table's thread stays visible without activity, in minutes (a day).
ARCHIVE_MINUTES: Final = 1440


class NeedsEventPermission(UserError):
    code = "event.needs_permission"

    def __init__(self) -> None:
        super().__init__("Only members who can manage events or this server can open an event.")


def event_language(event: EventRecord) -> Language:
    """The language the event was opened in (its message, its tables)."""
    language = event.options.get("language", "en")
    return language if language in ("en", "nl", "es") else "en"


class DiscordHall:
    """The runner's Discord side: threads for tables, and the event message."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot
        self.runner: EventRunner | None = None

    async def open_thread(self, event: EventRecord, name: str) -> int:
        channel = self.bot.get_channel(event.channel_id) or await self.bot.fetch_channel(
            event.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise UserError("The event's channel cannot hold threads.", code="event.no_threads")
        thread = await channel.create_thread(
            name=name[:100],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=ARCHIVE_MINUTES,
        )
        return thread.id

    async def show(self, event_id: int) -> None:
        assert self.runner is not None
        view = await self.runner.view(event_id)
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
    discord.ui.DynamicItem[discord.ui.Button[Any]],
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
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> EventButton:
        return cls(parse_id(match["event"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            cog = bot.get_cog("Events")
            assert isinstance(cog, Events)
            await cog.clicked(interaction, self.event_id, self.what)


class Events(commands.Cog):
    """Holds the runner and answers the event message's buttons."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot
        self.hall = DiscordHall(bot)
        self._runner: EventRunner | None = None

    @property
    def runner(self) -> EventRunner:
        if self._runner is None:
            self._runner = EventRunner(self.bot.store, self.bot.service, self.hall)
            self.hall.runner = self._runner
        return self._runner

    async def cog_load(self) -> None:
        service = getattr(self.bot, "service", None)
        if service is None:  # ``python -m bot sync``: commands only
            return
        # The runner hears of every table change beside the channel's own listeners.
        listener = service.listener
        service.listener = self.runner if listener is None else Listeners(listener, self.runner)
        task = asyncio.get_running_loop().create_task(self._resume())
        self._resume_task = task

    async def _resume(self) -> None:
        """Once the bot is ready (its open tables restored), carry on the running events."""
        await self.bot.wait_until_ready()
        await self.runner.restore()

    async def clicked(
        self, interaction: discord.Interaction[Any], event_id: int, what: str
    ) -> None:
        store = self.bot.store
        language = interaction_language(interaction)
        event = await store.get_event(event_id)
        if event is None or event.guild_id != interaction.guild_id:
            raise UserError("That event no longer exists.", code="event.gone")
        user = interaction.user
        if what == "in":
            found = await store.sign_up(event_id, user.id, user.display_name, MAX_EVENT_PLAYERS)
            if found != "joined":
                raise UserError(f"You cannot sign up ({found}).", code=f"event.{found}")
            await interaction.response.send_message(
                t("event.signed_up", language, name=event.name), ephemeral=True
            )
        elif what == "out":
            if not await store.drop_out(event_id, user.id):
                raise UserError("You are not signed up.", code="event.not_in")
            await interaction.response.send_message(
                t("event.dropped_out", language, name=event.name), ephemeral=True
            )
        elif what == "start":
            granted = interaction.app_permissions
            if not (granted.create_public_threads and granted.send_messages_in_threads):
                # Checked before anything is seated: an event without its tables would stall.
                raise UserError(
                    "The bot needs Create Public Threads and Send Messages in Threads here to "
                    "seat the event's tables.",
                    code="event.needs_threads",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.runner.start(event_id, user.id)
            await interaction.followup.send(t("event.started", language), ephemeral=True)
            return  # start shows the event itself
        else:
            await self.runner.cancel(event_id, user.id)
            await interaction.response.send_message(t("event.cancelled", language), ephemeral=True)
            return
        await self.hall.show(event_id)


def make_group() -> app_commands.Group:
    """A fresh ``event`` group per bot (a group knows its parent)."""
    group = app_commands.Group(
        name="event", description="Events: several tables over rounds, with standings"
    )

    @group.command(name="new")
    @app_commands.describe(
        name="The event's name",
        preset="The rule set to start from",
        deals="How many deals (1-10; 10 is a full game)",
        table_size="Players per table (3-6)",
        rounds="How many rounds (1-10)",
        final="Whether the top players meet at a final table",
    )
    @app_commands.choices(preset=PRESETS)
    async def new(
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 80],
        preset: str = "standard",
        deals: app_commands.Range[int, 1, 10] | None = None,
        table_size: app_commands.Range[int, 3, 6] = 4,
        rounds: app_commands.Range[int, 1, 10] = 3,
        final: bool = False,
    ) -> None:
        """Open an event: members sign up, then play rounds at several tables."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            permissions = interaction.permissions
            if not (permissions.manage_events or permissions.manage_guild):
                raise NeedsEventPermission()
            assert interaction.guild_id is not None and interaction.channel_id is not None
            if not isinstance(interaction.channel, discord.TextChannel):
                raise UserError(
                    "Open an event in a text channel: its tables need threads.",
                    code="event.no_threads",
                )
            if len(await bot.store.open_events(interaction.guild_id)) >= MAX_OPEN_EVENTS:
                raise UserError(
                    f"This server already has {MAX_OPEN_EVENTS} events open.",
                    code="event.too_many",
                    limit=MAX_OPEN_EVENTS,
                )
            language = server_language(interaction)
            options: dict[str, Any] = {
                "preset": preset,
                "table_size": table_size,
                "rounds": rounds,
                "final": final,
                "language": language,
            }
            if deals is not None:
                options["deals"] = deals
            event = await bot.store.create_event(
                interaction.guild_id, interaction.channel_id, interaction.user.id, name, options
            )
            cog = bot.get_cog("Events")
            assert isinstance(cog, Events)
            view = await cog.runner.view(event.id)
            await interaction.response.send_message(
                event_text(view, language), view=controls(event, language) or discord.ui.View()
            )
            message = await interaction.original_response()
            await bot.store.set_event_message(event.id, message.id)

    @group.command(name="pause")
    async def pause(interaction: discord.Interaction[Any]) -> None:
        """Seat no new round of the event here until you resume it (the organiser)."""
        async with guard(interaction):
            cog, event = await _here(interaction)
            await cog.runner.pause(event.id, interaction.user.id)
            await _done(interaction, "event.paused")

    @group.command(name="resume")
    async def resume(interaction: discord.Interaction[Any]) -> None:
        """Carry on the paused event here (the organiser)."""
        async with guard(interaction):
            cog, event = await _here(interaction)
            await cog.runner.resume(event.id, interaction.user.id)
            await _done(interaction, "event.resumed")

    @group.command(name="remove")
    @app_commands.describe(member="The player to take out")
    async def remove(interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """Take a player out of the event here (the organiser)."""
        async with guard(interaction):
            cog, event = await _here(interaction)
            await cog.runner.remove(event.id, interaction.user.id, member.id)
            await _done(interaction, "event.removed")

    @group.command(name="end_table")
    async def end_table(interaction: discord.Interaction[Any]) -> None:
        """End this stuck table of an event without results (the organiser)."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            table = bot.service.for_channel(interaction.channel_id or 0)
            if table is None:
                raise UserError("This table is not part of an event.", code="event.not_event_table")
            cog = bot.get_cog("Events")
            assert isinstance(cog, Events)
            await cog.runner.end_table(table.id, interaction.user.id)
            await _done(interaction, "event.table_ended")

    return group


async def _here(interaction: discord.Interaction[Any]) -> tuple[Events, EventRecord]:
    """The open event of this channel (or of the channel this thread is in)."""
    bot: ShanghaiBot = interaction.client
    channel = interaction.channel
    where = {interaction.channel_id}
    if isinstance(channel, discord.Thread):
        where.add(channel.parent_id)
    assert interaction.guild_id is not None
    events = [e for e in await bot.store.open_events(interaction.guild_id) if e.channel_id in where]
    if not events:
        raise UserError("There is no open event in this channel.", code="event.none_here")
    cog = bot.get_cog("Events")
    assert isinstance(cog, Events)
    return cog, events[-1]


async def _done(interaction: discord.Interaction[Any], key: str) -> None:
    await interaction.response.send_message(
        t(key, interaction_language(interaction)), ephemeral=True
    )


async def setup(bot: ShanghaiBot) -> None:
    parent = bot.tree.get_command("shanghai")
    assert isinstance(parent, app_commands.Group), "load bot.cogs.shanghai first"
    parent.add_command(make_group())
    await bot.add_cog(Events(bot))
    bot.add_dynamic_items(EventButton)
