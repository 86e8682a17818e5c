"""A table's pace: live, or relaxed with a turn in hours. Chosen at /shanghai new and /rummy
new or as a server default, named in the lobby with what relaxed means, and read back as the
table's deadlines (a turn of hours, a buy window of minutes) after a restart."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord

from bot.i18n import duration
from bot.service import pace
from bot.service.restore import table_seconds

from .helpers import open_table, start, text_of

pytestmark = pytest.mark.simcord(settle_timeout=1)


def test_a_live_table_keeps_its_seconds_and_a_relaxed_one_counts_hours() -> None:
    live = {"buy_seconds": 5.0, "turn_seconds": 60.0}
    assert table_seconds(live, 8.0, 90.0) == (5.0, 60.0)
    relaxed = pace.with_pace(live, "relaxed", hours=12, buy_minutes=30)
    assert relaxed["pace"] == "relaxed" and relaxed["turn_hours"] == 12
    assert table_seconds(relaxed, 8.0, 90.0) == (30 * 60.0, 12 * 3600.0)
    assert table_seconds(pace.with_pace(live, "relaxed"), 8.0, 90.0) == (3600.0, 24 * 3600.0)


def test_out_of_range_hours_are_bounded_and_live_stores_nothing() -> None:
    assert pace.with_pace({}, "relaxed", hours=500)["turn_hours"] == pace.TURN_HOURS_MAX
    assert pace.turn_hours({"turn_hours": "x"}) == pace.DEFAULT_TURN_HOURS
    back = pace.with_pace(
        {"pace": "relaxed", "turn_hours": 5, "server_defaults": ["pace", "turn_hours"]}, "live"
    )
    assert back == {}


def test_relaxed_rules_of_absence_and_reminders() -> None:
    relaxed = {"pace": "relaxed", "turn_hours": 8}
    assert pace.away_after(relaxed, 3) == 2 and pace.away_after({}, 3) == 3
    assert pace.idle_seconds(relaxed, 3600.0) == 7 * 24 * 3600.0
    assert pace.idle_seconds({}, 3600.0) == 3600.0
    assert pace.reminder_at(relaxed, 100_000.0) == 100_000.0 - 2 * 3600.0
    assert pace.reminder_at({}, 100_000.0) is None


async def test_a_relaxed_table_says_so_in_its_lobby_and_its_deadlines(env: Any) -> None:
    world = await open_table(env, 3, pace="relaxed", turn_hours=12)
    options = world.table.record.options
    assert options["pace"] == "relaxed" and options["turn_hours"] == 12
    lobby = text_of(world.message())
    assert "**Relaxed** · turn 12 h · a buy waits at most 60 min" in lobby
    assert "nobody needs to be online at the same time" in lobby
    await start(world)
    table = world.table
    now = world.service.clock()
    assert table.turn_deadline is not None
    assert 11.9 * 3600 < table.turn_deadline - now <= 12 * 3600 + 5
    stored = await env.bot.store.get_table(table.id)
    assert stored.turn_deadline == table.turn_deadline  # a wall time the store keeps


async def test_a_live_table_says_nothing_of_it(env: Any) -> None:
    world = await open_table(env, 2)
    assert "pace" not in world.table.record.options
    assert "Relaxed" not in text_of(world.message())


async def test_the_server_default_pace_fills_new_tables(env: Any) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("ada"), roles=[admins])
    saved = await admin.slash(channel, "shanghai settings", pace="relaxed", turn_hours=36)
    simcord.assert_responded(saved, contains="Pace: relaxed", ephemeral=True)
    assert "Relaxed turn time: 36 h" in saved.response.content
    await admin.slash(channel, "rummy new")
    options = env.bot.service.for_channel(channel.id).record.options
    assert options["pace"] == "relaxed" and options["turn_hours"] == 36
    assert options["server_defaults"] == ["pace", "turn_hours"]
    other = guild.create_text_channel("more")
    await admin.slash(other, "shanghai new", pace="live")  # the host's choice wins
    assert "pace" not in env.bot.service.for_channel(other.id).record.options


async def test_a_standing_order_answers_at_once(env: Any) -> None:
    from bot.service.buy_window import order_text, parse_order, standing_order, upcard_helps

    world = await open_table(env, 3, pace="relaxed")
    await start(world)
    table = world.table
    game = table.game
    seat = (game.current + 1) % 3
    assert standing_order(table, seat, "never", None) == "pass"
    assert standing_order(table, seat, "ask", None) == "ask"
    helps = upcard_helps(game, seat)
    assert standing_order(table, seat, "helps", None) == ("buy" if helps else "pass")
    assert standing_order(table, seat, "ask", 0) == "pass"  # its limit is reached
    assert parse_order(order_text("helps", 2)) == ("helps", 2)
    assert parse_order("helps") == ("helps", None)
    assert parse_order("whatever/3") == ("", None)


async def test_a_relaxed_lobby_waits_days_for_its_people(env: Any) -> None:
    world = await open_table(env, 1, pace="relaxed")
    await env.advance_time(2 * 3600)  # a live lobby would have expired after 30 minutes
    lobby = await world.service.resident_in(world.channel.id)  # out of memory meanwhile
    assert lobby is not None and lobby.record.is_open
    await env.advance_time(7 * 24 * 3600)
    assert world.table is None
    said = [repr(entry.json) for entry in env.http_requests if entry.method in ("POST", "PATCH")]
    assert any("Nobody started this table within 7 days, so I closed it." in s for s in said)
    assert not any("10080" in s for s in said)


@pytest.mark.parametrize(
    ("seconds", "language", "words"),
    [
        (7 * 24 * 3600, "en", "7 days"),
        (24 * 3600 + 3 * 3600 + 59, "en", "1 day 3 h"),
        (2 * 3600 + 5 * 60, "en", "2 h 5 min"),
        (3 * 3600, "en", "3 h"),
        (30 * 60, "en", "30 min"),
        (20, "en", "under a minute"),
        (7 * 24 * 3600, "es", "7 días"),
        (24 * 3600, "es", "1 día"),
        (2 * 24 * 3600 + 3600, "nl", "2 dagen 1 u"),
        (24 * 3600, "nl", "1 dag"),
    ],
)
def test_long_waits_are_worded_in_days_and_hours(seconds: int, language: str, words: str) -> None:
    assert duration(seconds, language) == words  # type: ignore[arg-type]
