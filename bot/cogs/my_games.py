"""``/shanghai games``: every open table the member sits at in this server, the ones waiting
on them first, with whose turn it is, the time left and a link (``bot/service/my_games.py``).

The answer is private and changes nothing. The command joins ``/shanghai`` like the settings
command does (``JoinsShanghai``), so it loads and unloads on its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.joining import JoinsShanghai
from bot.i18n import Language, interaction_language, t
from bot.interactions.handler import guard
from bot.service.my_games import SeatedTable, seated_tables

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

#: Discord's limit on a message's content, with room for the last line's cut.
CONTENT_LIMIT = 1990


def time_left(seconds: float, language: Language) -> str:
    """A turn's time left in words: hours and minutes, or minutes, or under a minute."""
    minutes = int(seconds // 60)
    if minutes >= 60:
        return t("games.left_hours", language, hours=minutes // 60, minutes=minutes % 60)
    if minutes >= 1:
        return t("games.left_minutes", language, minutes=minutes)
    return t("games.left_soon", language)


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
            snapshots = [
                service.public(table.id)
                for table in list(service.tables.values())
                if not table.closed
            ]
            found = seated_tables(
                snapshots, interaction.user.id, interaction.guild_id or 0, service.clock()
            )
            await interaction.response.send_message(
                games_text(found, interaction.user.id, language),
                ephemeral=True,
                suppress_embeds=True,
            )

    return games


class MyGames(JoinsShanghai):
    """Adds ``/shanghai games`` while it is loaded."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(bot, [make_command()])


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(MyGames(bot))
