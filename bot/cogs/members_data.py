"""``/shanghai mydata``: a member's own data, exported as a file or erased, and what becomes of
a server's data once the bot is removed from it.

What the bot keeps under a member's id is what ``Store.member_data`` returns; it is the same in
every server, so the export covers every server the bot is still in (not the ones it left,
whose data waits for deletion), the erasure every server, and both answer privately. Erasing
keeps the other players' games and events whole (``data.members``): the member's result rows,
sign-ups and seats stay with a placeholder id and no name, off the leaderboard. It is refused
while the member sits at an open table, whose result would be written under their id
afterwards, or is in an event not yet over, which would seat them again. An operator does the
same for someone who shares no server with the bot with ``python -m bot member``.
The ``mydata`` group joins ``/shanghai`` of ``bot.cogs.shanghai`` (loaded before this cog)
when ``MemberData`` loads, with the erase confirmation's buttons, and leaves it when the cog
unloads.

A server the bot is removed from is noted (``on_guild_remove``) and its data deleted
``SHANGHAI_DEPARTED_GUILD_DAYS`` later (``bot.process.lifecycle.purge_departed``), unless the
bot is added back first (``on_guild_join`` forgets the departure).
"""

from __future__ import annotations

import io
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.joining import JoinsShanghai
from bot.ground.errors import UserError
from bot.i18n import interaction_language, t
from bot.interactions.controls import Control
from bot.interactions.handler import guard
from bot.interactions.ids import parse_id, usable
from data.members import Erasure

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

log = logging.getLogger(__name__)


def seated_at_open_table(tables: tuple[int, ...]) -> UserError:
    """An erasure waits until the member sits at no lobby or game."""
    listed = ", ".join(f"#{table}" for table in tables)
    return UserError(
        f"You sit at an open table ({listed}). Leave it, or finish the game, and then erase "
        "your data.",
        code="erase_while_seated",
        tables=listed,
    )


def in_open_event(events: tuple[int, ...]) -> UserError:
    """An erasure waits until the member is in no event that is still running."""
    listed = ", ".join(f"#{event}" for event in events)
    return UserError(
        f"You are in an event that is not over ({listed}). Drop out, ask its organiser to "
        "remove you, or wait for it to end, and then erase your data.",
        code="erase_while_in_event",
        events=listed,
    )


def refusal(erased: Erasure) -> UserError | None:
    """Why an erasure did nothing, if it did nothing."""
    if erased.open_tables:
        return seated_at_open_table(erased.open_tables)
    if erased.open_events:
        return in_open_event(erased.open_events)
    return None


#: The export's sections that an erasure changes (``tables_seated`` is the games as played,
#: which it keeps; ``open_tables`` refuses it).
ERASABLE_SECTIONS = (
    "games",
    "ratings",
    "tables_hosted",
    "seasons_started",
    "events_organised",
    "event_sign_ups",
    "event_seats",
    "event_sit_outs",
)


def export_file(data: dict[str, Any]) -> discord.File:
    """The member's data as an indented JSON file, named after them."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    name = f"shanghai-data-{data['user_id']}.json"
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=name)


class EraseButton(
    Control[discord.ui.Button[Any]],
    template=r"sh:erase:(?P<user>[0-9]{1,20}):(?P<answer>yes|no)",
):
    """The confirmation of /shanghai mydata erase; only the member who asked may answer."""

    def __init__(
        self,
        user_id: int,
        answer: str,
        *,
        label: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"sh:erase:{user_id}:{answer}")
        )
        self.user_id, self.answer = user_id, answer

    @classmethod
    def from_match(cls, match: re.Match[str]) -> EraseButton:
        return cls(parse_id(match["user"]), match["answer"])

    async def clicked(self, interaction: discord.Interaction[Any]) -> None:
        if not usable(self.user_id) or interaction.user.id != self.user_id:
            raise UserError(
                "This confirmation belongs to someone else.", code="not_your_confirmation"
            )
        language = interaction_language(interaction)
        if self.answer == "no":
            await interaction.response.edit_message(content=t("mydata.kept", language), view=None)
            return
        bot: ShanghaiBot = interaction.client
        erased = await bot.store.erase_member(self.user_id)
        if (refused := refusal(erased)) is not None:  # they sat down after asking
            raise refused
        log.info("a member erased their data: %d results anonymised", erased.results)
        await interaction.response.edit_message(
            content=t("mydata.erased", language, count=erased.results, ratings=erased.ratings),
            view=None,
        )


def make_group() -> app_commands.Group:
    """A fresh ``mydata`` group per bot (a command knows its parent group)."""
    group = app_commands.Group(name="mydata", description="Your own data: a copy, or erase it")

    @group.command(name="export")
    async def export(interaction: discord.Interaction[Any]) -> None:
        """A copy of everything the bot keeps about you, as a JSON file (only you see it)."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            data = await bot.store.member_data(interaction.user.id)
            await interaction.response.send_message(
                t("mydata.export", interaction_language(interaction), count=len(data["games"])),
                file=export_file(data),
                ephemeral=True,
            )

    @group.command(name="erase")
    async def erase(interaction: discord.Interaction[Any]) -> None:
        """Erase your results and ratings; the other players' games stay whole (asks first)."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            data = await bot.store.member_data(interaction.user.id, departed=True)
            seated = tuple(int(row["table_id"]) for row in data["open_tables"])
            if seated:
                raise seated_at_open_table(seated)
            language = interaction_language(interaction)
            games, ratings = len(data["games"]), len(data["ratings"])
            if not any(data[section] for section in ERASABLE_SECTIONS):
                await interaction.response.send_message(
                    t("mydata.nothing", language), ephemeral=True
                )
                return
            view = discord.ui.View(timeout=None)
            user = interaction.user.id
            yes = t("mydata.yes", language)
            view.add_item(EraseButton(user, "yes", label=yes, style=discord.ButtonStyle.danger))
            view.add_item(EraseButton(user, "no", label=t("mydata.no", language)))
            await interaction.response.send_message(
                t("mydata.confirm", language, count=games, ratings=ratings),
                view=view,
                ephemeral=True,
            )

    return group


class ServerDepartures(commands.Cog):
    """Notes when the bot leaves a server, and forgets it when the bot comes back."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.bot.store.guild_left(guild.id)
        log.info(
            "removed from server %s: its data goes in %g days unless the bot is added back",
            guild.id,
            self.bot.settings.departed_guild_days,
        )

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.bot.store.guild_returned(guild.id)


class MemberData(JoinsShanghai):
    """Adds ``/shanghai mydata`` and answers its erase confirmation while it is loaded."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(bot, [make_group()], [EraseButton])


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(MemberData(bot))
    await bot.add_cog(ServerDepartures(bot))
