"""The table life cycle: lobby, game, actions, finish; what survives a restart; what a race does."""

from __future__ import annotations

import asyncio

import pytest

from data import (
    AwayState,
    GameKind,
    ResultRow,
    Seat,
    StaleVersion,
    Store,
    TableExists,
    TableNotFound,
    TableRecord,
)

from .conftest import COMPUTER, HUMANS, Backend, FakeClock

#: How each database words a unique-constraint violation.
UNIQUE = "(?i)unique"

GUILD = 1
OPTIONS = {"preset": "classic", "buy_seconds": 10, "turn_seconds": 60, "rules": {"jokers": 4}}


async def _lobby(
    store: Store, channel_id: int = 500, game_kind: GameKind = "shanghai"
) -> TableRecord:
    return await store.create_table(
        GUILD, channel_id, game_kind, HUMANS[0].user_id, HUMANS, OPTIONS
    )


async def _playing(store: Store, channel_id: int = 500) -> TableRecord:
    table = await _lobby(store, channel_id)
    await store.start_game(table.id, table.seats, '{"deal": 1}', None, 1000.0)
    started = await store.get_table(table.id)
    assert started is not None
    return started


async def _raw_version_and_actions(backend: Backend, table_id: int) -> tuple[int, int]:
    # Read straight from the database, past the store's own decoding.
    rows = await backend.fetch(
        "SELECT version, (SELECT COUNT(*) FROM actions WHERE table_id = ?)"
        " FROM tables WHERE id = ?",
        table_id,
        table_id,
    )
    version, count = rows[0]
    return int(version), int(count)


async def test_create_table_round_trips_seats_and_options(store: Store, clock: FakeClock) -> None:
    seats = (*HUMANS, COMPUTER, Seat(103, "Zoë ☃"))
    table = await store.create_table(GUILD, 500, "rummy", 101, seats, OPTIONS)
    assert table.seats == seats
    assert table.options == OPTIONS
    assert (table.guild_id, table.channel_id, table.game_kind, table.host_id) == (
        GUILD,
        500,
        "rummy",
        101,
    )
    assert (table.status, table.version, table.state, table.message_id) == ("lobby", 0, None, None)
    assert table.created_at == table.updated_at == clock.now
    assert table.is_open
    assert await store.get_table(table.id) == table
    assert await store.get_open_table(500) == table


async def test_one_open_table_per_channel(store: Store) -> None:
    first = await _lobby(store, 500)
    with pytest.raises(TableExists) as caught:
        await _lobby(store, 500)
    assert caught.value.existing == first
    other = await _lobby(store, 501)  # another channel is free
    assert other.id != first.id
    assert [t.id for t in await store.open_tables()] == [first.id, other.id]
    places = await store.open_places()  # where each is, without the rest of its row
    assert [(p.id, p.channel_id, p.parent_channel_id) for p in places] == [
        (first.id, 500, None),
        (other.id, 501, None),
    ]
    assert [p.updated_at for p in places] == [first.updated_at, other.updated_at]


async def test_the_open_tables_a_member_sits_at_in_one_server(store: Store) -> None:
    # Ann (101) sits at a lobby and a game of this server; Bob alone at another lobby; the
    # tables of another server, and ended or finished ones, are not hers to list here.
    lobby, game = await _lobby(store, 500), await _playing(store, 501)
    bobs = await store.create_table(GUILD, 502, "shanghai", 102, HUMANS[1:], OPTIONS)
    elsewhere = await store.create_table(GUILD + 1, 503, "shanghai", 101, HUMANS, OPTIONS)
    ended = await _lobby(store, 504)
    assert await store.end_table(ended.id)
    finished = await _playing(store, 505)
    await store.finish_game(finished.id, 0, "{}", [])
    assert await store.seated_open_tables(GUILD, 101) == [lobby.id, game.id]
    assert await store.seated_open_tables(GUILD, 102) == [lobby.id, game.id, bobs.id]
    assert await store.seated_open_tables(GUILD + 1, 101) == [elsewhere.id]
    assert await store.seated_open_tables(GUILD, 999) == []
    assert await store.seated_open_tables(GUILD, -1) == []  # a computer seat is nobody


async def test_unique_index_backs_up_the_check(store: Store, backend: Backend) -> None:
    # Even a writer that skips the store's check cannot open a second table in a channel.
    await _lobby(store, 500)
    with pytest.raises(Exception, match=UNIQUE):
        await backend.execute(
            "INSERT INTO tables (guild_id, channel_id, game_kind, host_id, created_at, updated_at)"
            " VALUES (1, 500, 'shanghai', 1, 0, 0)"
        )


async def test_closed_table_frees_the_channel(store: Store) -> None:
    first = await _lobby(store, 500)
    assert await store.end_table(first.id) is True
    assert await store.get_open_table(500) is None
    second = await _lobby(store, 500)
    assert second.id != first.id
    assert await store.get_open_table(500) == second


async def test_update_lobby_and_message(store: Store, clock: FakeClock) -> None:
    table = await _lobby(store)
    await store.set_message(table.id, 9001)
    clock.advance(5)
    seats = (HUMANS[1], COMPUTER)
    await store.update_lobby(table.id, seats, {"preset": "fast"})
    after = await store.get_table(table.id)
    assert after is not None
    assert (after.seats, after.options, after.message_id) == (seats, {"preset": "fast"}, 9001)
    assert after.updated_at == table.created_at + 5
    await store.update_lobby(table.id, seats, {}, message_id=None)
    cleared = await store.get_table(table.id)
    assert cleared is not None and cleared.message_id is None


async def test_lobby_writes_refused_once_playing(store: Store) -> None:
    table = await _playing(store)
    with pytest.raises(StaleVersion) as caught:
        await store.update_lobby(table.id, HUMANS, {})
    assert (caught.value.status, caught.value.wanted_status) == ("playing", "lobby")
    with pytest.raises(StaleVersion):
        await store.start_game(table.id, HUMANS, "{}", None, None)  # a second Start click
    await store.set_message(table.id, 77)  # the message may be re-posted at any time
    after = await store.get_table(table.id)
    assert after is not None and after.message_id == 77 and after.seats == HUMANS


async def test_start_game(store: Store) -> None:
    table = await _lobby(store)
    seats = (*HUMANS, COMPUTER)
    await store.start_game(table.id, seats, '{"deal": 1}', 990.0, 1000.0)
    started = await store.get_table(table.id)
    assert started is not None
    assert started.status == "playing"
    assert (started.seats, started.state, started.version) == (seats, '{"deal": 1}', 0)
    assert (started.buy_deadline, started.turn_deadline) == (990.0, 1000.0)
    assert started.away == (AwayState(),) * 3


async def test_save_action_advances_version_and_logs(store: Store, clock: FakeClock) -> None:
    table = await _playing(store)
    away = (AwayState(timeouts=1), AwayState(timeouts=3, away=True))
    assert await store.save_action(table.id, 0, 101, "draw stock", '{"s": 1}', 5.0, 6.0, away) == 1
    clock.advance(1)
    assert await store.save_action(table.id, 1, 101, "discard 7H", '{"s": 2}', None, 7.0, away) == 2
    after = await store.get_table(table.id)
    assert after is not None
    assert (after.version, after.state) == (2, '{"s": 2}')
    assert (after.buy_deadline, after.turn_deadline, after.away) == (None, 7.0, away)
    log = await store.actions(table.id)
    assert [(a.seq, a.user_id, a.action) for a in log] == [
        (1, 101, "draw stock"),
        (2, 101, "discard 7H"),
    ]
    assert log[1].created_at == log[0].created_at + 1


async def test_stale_save_writes_nothing(store: Store) -> None:
    table = await _playing(store)
    await store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, 50.0, ())
    before = await store.get_table(table.id)
    with pytest.raises(StaleVersion) as caught:
        # Another click built on version 0 too; it must lose.
        await store.save_action(
            table.id, 0, 102, "buy", '{"s": "other"}', 1.0, 2.0, (AwayState(5),)
        )
    assert (caught.value.expected_version, caught.value.actual_version) == (0, 1)
    assert await store.get_table(table.id) == before
    assert [a.action for a in await store.actions(table.id)] == ["draw"]


async def test_failure_after_the_update_rolls_it_back(store: Store, backend: Backend) -> None:
    # Plant a log row where the next action will go: the UPDATE succeeds, the INSERT then fails,
    # and the transaction must take the UPDATE back with it.
    table = await _playing(store)
    await backend.execute(
        "INSERT INTO actions (table_id, seq, user_id, action, created_at) VALUES (?, 1, 0, 'x', 0)",
        table.id,
    )
    with pytest.raises(Exception, match=UNIQUE):
        await store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ())
    assert await store.get_table(table.id) == table
    assert await _raw_version_and_actions(backend, table.id) == (0, 1)
    assert await backend.no_open_transaction(store)
    # The connection is usable afterwards.
    await store.set_message(table.id, 5)


async def test_save_on_unknown_or_finished_table(store: Store) -> None:
    with pytest.raises(TableNotFound):
        await store.save_action(999, 0, 101, "draw", "{}", None, None, ())
    table = await _lobby(store)
    with pytest.raises(StaleVersion) as caught:
        await store.save_action(table.id, 0, 101, "draw", "{}", None, None, ())
    assert caught.value.status == "lobby"


async def test_cancelled_save_still_completes_whole(store: Store, backend: Backend) -> None:
    table = await _playing(store)
    task = asyncio.create_task(
        store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ())
    )
    await asyncio.sleep(0)  # let it start its transaction
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The caller gave up, but the write it started was not torn: it committed whole.
    after = await store.get_table(table.id)  # queued behind the shielded transaction
    assert after is not None and after.version == 1
    assert [a.action for a in await store.actions(table.id)] == ["draw"]
    assert await backend.no_open_transaction(store)


async def test_restart_keeps_everything(backend: Backend, clock: FakeClock) -> None:
    store = await backend.open(clock)
    lobby = await _lobby(store, 500)
    game = await _playing(store, 501)
    away = (AwayState(timeouts=2), AwayState())
    await store.save_action(game.id, 0, 101, "draw", '{"s": 1}', 10.0, 20.0, away)
    await store.set_message(game.id, 4242)
    before = await store.open_tables()
    await store.close()

    store = await backend.open(clock)
    try:
        after = await store.open_tables()
        assert after == before
        assert [t.id for t in after] == [lobby.id, game.id]
        restored = after[1]
        assert (restored.version, restored.state, restored.away) == (1, '{"s": 1}', away)
        assert (restored.buy_deadline, restored.turn_deadline, restored.message_id) == (
            10.0,
            20.0,
            4242,
        )
        assert [a.action for a in await store.actions(game.id)] == ["draw"]
        # ... and the game carries on from the version it had.
        assert await store.save_action(game.id, 1, 102, "discard", "{}", None, None, away) == 2
    finally:
        await store.close()


async def test_open_tables_lists_lobby_and_playing_only(store: Store) -> None:
    lobby = await _lobby(store, 1)
    playing = await _playing(store, 2)
    finished = await _playing(store, 3)
    await store.finish_game(finished.id, 0, '{"over": true}', [])
    ended_lobby = await _lobby(store, 4)
    await store.end_table(ended_lobby.id)
    ended_game = await _playing(store, 5)
    await store.end_table(ended_game.id)
    assert [t.id for t in await store.open_tables()] == [lobby.id, playing.id]
    for channel in (3, 4, 5):
        assert await store.get_open_table(channel) is None


async def test_finish_game_stores_results(store: Store, backend: Backend, clock: FakeClock) -> None:
    table = await _playing(store)
    await store.save_action(table.id, 0, 101, "draw", "{}", 1.0, 2.0, ())
    clock.advance(30)
    results = [
        ResultRow(101, "Ann", 0, 0, True, deals_out=3, blind_outs=1, buys_used=2),
        ResultRow(102, "Bob", 1, 85, False, deals_out=1, buys_used=5),
    ]
    final = await store.finish_game(
        table.id, 1, '{"over": true}', results, user_id=101, action_text="go out"
    )
    assert final == 2
    done = await store.get_table(table.id)
    assert done is not None
    assert (done.status, done.version, done.state) == ("finished", 2, '{"over": true}')
    assert (done.buy_deadline, done.turn_deadline) == (None, None)
    assert not done.is_open
    assert await store.table_results(table.id) == results
    assert [a.action for a in await store.actions(table.id)] == ["draw", "go out"]
    finished_at = await backend.fetch(
        "SELECT DISTINCT guild_id, game_kind, finished_at FROM results WHERE table_id = ?",
        table.id,
    )
    assert finished_at == [(GUILD, "shanghai", clock.now)]


async def test_finish_without_final_action_keeps_version(store: Store) -> None:
    table = await _playing(store)
    assert await store.finish_game(table.id, 0, "{}", [], status="ended") == 0
    done = await store.get_table(table.id)
    assert done is not None and (done.status, done.version) == ("ended", 0)
    assert await store.actions(table.id) == []


async def test_stale_finish_writes_nothing(store: Store) -> None:
    table = await _playing(store)
    await store.save_action(table.id, 0, 101, "draw", '{"s": 1}', None, None, ())
    before = await store.get_table(table.id)
    rows = [ResultRow(101, "Ann", 0, 0, True)]
    with pytest.raises(StaleVersion):
        await store.finish_game(table.id, 0, "{}", rows, user_id=101, action_text="out")
    assert await store.get_table(table.id) == before
    assert await store.table_results(table.id) == []
    assert len(await store.actions(table.id)) == 1


async def test_bad_result_rolls_back_the_finish(store: Store) -> None:
    table = await _playing(store)
    twice = [ResultRow(101, "Ann", 0, 0, True), ResultRow(102, "Bob", 0, 10, False)]  # same seat
    with pytest.raises(Exception, match=UNIQUE):
        await store.finish_game(table.id, 0, "{}", twice, user_id=101, action_text="out")
    assert await store.get_table(table.id) == table
    assert await store.table_results(table.id) == []
    assert await store.actions(table.id) == []


async def test_finish_needs_both_action_parts(store: Store) -> None:
    table = await _playing(store)
    with pytest.raises(ValueError, match="both"):
        await store.finish_game(table.id, 0, "{}", [], user_id=101)


async def test_end_table_is_idempotent(store: Store) -> None:
    table = await _playing(store)
    assert await store.end_table(table.id) is True
    assert await store.end_table(table.id) is False
    ended = await store.get_table(table.id)
    assert ended is not None and ended.status == "ended"
    assert await store.table_results(table.id) == []
    with pytest.raises(TableNotFound):
        await store.end_table(12345)
    with pytest.raises(TableNotFound):
        await store.set_message(12345, 1)


async def test_close_twice_is_harmless(backend: Backend) -> None:
    store = await backend.open()
    await store.close()
    await store.close()


async def test_set_away_saves_the_flags_without_an_action(store: Store) -> None:
    table = await _playing(store)
    away = (AwayState(timeouts=0, away=True), AwayState(timeouts=2))
    await store.set_away(table.id, away)
    after = await store.get_table(table.id)
    assert after is not None and (after.away, after.version) == (away, table.version)
    assert await store.actions(table.id) == []
    with pytest.raises(TableNotFound):
        await store.set_away(12345, away)
    await store.end_table(table.id)
    with pytest.raises(StaleVersion):
        await store.set_away(table.id, away)


async def test_set_pace_saves_the_options_and_the_turn_without_an_action(store: Store) -> None:
    table = await _playing(store)
    options = {**table.options, "pace": "relaxed", "turn_hours": 12}
    await store.set_pace(table.id, options, 5_000.0)
    after = await store.get_table(table.id)
    assert after is not None and dict(after.options) == options
    assert (after.turn_deadline, after.version) == (5_000.0, table.version)
    assert await store.actions(table.id) == []
    with pytest.raises(TableNotFound):
        await store.set_pace(12345, options, None)
    await store.end_table(table.id)
    with pytest.raises(StaleVersion):
        await store.set_pace(table.id, options, None)


async def test_a_table_moves_into_a_thread_once(store: Store) -> None:
    """Issue 24.2: the table becomes its thread's (the channel is free for another table), the
    channel is kept as its parent, and its message is to be posted anew in the thread."""
    table = await _lobby(store, 500)
    await store.set_message(table.id, 9001)
    await store.move_to_thread(table.id, 9001)
    moved = await store.get_table(table.id)
    assert moved is not None
    assert (moved.channel_id, moved.parent_channel_id, moved.message_id) == (9001, 500, None)
    assert await store.get_open_table(9001) == moved
    assert await store.get_open_table(500) is None
    other = await _lobby(store, 500)  # the channel hosts another table meanwhile
    assert other.id != table.id and other.parent_channel_id is None
    with pytest.raises(TableNotFound):
        await store.move_to_thread(table.id, 9002)  # moved already
    with pytest.raises(TableNotFound):
        await store.move_to_thread(424242, 9003)
