"""Settings mistakes are named: the variable, the reason, the name probably meant."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.process.settings_problems import unknown_settings
from data import open_store

from .test_cli import TOKEN, shanghai


def test_an_invalid_value_names_its_variable_and_the_reason(tmp_path: Path) -> None:
    result = shanghai(tmp_path, DISCORD_TOKEN=TOKEN, SHANGHAI_TURN_SECONDS="abc")
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "SHANGHAI_TURN_SECONDS" in line and "turn_seconds" not in line
    assert "not a number" in line, line


def test_nan_is_not_a_number_rather_than_out_of_bounds(tmp_path: Path) -> None:
    for value in ("nan", "NaN", "-nan"):
        result = shanghai(tmp_path, "check", SHANGHAI_BUY_SECONDS=value)
        assert result.returncode == 2
        assert "SHANGHAI_BUY_SECONDS: not a number" in result.stdout, result.stdout
        assert "at most" not in result.stdout


def test_check_names_every_invalid_variable_in_one_line(tmp_path: Path) -> None:
    result = shanghai(
        tmp_path,
        "check",
        SHANGHAI_BUY_SECONDS="0",
        SHANGHAI_METRICS_ADDRESS="everywhere",
        SHANGHAI_THREADS="perhaps",
    )
    assert result.returncode == 2
    (line,) = result.stdout.strip().splitlines()
    assert line.startswith("! settings: ")
    assert "SHANGHAI_BUY_SECONDS: must be greater than 0" in line
    assert "SHANGHAI_METRICS_ADDRESS: not an IP address" in line
    assert "SHANGHAI_THREADS: not true or false" in line


def test_a_bad_log_level_names_the_part_that_is_not_a_level(tmp_path: Path) -> None:
    result = shanghai(tmp_path, DISCORD_TOKEN=TOKEN, SHANGHAI_LOG_LEVEL="LOUD")
    assert result.returncode == 2
    assert "SHANGHAI_LOG_LEVEL: " in result.stderr and "LOUD" in result.stderr


def test_an_empty_token_is_called_empty(tmp_path: Path) -> None:
    ran = shanghai(tmp_path, DISCORD_TOKEN="")
    assert ran.returncode == 2
    (line,) = ran.stderr.strip().splitlines()
    assert "DISCORD_TOKEN is empty" in line
    checked = shanghai(tmp_path, "check", DISCORD_TOKEN="  ")
    assert "! token: DISCORD_TOKEN is empty" in checked.stdout


def test_unknown_names_are_found_with_the_name_meant(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("SHANGHAI_BACKUP_DIRECTORY=b\nshanghai_turn_seconds=30\n", encoding="utf-8")
    environ = {"SHANGHAI_TURN_SECOND": "30", "SHANGHAI_ZZZ": "1", "HOME": "/root"}
    found = unknown_settings(environ, dotenv)
    assert found == [
        "SHANGHAI_BACKUP_DIRECTORY (in .env; did you mean SHANGHAI_BACKUP_DIR?)",
        "SHANGHAI_TURN_SECOND (did you mean SHANGHAI_TURN_SECONDS?)",
        "SHANGHAI_ZZZ",
    ]


def test_check_lists_unknown_names_and_still_passes(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("SHANGHAI_TRUN_SECONDS=30\n", encoding="utf-8")
    result = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_BUYSECONDS="3")
    assert result.returncode == 0, result.stdout
    assert (
        "settings: ignored, not a setting: SHANGHAI_BUYSECONDS (did you mean "
        "SHANGHAI_BUY_SECONDS?), SHANGHAI_TRUN_SECONDS (in .env; did you mean "
        "SHANGHAI_TURN_SECONDS?)"
    ) in result.stdout


def test_run_warns_about_unknown_names_at_start(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    result = shanghai(
        tmp_path,
        DISCORD_TOKEN=TOKEN,
        SHANGHAI_TURN_SECOND="30",
        # The start stops at the database, after the log is set up: no Discord needed.
        SHANGHAI_DATABASE=str(tmp_path / "afile" / "db.sqlite3"),
    )
    assert result.returncode == 2
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].endswith(
        "ignored, not a setting: SHANGHAI_TURN_SECOND (did you mean SHANGHAI_TURN_SECONDS?)"
    )


def test_backup_into_a_folder_that_does_not_exist_creates_it(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"

    async def make() -> None:
        await (await open_store(database)).close()

    asyncio.run(make())
    result = shanghai(tmp_path, "backup", "nosuchdir/", "--database", str(database))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "nosuchdir"
    assert folder.is_dir() and len(list(folder.iterdir())) == 1
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    refused = shanghai(tmp_path, "backup", "afile/", "--database", str(database))
    assert refused.returncode == 2
    (line,) = refused.stderr.strip().splitlines()
    assert "afile" in line and "not a folder" in line
