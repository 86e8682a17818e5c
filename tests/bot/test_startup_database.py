"""Every start-up database problem is one line naming the path and the reason, exit status 2.

The bot runs as a real ``python -m bot`` subprocess. Discord is unreachable here, so a problem
the bot failed to recognise would end in "could not reach Discord": each case asserts its own
reason. Run as root, the process would ignore file permissions; the read-only cases then drop
the capabilities that let root write anyway (``setpriv``), so they test what a normal user sees.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "a" * 24 + ".bcdefg." + "c" * 27
_ROOT_CAPS = "-dac_override,-dac_read_search,-fowner"


def _as_plain_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    assert setpriv, "running as root: the read-only cases need setpriv (util-linux)"
    return [setpriv, "--bounding-set", _ROOT_CAPS, "--inh-caps", _ROOT_CAPS, *command]


def run_bot(cwd: Path, database: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN, "SHANGHAI_DATABASE": database}
    return subprocess.run(
        _as_plain_user([sys.executable, "-m", "bot"]),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _valid_database(path: Path, user_version: int = 0) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
        db.execute(f"PRAGMA user_version = {user_version}")
    db.close()


def under_a_file(tmp: Path) -> str:
    (tmp / "notes.txt").write_text("a file, not a folder")
    return "notes.txt/shanghai.sqlite3"


def folder_without_write_permission(tmp: Path) -> str:
    (tmp / "locked").mkdir()
    (tmp / "locked").chmod(stat.S_IRUSR | stat.S_IXUSR)
    return "locked/shanghai.sqlite3"


def a_directory(tmp: Path) -> str:
    (tmp / "shanghai.sqlite3").mkdir()
    return "shanghai.sqlite3"


def a_read_only_file(tmp: Path) -> str:
    _valid_database(tmp / "shanghai.sqlite3")
    (tmp / "shanghai.sqlite3").chmod(stat.S_IRUSR)
    return "shanghai.sqlite3"


def not_a_database(tmp: Path) -> str:
    (tmp / "shanghai.sqlite3").write_bytes(b"these are my holiday photos, not tables\n" * 200)
    return "shanghai.sqlite3"


def a_newer_schema(tmp: Path) -> str:
    _valid_database(tmp / "shanghai.sqlite3", user_version=999)
    return "shanghai.sqlite3"


def games_left_at_the_old_default(tmp: Path) -> str:
    (tmp / "data").mkdir()
    _valid_database(tmp / "data" / "shanghai.sqlite3")
    return "var/shanghai.sqlite3"  # the new default


@pytest.mark.parametrize(
    ("arrange", "reason"),
    [
        (under_a_file, "notes.txt is a file, not a folder"),
        (folder_without_write_permission, "no write permission in the folder locked"),
        (a_directory, "is a directory"),
        (a_read_only_file, "read-only"),
        (not_a_database, "is not a SQLite database"),
        (a_newer_schema, "newer version of the bot (schema 999"),
        (games_left_at_the_old_default, "but data/shanghai.sqlite3 (the old default) exists"),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_database_problem_is_one_line_and_exit_2(
    tmp_path: Path, arrange: Callable[[Path], str], reason: str
) -> None:
    tmp_path.chmod(0o777)  # the plain-user run must be able to reach the files
    database = arrange(tmp_path)
    result = run_bot(tmp_path, database)
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr
    assert lines == [lines[-1]] and lines[0].startswith(f"shanghai: database {database}: ")
    assert reason in lines[0]
    assert "network" not in result.stderr and "Traceback" not in result.stderr
