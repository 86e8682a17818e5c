"""Group commit keeps "acknowledged means durable": writes answered in a burst of grouped
commits are all in the database after the bot is killed (SIGKILL, a real process, SQLite) and
after the PostgreSQL server stops at once (``immediate``: what an OOM kill or a container stop
does), with writes still in flight both times."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from data import SqliteStore, Store
from data.postgres_store import PostgresStore
from tools.throwaway_postgres import REQUIRE_ENV, NoPostgres, ThrowawayCluster

from .conftest import HUMANS

ROOT = Path(__file__).resolve().parents[2]
TABLES = 40
#: Acknowledged writes to see before the kill: several full bursts of grouped commits.
ACKNOWLEDGED = 200

_CHILD = textwrap.dedent(
    """
    import asyncio, sys
    from data import SqliteStore
    from data.records import Seat

    async def main(path, tables):
        store = await SqliteStore.open(path)
        seats = (Seat(101, "Ann"), Seat(102, "Bob"))
        ids = []
        for index in range(tables):
            table = await store.create_table(1, 500 + index, "shanghai", 101, seats, {})
            await store.start_game(table.id, table.seats, "{}", None, None)
            ids.append(table.id)
        versions = dict.fromkeys(ids, 0)

        async def write(table_id):
            version = await store.save_action(
                table_id, versions[table_id], 101, "go", "x" * 4000, None, None, ()
            )
            versions[table_id] = version
            sys.stdout.write(f"{table_id} {version}\\n")  # acknowledged
            sys.stdout.flush()

        while True:
            await asyncio.gather(*(write(t) for t in ids))

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


async def _stored_versions(store: Store, ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each table's version and the length of its log, as stored."""
    stored = {}
    for table_id in ids:
        record = await store.get_table(table_id)
        assert record is not None
        stored[table_id] = (record.version, len(await store.actions(table_id)))
    return stored


async def test_a_killed_bot_loses_no_acknowledged_grouped_write(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(path), str(TABLES)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    acknowledged: dict[int, int] = {}
    try:
        assert child.stdout is not None
        for _ in range(ACKNOWLEDGED):
            line = child.stdout.readline()
            assert line, "the child ended before it was killed"
            table_id, version = map(int, line.split())
            acknowledged[table_id] = max(acknowledged.get(table_id, 0), version)
        child.send_signal(signal.SIGKILL)  # mid-burst: no finally, no atexit, no close
        child.wait(timeout=10)
        for line in child.stdout:  # answered before the kill, read after it
            table_id, version = map(int, line.split())
            acknowledged[table_id] = max(acknowledged.get(table_id, 0), version)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    store = await SqliteStore.open(path)
    try:
        stored = await _stored_versions(store, sorted(acknowledged))
        commits = store.commits
    finally:
        await store.close()
    assert commits == 0  # the check itself wrote nothing
    lost = {t: (v, stored[t]) for t, v in acknowledged.items() if stored[t][0] < v}
    assert lost == {}
    assert all(version == log for version, log in stored.values())  # state and log together


@pytest.fixture
def cluster() -> Iterator[ThrowawayCluster]:
    """A server of this test's own (it is stopped at once), durable as production's."""
    try:
        made = ThrowawayCluster.start(durable=True)
    except NoPostgres as missing:
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"{REQUIRE_ENV} is set but {missing}")
        pytest.skip(str(missing))
    yield made
    made.stop()


async def test_an_immediate_server_stop_loses_no_acknowledged_grouped_write(
    cluster: ThrowawayCluster,
) -> None:
    url = cluster.create_database("crash")
    store = await PostgresStore.open(url, fenced=False)
    ids = []
    for index in range(TABLES):
        table = await store.create_table(1, 500 + index, "shanghai", 101, HUMANS, {})
        await store.start_game(table.id, table.seats, "{}", None, None)
        ids.append(table.id)
    acknowledged = dict.fromkeys(ids, 0)
    enough = asyncio.Event()
    setup = store.commits

    async def write(table_id: int) -> None:
        version = await store.save_action(
            table_id, acknowledged[table_id], 101, "go", "x" * 4000, None, None, ()
        )
        acknowledged[table_id] = version
        if sum(acknowledged.values()) >= ACKNOWLEDGED:
            enough.set()

    async def bursts() -> None:
        while True:
            await asyncio.gather(*(write(t) for t in ids))

    running = asyncio.ensure_future(bursts())
    await enough.wait()
    grouped = store.commits - setup
    # The server dies with groups in flight; what was answered before is what must survive
    # (the loop is blocked while it stops, so nothing is answered meanwhile).
    answered = dict(acknowledged)
    cluster.halt("immediate")
    with pytest.raises((OSError, asyncpg.PostgresError, asyncpg.InterfaceError)):
        await running
    await store.close()
    assert grouped < sum(answered.values()) / 4  # the writes were grouped
    cluster.resume()
    reopened = await PostgresStore.open(url, fenced=False)
    try:
        stored = await _stored_versions(reopened, ids)
    finally:
        await reopened.close()
    lost = {t: (v, stored[t]) for t, v in answered.items() if stored[t][0] < v}
    assert lost == {}
    assert all(version == log for version, log in stored.values())
