"""Backups: consistent while the store writes, restorable, pruned, and runnable from the shell."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bot.process.settings import Settings
from data import Seat, Store, open_store
from data.backup import DEFAULT_DATABASE, BackupError, backup_every, backup_file, main, prune

ROOT = Path(__file__).resolve().parents[2]
SEATS = (Seat(101, "Ann"), Seat(102, "Bob"))

# Every table's version is the number of actions in its log: two rows written in one
# transaction, so a copy that caught one without the other would break it.
_TORN = """
SELECT t.id FROM tables AS t
WHERE t.version != (SELECT COUNT(*) FROM actions AS a WHERE a.table_id = t.id)
"""


async def _write_games(store: Store, stop: asyncio.Event, written: list[int]) -> None:
    """Open, start and play tables as fast as the store allows until ``stop``; ``written[0]``
    counts the actions committed so far."""
    channel = 0
    while not stop.is_set():
        channel += 1
        table = await store.create_table(1, channel, "shanghai", 101, SEATS, {})
        await store.start_game(table.id, SEATS, "{}", None, None)
        for version in range(20):
            await store.save_action(table.id, version, 101, "draw", "{}", None, None, ())
            written[0] += 1


async def _more_written(written: list[int], than: int) -> None:
    """Wait until the writer has committed at least 20 more actions (60 s at most)."""
    for _ in range(6000):
        if written[0] >= than + 20:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the writer stalled")


def _restore(backup: Path, target: Path) -> None:
    """What docs/admin.md tells an operator: copy the backup over the (stopped) bot's database."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(backup, target)


async def test_backups_taken_during_writes_restore_consistently(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "live.sqlite3")
    stop, written = asyncio.Event(), [0]
    writer = asyncio.create_task(_write_games(store, stop, written))
    backups = []
    for number in range(4):
        await _more_written(written, than=written[0])  # writes before, between and after
        backups.append(
            await asyncio.to_thread(
                backup_file, tmp_path / "live.sqlite3", tmp_path / f"b{number}.sqlite3"
            )
        )
    await _more_written(written, than=written[0])
    stop.set()
    await writer
    total = written[0]
    await store.close()
    counts = []
    for number, backup in enumerate(backups):
        assert stat.S_IMODE(backup.stat().st_mode) == 0o600  # it holds every hand
        assert not Path(f"{backup}-wal").exists()
        restored = tmp_path / f"restored{number}" / "shanghai.sqlite3"
        _restore(backup, restored)
        reopened = await open_store(restored)  # migrates, as the bot would at start-up
        tables = await reopened.open_tables()
        await reopened.close()
        with sqlite3.connect(restored) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert db.execute(_TORN).fetchall() == []
            counts.append(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        db.close()
        # A backup may fall between a table's creation and its start: two transactions.
        assert tables and all(t.status in ("lobby", "playing") for t in tables)
    # Each backup is a later moment than the one before, and all were taken mid-write.
    assert counts == sorted(counts) and counts[0] > 0 and counts[-1] < total


def test_backup_into_a_folder_and_prune(tmp_path: Path) -> None:
    source = tmp_path / "db.sqlite3"
    with sqlite3.connect(source) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    made = [backup_file(source, folder) for _ in range(5)]
    assert len(set(made)) == 5 and all(p.parent == folder for p in made)
    removed = prune(folder, keep=2)
    assert removed == made[:3]
    assert sorted(folder.iterdir()) == made[3:]


def test_backup_refuses_a_missing_or_bad_source(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no database"):
        backup_file(tmp_path / "missing.sqlite3", tmp_path / "out.sqlite3")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all\n" * 100)
    with pytest.raises(BackupError, match="could not back up"):
        backup_file(junk, tmp_path / "out.sqlite3")
    assert not (tmp_path / "out.sqlite3").exists()
    assert list(tmp_path.glob("*.partial")) == []


async def test_scheduled_backups_keep_the_newest(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="data.backup")
    store = await open_store(tmp_path / "db.sqlite3")
    await store.create_table(1, 1, "shanghai", 101, SEATS, {})
    folder = tmp_path / "backups"  # created by the first round
    every = 0.05 / 3600  # hours: a round every 50 ms
    task = asyncio.create_task(backup_every(tmp_path / "db.sqlite3", folder, hours=every, keep=2))

    def rounds() -> int:
        return sum(r.getMessage().startswith("backup written") for r in caplog.records)

    for _ in range(400):  # up to 20 s on a busy machine; four rounds take 0.2 s on an idle one
        if rounds() >= 4:
            break
        await asyncio.sleep(0.05)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await store.close()
    assert rounds() >= 4
    kept = sorted(folder.glob("*.sqlite3"))
    assert len(kept) == 2
    with sqlite3.connect(kept[-1]) as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)
    db.close()


async def test_a_restart_does_not_add_a_backup_before_its_time(tmp_path: Path) -> None:
    source = tmp_path / "db.sqlite3"
    with sqlite3.connect(source) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    recent = backup_file(source, folder)  # made by the bot before it restarted
    task = asyncio.create_task(backup_every(source, folder, hours=1, keep=7))
    await asyncio.sleep(0.5)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert list(folder.iterdir()) == [recent]
    os.utime(recent, (0, recent.stat().st_mtime - 2 * 3600))  # now two hours old: due
    task = asyncio.create_task(backup_every(source, folder, hours=1, keep=7))
    for _ in range(400):
        if len(list(folder.iterdir())) == 2:
            break
        await asyncio.sleep(0.05)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert len(list(folder.glob("shanghai-*.sqlite3"))) == 2


def test_command_line(tmp_path: Path) -> None:
    source = tmp_path / "var" / "shanghai.sqlite3"
    source.parent.mkdir()
    with sqlite3.connect(source) as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHANGHAI_")}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "data.backup"]
    # The default database is the bot's default, relative to the working directory.
    done = subprocess.run(
        [*command, "copy.sqlite3"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "copy.sqlite3" and (tmp_path / "copy.sqlite3").is_file()
    failed = subprocess.run(
        [*command, "x.sqlite3", "--database", "nowhere.sqlite3"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert failed.returncode == 2  # an operator's mistake, as for python -m bot
    assert failed.stderr.strip() == "backup: no database at nowhere.sqlite3"
    url = env | {"DATABASE_URL": "postgresql://bot@db/shanghai"}
    server = subprocess.run(
        [*command, "x.sqlite3"], cwd=tmp_path, env=url, capture_output=True, text=True, timeout=60
    )
    assert server.returncode == 2 and "pg_dump" in server.stderr


def test_default_database_agrees_with_the_bot() -> None:
    assert Settings(discord_token="x").database == DEFAULT_DATABASE


def test_the_bot_and_its_backup_read_the_same_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only ``SHANGHAI_DATABASE`` (else ``DATABASE_URL``) names the database: a stray
    ``DATABASE`` in the environment would otherwise move the bot to another file than the one
    ``python -m data.backup`` copies."""
    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE", str(tmp_path / "stray.sqlite3"))
    monkeypatch.setenv("SHANGHAI_DATABASE", str(tmp_path / "games.sqlite3"))
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute("CREATE TABLE t (x)")
    db.close()
    assert Settings(discord_token="x").database == tmp_path / "games.sqlite3"
    assert main([str(tmp_path / "copy.sqlite3")]) == 0
    with sqlite3.connect(tmp_path / "copy.sqlite3") as copy:
        assert copy.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]
    copy.close()
