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

from data import MigrationError, SchemaTooNew, Store


class DatabaseProblem(Exception):
    """The database at ``path`` cannot be used; ``reason`` says why in words for an operator."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"database {path}: {reason}")


def path_problem(path: Path) -> str | None:
    """Why SQLite could not create or write a database at ``path``, or ``None`` if it looks fine.

    Creates the missing parent folders, as ``Store.open`` would. WAL mode writes two files
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


async def open_database(path: Path, *, clock: Callable[[], float] = time.time) -> Store:
    """``Store.open(path)``, or ``DatabaseProblem`` naming the path and the reason."""
    if str(path) != ":memory:":
        problem = path_problem(path)
        if problem is not None:
            raise DatabaseProblem(path, problem)
    try:
        return await Store.open(path, clock=clock)
    except (sqlite3.Error, MigrationError, OSError) as error:
        reason = sqlite_reason(error)
        if reason is None:  # pragma: no cover - the except clause only admits known kinds
            raise
        raise DatabaseProblem(path, reason) from error
