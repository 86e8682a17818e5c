"""The PostgreSQL tests' own switch: without server binaries they are skipped, unless
``SHANGHAI_REQUIRE_POSTGRES`` is set (as CI sets it), which turns that into a failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: Each test runs pytest in a subprocess (about 10 s on a busy 2-core machine).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]


def run_postgres_test(**env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SHANGHAI_")}
    clean.update(env, SHANGHAI_PG_BINDIR="/nonexistent")  # as if the package were missing
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "tests/data/test_postgres_store.py"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_a_missing_server_skips_the_postgres_tests() -> None:
    done = run_postgres_test()
    assert done.returncode == 0, done.stdout
    assert "1 skipped" in done.stdout


def test_a_missing_server_fails_when_postgres_is_required() -> None:
    done = run_postgres_test(SHANGHAI_REQUIRE_POSTGRES="1")
    assert done.returncode != 0
    assert "SHANGHAI_REQUIRE_POSTGRES is set but PostgreSQL server binaries" in done.stdout
