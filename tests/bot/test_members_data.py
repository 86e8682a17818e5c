"""Moderation and members' data through simcord: a removal reaches a member who left, a
moderator may remove a player as the host can, a member exports and erases their own data."""

from __future__ import annotations

import json
from typing import Any

import discord
import simcord

from bot import Settings
from data import ResultRow, Seat

from .helpers import open_table, start

GAMES = 3


async def finished_games(bot: Any, guild_id: int, people: list[Any], count: int = GAMES) -> None:
    """``count`` ranked games of ``people`` straight to the store (the first one wins each)."""
    for n in range(count):
        seats = [Seat(p.id, p.name) for p in people]
        table = await bot.store.create_table(
            guild_id, 5000 + n, "shanghai", people[0].id, seats, {}
        )
        await bot.store.start_game(table.id, seats, "{}", None, None)
        rows = [
            ResultRow(p.id, p.name, i, 10 * i + n, i == 0, place=i + 1)
            for i, p in enumerate(people)
        ]
        await bot.store.finish_game(table.id, 0, "{}", rows, ranked=True)


async def test_a_removal_reaches_a_member_who_left(env: simcord.Env, settings: Settings) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    gone = env.create_user("alice")
    alice = guild.add_member(gone)
    bob = guild.add_member(env.create_user("bob"))
    await finished_games(env.bot, guild.id, [alice, bob])
    guild.remove_member(alice)
    asked = await admin.slash(channel, "shanghai remove_results", member=gone)
    simcord.assert_responded(asked, contains="3 results, 3 of them ranked", ephemeral=True)
    done = await admin.click(asked.response, label="Remove from the leaderboard")
    simcord.assert_responded(done, contains="3 results of")
    board = await bob.slash(channel, "shanghai leaderboard")
    [line] = board.response.embeds[0].description.splitlines()
    assert "alice" not in line


async def test_a_removal_by_typed_id_or_mention(env: simcord.Env, settings: Settings) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    gone = env.create_user("alice")
    alice = guild.add_member(gone)
    bob = guild.add_member(env.create_user("bob"))
    await finished_games(env.bot, guild.id, [alice, bob])
    guild.remove_member(alice)
    by_id = await admin.slash(channel, "shanghai remove_results", user_id=str(gone.id))
    simcord.assert_responded(by_id, contains="3 results, 3 of them ranked", ephemeral=True)
    assert f"<@{gone.id}>" in by_id.response.content
    mention = await admin.slash(channel, "shanghai remove_results", user_id=f" <@!{gone.id}> ")
    done = await admin.click(mention.response, label="Remove from the leaderboard")
    simcord.assert_responded(done, contains="3 results of")
    for bad in ("alice", "0", "9" * 25, "<@abc>"):
        refused = await admin.slash(channel, "shanghai remove_results", user_id=bad)
        simcord.assert_responded(refused, contains="not a user id or a mention", ephemeral=True)
    neither = await admin.slash(channel, "shanghai remove_results")
    simcord.assert_responded(neither, contains="either", ephemeral=True)
    both = await admin.slash(channel, "shanghai remove_results", member=bob, user_id="1")
    simcord.assert_responded(both, contains="either", ephemeral=True)
    nothing = await admin.slash(channel, "shanghai remove_results", user_id=str(gone.id))
    simcord.assert_responded(nothing, contains="has nothing on", ephemeral=True)


async def test_a_member_with_manage_channels_removes_a_player_as_the_host_can(
    env: simcord.Env,
) -> None:
    world = await open_table(env, 4)
    alice, bob, carol, dave = world.players
    mods = world.guild.create_role("Mods", permissions=discord.Permissions(manage_channels=True))
    mod = world.guild.add_member(env.create_user("mod"), roles=[mods])
    refused = await bob.slash(world.channel, "shanghai kick", member=carol)
    simcord.assert_responded(refused, contains="Only the host", ephemeral=True)
    assert "Manage Channels" in refused.response.content
    removed = await mod.slash(world.channel, "shanghai kick", member=dave)
    assert removed.acknowledged and removed.ephemeral and dave.id not in world.table.seat_ids
    host = await mod.slash(world.channel, "shanghai kick", member=alice)
    simcord.assert_responded(host, contains="host can't be removed", ephemeral=True)
    await start(world)
    kicked = await mod.slash(world.channel, "shanghai kick", member=carol)
    simcord.assert_responded(kicked, ephemeral=True)
    assert world.table.seat_of(carol.id) in world.table.removed
    host = await mod.slash(world.channel, "shanghai kick", member=alice)
    simcord.assert_responded(host, contains="host can't be removed", ephemeral=True)
    assert world.table.seat_of(alice.id) not in world.table.removed


async def test_a_player_who_left_the_server_is_kicked_by_id(env: simcord.Env) -> None:
    world = await open_table(env, 4)
    alice, *_, dave = world.players
    await start(world)
    world.guild.remove_member(dave)  # the member picker cannot offer them any more
    kicked = await alice.slash(world.channel, "shanghai kick", user_id=str(dave.id))
    simcord.assert_responded(kicked, ephemeral=True)
    assert world.table.seat_of(dave.id) in world.table.removed
    bad = await alice.slash(world.channel, "shanghai kick", user_id="dave")
    simcord.assert_responded(bad, contains="not a user id or a mention", ephemeral=True)


async def test_a_member_exports_their_data_as_a_private_json_file(
    env: simcord.Env, settings: Settings
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await finished_games(env.bot, guild.id, [alice, bob])
    result = await alice.slash(channel, "shanghai mydata export")
    simcord.assert_responded(result, contains="3 games", ephemeral=True)
    [attachment] = result.response.attachments
    assert attachment.filename == f"shanghai-data-{alice.id}.json"
    data = json.loads(await attachment.read())
    assert data["user_id"] == str(alice.id)
    assert [(g["seat"], g["winner"], g["ranked"]) for g in data["games"]] == [(0, True, True)] * 3
    assert [(r["games"], r["wins"]) for r in data["ratings"]] == [(3, 3)]
    assert channel.history() == []  # nothing public


async def test_a_member_erases_their_data_and_leaves_the_board(
    env: simcord.Env, settings: Settings
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    await finished_games(env.bot, guild.id, [alice, bob, carol])
    store = env.bot.store
    table = (await store.member_data(bob.id))["games"][0]["table_id"]
    before = await store.table_results(table)
    # Refused, politely and privately, while Alice sits at an open table.
    lobby = await alice.slash(channel, "shanghai new")
    assert lobby.acknowledged
    refused = await alice.slash(channel, "shanghai mydata erase")
    simcord.assert_responded(refused, contains="You sit at an open table", ephemeral=True)
    assert len((await store.member_data(alice.id))["games"]) == 3
    ended = await alice.slash(channel, "shanghai end")
    await alice.click(ended.response, label="End the table")
    # Asked, she keeps it; asked again, she erases it.
    asked = await alice.slash(channel, "shanghai mydata erase")
    simcord.assert_responded(asked, contains="3 results stay in their games", ephemeral=True)
    assert "What remains" in asked.response.content
    kept = await alice.click(asked.response, label="Keep it")
    simcord.assert_responded(kept, contains="Nothing was erased")
    asked = await alice.slash(channel, "shanghai mydata erase")
    done = await alice.click(asked.response, label="Erase my data")
    simcord.assert_responded(done, contains='3 results now belong to "a former player"')
    after = await store.table_results(table)
    assert [(r.total, r.place, r.is_winner) for r in after] == [
        (r.total, r.place, r.is_winner) for r in before
    ]
    assert after[0].name == "a former player" and after[0].user_id != alice.id
    board = await bob.slash(channel, "shanghai leaderboard")
    text = board.response.embeds[0].description
    assert "alice" not in text and "former" not in text and "bob" in text
    nothing = await alice.slash(channel, "shanghai mydata erase")
    simcord.assert_responded(nothing, contains="keeps nothing about you", ephemeral=True)


async def test_an_erasure_waits_for_the_members_event_and_then_covers_it(
    env: simcord.Env, settings: Settings
) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    store = env.bot.store
    event = await store.create_event(guild.id, channel.id, bob.id, "Friday", {})
    await store.sign_up(event.id, alice.id, "alice", limit=10)
    exported = await alice.slash(channel, "shanghai mydata export")
    data = json.loads(await exported.response.attachments[0].read())
    assert [(s["event_id"], s["name"]) for s in data["event_sign_ups"]] == [(event.id, "alice")]
    asked = await alice.slash(channel, "shanghai mydata erase")
    done = await alice.click(asked.response, label="Erase my data")
    simcord.assert_responded(done, contains="You are in an event that is not over", ephemeral=True)
    assert [p.name for p in await store.event_players(event.id)] == ["alice"]
    await store.set_event_status(event.id, "cancelled", ["signup"])
    asked = await alice.slash(channel, "shanghai mydata erase")
    done = await alice.click(asked.response, label="Erase my data")
    simcord.assert_responded(done, contains="now belong to")
    assert [p.name for p in await store.event_players(event.id)] == ["a former player"]
    nothing = await alice.slash(channel, "shanghai mydata erase")
    simcord.assert_responded(nothing, contains="keeps nothing about you", ephemeral=True)


async def test_a_server_that_removed_the_bot_is_noted_and_forgotten_when_it_returns(
    env: simcord.Env, settings: Settings
) -> None:
    guild = env.create_guild()
    guild_id = guild.id
    store = env.bot.store
    env.backend.remove_guild(guild_id)
    await env.settle()
    assert await store.departed_guilds(0) == [guild_id]
    # simcord keeps a removed guild's id reserved: the bot's rejoining is its event alone.
    await env.bot.get_cog("ServerDepartures").on_guild_join(discord.Object(id=guild_id))
    assert await store.departed_guilds(0) == []
