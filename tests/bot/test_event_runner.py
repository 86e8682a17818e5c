"""A whole event on the runner, with a real store and stand-ins for Discord and the table
service: every round seated from the standings, sit-outs rotating, a final table, and the
standings and winner read back from the tables' stored results."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.events.event_text import event_text
from bot.events.runner import EventRunner
from bot.events.standings import PLACE_POINTS, places_from_totals, sit_out_points
from data import ResultRow, Seat, SqliteStore


class FakeHall:
    """Threads are numbered; the event message is counted, not drawn."""

    def __init__(self) -> None:
        self.threads = 5000
        self.shown = 0
        self.last: Any = None

    async def open_thread(self, event: Any, name: str, members: Any = ()) -> int:
        self.threads += 1
        return self.threads

    async def show(self, view: Any) -> None:
        self.shown += 1
        self.last = view


class FakeService:
    """The table service's public calls the runner makes, written straight to the store."""

    def __init__(self, store: SqliteStore) -> None:
        self.store = store
        self.seats: dict[int, list[Seat]] = {}

    async def open_table(self, guild: int, channel: int, host: int, name: str, options: Any) -> Any:
        record = await self.store.create_table(guild, channel, "shanghai", host, [], options)
        self.seats[record.id] = [Seat(host, name)]
        return record

    async def resident(self, table_id: int) -> None:
        """Every table of this fake lives in the store."""

    def public(self, table_id: int) -> Any:
        return SimpleNamespace(record=SimpleNamespace(seats=tuple(self.seats[table_id])))

    async def join(self, table_id: int, user_id: int, name: str) -> None:
        self.seats[table_id].append(Seat(user_id, name))

    async def start(self, table_id: int, user_id: int, dealt: Any = None) -> None:
        await self.store.start_game(table_id, self.seats[table_id], "{}", None, None)


def score(user: int, round_number: int) -> int:
    return (user * 7919 + round_number * 104729) % 211


async def finish_round(store: SqliteStore, runner: EventRunner, event_id: int) -> None:
    """Every open table of the current round ends with results, the last one last."""
    event = await store.get_event(event_id)
    assert event is not None
    tables = [t for t in await store.event_tables(event_id) if t.round == event.round]
    for table in tables:
        assert table.table_id is not None and table.table_status == "playing"
        totals = {user: score(user, event.round) for user in table.players}
        places = {f.player: f.place for f in places_from_totals(totals)}
        rows = [
            ResultRow(user, f"P{user}", seat, totals[user], places[user] == 1, place=places[user])
            for seat, user in enumerate(table.players)
        ]
        await store.finish_game(table.table_id, 0, "{}", rows)
        await runner.on_table_closed(table.table_id)


async def run_event(tmp_path: Path, players: int, size: int, rounds: int, final: bool) -> Any:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    runner = EventRunner(store, FakeService(store), FakeHall())  # type: ignore[arg-type]
    options = {"table_size": size, "rounds": rounds, "final": final, "deals": 1}
    event = await store.create_event(1, 10, 99, "Night", options)
    for user in range(1, players + 1):
        assert await store.sign_up(event.id, user, f"P{user}", limit=100) == "joined"
    await runner.start(event.id, 99)
    for _ in range(rounds + (1 if final else 0)):
        await finish_round(store, runner, event.id)
    return store, runner, event.id


async def test_thirteen_players_three_rounds_and_a_final(tmp_path: Path) -> None:
    store, runner, event_id = await run_event(tmp_path, 13, 5, 3, final=True)
    try:
        event = await store.get_event(event_id)
        assert event is not None and event.status == "finished" and event.round == 4
        tables = await store.event_tables(event_id)
        for number in (1, 2, 3):
            seated = [p for t in tables if t.round == number for p in t.players]
            assert sorted(seated) == list(range(1, 14))  # everyone, once
            assert [len(t.players) for t in tables if t.round == number] == [5, 4, 4]
        view = await runner.view(event_id)
        # Before the final, the points are those of the places at every table.
        regular = [t for t in tables if t.round <= 3]
        expected = sum(sum(PLACE_POINTS[: len(t.players)]) for t in regular)
        assert sum(s.points for s in view.standings) == expected
        (final_table,) = [t for t in tables if t.round == 4]
        assert len(final_table.players) == 5
        final_scores = {user: score(user, 4) for user in final_table.players}
        champion = min(final_scores, key=lambda user: final_scores[user])
        assert view.winners == (champion,)
        assert view.standings[0].player == champion
        assert {s.player for s in view.standings[:5]} == set(final_table.players)
    finally:
        await store.close()


async def test_sit_outs_rotate_and_earn_the_average(tmp_path: Path) -> None:
    store, runner, event_id = await run_event(tmp_path, 13, 6, 3, final=False)
    try:
        sat_out = [user for _, user in await store.event_sit_outs(event_id)]
        assert len(sat_out) == 3 and len(set(sat_out)) == 3  # one a round, never twice
        view = await runner.view(event_id)
        event = await store.get_event(event_id)
        assert event is not None and event.status == "finished"
        rounds_played = Counter(p for t in await store.event_tables(event_id) for p in t.players)
        assert all(rounds_played[user] == 2 for user in sat_out)
        total = sum(s.points for s in view.standings)
        assert total == 3 * (2 * sum(PLACE_POINTS[:6])) + 3 * sit_out_points(6)
        assert len(view.winners) >= 1
    finally:
        await store.close()


async def test_a_round_is_not_seated_twice_when_tables_end_together(tmp_path: Path) -> None:
    store, runner, event_id = await run_event(tmp_path, 7, 4, 2, final=False)
    try:
        # Told again of tables long ended: nothing new is seated.
        for table in await store.event_tables(event_id):
            assert table.table_id is not None
            await runner.on_table_closed(table.table_id)
        assert len({t.round for t in await store.event_tables(event_id)}) == 2
        await runner.on_table_closed(123456)  # a table of no event: nothing happens
    finally:
        await store.close()


async def test_a_restart_between_opening_a_table_and_starting_it_starts_that_table(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    service = FakeService(store)
    runner = EventRunner(store, service, FakeHall())  # type: ignore[arg-type]
    try:
        event = await store.create_event(1, 10, 99, "Night", {"table_size": 3, "rounds": 1})
        for user in (1, 2, 3):
            await store.sign_up(event.id, user, f"P{user}", limit=10)
        # What a start that stopped half-way left: round 1 seated, its table opened and
        # linked with one player seated, never started.
        assert await store.seat_round(event.id, 1, [[1, 2, 3]], [])
        lobby = await service.open_table(1, 7001, 1, "P1", {})
        await service.join(lobby.id, 2, "P2")
        await store.set_event_table(event.id, 1, 0, lobby.id)
        await runner.restore()
        (table,) = await store.event_tables(event.id)
        assert table.table_id == lobby.id and table.table_status == "playing"
        assert [seat.user_id for seat in service.seats[lobby.id]] == [1, 2, 3]
    finally:
        await store.close()


async def test_a_removed_player_does_not_win_though_they_scored_best(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    try:
        runner = EventRunner(store, FakeService(store), FakeHall())  # type: ignore[arg-type]
        event = await store.create_event(1, 10, 99, "Night", {"table_size": 3, "rounds": 1})
        for user in (1, 2, 3):
            assert await store.sign_up(event.id, user, f"P{user}", limit=100) == "joined"
        await runner.start(event.id, 99)
        best = min((1, 2, 3), key=lambda user: score(user, 1))
        await runner.remove(event.id, 99, best)  # while their table plays on
        await finish_round(store, runner, event.id)

        view = await runner.view(event.id)
        assert view.event.status == "finished"
        assert [(s.player, s.rank) for s in view.standings][-1] == (best, 3)
        assert view.standings[-1].points == PLACE_POINTS[0]  # the most points, all the same
        runner_up = view.standings[0].player
        assert view.winners == (runner_up,) and runner_up != best
        text = event_text(view, "en")
        assert f"3. P{best}: 5 points (average score {score(best, 1)}) (removed by" in text
        winner_line = text.splitlines()[-1]
        assert winner_line == f"🏆 **P{runner_up}** wins the event. Congratulations!"
        assert f"P{runner_up}" in winner_line and f"P{best}" not in winner_line
    finally:
        await store.close()


async def test_a_table_closing_reads_the_events_rows_once_and_shows_what_it_computed(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    hall = FakeHall()
    runner = EventRunner(store, FakeService(store), hall)  # type: ignore[arg-type]
    try:
        event = await store.create_event(1, 10, 99, "Night", {"table_size": 5, "rounds": 2})
        for user in range(1, 14):
            await store.sign_up(event.id, user, f"P{user}", limit=100)
        await runner.start(event.id, 99)
        round_one = await store.event_tables(event.id)
        calls: dict[str, int] = {}
        for name in ("event_tables", "event_players", "event_sit_outs", "get_event"):
            original = getattr(store, name)

            def counted(*args: Any, _name: str = name, _original: Any = original) -> Any:
                calls[_name] = calls.get(_name, 0) + 1
                return _original(*args)

            setattr(store, name, counted)
        shown = hall.shown
        # Each table closing is one step; the last seats round 2 and opens it in that step.
        for table in round_one:
            assert table.table_id is not None
            rows = [
                ResultRow(user, f"P{user}", seat, 10 * seat, seat == 0, place=seat + 1)
                for seat, user in enumerate(table.players)
            ]
            await store.finish_game(table.table_id, 0, "{}", rows)
            await runner.on_table_closed(table.table_id)
        assert (await store.get_event(event.id)).round == 2
        tables = len(round_one)
        assert calls["event_tables"] == tables
        assert calls["event_players"] == tables
        assert calls["event_sit_outs"] == tables
        assert calls["get_event"] == tables + 1  # the last step, and the line above
        assert hall.shown - shown == tables
        # The view the hall was handed last is the one the step computed: round 2 open.
        assert hall.last is not None and hall.last.event.round == 2
        assert {t.table_status for t in hall.last.tables if t.round == 2} == {"playing"}
    finally:
        await store.close()


class Crash(Exception):
    """The bot stopping at this point."""


class CountingHall(FakeHall):
    """Records what the event's channel is told; ``crash_on`` stops the bot at that post."""

    def __init__(self, crash_on: str | None = None) -> None:
        super().__init__()
        self.crash_on = crash_on
        self.posted: list[str] = []

    async def announce(self, event: Any, key: str, **values: Any) -> None:
        if key == self.crash_on:
            raise Crash(key)
        self.posted.append(key)

    async def tell(self, event: Any, user_id: int, key: str, **values: Any) -> None:
        pass


async def test_a_restart_before_a_duplicate_rounds_hashes_posts_them_on_resume(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    service = FakeService(store)
    options = {"table_size": 4, "rounds": 1, "deals": 1, "duplicate": True, "computers": True}
    try:
        event = await store.create_event(1, 10, 99, "Night", options)
        for user in range(1, 9):
            await store.sign_up(event.id, user, f"P{user}", limit=100)
        crashing = CountingHall(crash_on="event.dup_hashes")
        runner = EventRunner(store, service, crashing)  # type: ignore[arg-type]
        with pytest.raises(Crash):
            await runner.start(event.id, 99)
        assert "event.dup_hashes" not in crashing.posted
        # The round was seated and dealt before the bot stopped.
        assert len(await store.event_tables(event.id)) == 2
        hall = CountingHall()
        await EventRunner(store, service, hall).restore()  # type: ignore[arg-type]
        assert hall.posted.count("event.dup_hashes") == 1  # one group of tables of four
        again = CountingHall()
        await EventRunner(store, service, again).restore()  # type: ignore[arg-type]
        assert "event.dup_hashes" not in again.posted  # posted once, recorded as posted
        # Both tables are marked as dealt alike, so their end says the seeds wait.
        for table in await store.event_tables(event.id):
            assert table.table_id is not None
            record = await store.get_table(table.table_id)
            assert record is not None and record.options.get("dealt_alike") is True
    finally:
        await store.close()
