"""The events extension unloads and reloads cleanly: its ``event`` group leaves ``/shanghai``
with the cog and joins it again once, and the commands and buttons work after a reload."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from discord import app_commands

from .test_events import event_message, open_event

pytestmark = pytest.mark.simcord(settle_timeout=1)

EXTENSION = "bot.cogs.events"


async def reload(bot: Any, load: Any) -> None:
    """(Re)load the extension and wait for the new cog's resuming of the events."""
    await load(EXTENSION)
    task = bot.get_cog("Events")._resume_task
    assert task is not None
    await task


def event_groups(bot: Any) -> list[app_commands.Group]:
    parent = bot.tree.get_command("shanghai")
    assert isinstance(parent, app_commands.Group)
    return [c for c in parent.commands if c.name == "event"]


async def test_unloading_takes_the_event_group_out_and_loading_brings_it_back(env: Any) -> None:
    bot = env.bot
    assert len(event_groups(bot)) == 1
    await bot.unload_extension(EXTENSION)
    assert event_groups(bot) == [] and bot.get_cog("Events") is None
    await reload(bot, bot.load_extension)
    assert len(event_groups(bot)) == 1 and bot.get_cog("Events") is not None


async def test_the_commands_and_buttons_work_after_a_reload(env: Any) -> None:
    bot = env.bot
    await reload(bot, bot.reload_extension)
    await reload(bot, bot.reload_extension)
    (group,) = event_groups(bot)
    assert {c.name for c in group.commands} >= {"new", "pause", "resume", "remove", "end_table"}

    channel, organiser, _, message_id = await open_event(env, 3, table_size=3, rounds=2)
    started = await organiser.click(event_message(channel, message_id), label="Start")
    assert started.acknowledged
    await bot.event_runner.idle()
    (event,) = await bot.store.open_events()
    assert event.status == "running" and len(channel.threads) == 1
    paused = await organiser.slash(channel, "shanghai event pause")
    simcord.assert_responded(paused, contains="paused", ephemeral=True)

    # A reload in the middle of the event: the running event carries on.
    await reload(bot, bot.reload_extension)
    resumed = await organiser.slash(channel, "shanghai event resume")
    simcord.assert_responded(resumed, contains="carries on", ephemeral=True)
    (table,) = await bot.store.event_tables(event.id)
    await bot.service.end(table.table_id, organiser.id)
    await bot.event_runner.idle()
    assert (await bot.store.get_event(event.id)).round == 2
