"""An event that removals leave short of a table: the players left play on at a table that
computers fill to 3 seats (to the table size with full tables), through the last round and the
final; only an event with nobody left ends early, and it says so in its channel."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from .test_events import event_message
from .test_events_tables import start_event

pytestmark = pytest.mark.simcord(settle_timeout=1)


async def remove(channel: Any, organiser: Any, *members: Any) -> None:
    for member in members:
        removed = await organiser.slash(channel, "shanghai event remove", member=member)
        simcord.assert_responded(removed, contains="out of the event", ephemeral=True)


async def end_round(env: Any, organiser: Any, event_id: int) -> None:
    """The organiser ends every table of the current round still playing."""
    event = await env.bot.store.get_event(event_id)
    for table in await env.bot.store.event_tables(event_id):
        if table.round == event.round and not table.is_over:
            await env.bot.service.end(table.table_id, organiser.id)
    await env.bot.event_runner.idle()


async def current_tables(env: Any, event_id: int) -> list[Any]:
    event = await env.bot.store.get_event(event_id)
    return [t for t in await env.bot.store.event_tables(event_id) if t.round == event.round]


async def test_two_left_play_their_next_round_with_a_computer(env: Any) -> None:
    channel, organiser, players, message_id = await start_event(env, 3, table_size=3, rounds=2)
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    await remove(channel, organiser, players[2])
    await end_round(env, organiser, event.id)

    event = await store.get_event(event.id)
    assert event.status == "running" and event.round == 2
    (table,) = await current_tables(env, event.id)
    assert sorted(table.players) == sorted(p.id for p in players[:2]) and table.computers == 1
    live = service.get(table.table_id)
    assert live.game is not None  # started
    assert [s.is_computer for s in live.record.seats] == [False, False, True]
    assert live.channel_id in {thread.id for thread in channel.threads}
    text = event_message(channel, message_id).content
    assert "Round 2 of 2" in text and "+ 1 computer" in text and "The event is over" not in text

    # The last round's table ends: now the event is over, with a winner.
    await end_round(env, organiser, event.id)
    event = await store.get_event(event.id)
    assert event.status == "finished" and event.round == 2
    text = event_message(channel, message_id).content
    assert "The event is over." in text and ("wins the event" in text or "share the win" in text)


async def test_one_left_plays_on_and_meets_computers_at_the_final(env: Any) -> None:
    channel, organiser, players, message_id = await start_event(
        env, 4, table_size=5, rounds=2, final=True
    )
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    await remove(channel, organiser, *players[1:])
    await end_round(env, organiser, event.id)

    (table,) = await current_tables(env, event.id)
    assert (table.round, table.players, table.computers) == (2, (players[0].id,), 2)
    seats = service.get(table.table_id).record.seats
    assert [s.is_computer for s in seats] == [False, True, True]

    await end_round(env, organiser, event.id)
    event = await store.get_event(event.id)
    assert event.status == "running" and event.round == 3  # the final table
    (final,) = await current_tables(env, event.id)
    assert (final.players, final.computers) == ((players[0].id,), 2)
    assert service.get(final.table_id).game is not None
    assert "**Final table**" in event_message(channel, message_id).content

    await end_round(env, organiser, event.id)
    assert (await store.get_event(event.id)).status == "finished"


async def test_full_tables_fill_the_last_players_table_to_its_size(env: Any) -> None:
    channel, organiser, players, _ = await start_event(
        env, 4, table_size=4, rounds=2, full_tables=True
    )
    store = env.bot.store
    (event,) = await store.open_events()
    await remove(channel, organiser, *players[2:])
    await end_round(env, organiser, event.id)
    (table,) = await current_tables(env, event.id)
    assert (table.round, len(table.players), table.computers) == (2, 2, 2)
    assert len(env.bot.service.get(table.table_id).record.seats) == 4


async def test_an_event_with_nobody_left_ends_and_says_why(env: Any) -> None:
    channel, organiser, players, message_id = await start_event(env, 3, table_size=3, rounds=3)
    store = env.bot.store
    (event,) = await store.open_events()
    await remove(channel, organiser, *players)
    await end_round(env, organiser, event.id)
    event = await store.get_event(event.id)
    assert event.status == "finished" and event.round == 1
    assert len(await store.event_tables(event.id)) == 1  # no table of nobody
    said = [m.content for m in channel.history() if m.id != message_id]
    assert any("Friday" in line and "nobody is left" in line for line in said), said
    assert "The event is over." in event_message(channel, message_id).content


async def test_a_removed_player_is_marked_and_does_not_share_the_win(env: Any) -> None:
    channel, organiser, players, message_id = await start_event(env, 3, table_size=3, rounds=1)
    store = env.bot.store
    (event,) = await store.open_events()
    await remove(channel, organiser, players[0])
    # The organiser ends the table before its first deal was scored: all three level, sharing
    # the points of its places, the removed player too.
    (table,) = await current_tables(env, event.id)
    await env.bot.event_runner.end_table(table.table_id, organiser.id)
    await env.bot.event_runner.idle()
    assert (await store.get_event(event.id)).status == "finished"
    text = event_message(channel, message_id).content
    out, stayed = players[0].name, [p.name for p in players[1:]]
    assert f"3. {out}: 3.33 points (average score 0) (removed by the organiser)" in text
    assert text.count("(removed by the organiser)") == 1
    winner_line = text.splitlines()[-1]
    # Two winners share the win, each name in bold once.
    assert winner_line.startswith("🏆 **") and "share the win" in winner_line
    assert all(f"**{name}**" in winner_line for name in stayed) and out not in winner_line
    assert "***" not in winner_line


async def test_the_organiser_removes_a_player_who_left_the_server_by_id(env: Any) -> None:
    channel, organiser, players, _ = await start_event(env, 4, table_size=4, rounds=2)
    store = env.bot.store
    (event,) = await store.open_events()
    gone = players[3]
    channel.guild.remove_member(gone)  # the member picker cannot offer them any more
    removed = await organiser.slash(channel, "shanghai event remove", user_id=f"<@{gone.id}>")
    simcord.assert_responded(removed, contains="out of the event", ephemeral=True)
    assert {p.user_id: p.removed for p in await store.event_players(event.id)}[gone.id]
    neither = await organiser.slash(channel, "shanghai event remove")
    simcord.assert_responded(neither, contains="either", ephemeral=True)
    bad = await organiser.slash(channel, "shanghai event remove", user_id="someone")
    simcord.assert_responded(bad, contains="not a user id or a mention", ephemeral=True)
