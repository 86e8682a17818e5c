"""/shanghai event: a server-wide event at several tables over rounds, with standings.

``/shanghai event new`` (members with Manage Events or Manage Server) posts the event message
with its buttons: Sign up and Drop out for everyone until the start, Start and Cancel for the
organiser. The buttons are dynamic items (their custom id carries the event), so they work
after a restart. The rounds themselves are ``bot.events.runner.EventRunner``'s; this cog gives
it the Discord side (``DiscordHall``: a thread per table, the event message, a line in the
channel). The bot builds the runner in ``setup_hook`` with its other listeners of the table
service, so it hears when a table ends; the cog only resumes the events once the bot is ready.

A start time is given as a Discord timestamp (``<t:1767225600:F>``, what Discord's timestamp
pickers and ``/timestamp`` tools produce) or bare Unix seconds; the runner's timer starts the
event then.

The group joins ``/shanghai`` of ``bot.cogs.shanghai`` (loaded before this cog) when the cog
loads, and leaves it when the cog unloads, with the event buttons, so the extension unloads
and reloads cleanly. The permission is checked on every call: Discord can restrict a
top-level command only.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.cogs.joining import JoinsShanghai
from bot.cogs.leaderboard import user_to_remove
from bot.cogs.shanghai import PRESETS
from bot.events.event_text import event_text
from bot.events.hall import EventButton, controls
from bot.events.runner import EventRunner
from bot.ground.errors import UserError
from bot.i18n import interaction_language, server_language, t
from bot.interactions.handler import guard
from data.events import EventRecord

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

log = logging.getLogger("bot.events")

#: The most players one event takes (tables at once: this over the table size, rounded up).
MAX_EVENT_PLAYERS: Final = 48
#: The most events a server may have open (taking sign-ups or playing) at once.
MAX_OPEN_EVENTS: Final = 2
#: How far ahead a start time may be (a month): sign-ups open longer are forgotten.
MAX_START_AHEAD: Final = 31 * 86400
#: A Discord timestamp (``<t:1767225600>``, with or without its style letter) or bare seconds.
TIMESTAMP: Final = re.compile(r"\s*(?:<t:(-?\d{1,12})(?::[tTdDfFR])?>|(\d{1,12}))\s*")


class NeedsEventPermission(UserError):
    code = "event.needs_permission"

    def __init__(self) -> None:
        super().__init__("Only members who can manage events or this server can open an event.")


def start_time(text: str, now: float) -> int:
    """The Unix time of a start-time option, refused politely unless it is a Discord
    timestamp (or seconds) in the next month."""
    found = TIMESTAMP.fullmatch(text)
    if found is None:
        raise UserError(
            "Give the start time as a Discord timestamp, like <t:1767225600:F>.",
            code="event.bad_time",
        )
    when = int(found.group(1) or found.group(2))
    if when <= now:
        raise UserError("That start time has passed.", code="event.time_passed")
    if when > now + MAX_START_AHEAD:
        raise UserError("A start time can be at most a month ahead.", code="event.time_far")
    return when


class Events(JoinsShanghai):
    """The ``event`` group of ``/shanghai`` and the event message's buttons, answered with the
    bot's runner (``setup_hook`` builds it)."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(bot, [make_group()], [EventButton])
        self._resume_task: asyncio.Task[None] | None = None

    @property
    def runner(self) -> EventRunner:
        return self.bot.event_runner

    async def cog_load(self) -> None:
        """Join ``/shanghai``, answer the event buttons, and carry on the running events once
        the bot is ready. The runner is the bot's: unloading this cog leaves the events
        playing."""
        await super().cog_load()
        if getattr(self.bot, "event_runner", None) is None:  # ``python -m bot sync``
            return
        self._resume_task = asyncio.get_running_loop().create_task(self._resume())

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
            if event.options.get("duplicate") and not granted.create_private_threads:
                # A duplicate round's tables play in private threads (``DiscordHall``).
                raise UserError(
                    "A duplicate event's tables play in private threads: the bot needs Create "
                    "Private Threads here.",
                    code="event.needs_private_threads",
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.runner.start(event_id, user.id)
            await interaction.followup.send(t("event.started", language), ephemeral=True)
            return  # start shows the event itself
        else:
            await self.runner.cancel(event_id, user.id)
            await interaction.response.send_message(t("event.cancelled", language), ephemeral=True)
            return
        await self.runner.show(event_id)


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
        starts="A start time (a Discord timestamp); leave it out to start the event yourself",
        ranked="Whether its games count on the leaderboard (a full-length game does)",
        full_tables="Fill every table to its size with computer players",
        duplicate="Deal every table the same cards and score each player against the same seat",
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
        starts: app_commands.Range[str, 1, 40] | None = None,
        ranked: bool = True,
        full_tables: bool = False,
        duplicate: bool = False,
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
                "ranked": ranked,
                # Computers take the seats a count leaves empty, so nobody sits out.
                "computers": True,
                # A duplicate round compares tables with as many seats, so every table is
                # filled to the size: the whole round is one group.
                "full_tables": full_tables or duplicate,
                "duplicate": duplicate,
            }
            if starts is not None:
                options["starts_at"] = start_time(starts, discord.utils.utcnow().timestamp())
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
            cog.runner.arm_start(event)

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
    @app_commands.describe(
        member="The player to take out",
        user_id="Someone who left the server: their user id or mention",
    )
    async def remove(
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        user_id: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Take a player out of the event here (the organiser)."""
        async with guard(interaction):
            who, _ = user_to_remove(member, user_id)
            cog, event = await _here(interaction)
            await cog.runner.remove(event.id, interaction.user.id, who)
            await _done(interaction, "event.removed")

    @group.command(name="end_table")
    async def end_table(interaction: discord.Interaction[Any]) -> None:
        """End this stuck event table; its players score by their places now (the organiser)."""
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
    await bot.add_cog(Events(bot))
