"""/shanghai settings: a server's defaults for new tables, changed only with Manage Server,
stored per guild, used by /shanghai new and /rummy new unless the host chose, named in the
lobby."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.service.guild_settings import GuildDefaults, table_options

from .helpers import text_of

pytestmark = pytest.mark.simcord(settle_timeout=1)


def server(env: Any) -> tuple[Any, Any, Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("ada"), roles=[admins])
    member = guild.add_member(env.create_user("bob"))
    return guild, channel, admin, member


async def test_a_member_without_manage_server_cannot_change_them(env: Any) -> None:
    guild, channel, _, member = server(env)
    refused = await member.slash(channel, "shanghai settings", buy_seconds=5)
    simcord.assert_responded(refused, contains="Only members who can manage", ephemeral=True)
    assert await env.bot.store.guild_settings(guild.id) == {}
    shown = await member.slash(channel, "shanghai settings")  # looking is fine
    simcord.assert_responded(shown, contains="Buy window: 8 s (the bot's default)", ephemeral=True)


async def test_defaults_are_stored_used_by_new_tables_and_named_in_the_lobby(env: Any) -> None:
    guild, channel, admin, member = server(env)
    saved = await admin.slash(
        channel,
        "shanghai settings",
        language="nl",
        preset="preset_000",
        buy_seconds=5,
        turn_seconds=60,
    )
    simcord.assert_responded(saved, contains="Saved.", ephemeral=True)
    assert "Buy window: 5 s\n" in saved.response.content
    assert await env.bot.store.guild_settings(guild.id) == {
        "language": "nl",
        "preset": "preset_000",
        "buy_seconds": 5,
        "turn_seconds": 60,
    }
    opened = await member.slash(channel, "shanghai new")
    assert opened.acknowledged and not opened.ephemeral
    options = env.bot.service.for_channel(channel.id).record.options
    assert options["language"] == "nl" and options["preset"] == "preset_000"
    assert options["buy_seconds"] == 5.0 and options["turn_seconds"] == 60.0
    lobby = text_of(opened.response.message)
    assert "Standaard van de server: taal, spelregels, koopvenster, beurttijd" in lobby


async def test_what_the_host_chooses_wins_over_the_servers_default(env: Any) -> None:
    _guild, channel, admin, member = server(env)
    await admin.slash(channel, "shanghai settings", buy_seconds=5, turn_seconds=60)
    await member.slash(channel, "shanghai new", buy_seconds=12)
    options = env.bot.service.for_channel(channel.id).record.options
    assert options["buy_seconds"] == 12.0 and options["turn_seconds"] == 60.0
    assert options["server_defaults"] == ["turn_seconds"]
    assert options["preset"] == "standard" and options["language"] == "en"


async def test_rummy_takes_the_turn_time_and_language(env: Any) -> None:
    _guild, channel, admin, member = server(env)
    await admin.slash(
        channel, "shanghai settings", language="es", turn_seconds=45, preset="preset_004"
    )
    await member.slash(channel, "rummy new")
    options = env.bot.service.for_channel(channel.id).record.options
    assert options["preset"] == "rummy" and options["language"] == "es"
    assert options["turn_seconds"] == 45.0
    assert options["server_defaults"] == ["language", "turn_seconds"]


async def test_reset_and_back_to_the_servers_language(env: Any) -> None:
    guild, channel, admin, _ = server(env)
    await admin.slash(channel, "shanghai settings", language="nl", buy_seconds=5)
    back = await admin.slash(channel, "shanghai settings", language="server")
    assert "Language: the server's own language" in back.response.content
    assert await env.bot.store.guild_settings(guild.id) == {"buy_seconds": 5}
    reset = await admin.slash(channel, "shanghai settings", reset=True)
    simcord.assert_responded(
        reset, contains="Every default of this server is forgotten", ephemeral=True
    )
    assert await env.bot.store.guild_settings(guild.id) == {}


async def test_another_server_keeps_its_own(env: Any) -> None:
    _guild, channel, admin, _ = server(env)
    _other, other_channel, _other_admin, other_member = server(env)
    await admin.slash(channel, "shanghai settings", buy_seconds=5)
    await other_member.slash(other_channel, "shanghai new")
    options = env.bot.service.for_channel(other_channel.id).record.options
    assert options["buy_seconds"] == 8.0 and "server_defaults" not in options


def test_a_stored_value_no_longer_valid_is_dropped_not_fatal() -> None:
    defaults = GuildDefaults.from_stored({"language": "fr", "buy_seconds": 5, "future": 1})
    assert defaults == GuildDefaults(buy_seconds=5)
    assert defaults.stored() == {"buy_seconds": 5}


def test_table_options_fill_from_defaults_then_fallback() -> None:
    defaults = GuildDefaults(preset="preset_004", threads=True)
    options = table_options(
        defaults,
        {"preset": "standard", "buy_seconds": 8, "turn_seconds": 90, "language": "en"},
        turn_seconds=30,
    )
    assert options == {
        "language": "en",
        "preset": "preset_004",
        "buy_seconds": 8.0,
        "turn_seconds": 30.0,
        "server_defaults": ["preset"],
        "rules": {},
    }
