"""A table whose channel or server is gone ends as abandoned (issue 16.1): recorded, no winner,
nothing on the leaderboard, and no traceback per change; also when it went while the bot was
down."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
import simcord

from .helpers import World, open_table, start


async def assert_abandoned(world: World, table_id: int) -> None:
    service = world.env.bot.service
    assert table_id not in service.tables
    assert service.for_channel(world.channel.id) is None
    record = await service.store.get_table(table_id)
    assert record is not None and record.status == "abandoned"
    assert await service.store.table_results(table_id) == []
    assert await service.store.leaderboard(world.guild.id, "shanghai", 10) == []


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.exc_info is not None or r.levelno >= logging.ERROR]


async def test_a_deleted_channel_abandons_its_table(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 3)
    await start(world)
    table_id = world.table.id
    with caplog.at_level(logging.INFO):
        env.backend.delete_channel(world.channel.id)
        await env.advance_time(10 * 91)  # every seat would time out many times over
    await assert_abandoned(world, table_id)
    assert tracebacks(caplog) == []


async def test_a_server_that_removed_the_bot_abandons_its_tables(
    env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    world = await open_table(env, 2)
    await start(world)
    table_id = world.table.id
    store = env.bot.service.store
    with caplog.at_level(logging.INFO):
        env.backend.remove_guild(world.guild.id)
        await env.advance_time(10 * 91)
    assert table_id not in env.bot.service.tables
    record = await store.get_table(table_id)
    assert record is not None and record.status == "abandoned"
    assert await store.table_results(table_id) == []
    assert tracebacks(caplog) == []


async def test_a_channel_deleted_while_the_bot_was_down_is_abandoned_at_start_up(
    env: simcord.Env,
    make_bot: Callable[[], Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    world = await open_table(env, 2)
    await start(world)
    table_id = world.table.id
    # The bot does not hear of the deletion: it happens while it is offline.
    emit = env.backend.emit
    monkeypatch.setattr(env.backend, "emit", lambda *args, **kwargs: None)
    env.backend.delete_channel(world.channel.id)
    monkeypatch.setattr(env.backend, "emit", emit)
    with caplog.at_level(logging.INFO):
        await env.restart_bot(make_bot())
        await env.advance_time(10 * 91)
    await assert_abandoned(world, table_id)
    assert tracebacks(caplog) == []
