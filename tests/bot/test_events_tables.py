"""An event's tables: computers take the seats a count leaves empty (nobody sits out), or
fill every table when the organiser asks; a table the organiser ends scores by the places at
that moment (a player who left places last); a casual event's games stay off the board."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot.service.live import rules_for
from bot.service.ranked import table_verdict

from .conftest import labels
from .test_events import event_message, open_event, play_out

pytestmark = pytest.mark.simcord(settle_timeout=1)


async def start_event(env: Any, count: int, **options: Any) -> tuple[Any, Any, list[Any], int]:
    channel, organiser, players, message_id = await open_event(env, count, **options)
    started = await organiser.click(event_message(channel, message_id), label="Start")
    assert started.acknowledged
    await env.bot.event_runner.idle()
    return channel, organiser, players, message_id


async def test_computers_fill_the_seats_a_count_leaves_empty(env: Any) -> None:
    # Four at tables of three: without computers one of them would sit out.
    channel, _, players, message_id = await start_event(env, 4, table_size=3, rounds=2)
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    assert await store.event_sit_outs(event.id) == []
    tables = await store.event_tables(event.id)
    assert [(len(t.players), t.computers) for t in tables] == [(2, 1), (2, 1)]
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    for table in tables:
        live = service.get(table.table_id)
        assert live.game is not None and len(live.record.seats) == 3
        assert [s.is_computer for s in live.record.seats] == [False, False, True]
    assert event_message(channel, message_id).content.count("+ 1 computer") == 2

    # A restart opens nothing twice and seats no second computer.
    await env.restart_bot(env.bot.__class__(env.bot.settings))
    await env.bot.event_runner.idle()
    for table in tables:
        seats = env.bot.service.get(table.table_id).record.seats
        assert sum(s.is_computer for s in seats) == 1


async def test_full_tables_are_filled_to_their_size(env: Any) -> None:
    await start_event(env, 5, table_size=4, full_tables=True)
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    tables = await store.event_tables(event.id)
    assert [(len(t.players), t.computers) for t in tables] == [(3, 1), (2, 2)]
    assert all(len(service.get(t.table_id).record.seats) == 4 for t in tables)


async def test_no_computer_where_every_seat_is_taken(env: Any) -> None:
    await start_event(env, 6, table_size=3)
    store, service = env.bot.store, env.bot.service
    (event,) = await store.open_events()
    tables = await store.event_tables(event.id)
    assert [(len(t.players), t.computers) for t in tables] == [(3, 0), (3, 0)]
    assert not any(s.is_computer for t in tables for s in service.get(t.table_id).record.seats)


def table_message(thread: Any) -> Any:
    return next(m for m in thread.history() if "My hand" in labels(m))


async def test_an_ended_table_scores_by_the_places_at_that_moment(env: Any) -> None:
    channel, organiser, players, message_id = await start_event(env, 3, table_size=3, rounds=2)
    store = env.bot.store
    (event,) = await store.open_events()
    (table,) = await store.event_tables(event.id)
    (thread,) = channel.threads
    # One player leaves the game: the computer plays their seat, and they place last.
    leaver = next(p for p in players if p.id == table.players[1])
    hand = await leaver.click(table_message(thread), label="My hand")
    assert hand.acknowledged
    assert (await leaver.click(hand.response, label="⚙️ Options")).acknowledged
    assert (await leaver.click(hand.response, label="Leave game")).acknowledged
    assert (await leaver.click(hand.response, label="Yes, leave")).acknowledged

    refused = await players[0].slash(thread, "shanghai event end_table")
    simcord.assert_responded(refused, contains="Only the organiser", ephemeral=True)
    ended = await organiser.slash(thread, "shanghai event end_table")
    simcord.assert_responded(ended, contains="event points by their places", ephemeral=True)
    await env.bot.event_runner.idle()

    view = await env.bot.event_runner.view(event.id)
    points = {s.player: s.points for s in view.standings}
    stayed = [p for p in table.players if p != leaver.id]
    # Level at 0 before the first deal was scored: the two who stayed share 1st and 2nd.
    assert points == {stayed[0]: 4, stayed[1]: 4, leaver.id: 2}
    assert view.standings[-1].player == leaver.id
    event = await store.get_event(event.id)
    assert event.round == 2  # the round went on
    text = event_message(channel, message_id).content
    assert f"3. {leaver.name}: 2 points" in text


async def test_a_ranked_event_table_counts_and_a_casual_one_does_not(env: Any) -> None:
    channel, _, _, message_id = await start_event(env, 3, table_size=3, rounds=1)
    assert "Ranked" in event_message(channel, message_id).content
    (event,) = await env.bot.store.open_events()
    (table,) = await env.bot.store.event_tables(event.id)
    live = env.bot.service.get(table.table_id)
    assert "casual" not in live.record.options
    assert table_verdict(live, rules_for(dict(live.record.options))).ranked


@pytest.mark.slow  # an event's whole games through simcord: about 20 s
async def test_a_casual_events_games_count_in_stats_not_on_the_board(env: Any) -> None:
    channel, _, players, message_id = await start_event(
        env, 3, table_size=3, rounds=1, ranked=False
    )
    assert "Casual" in event_message(channel, message_id).content
    store = env.bot.store
    (event,) = await store.open_events()
    (table,) = await store.event_tables(event.id)
    await play_out(env, table.table_id)  # ten deals: a full-length game, ranked elsewhere
    await env.bot.event_runner.idle()
    assert (await store.get_event(event.id)).status == "finished"
    for player in players:
        card = await store.player_card(channel.guild.id, player.id)
        assert card is not None and card.stats.games == 1  # in the stats
        assert card.ranked_games == 0 and card.rating is None  # not on the board
    assert "wins the event" in event_message(channel, message_id).content


async def test_the_runner_is_one_of_the_bots_listeners_once(env: Any) -> None:
    bot = env.bot
    listeners = bot.service.listener.listeners
    assert sum(listener is bot.event_runner for listener in listeners) == 1
    assert not isinstance(listeners[0], type(bot.service.listener))  # not wrapped twice
    # After a restart too, and the rebuilt runner seats the next round when a table ends.
    await env.restart_bot(bot.__class__(bot.settings))
    bot = env.bot
    assert sum(listener is bot.event_runner for listener in bot.service.listener.listeners) == 1
    _, organiser, _, _ = await start_event(env, 3, table_size=3, rounds=2)
    (event,) = await bot.store.open_events()
    (table,) = await bot.store.event_tables(event.id)
    await bot.service.end(table.table_id, organiser.id)
    await bot.event_runner.idle()
    assert (await bot.store.get_event(event.id)).round == 2
