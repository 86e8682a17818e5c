"""``/shanghai replay`` and ``/shanghai history``: a server's finished games, listed and replayed.

``replay`` posts one public message that steps through a game (``bot.views.replay``); the
game is picked from the member's recent games as they type, or by its number. ``history``
lists a member's (default: the caller's) or the whole server's recent games, privately, with
a select that opens a replay. The commands join the ``/shanghai`` group of
``bot.cogs.shanghai`` (loaded before this cog), like ``bot.cogs.settings``: ``Replays`` adds
them, and the dynamic items of the replay and seeds buttons, when the cog loads, and takes
them out when it unloads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.cogs.joining import JoinsShanghai
from bot.i18n import interaction_language, t
from bot.interactions.handler import guard
from bot.screens.replay_games import game_option, games_embed
from bot.views.replay import (
    PUBLIC,
    GamesSelect,
    ReplayButton,
    ReplaySelect,
    load,
    post_replay,
)
from bot.views.seeds import SeedsButton

if TYPE_CHECKING:
    from bot.process.app import ShanghaiBot

#: How many games the history lists, and the autocomplete offers (Discord's most).
HISTORY_SIZE = 10
CHOICES = 25
#: The largest integer Discord takes in an option (2**53 - 1).
LARGEST_NUMBER = 9_007_199_254_740_991


async def recent_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[int]]:
    """The member's recent games (else the server's) whose number starts with what is typed."""
    bot: ShanghaiBot = interaction.client
    if interaction.guild_id is None:
        return []
    games = await bot.store.recent_games(interaction.guild_id, interaction.user.id, CHOICES)
    if not games:
        games = await bot.store.recent_games(interaction.guild_id, None, CHOICES)
    typed = current.strip().lstrip("#")
    return [
        app_commands.Choice(name=option.label, value=game.table_id)
        for game in games
        if str(game.table_id).startswith(typed)
        for option in (game_option(game),)
    ]


def make_commands() -> list[app_commands.Command[Any, ..., None]]:
    """Fresh command objects per bot (a command knows its parent group)."""

    @app_commands.command(name="replay")
    @app_commands.describe(game="The game's number (pick one of your recent games)")
    @app_commands.autocomplete(game=recent_choices)
    async def replay(
        interaction: discord.Interaction[Any],
        game: app_commands.Range[int, 1, LARGEST_NUMBER],
    ) -> None:
        """Replay a finished game of this server, step by step."""
        async with guard(interaction):
            await post_replay(interaction, await load(interaction, game, PUBLIC))

    @app_commands.command(name="history")
    @app_commands.describe(
        member="Whose games to list (default: yours)",
        server="List the whole server's games instead of one member's",
    )
    async def history(
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        server: bool = False,
    ) -> None:
        """Recent finished games of a member or of this server, with their replays."""
        async with guard(interaction):
            bot: ShanghaiBot = interaction.client
            assert interaction.guild_id is not None
            language = interaction_language(interaction)
            who = member or interaction.user
            if server:
                games = await bot.store.recent_games(interaction.guild_id, None, HISTORY_SIZE)
                title = t("replay.history_server", language)
            else:
                games = await bot.store.recent_games(interaction.guild_id, who.id, HISTORY_SIZE)
                title = t("replay.history_member", language, name=who.display_name)
            embed = games_embed(games, title, language)
            if not games:
                await interaction.response.send_message(embed=embed, ephemeral=True)
                return
            view = discord.ui.View(timeout=None)
            options = [game_option(game) for game in games]
            view.add_item(GamesSelect(options, t("replay.history_pick", language)))
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    return [replay, history]


class Replays(JoinsShanghai):
    """Adds ``/shanghai replay`` and ``/shanghai history``, and answers the replay messages'
    controls and the game-over message's Replay and Shuffle seeds, while it is loaded."""

    def __init__(self, bot: ShanghaiBot) -> None:
        super().__init__(
            bot, make_commands(), [ReplayButton, ReplaySelect, GamesSelect, SeedsButton]
        )


async def setup(bot: ShanghaiBot) -> None:
    await bot.add_cog(Replays(bot))
