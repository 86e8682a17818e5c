"""Backups of the SQLite database, consistent while the bot keeps writing.

``python -m data.backup DEST`` copies the database (``SHANGHAI_DATABASE`` from the environment
or ``.env``, else ``var/shanghai.sqlite3``; or ``--database PATH``) to the file DEST, or into
the folder DEST under a dated name. The bot can also make them itself: with
``SHANGHAI_BACKUP_DIR`` set it runs ``backup_every`` and keeps the newest ``SHANGHAI_BACKUP_KEEP``.

Why the online backup API and not ``cp``: copying the file while the bot writes can catch a
transaction half-written, and misses what still sits in the ``-wal`` file. SQLite's backup
copies every page inside one read transaction, so the copy is the database as of one commit;
in WAL mode that read never blocks the bot's writes. The copy is written to a temporary name,
checked (``PRAGMA quick_check``), switched to a single self-contained file (no ``-wal``), made
readable by its owner only (it holds every hand), and only then renamed into place.

To restore: stop the bot, copy the backup over the database file, delete the database's
``-wal`` and ``-shm`` files if present, start the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sqlite3
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from .opening import is_postgres_url

log = logging.getLogger(__name__)

#: The bot's default database path (``bot.process.settings.Settings.database``; a test keeps them
#: equal).
DEFAULT_DATABASE = Path("var/shanghai.sqlite3")
#: Dated names of backups made into a folder; their sort order is their age.
_NAME = "shanghai-{stamp}.sqlite3"
_STAMP = "%Y%m%d-%H%M%S-%f"


class BackupError(RuntimeError):
    """The backup could not be made; nothing was left at the destination."""


def backup_file(source: Path, destination: Path) -> Path:
    """Copy the database ``source`` to ``destination`` (a file, or a folder to name it in).

    Returns the path written. Raises ``BackupError`` if the source is missing or not a
    database, or the copy fails its check. Blocking: call it in a thread from async code.
    """
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if destination.is_dir():
        stamp = datetime.now(UTC).strftime(_STAMP)
        destination = destination / _NAME.format(stamp=stamp)
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(sqlite3.connect(source)) as src,
            contextlib.closing(sqlite3.connect(partial)) as copy,
        ):
            src.backup(copy)  # all pages in one step: one read transaction, one commit's state
            if copy.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise BackupError(f"the copy of {source} failed its integrity check")
            copy.execute("PRAGMA journal_mode = DELETE").fetchall()
        partial.chmod(0o600)
        os.replace(partial, destination)
    except sqlite3.Error as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"could not back up {source}: {error}") from error
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return destination


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` dated backups in ``folder``; return those deleted."""
    dated = sorted(folder.glob(_NAME.format(stamp="*")))
    doomed = dated[:-keep] if keep > 0 else dated
    for path in doomed:
        path.unlink(missing_ok=True)
    return doomed


def _newest_age(folder: Path) -> float | None:
    """Seconds since the newest dated backup in ``folder`` was written, or ``None``."""
    stamps = [p.stat().st_mtime for p in folder.glob(_NAME.format(stamp="*"))]
    return time.time() - max(stamps) if stamps else None


async def backup_every(source: Path, folder: Path, *, hours: float, keep: int) -> None:
    """Back ``source`` up into ``folder`` every ``hours``, keeping the newest ``keep``.

    The first backup is made at once unless the folder already holds one younger than
    ``hours``: a bot restarted ten times a day still makes one a day, and its restarts do not
    push the older days out of the ``keep`` kept. Runs until cancelled; a failed backup is
    logged and retried at the next interval.
    """
    age = _newest_age(folder) if folder.is_dir() else None
    if age is not None and age < hours * 3600:
        await asyncio.sleep(hours * 3600 - age)
    while True:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            made = await asyncio.to_thread(backup_file, source, folder)
            removed = await asyncio.to_thread(prune, folder, keep)
            log.info("backup written to %s (%d old one(s) removed)", made, len(removed))
        except (BackupError, OSError) as error:
            log.error("automatic backup failed: %s", error)
        await asyncio.sleep(hours * 3600)


class _Where(BaseSettings):
    """Where the bot keeps its database, read the way the bot reads it (environment, .env)."""

    model_config = SettingsConfigDict(
        env_prefix="SHANGHAI_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )
    # Text, so that a postgresql:// URL stays whole; the same names as bot.process.settings reads.
    database: str = Field(
        default=str(DEFAULT_DATABASE),
        validation_alias=AliasChoices("SHANGHAI_DATABASE", "DATABASE_URL"),
    )


#: Exit status for a backup the operator must fix (no database, a bad destination, a
#: PostgreSQL URL): the same as ``python -m bot``'s for a problem the operator must fix.
EXIT_OPERATOR = 2


def make_folder(destination: str) -> tuple[Path | None, list[Path]]:
    """A destination ending in a slash names a folder: made if missing (else the backup would
    be a file of that name). The folder (``None`` for a file) and the folders made for it,
    deepest first, to take back if the backup fails. Raises ``BackupError`` if it cannot be."""
    if not destination.endswith(("/", os.sep)):
        return None, []
    folder = Path(destination)
    if folder.exists() and not folder.is_dir():
        raise BackupError(f"{folder} is not a folder")
    made = []
    for missing in (folder, *folder.parents):
        if missing.exists():
            break
        made.append(missing)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BackupError(
            f"cannot create the folder {folder} ({error.strerror or error})"
        ) from error
    return folder, made


def main(argv: list[str] | None = None) -> int:
    """``python -m data.backup DEST`` and ``python -m bot backup DEST``: one backup, its path
    printed; on failure one line on stderr, exit status 2 and nothing left behind (not even a
    folder made for it)."""
    parser = argparse.ArgumentParser(
        prog="python -m data.backup",
        description="Copy the bot's SQLite database safely, even while the bot is running.",
    )
    parser.add_argument(
        "destination", help="a backup file to write, or a folder (ending in / : made if missing)"
    )
    parser.add_argument(
        "--database", default=None, help="the database (default: SHANGHAI_DATABASE)"
    )
    args = parser.parse_args(argv)
    where = str(args.database) if args.database else _Where().database
    if is_postgres_url(where):
        print("backup: the database is on PostgreSQL; back it up with pg_dump", file=sys.stderr)
        return EXIT_OPERATOR
    made: list[Path] = []
    try:
        folder, made = make_folder(args.destination)
        written = backup_file(Path(where), folder or Path(args.destination))
    except (BackupError, OSError) as error:
        for empty in made:  # deepest first; each one is still empty
            with contextlib.suppress(OSError):
                empty.rmdir()
        print(f"backup: {error}", file=sys.stderr)
        return EXIT_OPERATOR
    print(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
