"""Starting ``python -m bot`` on PostgreSQL: a shard another process runs, or a server that
cannot be reached, ends in one line naming the problem and exit status 2, before any attempt
to reach Discord (the store, and with it the fence, is opened before logging in)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from data import ShardSet, open_store

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "x" * 24 + ".abcdef." + "y" * 27


def run_bot(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DATABASE_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=TOKEN, **settings)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_a_second_process_for_a_running_shard_exits_with_a_clear_message(
    tmp_path: Path, postgres_url: str
) -> None:
    owner = await open_store(postgres_url, shards=ShardSet.of(2, [1]))
    try:
        done = run_bot(
            tmp_path,
            DATABASE_URL=postgres_url,
            SHANGHAI_SHARD_COUNT="2",
            SHANGHAI_SHARD_IDS="1",
            SHANGHAI_SHARD_WAIT="1",
        )
    finally:
        await owner.close()
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1] == (
        "shanghai: shard 1 of 2 is already run by another process (waited 1 s for it to "
        "stop); check SHANGHAI_SHARD_IDS of each process"
    )
    assert "Traceback" not in done.stderr


def test_an_unreachable_server_is_one_line_without_the_password(tmp_path: Path) -> None:
    done = run_bot(tmp_path, SHANGHAI_DATABASE="postgresql://shanghai:s3cret@127.0.0.1:1/none")
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("shanghai: database postgresql://shanghai@127.0.0.1:1/none: ")
    assert "s3cret" not in done.stderr
    assert "Traceback" not in done.stderr


def test_the_start_up_log_names_the_database_opened_without_its_password(
    tmp_path: Path, postgres_url: str
) -> None:
    """As under compose: DATABASE_URL from the environment is the database opened."""
    from data import describe

    scheme, _, rest = postgres_url.partition("://")
    credentials, at, host = rest.rpartition("@")
    user = credentials.split(":", 1)[0] if at else "postgres"
    with_password = f"{scheme}://{user}:n0t-shown@{host if at else rest}"
    done = run_bot(tmp_path, DATABASE_URL=with_password)
    assert done.returncode == 2  # Discord is unreachable here, after the database opened
    assert f"database opened: PostgreSQL {describe(with_password)}, for shards" in done.stderr
    assert "n0t-shown" not in done.stderr


def test_the_start_up_log_names_the_sqlite_file(tmp_path: Path) -> None:
    done = run_bot(tmp_path, SHANGHAI_DATABASE=str(tmp_path / "games.sqlite3"))
    assert f"database opened: SQLite {tmp_path / 'games.sqlite3'}, for shards" in done.stderr


async def test_check_reads_the_postgres_schema_version(tmp_path: Path, postgres_url: str) -> None:
    from data.migrations import load_migrations

    store = await open_store(postgres_url)
    await store.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DATABASE_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=TOKEN, DATABASE_URL=postgres_url)
    done = subprocess.run(
        [sys.executable, "-m", "bot", "check"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    latest = load_migrations(dialect="postgres")[-1].version
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"schema version {latest}" in done.stdout and "database: PostgreSQL" in done.stdout
