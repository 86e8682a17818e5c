"""/rummy: classic Rummy on the same engine, service, table message, hand and timers.

A Rummy table is an ordinary table whose stored options name the ``rummy`` preset, so the
store files it (and its results) under ``game_kind = 'rummy'``; /shanghai end, rules, table
and kick work on it too. Rummy has no buying, so the table never shows a Buy button.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.leaderboard import send_leaderboard, send_stats
from bot.cogs.pace import PACE_CHOICES, PACE_DESCRIPTION, TURN_HOURS_DESCRIPTION
from bot.cogs.shanghai import bot_defaults, open_table_here
from bot.i18n import (
    LANGUAGE_CHOICES,
    LANGUAGE_DESCRIPTION,
)
from bot.interactions.handler import guard
from bot.service import guild_settings

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot


# Guild-only on the group itself: discord.py ignores the decorator on subcommands, and the
# synced payload must say so for Discord to hide the commands in DMs.
@app_commands.guild_only()
class Rummy(commands.GroupCog, group_name="rummy"):
    """Classic Rummy tables in this server."""

    def __init__(self, bot: ShanghaiBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="new")
    @app_commands.describe(
        target="Points that win the game (default 150)",
        ace_mode="Aces low only, or high or low (then an ace scores 15)",
        final_discard="Whether going out needs a final discard",
        turn_seconds="Seconds per turn before the bot plays it (default 90)",
        language=LANGUAGE_DESCRIPTION,
        pace=PACE_DESCRIPTION,
        turn_hours=TURN_HOURS_DESCRIPTION,
    )
    @app_commands.choices(
        ace_mode=[
            app_commands.Choice(name="low (default)", value="low"),
            app_commands.Choice(name="high or low (ace scores 15)", value="high_or_low"),
        ],
        final_discard=[
            app_commands.Choice(name="optional (default)", value="optional"),
            app_commands.Choice(name="required", value="required"),
        ],
        language=LANGUAGE_CHOICES,
        pace=PACE_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        target: app_commands.Range[int, 1, 10_000] | None = None,
        ace_mode: str | None = None,
        final_discard: str | None = None,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        language: str | None = None,
        pace: str | None = None,
        turn_hours: app_commands.Range[int, 1, 72] | None = None,
    ) -> None:
        """Open a Rummy table (2-6 players) in this channel; you take the first seat."""
        async with guard(interaction):
            settings = self.bot.settings
            overrides: dict[str, Any] = {}
            if target is not None:
                overrides["target_points"] = target
            if ace_mode is not None:
                overrides["ace_mode"] = ace_mode
            if final_discard is not None:
                overrides["final_discard"] = final_discard
            # The server's defaults (/shanghai settings) for the turn time and the language;
            # Rummy has its own preset and no buying.
            defaults = await guild_settings.load(self.bot.store, interaction.guild_id)
            options = guild_settings.table_options(
                defaults,
                bot_defaults(self.bot, interaction),
                preset="rummy",
                buy_seconds=settings.buy_seconds,
                turn_seconds=turn_seconds,
                language=language,
                rules=overrides,
                pace=pace,
                turn_hours=turn_hours,
            )
            await open_table_here(self.bot, interaction, options, "Rummy")

    @app_commands.command(name="leaderboard")
    @app_commands.describe(season="Which season's board (default: the current one)")
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        season: app_commands.Range[int, 1, 100_000] | None = None,
    ) -> None:
        """This server's best Rummy players, by skill rating over ranked games."""
        async with guard(interaction):
            await send_leaderboard(self.bot, interaction, "rummy", season)

    @app_commands.command(name="stats")
    @app_commands.describe(member="Whose record to show (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """One player's Rummy record in this server."""
        async with guard(interaction):
            await send_stats(self.bot, interaction, "rummy", member)


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(Rummy(bot))
