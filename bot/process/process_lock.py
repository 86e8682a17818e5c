"""One bot process per SQLite database: an OS file lock beside the database file.

Two processes on one SQLite file would each restore the same tables, arm the same timers and
answer the same clicks; every save still checks the table's version, so nothing would be
applied twice, but players would see both bots fight. PostgreSQL's fence (``data.fence``)
refuses a second process for a live shard; this is the same refusal for SQLite: ``run`` (and
``sync``) take an exclusive ``flock`` on ``<database>.lock`` before opening the database, and
the kernel drops it when the process ends, however it ends, so a crash never leaves a stale
lock. The lock file holds the owner's pid, for the refusal's wording only.

On a system without ``fcntl`` (Windows) there is no lock; SQLite's own locking still keeps the
file consistent.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class DatabaseInUse(Exception):
    """Another live process holds the lock of this database."""

    def __init__(self, database: Path, owner: str) -> None:
        self.database = database
        who = f" (pid {owner})" if owner else ""
        super().__init__(
            f"database {database} is already used by another bot process{who}; "
            "stop it first (one process per SQLite file)"
        )


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


class ProcessLock:
    """Held from ``acquire`` until ``release`` or the end of the process."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._file: IO[str] | None = None

    def acquire(self) -> ProcessLock:
        """Take the lock or raise ``DatabaseInUse``; a folder that cannot hold it is left to
        the database's own checks (``bot.process.database_problems``), which word that better."""
        if fcntl is None or str(self.database) == ":memory:":
            return self
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held open
        except OSError:
            return self
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip()[:20]
            handle.close()
            raise DatabaseInUse(self.database, owner) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle
        return self

    def release(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.seek(0)
                self._file.truncate()
            self._file.close()  # closing drops the flock
            self._file = None

    def __enter__(self) -> ProcessLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
