"""Events on both stores: sign-ups with their limit, seating a round once, linking its tables,
and reading it all back after a reopen."""

from __future__ import annotations

from typing import Any

from data import Seat, Store

OPTIONS = {"preset": "standard", "table_size": 4, "rounds": 3, "final": False}


async def test_sign_up_drop_out_and_the_limit(store: Store) -> None:
    event = await store.create_event(1, 10, 99, "Friday", OPTIONS)
    assert event.status == "signup" and event.round == 0
    assert event.options == OPTIONS
    assert await store.sign_up(event.id, 101, "Ann", limit=2) == "joined"
    assert await store.sign_up(event.id, 101, "Ann", limit=2) == "already"
    assert await store.sign_up(event.id, 102, "Bob", limit=2) == "joined"
    assert await store.sign_up(event.id, 103, "Cy", limit=2) == "full"
    assert await store.drop_out(event.id, 101)
    assert not await store.drop_out(event.id, 101)
    assert await store.sign_up(event.id, 103, "Cy", limit=2) == "joined"
    assert [p.user_id for p in await store.event_players(event.id)] == [102, 103]


async def test_a_started_event_takes_no_sign_ups_and_keeps_its_players(store: Store) -> None:
    event = await store.create_event(1, 10, 99, "Friday", OPTIONS)
    for user in (101, 102, 103):
        await store.sign_up(event.id, user, f"P{user}", limit=10)
    assert await store.seat_round(event.id, 1, [[101, 102, 103]], [])
    assert await store.sign_up(event.id, 104, "Dee", limit=10) == "closed"
    assert not await store.drop_out(event.id, 101)
    assert await store.remove_from_event(event.id, 102)
    assert not await store.remove_from_event(event.id, 102)
    removed = {p.user_id: p.removed for p in await store.event_players(event.id)}
    assert removed == {101: False, 102: True, 103: False}


async def test_a_round_is_seated_once_and_its_tables_linked(store: Store) -> None:
    event = await store.create_event(1, 10, 99, "Friday", OPTIONS)
    assert await store.seat_round(event.id, 1, [[1, 2, 3, 4], [5, 6, 7]], [8])
    assert not await store.seat_round(event.id, 1, [[1, 2, 3]], [])  # already seated
    assert not await store.seat_round(event.id, 3, [[1, 2, 3]], [])  # not the next round
    again = await store.get_event(event.id)
    assert again is not None and again.round == 1 and again.status == "running"
    tables = await store.event_tables(event.id)
    assert [(t.round, t.position, t.players, t.table_id) for t in tables] == [
        (1, 0, (1, 2, 3, 4), None),
        (1, 1, (5, 6, 7), None),
    ]
    assert await store.event_sit_outs(event.id) == [(1, 8)]
    table = await store.create_table(1, 11, "shanghai", 99, [Seat(1, "A")], {})
    assert await store.set_event_table(event.id, 1, 0, table.id)
    assert not await store.set_event_table(event.id, 1, 0, table.id)  # linked once
    first = (await store.event_tables(event.id))[0]
    assert first.table_id == table.id and first.table_status == "lobby" and not first.is_over
    assert first.channel_id == 11
    assert await store.event_of_table(table.id) == event.id
    assert await store.event_of_table(table.id + 1000) is None
    await store.end_table(table.id)
    assert (await store.event_tables(event.id))[0].is_over


async def test_status_moves_only_from_the_statuses_given(store: Store) -> None:
    event = await store.create_event(1, 10, 99, "Friday", OPTIONS)
    other = await store.create_event(2, 20, 98, "Other", {})
    assert [e.id for e in await store.open_events(1)] == [event.id]
    assert not await store.set_event_status(event.id, "paused", ["running"])
    assert await store.set_event_status(event.id, "cancelled", ["signup", "running"])
    assert [e.id for e in await store.open_events()] == [other.id]
    await store.set_event_message(other.id, 555)
    found = await store.get_event(other.id)
    assert found is not None and found.message_id == 555
    assert await store.get_event(12345) is None


async def test_an_event_survives_a_reopen(backend: Any, clock: Any) -> None:
    store = await backend.open(clock)
    event = await store.create_event(1, 10, 99, "Friday", OPTIONS)
    await store.sign_up(event.id, 101, "Ann", limit=5)
    await store.seat_round(event.id, 1, [[101, 102, 103]], [])
    await store.close()
    again = await backend.open(clock)
    try:
        (found,) = await again.open_events(1)
        assert found.round == 1 and found.name == "Friday"
        assert [t.players for t in await again.event_tables(event.id)] == [(101, 102, 103)]
        assert [p.name for p in await again.event_players(event.id)] == ["Ann"]
    finally:
        await again.close()


async def test_computer_seats_finishes_and_options_are_kept(store: Store) -> None:
    event = await store.create_event(1, 10, 99, "Friday", {**OPTIONS, "starts_at": 1000})
    assert await store.seat_round(event.id, 1, [[1, 2], [3, 4]], [], [1, 2])
    tables = await store.event_tables(event.id)
    assert [(t.players, t.computers, t.finishes) for t in tables] == [
        ((1, 2), 1, None),
        ((3, 4), 2, None),
    ]
    table = await store.create_table(1, 11, "shanghai", 1, [Seat(1, "A")], {})
    assert await store.set_event_table(event.id, 1, 0, table.id)
    await store.set_event_finishes(table.id, [(1, 1, 30), (2, 2, 75)])
    first = (await store.event_tables(event.id))[0]
    assert first.finishes == ((1, 1, 30), (2, 2, 75))
    await store.set_event_options(event.id, {**event.options, "start_waiting": True})
    again = await store.get_event(event.id)
    assert again is not None
    assert again.options["start_waiting"] is True and again.options["starts_at"] == 1000


async def test_a_duplicate_rounds_games_stay_hidden_until_its_last_table_ends(
    store: Store,
) -> None:
    event = await store.create_event(1, 10, 99, "Friday", {**OPTIONS, "duplicate": True})
    for user in range(101, 108):
        await store.sign_up(event.id, user, f"P{user}", limit=10)
    assert await store.seat_round(event.id, 1, [[101, 102, 103, 104], [105, 106, 107]], [], [0, 1])
    ids = []
    for position, people in enumerate(([101, 102, 103, 104], [105, 106, 107])):
        seats = [Seat(user, f"P{user}") for user in people]
        table = await store.create_table(1, 20 + position, "shanghai", people[0], seats, {})
        await store.set_event_table(event.id, 1, position, table.id)
        await store.start_game(table.id, seats, "{}", None, None)
        ids.append(table.id)
    first = await store.table_round(ids[0])
    assert first is not None and first.duplicate and first.round == 1
    assert first.tables == ((ids[0], "playing", 4), (ids[1], "playing", 4))
    assert first.same_deals() == (ids[1],) and first.hidden
    await store.end_table(ids[0])  # over, but the other table plays on: still hidden
    assert (await store.table_round(ids[0])).hidden  # type: ignore[union-attr]
    await store.end_table(ids[1])
    assert not (await store.table_round(ids[0])).hidden  # type: ignore[union-attr]
    assert await store.table_round(999_999) is None
    # An ordinary event's games are never held back, and name no other game.
    plain = await store.create_event(1, 11, 99, "Plain", OPTIONS)
    for user in (201, 202, 203):
        await store.sign_up(plain.id, user, f"P{user}", limit=10)
    assert await store.seat_round(plain.id, 1, [[201, 202, 203]], [])
    seats = [Seat(user, f"P{user}") for user in (201, 202, 203)]
    table = await store.create_table(1, 30, "shanghai", 201, seats, {})
    await store.set_event_table(plain.id, 1, 0, table.id)
    await store.start_game(table.id, seats, "{}", None, None)
    found = await store.table_round(table.id)
    assert found is not None and not found.hidden and found.same_deals() == ()
