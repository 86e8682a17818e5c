"""A relaxed table's clock: a turn of hours, one reminder before it runs out (never two, not
even across restarts), the computer taking a seat over after two missed turns in a row, and a
warning a day before a table nobody plays ends."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .helpers import button_labels, open_hand, open_table, start

pytestmark = pytest.mark.simcord(settle_timeout=1)

HOUR = 3600.0


async def advance(env: Any, seconds: float) -> None:
    """``env.advance_time``, patient on a loaded machine: simcord keeps the virtual time a
    settle reached when it times out, so the wait goes on from there while time still moves
    (days of turns the computer plays can outlast one settle's real-time budget)."""
    clock = env.backend.clock
    target = clock.elapsed + seconds
    while True:
        reached = clock.elapsed
        try:
            await env.advance_time(max(0.0, target - clock.elapsed))
            return
        except TimeoutError:
            if clock.elapsed <= reached:
                raise


def posted_with(env: Any, words: str) -> int:
    """How many messages the bot posted with ``words`` in them (a moved table message loses
    its words, so the channel as it stands would not say)."""
    return sum(
        1
        for entry in env.http_requests
        if entry.method == "POST" and entry.path.endswith("/messages") and words in repr(entry.json)
    )


def reminders(world: Any, user_id: int) -> int:
    return posted_with(world.env, f"<@{user_id}>, a reminder")


async def relaxed_table(env: Any, hours: int = 8) -> Any:
    world = await open_table(env, 2, pace="relaxed", turn_hours=hours)
    await start(world)
    return world


async def test_one_reminder_a_turn_even_across_restarts(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await relaxed_table(env)
    player = world.current()
    table_id, deadline = world.table.id, world.table.turn_deadline
    await env.advance_time(5 * HOUR)  # the reminder comes with a quarter of the turn left
    assert reminders(world, player.id) == 0
    await env.restart_bot(make_bot())
    await env.advance_time(1.5 * HOUR)
    assert reminders(world, player.id) == 1
    assert posted_with(env, "about 2 h left before the computer plays it") == 1
    # Between its wakes the table waits out of memory: read it where it is.
    live = await env.bot.service.resident(table_id)
    stored = await env.bot.store.get_table(table_id)
    assert stored.away[live.game.current].reminded == deadline
    await env.restart_bot(make_bot())
    await env.advance_time(1 * HOUR)
    assert reminders(world, player.id) == 1  # not again after the restart
    live = await env.bot.service.resident(table_id)
    assert live.turn_deadline == deadline  # still the same turn


@pytest.mark.simcord(settle_timeout=10)  # each timeout draws the table's picture
async def test_two_missed_turns_and_the_computer_plays_the_seat(env: Any) -> None:
    world = await relaxed_table(env, hours=1)
    service, table_id = env.bot.service, world.table.id
    first = world.table.seat_of(world.current().id)
    second = 1 - first
    await env.advance_time(HOUR + 60)  # the first misses a turn: played for them, not away
    table = await service.resident(table_id)  # out of memory between its wakes
    assert table.away[first].timeouts == 1 and not table.is_away(first)
    await env.advance_time(HOUR + 60)  # the second misses one
    await env.advance_time(HOUR + 60)  # the first misses a second in a row: away now
    table = await service.resident(table_id)
    assert table.is_away(first) and not table.is_away(second)


async def test_a_live_table_has_no_reminder(env: Any) -> None:
    world = await open_table(env, 2, turn_seconds=600)
    await start(world)
    player = world.current()
    await env.advance_time(550)
    assert reminders(world, player.id) == 0


async def test_a_table_nobody_plays_is_warned_a_day_before_it_ends(env: Any) -> None:
    world = await relaxed_table(env, hours=72)
    table_id = world.table.id
    await env.advance_time(5.9 * 24 * HOUR)
    assert posted_with(env, "nobody has played here for six days") == 0
    await env.advance_time(0.2 * 24 * HOUR)
    assert posted_with(env, "nobody has played here for six days") == 1
    await env.advance_time(1.1 * 24 * HOUR)
    stored = await env.bot.store.get_table(table_id)
    assert stored.status == "ended"  # scored as it stood, not abandoned
    rows = await env.bot.store.table_results(table_id)
    assert sorted(row.user_id for row in rows) == sorted(p.id for p in world.players)
    assert sum(row.is_winner for row in rows) >= 1
    assert posted_with(env, "the game ends here, scored by the places as they stand") == 1


@pytest.mark.simcord(settle_timeout=5)  # a direct message's channel is made on the way
async def test_a_person_who_chose_direct_messages_is_reminded_there(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await relaxed_table(env)
    player = world.current()
    hand = await open_hand(world, player)
    options = await player.click(hand.response, label="⚙️ Options")
    chosen = await player.click(options.response, label="🔔 Tell me by DM")
    assert chosen.acknowledged
    assert "🔔 Tell me at the table" in button_labels(chosen.response)
    await env.restart_bot(make_bot())  # the choice is kept with the seat
    await env.advance_time(6.5 * HOUR)
    words = f"<@{player.id}>, a reminder"
    sent = [
        entry.path
        for entry in env.http_requests
        if entry.method == "POST" and entry.path.endswith("/messages") and words in repr(entry.json)
    ]
    assert len(sent) == 1
    assert sent[0] != f"/channels/{world.channel.id}/messages"  # a direct message


@pytest.mark.simcord(settle_timeout=5)
async def test_the_seven_days_count_from_a_persons_move_across_restarts(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await relaxed_table(env, hours=24)
    table_id = world.table.id
    player = world.current()
    hand = await open_hand(world, player)
    assert (await player.click(hand.response, label="Draw from stock")).acknowledged
    for _ in range(3):  # the computer plays the turns that run out; the bot restarts
        await advance(env, 24 * HOUR)
        await env.restart_bot(make_bot())
    await advance(env, 3.5 * 24 * HOUR)  # six and a half days since the draw
    assert posted_with(env, "nobody has played here for six days") == 1
    await advance(env, 0.6 * 24 * HOUR)
    stored = await env.bot.store.get_table(table_id)
    assert stored.status == "ended"


def turn_pings_since(env: Any, start: int, user_id: int) -> int:
    return sum(
        1
        for entry in env.http_requests[start:]
        if entry.method == "POST"
        and entry.path.endswith("/messages")
        and f"<@{user_id}>, your turn" in repr(entry.json)
    )


async def test_a_turns_notice_lost_to_a_crash_is_sent_after_the_restart_once(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await relaxed_table(env)
    first = world.current()
    # The process goes down right after the commit that starts the next turn, before its
    # notice is out: here its publisher sends no turn's notice, then it restarts.
    env.bot.publisher.ping_turns = False
    since = len(env.http_requests)
    await env.advance_time(8 * HOUR + 60)  # the turn times out and the next one begins
    second = world.current()
    assert second.id != first.id
    assert turn_pings_since(env, since, second.id) == 0
    deadline = world.table.turn_deadline
    stored = await env.bot.store.get_table(world.table.id)
    assert stored.away[world.table.game.current].told != deadline  # due, not sent
    await env.restart_bot(make_bot())
    await env.advance_time(60)
    assert turn_pings_since(env, since, second.id) == 1  # told after the restart
    stored = await env.bot.store.get_table(world.table.id)
    assert stored.away[world.table.game.current].told == deadline
    since = len(env.http_requests)
    await env.restart_bot(make_bot())  # a normal restart does not tell it again
    await env.advance_time(60)
    assert turn_pings_since(env, since, second.id) == 0
    assert world.table.turn_deadline == deadline


async def test_a_turns_notice_is_told_once_across_normal_restarts(
    env: Any, make_bot: Callable[[], Any]
) -> None:
    world = await relaxed_table(env)
    first = world.current()
    since = len(env.http_requests)
    await env.advance_time(8 * HOUR + 60)  # the turn times out and the next one begins
    second = world.current()
    assert second.id != first.id
    await env.advance_time(60)
    assert turn_pings_since(env, since, second.id) == 1
    stored = await env.bot.store.get_table(world.table.id)
    assert stored.away[world.table.game.current].told == world.table.turn_deadline
    for _ in range(2):
        await env.restart_bot(make_bot())
        await env.advance_time(60)
    assert turn_pings_since(env, since, second.id) == 1
