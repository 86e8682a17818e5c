"""Opening the database at start-up, and saying in one line why it cannot be opened.

An operator who points ``SHANGHAI_DATABASE`` at the wrong place should read the path and the
reason ("is a directory", "no write permission in /srv"), not a traceback and not a hint about
the network. ``open_database`` checks the path before SQLite sees it (SQLite's own messages,
such as "unable to open database file", do not say which of several causes it was) and turns
whatever SQLite or the migrations raise into a ``DatabaseProblem``. The entry point prints it
and exits with status 2, as for any other configuration problem.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from data import (
    MigrationError,
    SchemaTooNew,
    ShardSet,
    Store,
    describe,
    is_postgres_url,
    open_store,
)
from data.backup import DEFAULT_DATABASE

#: Where earlier versions kept the database by default: inside the ``data`` package folder.
OLD_DEFAULT = Path("data/shanghai.sqlite3")


class DatabaseProblem(Exception):
    """The database at ``path`` cannot be used; ``reason`` says why in words for an operator."""

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"database {describe(path)}: {reason}")


def path_problem(path: Path) -> str | None:
    """Why SQLite could not create or write a database at ``path``, or ``None`` if it looks fine.

    Creates the missing parent folders, as ``open_store`` would. WAL mode writes two files
    beside the database (``-wal`` and ``-shm``), so the folder must be writable even when the
    database file already exists.
    """
    if path.is_dir():
        return "is a directory, not a database file"
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            return f"{parent} is a file, not a folder"
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except PermissionError:
        return f"cannot create the folder {folder}: permission denied"
    except OSError as error:
        return f"cannot create the folder {folder}: {error.strerror or error}"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "the file is read-only (the bot must be able to write it)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"no write permission in the folder {folder} (SQLite writes its journal there)"
    return None


def moved_default_problem(path: Path) -> str | None:
    """An upgraded bot must not start afresh beside the games of the old default location."""
    if path == DEFAULT_DATABASE and not path.exists() and OLD_DEFAULT.is_file():
        return (
            f"not found, but {OLD_DEFAULT} (the old default) exists: stop the bot, move it and "
            f"its -wal file to {path}, or set SHANGHAI_DATABASE={OLD_DEFAULT}"
        )
    return None


def sqlite_reason(error: BaseException) -> str | None:
    """Words for what SQLite or the migrations raised while opening, or ``None`` if not ours."""
    if isinstance(error, SchemaTooNew):
        return (
            f"was written by a newer version of the bot (schema {error.database_version}; this "
            f"version knows up to {error.latest_known}): upgrade the bot or restore a backup"
        )
    if isinstance(error, MigrationError):
        return f"could not be brought up to date ({error})"
    if isinstance(error, sqlite3.DatabaseError):
        text = str(error)
        if "file is not a database" in text:
            return "is not a SQLite database (wrong file, or damaged)"
        if "readonly" in text:
            return "the file is read-only (the bot must be able to write it)"
        if "disk I/O error" in text or "database or disk is full" in text:
            return f"the disk refused a write ({text})"
        return f"SQLite refused it ({text})"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return None


async def open_database(
    database: Path | str,
    *,
    clock: Callable[[], float] = time.time,
    shards: ShardSet | None = None,
    fence_wait: float = 0.0,
    durable: bool = True,
) -> Store:
    """``open_store(database)``, or ``DatabaseProblem`` naming the database and the reason.

    A ``postgresql://`` URL skips the file checks; a server that cannot be reached or refuses
    the login is a ``DatabaseProblem`` too (the fence's ``ShardTaken`` passes through).
    """
    if is_postgres_url(database):
        import asyncpg  # only a URL needs the postgres extra

        try:
            return await open_store(
                database, clock=clock, shards=shards, fence_wait=fence_wait, durable=durable
            )
        except (OSError, MigrationError) as error:
            raise DatabaseProblem(database, sqlite_reason(error) or str(error)) from error
        except (asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise DatabaseProblem(database, f"PostgreSQL refused it ({error})") from error
    path = Path(database)
    if str(path) != ":memory:":
        problem = moved_default_problem(path) or path_problem(path)
        if problem is not None:
            raise DatabaseProblem(path, problem)
    try:
        return await open_store(path, clock=clock, shards=shards, durable=durable)
    except (sqlite3.Error, MigrationError, OSError) as error:
        reason = sqlite_reason(error)
        if reason is None:  # pragma: no cover - the except clause only admits known kinds
            raise
        raise DatabaseProblem(path, reason) from error
