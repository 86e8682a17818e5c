"""The command line as a process: --help starts nothing, subcommands, one process per file."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.process.cli import main, parser
from bot.process.process_lock import DatabaseInUse, ProcessLock
from data import open_store
from data.migrations import load_migrations

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a" * 24 + ".bcdefg." + "c" * 27


def shanghai(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,  # no .env here
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_help_answers_and_starts_nothing(tmp_path: Path) -> None:
    result = shanghai(tmp_path, "--help", DISCORD_TOKEN=TOKEN)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: shanghai")
    assert list(tmp_path.iterdir()) == []  # no var/, no database, no heartbeat
    assert "database opened" not in result.stderr


@pytest.mark.parametrize("command", ["run", "try", "sync", "check", "backup"])
def test_every_subcommand_has_help_that_starts_nothing(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.process.cli

    def must_not_serve(*args: object, **kwargs: object) -> int:
        raise AssertionError("--help started the bot")

    monkeypatch.setattr(bot.process.cli, "serve", must_not_serve)
    with pytest.raises(SystemExit) as exited:
        main([command, "--help"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: shanghai {command}")


def test_top_level_help_lists_every_subcommand() -> None:
    text = parser().format_help()
    for command in ("run", "try", "sync", "check", "backup"):
        assert f"    {command}" in text


def test_without_a_token_one_line_points_to_try(tmp_path: Path) -> None:
    result = shanghai(tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN is not set" in lines[0] and "python -m bot try" in lines[0]


def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    database = tmp_path / "var" / "shanghai.sqlite3"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from bot.process.process_lock import ProcessLock; "
            f"held = ProcessLock(__import__('pathlib').Path({str(database)!r})).acquire(); "
            "print('held', flush=True); time.sleep(60)",
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        for command in (["run"], ["sync"]):
            result = shanghai(
                tmp_path, *command, DISCORD_TOKEN=TOKEN, SHANGHAI_DATABASE=str(database)
            )
            assert result.returncode == 2
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1, result.stderr
            assert "already used by another bot process" in lines[0]
            assert f"pid {holder.pid}" in lines[0]
        checked = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_DATABASE=str(database))
        assert checked.returncode == 2 and "used by another bot process" in checked.stdout
    finally:
        holder.kill()
        holder.wait()
    # The lock died with its process: the next one gets it.
    with ProcessLock(database) as lock:
        assert lock.path.read_text() == str(os.getpid())


def test_the_lock_refuses_in_process_too(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    with ProcessLock(database), pytest.raises(DatabaseInUse, match=f"pid {os.getpid()}"):
        ProcessLock(database).acquire()
    ProcessLock(database).acquire().release()


def test_check_on_a_fresh_folder_says_what_would_happen_and_creates_nothing(
    tmp_path: Path,
) -> None:
    result = shanghai(tmp_path, "check")
    assert result.returncode == 2
    out = result.stdout
    assert "! token: DISCORD_TOKEN is not set" in out
    assert "does not exist yet; run would create it" in out
    assert "run would: refuse to start" in out
    assert list(tmp_path.iterdir()) == []


async def test_check_reads_an_existing_database(tmp_path: Path) -> None:

    database = tmp_path / "games.sqlite3"
    store = await open_store(database)
    await store.close()
    result = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_DATABASE=str(database))
    assert result.returncode == 0, result.stdout
    latest = load_migrations()[-1].version
    assert f"schema version {latest}, 0 open table(s)" in result.stdout
    assert "token: has the shape of a bot token" in result.stdout
    assert "run would: open the database, connect to Discord and serve" in result.stdout
    assert TOKEN not in result.stdout + result.stderr


def test_check_refuses_bad_settings_in_one_line(tmp_path: Path) -> None:
    result = shanghai(tmp_path, "check", SHANGHAI_BUY_SECONDS="soon")
    assert (
        result.returncode == 2
        and "invalid setting(s): SHANGHAI_BUY_SECONDS: not a number" in result.stdout
    )


async def test_backup_subcommand_copies_the_database(tmp_path: Path) -> None:

    database = tmp_path / "games.sqlite3"
    store = await open_store(database)
    await store.close()
    result = shanghai(tmp_path, "backup", "copy.sqlite3", "--database", str(database))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "copy.sqlite3").is_file()


def test_the_console_script_is_the_same_command_line() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    target = project["project"]["scripts"]["shanghai"]
    module, _, function = target.partition(":")
    assert (module, function) == ("bot.process.cli", "main")
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0


def test_a_bad_log_level_is_refused(tmp_path: Path) -> None:
    result = shanghai(tmp_path, DISCORD_TOKEN=TOKEN, SHANGHAI_LOG_LEVEL="LOUD")
    assert result.returncode == 2 and "invalid setting(s): SHANGHAI_LOG_LEVEL: " in result.stderr
