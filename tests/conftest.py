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

#: Test workers per core for ``-n auto``. The simcord tests spend about half their time
#: waiting (the bot's worker threads, the simulated Discord settling, subprocesses), so one
#: worker per core leaves the cores half idle: measured on 2 cores, the suite took 3:15 with
#: 2 workers, 2:28 with 4 and 2:26 with 6.
WORKERS_PER_CORE = 2


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
