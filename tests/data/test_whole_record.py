"""Every table of the schema held to the purge of a departed server, and every column holding a
member to their export and erasure, on both stores.

The store is filled with every kind of row there is (ranked games with their moves, a season,
settings, an event with sign-ups, a sit-out, a final and a table its organiser ended), for two
servers. A table the filling leaves empty fails the tests, so a new table must be filled here
first; then the purge must delete its rows of the departed server, and a column of it that holds
a member must be in ``data.members.MEMBER_COLUMNS``, which the export and the erasure cover.
"""

from __future__ import annotations

import json
from typing import Any

from data import ResultRow, Seat, Store
from data.members import FORMER_NAME, MEMBER_COLUMNS

from .conftest import Backend, FakeClock

GONE, STAYS = 501, 502
#: A member with an id and name nothing else in the database can be mistaken for.
MEMBER, MEMBER_NAME = 7_345_678_901_234_567, "Quillon Zephyrine"
BOB, CAT = 7_345_678_901_000_002, 7_345_678_901_000_003
NAMES = {MEMBER: MEMBER_NAME, BOB: "Bob", CAT: "Cat"}
#: Tables about the deployment itself, not any server or member.
GLOBAL = {"meta", "schema_migrations"}


async def play(store: Store, clock: FakeClock, guild: int, channel: int, *users: int) -> int:
    """A finished ranked game of ``users`` in ``guild``, with one move of each saved."""
    clock.advance(60)
    seats = [Seat(user, NAMES[user]) for user in users]
    table = await store.create_table(guild, channel, "shanghai", users[0], seats, {})
    state = json.dumps({"seats": [[user, NAMES[user]] for user in users]})
    await store.start_game(table.id, seats, state, None, None)
    version = 0
    for user in users:
        version = await store.save_action(
            table.id, version, user, '{"draw": 1}', state, None, None, []
        )
    rows = [
        ResultRow(user, NAMES[user], seat, 10 * (seat + 1), seat == 0, place=seat + 1)
        for seat, user in enumerate(users)
    ]
    await store.finish_game(table.id, version, state, rows, ranked=True)
    return table.id


async def fill(store: Store, clock: FakeClock, guild: int) -> None:
    """Every kind of row of one server, the member in each."""
    channel = guild * 100
    for _ in range(2):
        await play(store, clock, guild, channel := channel + 1, MEMBER, BOB, CAT)
    await store.start_season(guild, MEMBER)
    await store.set_guild_settings(guild, {"preset": "quick"})
    event = await store.create_event(guild, channel, MEMBER, "Friday", {"final": True})
    for user in (MEMBER, BOB, CAT):
        await store.sign_up(event.id, user, NAMES[user], limit=10)
    assert await store.seat_round(event.id, 1, [[BOB, CAT]], [MEMBER], [0])
    first = await play(store, clock, guild, channel := channel + 1, BOB, CAT)
    assert await store.set_event_table(event.id, 1, 0, first)
    assert await store.seat_round(event.id, 2, [[MEMBER, BOB, CAT]], [])  # the final
    ended = await store.create_table(
        guild, channel + 1, "shanghai", MEMBER, [Seat(u, NAMES[u]) for u in (MEMBER, BOB, CAT)], {}
    )
    assert await store.set_event_table(event.id, 2, 0, ended.id)
    await store.end_table(ended.id)
    await store.set_event_finishes(ended.id, [(MEMBER, 1, 30), (BOB, 2, 40), (CAT, 3, 50)])
    assert await store.set_event_status(event.id, "finished", ["running"])
    await store.guild_left(guild)


async def schema(backend: Backend) -> dict[str, list[str]]:
    """Every table of the database with its columns, read from the database itself."""
    if backend.kind == "sqlite":
        names = [
            str(row[0])
            for row in await backend.fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            name: [str(col[1]) for col in await backend.fetch(f"PRAGMA table_info({name})")]
            for name in names
        }
    rows = await backend.fetch(
        "SELECT c.table_name, c.column_name FROM information_schema.columns c"
        " JOIN information_schema.tables t"
        " ON t.table_name = c.table_name AND t.table_schema = c.table_schema"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
        " ORDER BY c.table_name, c.ordinal_position"
    )
    found: dict[str, list[str]] = {}
    for table, column in rows:
        found.setdefault(str(table), []).append(str(column))
    return found


async def dump(backend: Backend, tables: dict[str, list[str]]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, column by column."""
    return {
        table: [
            dict(zip(columns, row, strict=True))
            for row in await backend.fetch(f"SELECT {', '.join(columns)} FROM {table}")
        ]
        for table, columns in tables.items()
    }


def guild_of(row: dict[str, Any], table: str, rows: dict[str, list[dict[str, Any]]]) -> int:
    """The server a row belongs to: its own ``guild_id``, or its table's or event's."""
    if "guild_id" in row:
        return int(row["guild_id"])
    for key, parent in (("table_id", "tables"), ("event_id", "events")):
        if row.get(key) is not None:
            [owner] = [p for p in rows[parent] if int(p["id"]) == int(row[key])]
            return int(owner["guild_id"])
    raise AssertionError(
        f"a row of {table} names no server (guild_id, table_id or event_id): teach the purge"
        " and this test which server it belongs to, or list the table in GLOBAL"
    )


def holding_member(rows: dict[str, list[dict[str, Any]]]) -> set[tuple[str, str]]:
    """The columns with the member's id or name in some row."""
    return {
        (table, column)
        for table, table_rows in rows.items()
        for row in table_rows
        for column, value in row.items()
        if value is not None and (str(MEMBER) in str(value) or MEMBER_NAME in str(value))
    }


async def test_the_purge_deletes_every_row_of_a_departed_server_and_no_other(
    store: Store, clock: FakeClock, backend: Backend
) -> None:
    await fill(store, clock, GONE)
    await fill(store, clock, STAYS)
    await store.guild_returned(STAYS)
    tables = await schema(backend)
    before = await dump(backend, tables)
    empty = [table for table, rows in before.items() if not rows and table not in GLOBAL]
    assert empty == [], f"fill() leaves these tables empty: add their rows to it: {empty}"
    staying = {
        table: [row for row in rows if guild_of(row, table, before) == STAYS]
        for table, rows in before.items()
        if table not in GLOBAL
    }
    assert await store.departed_guilds(0) == [GONE]
    await store.purge_guild(GONE)
    after = await dump(backend, tables)
    for table, rows in after.items():
        if table in GLOBAL:
            continue
        assert [r for r in rows if guild_of(r, table, after) == GONE] == [], table
        assert rows == staying[table], table  # the other server's rows, every one untouched
    assert await store.departed_guilds(0) == []


async def test_a_server_with_an_event_is_purged_and_the_next_one_too(
    store: Store, clock: FakeClock, backend: Backend
) -> None:
    await fill(store, clock, GONE)
    await fill(store, clock, STAYS)
    for guild in await store.departed_guilds(0):
        await store.purge_guild(guild)
    left = await backend.fetch("SELECT COUNT(*) FROM tables")
    assert left[0][0] == 0
    assert await backend.fetch("SELECT COUNT(*) FROM events") == [(0,)]


async def test_every_column_holding_a_member_is_exported_and_erased(
    store: Store, clock: FakeClock, backend: Backend
) -> None:
    await fill(store, clock, STAYS)
    await store.guild_returned(STAYS)
    tables = await schema(backend)
    columns = {(table, column) for table, names in tables.items() for column in names}
    assert set(MEMBER_COLUMNS) <= columns, "MEMBER_COLUMNS names a column that does not exist"
    held = holding_member(await dump(backend, tables))
    unlisted = held - set(MEMBER_COLUMNS)
    assert unlisted == set(), (
        f"columns with a member's id or name missing in MEMBER_COLUMNS: {unlisted}"
    )
    data = await store.member_data(MEMBER)
    json.dumps(data)
    for (table, column), (section, _) in MEMBER_COLUMNS.items():
        assert data[section], (
            f"the export's {section!r} is empty, though {table}.{column} holds the member"
        )
    assert {s["event_id"] for s in data["event_sign_ups"]} == {
        data["events_organised"][0]["event_id"]
    }
    assert [(s["round"], s["finish"]) for s in data["event_seats"]] == [
        (2, {"place": 1, "total": 30}),
    ]
    assert [s["round"] for s in data["event_sit_outs"]] == [1]
    assert sum(t["moves"] for t in data["tables_seated"]) == 2
    assert {t["name"] for t in data["tables_seated"]} == {MEMBER_NAME}

    erased = await store.erase_member(MEMBER)
    assert (erased.results, erased.events, erased.open_tables, erased.open_events) == (2, 1, (), ())
    rows = await dump(backend, tables)
    kept = {key for key, (_, what) in MEMBER_COLUMNS.items() if what.startswith("kept")}
    assert holding_member(rows) - kept == set()
    players = {r["name"] for r in rows["event_players"]}
    assert players == {FORMER_NAME, "Bob", "Cat"}
    finishes = [r["finishes"] for r in rows["event_tables"] if r["finishes"] is not None]
    assert [[f[0] for f in json.loads(str(x))] for x in finishes] == [
        [erased.placeholder, BOB, CAT]
    ]
    after = await store.member_data(MEMBER)
    for section in (
        "games",
        "ratings",
        "tables_hosted",
        "seasons_started",
        "events_organised",
        "event_sign_ups",
        "event_seats",
        "event_sit_outs",
    ):
        assert after[section] == [], section


async def test_the_export_leaves_out_servers_the_bot_left_unless_the_operator_asks(
    store: Store, clock: FakeClock
) -> None:
    await fill(store, clock, GONE)
    await fill(store, clock, STAYS)
    await store.guild_returned(STAYS)
    shared = await store.member_data(MEMBER)
    everywhere = await store.member_data(MEMBER, departed=True)
    for section in (
        "games",
        "ratings",
        "tables_hosted",
        "tables_seated",
        "seasons_started",
        "events_organised",
        "event_sign_ups",
        "event_seats",
    ):
        assert {row["guild_id"] for row in shared[section]} == {str(STAYS)}, section
        assert {row["guild_id"] for row in everywhere[section]} == {str(GONE), str(STAYS)}, section


async def test_no_erasure_while_the_member_is_in_an_event_not_over(store: Store) -> None:
    event = await store.create_event(STAYS, 1, BOB, "Open", {})
    await store.sign_up(event.id, MEMBER, MEMBER_NAME, limit=10)
    refused = await store.erase_member(MEMBER)
    assert refused.open_events == (event.id,) and refused.placeholder is None
    assert [p.name for p in await store.event_players(event.id)] == [MEMBER_NAME]
    assert await store.drop_out(event.id, MEMBER)
    organised = await store.create_event(STAYS, 2, MEMBER, "Mine", {})
    assert (await store.erase_member(MEMBER)).open_events == (organised.id,)
    assert await store.set_event_status(organised.id, "cancelled", ["signup"])
    assert (await store.erase_member(MEMBER)).placeholder is not None
