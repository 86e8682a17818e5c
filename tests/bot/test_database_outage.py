"""Issue 25.1: while PostgreSQL is unreachable a click is refused and changes nothing, in memory
too; when the server is back, play resumes by itself with nothing lost, and the stored state
is still the replay of the stored action log. Run against a real server, stopped both ways an
admin meets: ``fast`` (a clean shutdown) and ``immediate`` (an OOM kill, a container stop)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import asyncpg
import pytest

from bot.service import TableService
from bot.service.live import rules_for
from data.postgres_store import PostgresStore
from engine import Game
from engine.actions import DrawStock, parse_action
from tests.clock import FakeClock
from tools.throwaway_postgres import REQUIRE_ENV, NoPostgres, ThrowawayCluster


@pytest.fixture
def cluster() -> Iterator[ThrowawayCluster]:
    """A server of this test's own (it is stopped and started), durable as production's."""
    try:
        made = ThrowawayCluster.start(durable=True)
    except NoPostgres as missing:
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"{REQUIRE_ENV} is set but {missing}")
        pytest.skip(str(missing))
    yield made
    made.stop()


async def replayed(url: str, table_id: int, seed: int) -> str:
    """The table's state rebuilt from its first deal and its stored action log."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT seats, options, state FROM tables WHERE id = $1", table_id
        )
        log = await conn.fetch(
            "SELECT user_id, action FROM actions WHERE table_id = $1 ORDER BY seq", table_id
        )
    finally:
        await conn.close()
    assert row is not None
    import json

    seats = json.loads(row["seats"])
    options = json.loads(row["options"])
    # The shuffle's secret is part of the stored state (never of a view); the deals follow
    # from it and the seed, so the log alone rebuilds every hand.
    secret = bytes.fromhex(json.loads(row["state"])["secret"])
    game = Game.new([str(s["user_id"]) for s in seats], rules_for(options), seed, secret=secret)
    for entry in log:
        game.apply(str(entry["user_id"]), parse_action(entry["action"]))
    return game.to_json()


async def stored_state(url: str, table_id: int) -> tuple[int, str]:
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow("SELECT version, state FROM tables WHERE id = $1", table_id)
    finally:
        await conn.close()
    assert row is not None
    return int(row["version"]), str(row["state"])


@pytest.mark.parametrize("mode", ["fast", "immediate"])
async def test_an_outage_changes_nothing_and_play_resumes_by_itself(
    cluster: ThrowawayCluster, mode: str
) -> None:
    url = cluster.create_database("outage")
    store = await PostgresStore.open(url, fenced=False)
    clock = FakeClock()
    service = TableService(store, seed=5, clock=clock, turn_seconds=1e9, idle_seconds=1e12)
    try:
        table = await service.open_table(1, 2, 100, "a", {"preset": "standard"})
        for user in (101, 102):
            await service.join(table.id, user, f"p{user}")
        live = await service.start(table.id, 100)
        clock.now += 30  # the first window has closed
        game = live.game
        assert game is not None
        player = int(game.current_player)
        before = (live.version, game.to_json(), len(game.hand_of(str(player))))

        cluster.halt(mode)
        with pytest.raises(Exception) as refused:
            await service.act(table.id, player, DrawStock())
        assert not isinstance(refused.value, AssertionError)
        # Nothing moved in memory: the same version, the same state, no card drawn.
        now_game = service.get(table.id).game
        assert now_game is not None
        assert (live.version, now_game.to_json(), len(now_game.hand_of(str(player)))) == before
        assert live.window.held is None

        cluster.resume()
        for _ in range(50):  # the pool reconnects by itself; a few tries at most
            try:
                await service.act(table.id, player, DrawStock())
                break
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                await asyncio.sleep(0.1)
        else:
            pytest.fail("play did not resume after the server came back")
        assert live.version == before[0] + 1
        version, state = await stored_state(url, table.id)
        assert version == live.version and state == live.game.to_json()  # type: ignore[union-attr]
        assert await replayed(url, table.id, 5 * 1_000_003 + table.id) == state
    finally:
        await service.close()
        await store.close()


def test_an_unreachable_server_is_a_storage_fault_not_a_bug() -> None:
    """A click during the outage gets the polite "nothing was changed" reply and one warning
    line, not an apology for a bug with a traceback."""
    import errno

    from bot.ground.storage_faults import is_storage_fault

    assert is_storage_fault(ConnectionRefusedError(errno.ECONNREFUSED, "refused"))
    assert is_storage_fault(asyncpg.exceptions.ConnectionDoesNotExistError("gone"))
    assert is_storage_fault(asyncpg.exceptions.CannotConnectNowError("starting up"))
    assert is_storage_fault(asyncpg.exceptions.AdminShutdownError("shutting down"))
    assert not is_storage_fault(ValueError("a bug"))
