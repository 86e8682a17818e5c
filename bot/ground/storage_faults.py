"""Telling a database that refuses writes (a full disk, a read-only file) apart from a bug.

When the disk is full every click that changes a game fails the same way. That is not a bug
in the bot, and a traceback per click only buries the one line the operator needs, so the
interaction handler answers it with its own polite reply and one warning line without a
traceback. The table's state is already rolled back by the service. The table
timers use the same test, so this module imports no discord.
"""

from __future__ import annotations

import errno
import sqlite3

from data.errors import StoreBusy

REPLY = (
    "I can't save anything right now (the server's storage is refusing writes), so nothing "
    "was changed. Please try again in a minute."
)

_SQLITE_WORDS = ("full", "readonly", "read-only", "disk i/o")
_ERRNOS = {errno.ENOSPC, errno.EROFS, errno.EDQUOT}
#: A database server that cannot be reached (stopped, restarting, its connection cut): the
#: same for a player as a refused write, and it passes by itself.
_UNREACHABLE_ERRNOS = {errno.ECONNREFUSED, errno.ECONNRESET, errno.EPIPE, errno.ETIMEDOUT}
#: asyncpg's names for the same conditions on PostgreSQL.
_POSTGRES_NAMES = {
    "DiskFullError",
    "ReadOnlySQLTransactionError",
    "InsufficientResourcesError",
    "ConnectionDoesNotExistError",
    "CannotConnectNowError",
    "AdminShutdownError",
    "CrashShutdownError",
    "ConnectionFailureError",
    "TooManyConnectionsError",
}


def is_storage_fault(error: BaseException) -> bool:
    """Whether ``error`` means the database refused to write, not that the bot is wrong."""
    original = getattr(error, "original", None)  # a command's CommandInvokeError
    if isinstance(original, BaseException):
        error = original
    if isinstance(error, sqlite3.OperationalError):
        text = str(error).lower()
        return any(word in text for word in _SQLITE_WORDS)
    if isinstance(error, OSError) and error.errno in _ERRNOS | _UNREACHABLE_ERRNOS:
        return True
    return type(error).__name__ in _POSTGRES_NAMES


def is_write_refused(error: BaseException) -> bool:
    """A storage fault, or the store gave up waiting for its write lock (``StoreBusy``): for a
    table timer, which retries with back-off, both mean "not now", never a bug."""
    return isinstance(error, StoreBusy) or is_storage_fault(error)
