"""The optional Prometheus endpoint, scraped over loopback while a table plays."""

from __future__ import annotations

import asyncio
import platform
import re
import urllib.request
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot import Settings

from .conftest import TOKEN
from .helpers import draw_and_discard, open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The suite's settings, with metrics on a free loopback port."""
    return Settings(
        discord_token=TOKEN,
        database=tmp_path / "db.sqlite3",
        seed=1,
        edit_interval=0,
        metrics_port=0,
        threads=False,  # the table message stays in the channel these tests read
    )


def value(page: str, series: str) -> float:
    match = re.search(rf"^{re.escape(series)} ([0-9.e+-]+)$", page, re.MULTILINE)
    assert match is not None, f"{series} not in the page"
    return float(match[1])


async def scrape(port: int, host: str = "127.0.0.1") -> str:
    def get() -> str:
        with urllib.request.urlopen(f"http://{host}:{port}/metrics", timeout=5) as response:
            return str(response.read().decode())

    return await asyncio.to_thread(get)


async def test_metrics_are_served_on_loopback_and_follow_the_table(env: simcord.Env) -> None:
    metrics: Any = env.bot.metrics
    assert metrics is not None and metrics.port
    assert metrics._server.server_address[0] == "127.0.0.1"
    world = await open_table(env, 1, deals=1)
    alice = world.players[0]
    before = await scrape(metrics.port)
    assert value(before, 'shanghai_open_tables{state="lobby"}') == 1
    assert value(before, 'shanghai_open_tables{state="playing"}') == 0
    for label in ("Add computer (easy)", "Add computer (easy)"):
        assert (await alice.click(world.message(), label=label)).acknowledged
    await start(world)
    for _ in range(6):
        await env.advance_time(3)
    page = await scrape(metrics.port)
    assert value(page, 'shanghai_open_tables{state="playing"}') == 1
    assert value(page, 'shanghai_open_tables{state="lobby"}') == 0
    assert value(page, "shanghai_pending_timers") == 1
    assert value(page, 'shanghai_actions_total{kind="start"}') == 1
    assert value(page, 'shanghai_actions_total{kind="act"}') >= 1  # the computers played
    commits = value(page, "shanghai_commit_seconds_count")
    assert commits >= 4  # the table, two computers, the start and the actions
    assert value(page, 'shanghai_commit_seconds_bucket{le="+Inf"}') == commits
    posts = value(page, 'shanghai_discord_requests_total{method="PATCH"}')
    assert posts >= 1  # the table message was edited
    assert 'shanghai_discord_request_failures_total{status="403"}' not in page
    # A revoked permission: Discord refuses the bot's next calls, and the page counts them.
    env.backend.set_overwrite(
        world.channel.id,
        Overwrite(
            env.bot.user.id,
            OverwriteType.MEMBER,
            deny=discord.Permissions(send_messages=True).value,
        ),
    )
    for _ in range(40):  # past a turn's 90 s: the table message must change
        await env.advance_time(3)
    refused = await scrape(metrics.port)
    assert value(refused, 'shanghai_discord_request_failures_total{status="403"}') >= 1


async def test_the_page_has_the_process_the_gateway_and_the_build(env: simcord.Env) -> None:
    from bot.process.version import version

    metrics: Any = env.bot.metrics
    await open_table(env, 1, deals=1)  # a server with a channel
    page = await scrape(metrics.port)
    # The standard collectors: the process (Linux /proc), the interpreter and its collector.
    assert value(page, "process_resident_memory_bytes") > 0
    assert "python_info{" in page
    assert 'python_gc_collections_total{generation="0"}' in page
    assert value(page, 'shanghai_gateway_connected{shard="0"}') == 1
    assert value(page, 'shanghai_gateway_latency_seconds{shard="0"}') >= 0
    assert value(page, "shanghai_guilds") == len(env.bot.guilds) >= 1
    build = f'python="{platform.python_version()}",version="{version()}"'
    assert f"shanghai_build_info{{{build}}} 1.0" in page


async def test_the_page_counts_the_token_budget_and_the_calls_carried_on_clicks(
    env: simcord.Env,
) -> None:
    """The token's budget by priority (what the publisher spent, what waited) and the table
    calls people's clicks carried instead, as the publisher counted them."""
    metrics: Any = env.bot.metrics
    world = await open_table(env, 2)
    await start(world)
    await env.advance_time(9)
    for _ in range(2):
        await draw_and_discard(world, world.current())
        await env.advance_time(9)
    page = await scrape(metrics.port)
    budget, courier = env.bot.publisher.budget, env.bot.courier
    names = ("urgent", "ping", "recap", "table", "strip")
    spent = [value(page, f'shanghai_token_budget_requests_total{{priority="{n}"}}') for n in names]
    assert sum(spent) == budget.spent >= 1 and spent[0] >= 1  # the command's own calls
    waits = [value(page, f'shanghai_token_budget_waits_total{{priority="{n}"}}') for n in names]
    assert sum(waits) == budget.waited
    assert value(page, "shanghai_token_budget_limit") == budget.limit == 45
    assert value(page, "shanghai_click_carried_total") == courier.carried >= 2
    assert value(page, "shanghai_click_carried_failures_total") == 0


def test_the_setting_is_off_by_default() -> None:
    from bot import create_bot

    settings = Settings(discord_token="x")  # type: ignore[arg-type]
    assert settings.metrics_port is None
    assert create_bot(settings).metrics is None


def test_the_address_is_a_setting_and_loopback_by_default() -> None:
    assert Settings(discord_token="x").metrics_address == "127.0.0.1"  # type: ignore[arg-type]
    assert Settings(discord_token="x", metrics_address="0.0.0.0").metrics_address == "0.0.0.0"  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="metrics_address"):
        Settings(discord_token="x", metrics_address="everywhere")  # type: ignore[arg-type]


async def test_metrics_listen_on_the_address_set(tmp_path: Path) -> None:
    from bot import create_bot

    bot = create_bot(
        Settings(
            discord_token=TOKEN,
            database=tmp_path / "db.sqlite3",
            metrics_port=0,
            metrics_address="127.0.0.2",
        )
    )
    from bot.process.metrics import Metrics

    metrics = Metrics(bot)
    try:
        port = metrics.serve("127.0.0.2", 0)
        assert metrics._server.server_address[0] == "127.0.0.2"
        assert "shanghai_build_info" in await scrape(port, host="127.0.0.2")
    finally:
        metrics.close()


async def test_a_port_taken_after_the_check_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    """``run`` checks before it starts; a port taken since then fails ``serve`` the same way."""
    import socket

    from bot import create_bot
    from bot.process.metrics import Metrics
    from bot.process.settings_facts import MetricsProblem

    bot = create_bot(Settings(discord_token=TOKEN, database=tmp_path / "db.sqlite3"))
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(MetricsProblem, match=f"cannot listen on 127.0.0.1:{port}"):
            Metrics(bot).serve("127.0.0.1", port)
