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


@pytest.mark.parametrize("command", ["run", "try", "sync", "check", "backup", "replay", "member"])
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
    for command in ("run", "try", "sync", "check", "backup", "replay", "member"):
        assert f"    {command}" in text


@pytest.mark.parametrize("command", ["sync", "check"])
def test_sync_and_check_help_say_what_they_do(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert "Exit status" in text and len(text.split()) > 40  # more than a usage line


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


@pytest.mark.parametrize("command", [["-m", "bot", "backup"], ["-m", "data.backup"]])
async def test_a_backup_into_a_new_folder_and_a_failed_one_leaves_nothing(
    tmp_path: Path, command: list[str]
) -> None:
    database = tmp_path / "games.sqlite3"
    store = await open_store(database)
    await store.close()

    def backup(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *command, *args],
            cwd=tmp_path,
            env={"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
        )

    made = backup("nosuch/", "--database", str(database))
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "nosuch").is_dir()
    assert [p.name.startswith("shanghai-") for p in (tmp_path / "nosuch").iterdir()] == [True]
    failed = backup("deep/er/", "--database", str(tmp_path / "missing.sqlite3"))
    assert failed.returncode == 2 and "no database" in failed.stderr
    assert not (tmp_path / "deep").exists()  # no empty folder left behind
    postgres = backup("x.sqlite3", "--database", "postgresql://nowhere/db")
    assert postgres.returncode == 2 and "pg_dump" in postgres.stderr


async def test_an_operator_exports_and_erases_one_persons_data(tmp_path: Path) -> None:
    from data import ResultRow, Seat

    database = tmp_path / "games.sqlite3"
    store = await open_store(database)
    person, other = 123_456_789_012_345_678, 223_456_789_012_345_678
    seats = [Seat(person, "Gone"), Seat(other, "Stays")]
    table = await store.create_table(42, 7, "shanghai", person, seats, {})
    await store.start_game(table.id, seats, "{}", None, None)
    rows = [
        ResultRow(person, "Gone", 0, 5, True, place=1),
        ResultRow(other, "Stays", 1, 9, False, place=2),
    ]
    await store.finish_game(table.id, 0, "{}", rows, ranked=True)
    await store.guild_left(42)  # the bot left the server: only the operator can still reach it
    await store.close()
    env = {"SHANGHAI_DATABASE": str(database)}
    exported = shanghai(tmp_path, "member", "export", str(person), **env)
    assert exported.returncode == 0, exported.stderr
    data = __import__("json").loads(exported.stdout)
    assert [g["name"] for g in data["games"]] == ["Gone"]
    erased = shanghai(tmp_path, "member", "erase", str(person), **env)
    assert erased.returncode == 0 and "erased" in erased.stdout, erased.stderr
    again = shanghai(tmp_path, "member", "export", str(person), **env)
    assert __import__("json").loads(again.stdout)["games"] == []
    for bad in ("someone", "0"):
        refused = shanghai(tmp_path, "member", "erase", bad, **env)
        assert refused.returncode == 2 and "not a Discord user id" in refused.stderr
    missing = shanghai(tmp_path, "member", "export", "5", SHANGHAI_DATABASE=str(tmp_path / "no"))
    assert missing.returncode == 2 and "no database" in missing.stderr


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
