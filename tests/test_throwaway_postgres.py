"""The PostgreSQL tests' own switch: without server binaries they are skipped, unless
``SHANGHAI_REQUIRE_POSTGRES`` is set (as CI sets it), which turns that into a failure."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tools.throwaway_postgres import ThrowawayCluster

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
    summary = done.stdout.strip().splitlines()[-1]
    assert "skipped" in summary, summary
    assert "passed" not in summary and "failed" not in summary and "error" not in summary, summary


def test_a_missing_server_fails_when_postgres_is_required() -> None:
    done = run_postgres_test(SHANGHAI_REQUIRE_POSTGRES="1")
    assert done.returncode != 0
    assert "SHANGHAI_REQUIRE_POSTGRES is set but PostgreSQL server binaries" in done.stdout


def test_a_killed_owner_leaves_no_server_behind(postgres_cluster: ThrowawayCluster) -> None:
    # postgres_cluster only brings the skip-or-fail rule; the child starts a server of its own.
    child = subprocess.Popen(
        [sys.executable, "-c", _CHILD], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert child.stdout is not None
    root = Path(child.stdout.readline().strip())
    assert (root / "db").is_dir()
    child.kill()  # SIGKILL: no finally, no atexit
    child.wait()
    deadline = time.monotonic() + 20
    while root.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not root.exists()
    running = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(root) not in running


_CHILD = """
import time
from tools.throwaway_postgres import ThrowawayCluster
print(ThrowawayCluster.start().root, flush=True)
time.sleep(120)
"""
