"""An event with a start time: the sign-up message shows it as Discord timestamps (its
time left counts down), the bot starts the event by itself at that time, also after a
restart, and with fewer than three signed up it says so and waits for the organiser."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from .test_events import event_message, open_event, server

pytestmark = pytest.mark.simcord(settle_timeout=1)

HOUR = 3600


def now() -> int:
    return int(discord.utils.utcnow().timestamp())


async def open_timed(env: Any, count: int, starts: str) -> tuple[Any, Any, list[Any], int]:
    return await open_event(env, count, starts=starts, table_size=3, deals=1)


async def test_the_event_starts_by_itself_at_its_start_time(env: Any) -> None:
    when = now() + HOUR
    channel, _, players, message_id = await open_timed(env, 4, f"<t:{when}:F>")
    text = event_message(channel, message_id).content
    assert f"<t:{when}:F>" in text and f"<t:{when}:R>" in text  # the time, and the time left
    store = env.bot.store
    (event,) = await store.open_events()
    assert event.status == "signup" and event.options["starts_at"] == when

    await env.advance_time(HOUR - 60)
    assert (await store.get_event(event.id)).status == "signup"  # not before its time
    await env.advance_time(61)
    await env.bot.event_runner.idle()
    event = await store.get_event(event.id)
    assert event.status == "running" and event.round == 1
    tables = await store.event_tables(event.id)
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    assert all(t.table_status == "playing" for t in tables)
    assert any("starts now" in m.content for m in channel.history())
    assert "Round 1 of 3" in event_message(channel, message_id).content


async def test_a_start_time_survives_a_restart(env: Any) -> None:
    when = now() + 2 * HOUR
    channel, _, _, message_id = await open_timed(env, 3, str(when))  # bare seconds work too
    await env.restart_bot(env.bot.__class__(env.bot.settings))
    store = env.bot.store
    (event,) = await store.open_events()
    assert event.status == "signup"
    await env.advance_time(2 * HOUR + 1)
    await env.bot.event_runner.idle()
    event = await store.get_event(event.id)
    assert event.status == "running" and len(await store.event_tables(event.id)) == 1
    assert "Round 1 of 3" in event_message(channel, message_id).content


async def test_too_few_at_the_start_time_waits_for_the_organiser(env: Any) -> None:
    when = now() + HOUR
    channel, organiser, _, message_id = await open_timed(env, 2, f"<t:{when}:R>")
    await env.advance_time(HOUR + 1)
    store = env.bot.store
    (event,) = await store.open_events()
    assert event.status == "signup" and event.round == 0
    said = [m.content for m in channel.history() if "could not start" in m.content]
    assert len(said) == 1 and "at least 3 players and 2 signed up" in said[0]
    assert "passed with too few players" in event_message(channel, message_id).content

    # A restart does not say it again; a third player signs up and the organiser starts it.
    await env.restart_bot(env.bot.__class__(env.bot.settings))
    await env.advance_time(60)
    assert len([m for m in channel.history() if "could not start" in m.content]) == 1
    late = channel.guild.add_member(env.create_user("late"))
    joined = await late.click(event_message(channel, message_id), label="Sign up")
    simcord.assert_responded(joined, contains="You are signed up", ephemeral=True)
    started = await organiser.click(event_message(channel, message_id), label="Start")
    assert started.acknowledged
    assert (await store.get_event(event.id)).status == "running"


@pytest.mark.parametrize(
    ("starts", "says"),
    [
        ("tomorrow at eight", "Discord timestamp"),
        ("<t:1000:F>", "has passed"),
        (None, "at most a month ahead"),
    ],
)
async def test_a_bad_start_time_is_refused_and_opens_nothing(
    env: Any, starts: str | None, says: str
) -> None:
    channel, organiser, _ = server(env, 0)
    text = starts if starts is not None else f"<t:{now() + 40 * 86400}:F>"
    refused = await organiser.slash(channel, "shanghai event new", name="Later", starts=text)
    simcord.assert_responded(refused, contains=says, ephemeral=True)
    assert await env.bot.store.open_events() == []
