"""Events through Discord: open one, sign up with the buttons, start it, and see round 1
seated at tables in threads of their own; ending a round's tables seats the next round, and
a restart in the middle loses nothing."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from engine.players.strategy import EasyStrategy

from .conftest import labels

pytestmark = pytest.mark.simcord(settle_timeout=1)

NAMES = [f"p{n:02d}" for n in range(13)]


def server(env: Any, count: int) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("events")
    organisers = guild.create_role("Hosts", permissions=discord.Permissions(manage_events=True))
    organiser = guild.add_member(env.create_user("org"), roles=[organisers])
    players = [guild.add_member(env.create_user(name)) for name in NAMES[:count]]
    return channel, organiser, players


def event_message(channel: Any, message_id: int) -> discord.Message:
    return next(m for m in channel.history() if m.id == message_id)


async def open_event(env: Any, count: int, **options: Any) -> tuple[Any, Any, list[Any], int]:
    channel, organiser, players = server(env, count)
    opened = await organiser.slash(channel, "shanghai event new", name="Friday", **options)
    assert opened.acknowledged and not opened.ephemeral
    message_id = opened.response.message.id
    for player in players:
        joined = await player.click(event_message(channel, message_id), label="Sign up")
        simcord.assert_responded(joined, contains="You are signed up", ephemeral=True)
    return channel, organiser, players, message_id


async def test_a_member_without_manage_events_cannot_open_one(env: Any) -> None:
    channel, _, players = server(env, 1)
    refused = await players[0].slash(channel, "shanghai event new", name="Mine")
    simcord.assert_responded(refused, contains="manage events", ephemeral=True)
    assert await env.bot.store.open_events() == []


async def test_sign_up_shows_who_is_in_and_drop_out_takes_them_off(env: Any) -> None:
    channel, organiser, players, message_id = await open_event(env, 3)
    text = event_message(channel, message_id).content
    assert "Signed up (3)" in text and all(name in text for name in NAMES[:3])
    again = await players[0].click(event_message(channel, message_id), label="Sign up")
    simcord.assert_responded(again, contains="already signed up", ephemeral=True)
    out = await players[1].click(event_message(channel, message_id), label="Drop out")
    simcord.assert_responded(out, contains="dropped out", ephemeral=True)
    assert "Signed up (2)" in event_message(channel, message_id).content
    # Start is the organiser's, and needs three players.
    not_yours = await players[0].click(event_message(channel, message_id), label="Start")
    assert not_yours.acknowledged
    assert (await env.bot.store.open_events())[0].status == "signup"
    too_few = await organiser.click(event_message(channel, message_id), label="Start")
    assert too_few.acknowledged
    event = (await env.bot.store.open_events())[0]
    assert event.status == "signup" and event.round == 0


async def test_thirteen_players_are_seated_at_three_tables_in_threads(env: Any) -> None:
    channel, organiser, players, message_id = await open_event(
        env, 13, table_size=5, rounds=3, deals=1
    )
    started = await organiser.click(event_message(channel, message_id), label="Start")
    assert started.acknowledged
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    assert event.status == "running" and event.round == 1
    tables = await store.event_tables(event.id)
    assert [len(t.players) for t in tables] == [5, 4, 4]
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    assert len(channel.threads) == 3
    for table in tables:
        live = service.get(table.table_id)
        assert live.game is not None  # started, one seat per player, no computers
        assert [s.user_id for s in live.record.seats] == list(table.players)
        assert live.channel_id in {thread.id for thread in channel.threads}
    text = event_message(channel, message_id).content
    assert "Round 1 of 3" in text and "**Standings**" in text
    assert labels(event_message(channel, message_id)) == ["Cancel event"]
    # Sign-ups are closed once it runs.
    late = await store.sign_up(event.id, 999, "late", limit=48)
    assert late == "closed"

    # A restart in the middle of round 1: the same tables, nothing lost.
    await env.restart_bot(env.bot.__class__(env.bot.settings))
    store, service = env.bot.store, env.bot.service
    cog = env.bot.get_cog("Events")
    await cog.runner.idle()
    assert [t.table_id for t in await store.event_tables(event.id)] == [t.table_id for t in tables]

    # The organiser ends the tables of round 1 (stuck, say): round 2 is seated, by standing.
    for table in tables:
        await service.end(table.table_id, organiser.id)
    await cog.runner.idle()
    (event,) = await store.open_events()
    assert event.round == 2
    round_two = [t for t in await store.event_tables(event.id) if t.round == 2]
    assert [len(t.players) for t in round_two] == [5, 4, 4]
    assert all(t.table_id is not None and t.table_status == "playing" for t in round_two)
    assert len(channel.threads) == 6
    assert "Round 2 of 3" in event_message(channel, message_id).content


async def test_the_organiser_pauses_ends_a_stuck_table_removes_a_player_and_resumes(
    env: Any,
) -> None:
    channel, organiser, players, message_id = await open_event(env, 4, table_size=4, rounds=2)
    assert (await organiser.click(event_message(channel, message_id), label="Start")).acknowledged
    store = env.bot.store
    (event,) = await store.open_events()
    (thread,) = channel.threads
    refused = await players[0].slash(channel, "shanghai event pause")
    simcord.assert_responded(refused, contains="Only the organiser", ephemeral=True)
    paused = await organiser.slash(channel, "shanghai event pause")
    simcord.assert_responded(paused, contains="paused", ephemeral=True)
    not_here = await organiser.slash(channel, "shanghai event end_table")
    simcord.assert_responded(not_here, contains="not part of an event", ephemeral=True)
    ended = await organiser.slash(thread, "shanghai event end_table")
    simcord.assert_responded(ended, contains="event points by their places", ephemeral=True)
    cog = env.bot.get_cog("Events")
    await cog.runner.idle()
    (event,) = await store.open_events()
    assert event.status == "paused" and event.round == 1  # paused: no new round yet
    removed = await organiser.slash(channel, "shanghai event remove", member=players[3])
    simcord.assert_responded(removed, contains="out of the event", ephemeral=True)
    resumed = await organiser.slash(channel, "shanghai event resume")
    simcord.assert_responded(resumed, contains="carries on", ephemeral=True)
    (event,) = await store.open_events()
    assert event.status == "running" and event.round == 2
    round_two = [t for t in await store.event_tables(event.id) if t.round == 2]
    assert [sorted(t.players) for t in round_two] == [sorted(p.id for p in players[:3])]
    cancelled = await organiser.click(event_message(channel, message_id), label="Cancel event")
    simcord.assert_responded(cancelled, contains="cancelled", ephemeral=True)
    assert await store.open_events() == []
    assert "cancelled" in event_message(channel, message_id).content
    assert labels(event_message(channel, message_id)) == []


async def play_out(env: Any, table_id: int) -> None:
    """Play a table to its end through the service (the easy computer's choices)."""
    rng, strategy, service = random.Random(5), EasyStrategy(buy_chance=0), env.bot.service
    table = service.get(table_id)
    for _ in range(100_000):  # a ten-deal game is a few thousand steps at most
        game = table.game
        if table.closed or game.is_over:
            return
        player = int(game.current_player)
        action = strategy.choose(
            game.view(game.current_player), service.legal_actions(table_id, player), rng
        )
        if (await service.act(table_id, player, action)).pending is not None:
            await env.advance_time(8)
        await env.settle()
    raise AssertionError("the game did not end")


async def test_finished_games_make_the_standings_and_the_winner_is_celebrated(env: Any) -> None:
    channel, organiser, _, message_id = await open_event(env, 6, table_size=3, rounds=1, deals=1)
    assert (await organiser.click(event_message(channel, message_id), label="Start")).acknowledged
    store = env.bot.store
    (event,) = await store.open_events()
    tables = await store.event_tables(event.id)
    assert [len(t.players) for t in tables] == [3, 3]
    for table in tables:
        await play_out(env, table.table_id)
    await env.bot.get_cog("Events").runner.idle()
    event = await store.get_event(event.id)
    assert event.status == "finished"
    text = event_message(channel, message_id).content
    assert "The event is over." in text and ("wins the event" in text or "share the win" in text)
    view = await env.bot.get_cog("Events").runner.view(event.id)
    assert sum(s.points for s in view.standings) == 2 * (5 + 3 + 2)
    assert view.winners and all(s.tables == 1 for s in view.standings)


async def test_start_is_refused_where_the_bot_cannot_make_threads(env: Any) -> None:
    channel, organiser, _, message_id = await open_event(env, 3)
    env.backend.set_overwrite(
        channel.id,
        Overwrite(
            env.bot.user.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(create_public_threads=True).value,
        ),
    )
    refused = await organiser.click(event_message(channel, message_id), label="Start")
    simcord.assert_responded(refused, contains="Create Public Threads", ephemeral=True)
    (event,) = await env.bot.store.open_events()
    assert event.status == "signup" and await env.bot.store.event_tables(event.id) == []
