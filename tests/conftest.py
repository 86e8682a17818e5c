"""Fixtures shared by every test folder: a throwaway PostgreSQL server, one per test session.

Without the server binaries the PostgreSQL tests are skipped, unless ``SHANGHAI_REQUIRE_POSTGRES``
is set (CI sets it): then they fail, so a CI machine without PostgreSQL cannot pass quietly.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

import pytest

from tools.throwaway_postgres import REQUIRE_ENV, NoPostgres, ThrowawayCluster

_names = itertools.count(1)

#: Test workers per core for ``-n auto``. Two a core ran the suite about a quarter faster
#: on 2 cores (2:28 against 3:15), but a simcord test's settle is a real-time window: with
#: two workers sharing a core, the bot's worker threads (pictures drawn, a computer's
#: search) run at half speed inside it, and the short windows some tests need (a second,
#: so that a 5-second buy window stays virtual) ran out on a busy CI machine. One a core
#: keeps those windows as wide as the tests were written for.
WORKERS_PER_CORE = 1


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown when xdist is not loaded
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` starts: ``WORKERS_PER_CORE`` for each core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[ThrowawayCluster]:
    try:
        cluster = ThrowawayCluster.start()
    except NoPostgres as missing:
        if os.environ.get(REQUIRE_ENV):
            pytest.fail(f"{REQUIRE_ENV} is set but {missing}")
        pytest.skip(str(missing))
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: ThrowawayCluster) -> Iterator[str]:
    """A fresh, empty database on the session's server; dropped afterwards."""
    name = f"test_{os.getpid()}_{next(_names)}"
    yield postgres_cluster.create_database(name)
    postgres_cluster.sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
