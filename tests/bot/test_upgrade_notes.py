"""``check`` explains a pending upgrade: what each migration changes that an admin would see."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.process.check import upgrade_lines
from bot.process.migration_notes import NOTES
from data.migrations import load_migrations
from data.ranking import MIN_RANKED_GAMES

from .test_cli import TOKEN, shanghai


def test_every_migration_of_both_dialects_has_a_note() -> None:
    for dialect in ("sqlite", "postgres"):
        numbers = [m.version for m in load_migrations(dialect=dialect)]  # type: ignore[arg-type]
        assert sorted(NOTES) == numbers, f"a {dialect} migration without its admin note"
    assert all(note.strip() and "issue" not in note.lower() for note in NOTES.values())


def test_the_leaderboard_note_keeps_old_games_and_names_the_threshold() -> None:
    note = NOTES[4]
    assert "kept" in note and f"after {MIN_RANKED_GAMES} ranked games" in note


def test_the_lines_name_each_pending_migration_and_ask_for_a_backup() -> None:
    lines = upgrade_lines(3, 6, backup="python -m bot backup var/backups/")
    assert lines[0].startswith("upgrade: back up the database first")
    assert "python -m bot backup var/backups/" in lines[0]
    assert [line.split(":")[0] for line in lines[1:]] == [
        "upgrade 0004 ranked_seasons",
        "upgrade 0005 guild_settings",
        "upgrade 0006 threads",
    ]
    assert upgrade_lines(6, 6, backup="x") == []
    assert upgrade_lines(0, 6, backup="x") == []  # an empty database: created, not upgraded


def test_check_on_an_old_database_explains_the_upgrade(tmp_path: Path) -> None:
    database = tmp_path / "old.sqlite3"
    with sqlite3.connect(database) as db:  # a database of schema 3, as an older bot left it
        for migration in load_migrations()[:3]:
            for statement in migration.statements:
                db.execute(statement)
        db.execute("PRAGMA user_version = 3")
    result = shanghai(tmp_path, "check", DISCORD_TOKEN=TOKEN, SHANGHAI_DATABASE=str(database))
    assert result.returncode == 0, result.stdout
    out = result.stdout
    latest = load_migrations()[-1].version
    assert f"run would migrate it from 3 to {latest}" in out
    assert "  upgrade: back up the database first" in out
    assert f"python -m bot backup {tmp_path / 'backups'}/" in out  # a folder it makes
    assert "  upgrade 0004 ranked_seasons: " in out and "  upgrade 0003" not in out
    assert f"after {MIN_RANKED_GAMES} ranked games" in out
