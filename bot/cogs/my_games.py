"""``/shanghai games``: every open table the member sits at in this server, the ones waiting
on them first, with whose turn it is, the time left and a link (``bot/service/my_games.py``);
and ``/shanghai pace``: a game's people agree to continue it later at a relaxed pace, or to
play it live again (``bot/service/relaxed.py``).

The list is private and changes nothing; a table out of memory (resting, or not restored yet
after a restart) is read back for it first, so the answer then follows "thinking…". A request
to change the pace is answered in the channel, so the others see it and may agree. The command
joins ``/shanghai`` like the settings command does (``JoinsShanghai``), so it loads and
unloads on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.joining import JoinsShanghai
from bot.cogs.pace import PACE_CHOICES, PACE_DESCRIPTION, TURN_HOURS_DESCRIPTION
from bot.ground.errors import NoTable
from bot.i18n import Language, duration, interaction_language, t, table_language
from bot.interactions.handler import guard
from bot.service.my_games import SeatedTable, seated_tables

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

#: Discord's limit on a message's content, with room for the last line's cut.
CONTENT_LIMIT = 1990


def time_left(seconds: float, language: Language) -> str:
    """A turn's time left in words (days and hours, hours and minutes, or minutes)."""
    if seconds < 60:
        return t("games.left_soon", language)
    return t("games.left", language, duration=duration(seconds, language))


def games_line(seated: SeatedTable, user_id: int, language: Language) -> str:
    table = seated.table
    parts = [f"{table.game_name} #{table.id}"]
    if seated.relaxed:
        parts.append(t("games.relaxed", language))
    if seated.turn_name is None:
        parts.append(t("games.lobby", language))
    elif seated.waiting_on_me:
        parts.append(t("games.your_turn", language))
    else:
        parts.append(t("games.turn_of", language, name=seated.turn_name))
    if seated.seconds_left is not None:
        parts.append(time_left(seated.seconds_left, language))
    parts.append(seated.link)
    line = " · ".join(parts)
    return f"**{line}**" if seated.waiting_on_me else line


def games_text(found: list[SeatedTable], user_id: int, language: Language) -> str:
    """The list as the member reads it, cut to one message."""
    if not found:
        return t("games.none", language)
    waiting = sum(1 for s in found if s.waiting_on_me)
    lines = [t("games.title", language, count=len(found), waiting=waiting)]
    for seated in found:
        line = "- " + games_line(seated, user_id, language)
        if sum(len(x) + 1 for x in lines) + len(line) > CONTENT_LIMIT:
            lines.append(t("games.more", language))
            break
        lines.append(line)
    return "\n".join(lines)


def make_command() -> app_commands.Command[Any, ..., None]:
    """A fresh command object per bot (a command knows its parent group)."""

    @app_commands.command(name="games")
    async def games(interaction: discord.Interaction[Any]) -> None:
        """The tables you sit at in this server, those waiting on you first."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            service = bot.service
            language = interaction_language(interaction)
            guild_id, user_id = interaction.guild_id or 0, interaction.user.id
            # A table out of memory is read back from the store first: "thinking…" at once,
            # so that the list may take longer than Discord's 3 s.
            deferred = service.asleep_in(guild_id)
            if deferred:
                await interaction.response.defer(ephemeral=True, thinking=True)
            snapshots = await service.seated_public(guild_id, user_id)
            found = seated_tables(snapshots, user_id, guild_id, service.clock())
            text = games_text(found, user_id, language)
            if deferred:  # the first follow-up takes the "thinking…" placeholder's place
                await interaction.followup.send(text, ephemeral=True, suppress_embeds=True)
            else:
                await interaction.response.send_message(text, ephemeral=True, suppress_embeds=True)

    return games


def make_pace_command() -> app_commands.Command[Any, ..., None]:
    """``/shanghai pace``: "Continue later" (or live again), when all the table's people ask."""

    @app_commands.command(name="pace")
    @app_commands.describe(pace=PACE_DESCRIPTION, turn_hours=TURN_HOURS_DESCRIPTION)
    @app_commands.choices(pace=PACE_CHOICES)
    async def pace(
        interaction: discord.Interaction[Any],
        pace: str,
        turn_hours: app_commands.Range[int, 1, 72] | None = None,
    ) -> None:
        """Continue this game later at a relaxed pace (or live again) once all its people ask."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            table = bot.service.for_channel(interaction.channel_id or 0)
            if table is None:
                raise NoTable(
                    "There is no open Shanghai table in this channel.", code="no_table_in_channel"
                )
            vote = await bot.service.vote_pace(table.id, interaction.user.id, pace, turn_hours)
            language = table_language(table.record.options)
            if vote.changed:
                text = t(f"pace.changed_{vote.pace}", language)
            else:
                text = t(
                    f"pace.asked_{vote.pace}",
                    language,
                    user=interaction.user.id,
                    votes=vote.votes,
                    needed=vote.needed,
                )
            await interaction.response.send_message(
                text, allowed_mentions=discord.AllowedMentions.none()
            )

    return pace


class MyGames(JoinsShanghai):
    """Adds ``/shanghai games`` and ``/shanghai pace`` while it is loaded."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(bot, [make_command(), make_pace_command()])


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(MyGames(bot))
