"""``python -m bot check``: what ``run`` would do with these settings, without doing it.

It reads the settings exactly as ``run`` does, checks the token's shape (not the token itself:
only Discord can say whether it works, and ``check`` connects nowhere but the database), looks
at the database read-only (exists or would be created, its schema version against this
version's migrations, open tables, another process holding it) and prints one line per fact.
Exit status 0 when ``run`` would start, 2 otherwise, the problems marked ``!``.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import sys
from pathlib import Path

from bot.process.database_problems import moved_default_problem, path_problem
from bot.process.migration_notes import NOTES
from bot.process.process_lock import lock_path
from bot.process.settings import Settings
from bot.process.settings_facts import (
    EXIT_CONFIG,
    metrics_problem,
    settings_without_token,
    sqlite_facts,
)
from bot.process.settings_problems import unknown_settings
from data import describe, is_postgres_url
from data.migrations import Dialect, load_migrations


def main() -> int:
    settings, token_set, problem = settings_without_token()
    if settings is None:
        print(f"! settings: {problem}")
        return EXIT_CONFIG
    lines, ok = report(settings, token_set)
    for line in lines:
        print(line)
    print(
        "run would: "
        + (
            "open the database, connect to Discord and serve"
            if ok
            else "refuse to start (fix the lines marked !)"
        )
    )
    return 0 if ok else EXIT_CONFIG


def report(settings: Settings, token_set: bool) -> tuple[list[str], bool]:
    """The lines of ``check`` and whether ``run`` would start."""
    lines: list[str] = []
    ok = True

    def say(good: bool, text: str) -> None:
        nonlocal ok
        ok &= good
        lines.append(("  " if good else "! ") + text)

    say(
        True,
        f"settings: valid (buy window {settings.buy_seconds:g} s, turn "
        f"{settings.turn_seconds:g} s, log level {settings.log_level})",
    )
    unknown = unknown_settings()
    if unknown:
        say(True, f"settings: ignored, not a setting: {', '.join(unknown)}")
    if not token_set:
        say(False, "token: DISCORD_TOKEN is not set (try the bot without one: python -m bot try)")
    elif not settings.discord_token.get_secret_value().strip():
        say(False, "token: DISCORD_TOKEN is empty (put the bot's token after DISCORD_TOKEN=)")
    elif not settings.token_is_well_formed():
        say(False, "token: DISCORD_TOKEN does not look like a bot token (three parts)")
    else:
        say(True, "token: has the shape of a bot token (only Discord can say it works)")
    try:
        shards = settings.shards()
        say(True, f"shards: this process runs {shards}")
    except ValueError as error:
        say(False, f"shards: invalid SHANGHAI_SHARD_IDS / SHANGHAI_SHARD_COUNT: {error}")
        shards = None
    good, text = database_report(settings.database)
    say(good, text)
    pending = _pending_from(text)
    if good and pending is not None:
        for line in upgrade_lines(pending, _latest(settings.database), _backup_hint(settings)):
            say(True, line)
    if shards is not None and 0 in shards.ids:
        where = (
            "globally (Discord may take up to an hour to show them)"
            if settings.dev_guild is None
            else f"to the server {settings.dev_guild}"
        )
        say(True, f"commands: synced {where} if they changed since the last sync")
    if settings.backup_dir is None or is_postgres_url(settings.database):
        say(True, "backups: none automatic (SHANGHAI_BACKUP_DIR unset, or PostgreSQL)")
    else:
        say(
            True,
            f"backups: every {settings.backup_every_hours:g} h into {settings.backup_dir}, "
            f"keeping {settings.backup_keep}",
        )
    if settings.metrics_port is None:
        say(True, "metrics: off (SHANGHAI_METRICS_PORT unset)")
    elif (problem := metrics_problem(settings)) is not None:
        say(False, f"metrics: {problem}")
    else:
        host = settings.metrics_address
        host = f"[{host}]" if ":" in host else host
        say(True, f"metrics: http://{host}:{settings.metrics_port}/metrics")
    return lines, ok


def _migrate_clause(found: int, latest: int) -> str:
    """The end of a database line: what ``run`` would migrate (read back by ``_pending_from``)."""
    return "" if found == latest else f"; run would migrate it from {found} to {latest}"


_MIGRATES = re.compile(r"; run would migrate it from (\d+) to \d+$")


def _pending_from(database_line: str) -> int | None:
    """The schema version a database line (``_migrate_clause``) says ``run`` migrates from."""
    found = _MIGRATES.search(database_line)
    return int(found[1]) if found else None


def _latest(database: Path | str) -> int:
    dialect: Dialect = "postgres" if is_postgres_url(database) else "sqlite"
    return load_migrations(dialect=dialect)[-1].version


def _backup_hint(settings: Settings) -> str:
    """How to back this database up before the upgrade."""
    if is_postgres_url(settings.database):
        return "pg_dump (the bot does not back up PostgreSQL)"
    folder = settings.backup_dir or Path(settings.database).parent / "backups"
    return f"python -m bot backup {folder}/"


def upgrade_lines(found: int, latest: int, backup: str) -> list[str]:
    """What migrating from schema ``found`` to ``latest`` changes, after a backup's advice;
    nothing for an empty database (schema 0), which has nothing to lose or to explain."""
    if found == 0 or found >= latest:
        return []
    names = {m.version: m.name for m in load_migrations()}
    lines = [f"upgrade: back up the database first ({backup}); then, once, run will:"]
    for number in range(found + 1, latest + 1):
        note = NOTES.get(number, "(no note)")
        lines.append(f"upgrade {number:04d} {names.get(number, '?')}: {note}")
    return lines


def database_report(database: Path | str) -> tuple[bool, str]:
    """One line about the database: usable or not, and why."""
    if is_postgres_url(database):
        return postgres_report(str(database))
    path = Path(database)
    latest = load_migrations()[-1].version
    problem = moved_default_problem(path) or _readonly_path_problem(path)
    if problem is not None:
        return False, f"database: SQLite {path}: {problem}"
    try:
        facts = sqlite_facts(path)
    except sqlite3.Error as error:
        return False, f"database: SQLite {path}: not a usable SQLite database ({error})"
    if _locked(path):
        return False, f"database: SQLite {path} is used by another bot process right now"
    if facts is None:
        return True, f"database: SQLite {path} does not exist yet; run would create it"
    version, open_tables = facts
    if version > latest:
        return False, (
            f"database: SQLite {path} was written by a newer version (schema "
            f"{version}; this version knows up to {latest})"
        )
    migrate = _migrate_clause(version, latest)
    return True, (
        f"database: SQLite {path}, schema version {version}, {open_tables} open table(s){migrate}"
    )


def _readonly_path_problem(path: Path) -> str | None:
    """``path_problem`` without creating folders: ``check`` changes nothing."""
    if path.parent.exists():
        return path_problem(path)  # creates nothing when the folder exists
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                return f"{parent} is a file, not a folder"
            if not os.access(parent, os.W_OK | os.X_OK):
                return f"cannot create the folder {path.parent}: permission denied"
            return None
    return None


def _locked(path: Path) -> bool:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        return False
    lock = lock_path(path)
    if not lock.exists():
        return False
    with open(lock, encoding="utf-8") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    return False


def postgres_report(url: str) -> tuple[bool, str]:
    try:
        import asyncpg
    except ImportError:
        return False, f"database: {describe(url)}: needs asyncpg (pip install '.[postgres]')"

    async def version() -> int:
        conn = await asyncpg.connect(url, timeout=10)
        try:
            exists = await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL")
            if not exists:
                return 0
            return int(
                await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            )
        finally:
            await conn.close()

    try:
        found = asyncio.run(version())
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
        return False, f"database: {describe(url)}: cannot connect ({type(error).__name__})"
    latest = load_migrations(dialect="postgres")[-1].version
    if found > latest:
        return False, f"database: {describe(url)}: schema {found} is newer than {latest}"
    migrate = _migrate_clause(found, latest)
    return True, f"database: PostgreSQL {describe(url)}, schema version {found}{migrate}"


if __name__ == "__main__":
    sys.exit(main())
