"""The extensions whose commands join ``/shanghai`` (settings, replays, members' data) unload
and reload cleanly: their commands and buttons leave with the cog and come back once, and
they answer as before after a reload."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands

from .test_members_data import finished_games
from .test_replay_message import finished_game

pytestmark = pytest.mark.simcord(settle_timeout=1)

#: Each extension, the names it adds to ``/shanghai``, and the custom ids its buttons answer.
EXTENSIONS = {
    "bot.cogs.settings": ({"settings"}, []),
    "bot.cogs.my_games": ({"games", "pace"}, []),
    "bot.cogs.replay": ({"replay", "history"}, ["sh:rpg", "sh:rpd:1", "sh:seeds:1"]),
    "bot.cogs.members_data": ({"mydata"}, [f"sh:erase:{1 << 40}:no"]),
}


def under_shanghai(bot: Any) -> list[str]:
    parent = bot.tree.get_command("shanghai")
    assert isinstance(parent, app_commands.Group)
    return [command.name for command in parent.commands]


def answered(bot: Any, custom_id: str) -> bool:
    """Whether a dynamic item of the bot answers this custom id."""
    patterns: dict[re.Pattern[str], Any] = bot._connection._view_store._dynamic_items
    return any(pattern.fullmatch(custom_id) for pattern in patterns)


@pytest.mark.parametrize("extension", sorted(EXTENSIONS))
async def test_unloading_takes_the_commands_out_and_loading_brings_them_back(
    env: Any, extension: str
) -> None:
    bot = env.bot
    names, custom_ids = EXTENSIONS[extension]
    before = under_shanghai(bot)
    assert names <= set(before)
    assert all(answered(bot, custom_id) for custom_id in custom_ids)
    await bot.unload_extension(extension)
    assert not names & set(under_shanghai(bot))
    assert not any(answered(bot, custom_id) for custom_id in custom_ids)
    await bot.load_extension(extension)
    await bot.reload_extension(extension)
    await bot.reload_extension(extension)
    assert sorted(under_shanghai(bot)) == sorted(before)
    assert all(answered(bot, custom_id) for custom_id in custom_ids)


async def test_settings_answer_after_a_reload(env: Any) -> None:
    bot = env.bot
    await bot.reload_extension("bot.cogs.settings")
    await bot.reload_extension("bot.cogs.settings")
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("ada"), roles=[admins])
    saved = await admin.slash(channel, "shanghai settings", buy_seconds=5)
    simcord.assert_responded(saved, contains="Saved.", ephemeral=True)
    assert await bot.store.guild_settings(guild.id) == {"buy_seconds": 5}


async def test_history_and_replay_answer_after_a_reload(env: Any) -> None:
    bot = env.bot
    world, table_id = await finished_game(env)
    alice = world.players[0]
    await bot.reload_extension("bot.cogs.replay")
    await bot.reload_extension("bot.cogs.replay")
    mine = await alice.slash(world.channel, "shanghai history")
    simcord.assert_responded(mine, ephemeral=True)
    assert f"**#{table_id}**" in mine.response.embeds[0].description
    opened = await alice.select(mine.response, [str(table_id)], custom_id="sh:rpg")
    simcord.assert_responded(opened, ephemeral=False)
    replayed = await alice.slash(world.channel, "shanghai replay", game=table_id)
    simcord.assert_responded(replayed, ephemeral=False)


async def test_members_data_answers_after_a_reload(env: Any) -> None:
    bot = env.bot
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await finished_games(bot, guild.id, [alice, bob])
    await bot.reload_extension("bot.cogs.members_data")
    await bot.reload_extension("bot.cogs.members_data")
    exported = await alice.slash(channel, "shanghai mydata export")
    simcord.assert_responded(exported, contains="3 games", ephemeral=True)
    asked = await alice.slash(channel, "shanghai mydata erase")
    simcord.assert_responded(asked, contains="3 results stay in their games", ephemeral=True)
    kept = await alice.click(asked.response, label="Keep it")
    simcord.assert_responded(kept, contains="Nothing was erased")
    # The departures cog came back with the extension, once.
    assert bot.get_cog("ServerDepartures") is not None


async def test_the_table_controls_leave_and_come_back_once_with_the_shanghai_extension(
    env: Any,
) -> None:
    from bot.views.hand import melds_form_submitted

    bot = env.bot

    def listening() -> int:
        return bot.extra_events.get("on_interaction", []).count(melds_form_submitted)

    end = f"sh:end:1:{1 << 40}:no"
    assert listening() == 1 and answered(bot, end)
    await bot.unload_extension("bot.cogs.shanghai")
    assert listening() == 0 and not answered(bot, end)
    await bot.load_extension("bot.cogs.shanghai")
    await bot.reload_extension("bot.cogs.shanghai")
    assert listening() == 1 and answered(bot, end)
