"""Issue 29.3: a channel's pacing (at most 5 calls in any 5 s, Discord's per-channel limit)
is the channel's, not its table's: lobbies opened and ended one after another in one channel
never make more calls in a window than one long table would."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

import bot.channel.publisher
from bot import Settings, create_bot

from .conftest import TOKEN

MOST, WINDOW = bot.channel.publisher.RATE  # Discord's: 5 calls in any 5 s


@pytest.fixture
def simcord_bot(tmp_path: Path) -> Any:
    settings = Settings(
        discord_token=TOKEN, database=tmp_path / "db.sqlite3", seed=1, edit_interval=0.05
    )
    return create_bot(settings)


def record_channel_calls(env: simcord.Env, channel_id: int) -> list[float]:
    """Times (monotonic seconds) of every REST call the bot makes to ``channel_id``'s
    messages, recorded at discord.py's HTTP client (interaction answers are not counted:
    they do not count against the channel's limit)."""
    times: list[float] = []
    http = env.bot.http
    original: Callable[..., Any] = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        if route.channel_id == channel_id and route.path.startswith("/channels/"):
            times.append(time.monotonic())
        return await original(route, **kwargs)

    http.request = request
    return times


def busiest_window(times: list[float], window: float) -> int:
    """The most calls in any window of ``window`` seconds."""
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


@pytest.mark.simcord(settle_timeout=3)
async def test_lobbies_opened_and_ended_in_turn_share_the_channels_pace(
    simcord_env: simcord.Env,
) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    host = guild.add_member(env.create_user("alice"))
    others = [guild.add_member(env.create_user(name)) for name in ("bob", "carol")]
    times = record_channel_calls(env, channel.id)
    for _ in range(4):
        opened = await host.slash(channel, "shanghai new")
        assert opened.acknowledged
        lobby = opened.response.message
        for member in others:  # each join redraws the lobby: channel calls
            assert (await member.click(lobby, label="Join")).acknowledged
        asked = await host.slash(channel, "shanghai end")
        assert (await host.click(asked.response, label="End the table")).acknowledged
    for _ in range(60):  # let the publisher send what it holds, paced (virtual seconds)
        if not env.bot.publisher.boxes:
            break
        await env.advance_time(1)
    assert len(times) > MOST, f"the scenario made only {len(times)} channel calls"
    assert busiest_window(times, WINDOW) <= MOST, times
