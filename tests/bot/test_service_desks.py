"""The table service's desks stand alone, and only its committer writes and tells.

Each desk (lobby, turns, clock) is built here by itself with a fake committer that applies
actions to the game in memory and records what it was asked, and one of its verbs is played
through it. Then the service package is read: no module but ``tables_commit.py`` calls the
store's writing methods or the listener's ``table_changed``.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

from bot.ground.errors import UserError
from bot.service.computers import ComputerSeats
from bot.service.live import ActResult, LiveTable, Memento, Store, rules_for
from bot.service.tables_clock import TableClock
from bot.service.tables_commit import Committer
from bot.service.tables_core import Settings, Tables
from bot.service.tables_lobby import Lobby
from bot.service.tables_turns import Turns
from bot.service.timers import Timers, Timings
from data.records import AwayState, Seat, TableRecord
from engine import Game
from engine.actions import Action, Discard, DrawStock

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "bot" / "service"
NOW = 1_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


class FakeCommitter:
    """Stands in for the one writer: applies actions to the game in memory (no store) and
    records every write and notice a desk asks of it."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.calls: list[tuple[Any, ...]] = []

    def notify(self, table: LiveTable, kind: str, **fields: Any) -> None:
        self.calls.append(("notify", kind))

    async def apply(
        self,
        table: LiveTable,
        seat: int,
        action: Action,
        *,
        before: Memento | None = None,
        kind: str = "act",
        auto_seat: int | None = None,
        auto_actions: list[Action] | None = None,
    ) -> ActResult:
        game = table.game
        assert game is not None
        events = game.apply(game.players[seat], action)
        table.game_changed()
        table.version += 1
        self.calls.append(("apply", seat, action, kind))
        return ActResult(events, table.version)

    async def write_away(self, table: LiveTable, memento: Memento) -> None:
        self.calls.append(("write_away", dict(table.buy_prefs)))

    async def settle(self, table: LiveTable) -> None:
        self.calls.append(("settle",))

    async def open_lobby(
        self, guild_id: int, channel_id: int, game_kind: str, host: Seat, options: dict[str, Any]
    ) -> LiveTable:
        self.calls.append(("open_lobby", host.user_id))
        record = _record(1, (host,), status="lobby")
        return self.tables.remember(LiveTable(record, None, 0))

    async def save_lobby(
        self, table: LiveTable, seats: tuple[Seat, ...], options: dict[str, Any]
    ) -> None:
        self.calls.append(("save_lobby", tuple(seat.user_id for seat in seats)))
        table.record = replace(table.record, seats=seats, options=options)


def _record(table_id: int, seats: tuple[Seat, ...], *, status: str) -> TableRecord:
    return TableRecord(
        id=table_id,
        guild_id=1,
        channel_id=10 + table_id,
        game_kind="shanghai",
        status=status,  # type: ignore[arg-type]
        host_id=seats[0].user_id,
        message_id=None,
        seats=seats,
        options={},
        state=None,
        version=0,
        buy_deadline=None,
        turn_deadline=None,
        away=(),
        created_at=NOW - 10,
        updated_at=NOW - 10,
    )


def _playing_table(tables: Tables, table_id: int = 2) -> LiveTable:
    """A table of two people whose game has begun, its buy window not running."""
    seats = (Seat(100, "ann"), Seat(101, "bob"))
    game = Game.new([str(seat.user_id) for seat in seats], rules_for({}), 5)
    table = LiveTable(_record(table_id, seats, status="playing"), game, 0)
    table.away = [AwayState() for _ in seats]
    table.last_person = NOW
    return tables.remember(table)


def _desks(clock: Clock) -> tuple[FakeCommitter, Tables, Timers, Settings]:
    tables = Tables()

    async def wake(table: LiveTable) -> None:  # no alarm is let go off in these tests
        raise AssertionError("woken")

    timers = Timers(clock, Timings(30 * 60, 24 * 3600), wake)
    return FakeCommitter(tables), tables, timers, Settings()


async def test_the_lobby_desk_stands_alone_with_a_fake_committer() -> None:
    clock = Clock()
    fake, tables, timers, settings = _desks(clock)
    lobby = Lobby(cast(Committer, fake), tables, timers, clock, settings, cast(Store, None))

    table = await lobby.open_table(1, 11, 100, "ann", {"preset": "standard"})
    await lobby.join(table.id, 101, "bob")
    with pytest.raises(UserError):
        await lobby.join(table.id, 101, "bob")  # refused before anything is written

    assert [seat.user_id for seat in table.record.seats] == [100, 101]
    assert fake.calls == [
        ("open_lobby", 100),
        ("notify", "lobby"),
        ("save_lobby", (100, 101)),
        ("notify", "lobby"),
    ]
    timers.disarm(table)


async def test_the_turn_desk_stands_alone_with_a_fake_committer() -> None:
    clock = Clock()
    fake, tables, timers, settings = _desks(clock)
    turns = Turns(cast(Committer, fake), tables, timers, clock, settings)
    table = _playing_table(tables)
    game = table.game
    assert game is not None
    mover = int(game.current_player)
    other = 101 if mover == 100 else 100

    await turns.act(table.id, mover, DrawStock())
    await turns.set_buy_preference(table.id, other, "never")

    seat, other_seat = game.seat_of(str(mover)), game.seat_of(str(other))
    assert fake.calls == [
        ("apply", seat, DrawStock(), "act"),
        ("write_away", {other_seat: "never"}),
    ]
    assert game.step == "play" and turns.snapshot(table.id, mover).my_turn


async def test_the_clock_desk_stands_alone_and_asks_its_lobby_and_turn_desks() -> None:
    clock = Clock()
    fake, tables, timers, settings = _desks(clock)

    class FakeLobby:
        def __init__(self) -> None:
            self.expired: list[tuple[int, str]] = []

        async def expire(self, table: LiveTable, why: str) -> None:
            self.expired.append((table.id, why))

    fake_lobby = FakeLobby()
    desk = TableClock(
        cast(Committer, fake),
        cast(Turns, None),  # neither a computer's move nor its buy is due in this test
        cast(Lobby, fake_lobby),
        tables,
        timers,
        ComputerSeats(5),
        clock,
        settings,
    )
    lobby_table = tables.remember(
        LiveTable(_record(1, (Seat(100, "ann"),), status="lobby"), None, 0)
    )
    late = _playing_table(tables)
    game = late.game
    assert game is not None
    seat = game.current
    late.turn_deadline = NOW - 1

    clock.now = NOW + settings.lobby_seconds
    late.last_person = clock.now
    await desk.wake(lobby_table)
    await desk.wake(late)

    assert [table_id for table_id, _ in fake_lobby.expired] == [lobby_table.id]
    played = [call for call in fake.calls if call[0] == "apply"]
    assert played and all(call[1] == seat and call[3] == "timeout" for call in played)
    assert isinstance(played[-1][2], Discard) and game.current != seat
    assert late.away[seat].timeouts == 1


# -- only the committer writes and tells ---------------------------------------------------------


def _store_writes() -> set[str]:
    """The store's writing methods, as the service's ``Store`` protocol names them."""
    tree = ast.parse((SERVICE / "live.py").read_text())
    protocol = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Store"
    )
    names = {node.name for node in protocol.body if isinstance(node, ast.AsyncFunctionDef)}
    reads = {"get_table", "open_tables", "open_places", "seated_open_tables"}
    assert reads <= names
    return names - reads


def _writers(source: str, writes: set[str]) -> list[str]:
    """The calls in ``source`` that write to a store or tell a listener."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        receiver = ast.unparse(node.func.value)
        name = node.func.attr
        if (name in writes and receiver.split(".")[-1] == "store") or name == "table_changed":
            found.append(f"{receiver}.{name}")
    return found


def test_the_scan_finds_a_write_and_a_notice() -> None:
    writes = _store_writes()
    source = (
        "async def f(self):\n"
        "    await self.store.save_action(1)\n"
        "    self.listener.table_changed(c)\n"
    )
    found = sorted(_writers(source, writes))
    assert found == ["self.listener.table_changed", "self.store.save_action"]
    assert _writers("async def f(self):\n    await self.store.get_table(1)\n", writes) == []


def test_only_the_committer_saves_to_the_store_and_tells_the_listener() -> None:
    writes = _store_writes()
    assert {"save_action", "finish_game", "set_away", "end_table"} <= writes
    # ``Listeners`` (live.py) is the listener itself: it passes each change on to its parts.
    allowed = {"tables_commit.py": None, "live.py": {"listener.table_changed"}}
    offenders = {}
    for path in sorted(SERVICE.glob("*.py")):
        calls = _writers(path.read_text(), writes)
        if path.name in allowed:
            permitted = allowed[path.name]
            calls = [] if permitted is None else [c for c in calls if c not in permitted]
        if calls:
            offenders[path.name] = calls
    assert offenders == {}
    assert _writers((SERVICE / "tables_commit.py").read_text(), writes)  # the writer is seen
