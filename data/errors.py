"""Exceptions the store raises when a write cannot be applied as asked.

Each carries the facts as attributes and builds its own message, so the bot can turn it into a
reply ("this channel already has a table") without parsing text. A store error always means
nothing was written.
"""

from __future__ import annotations

from .records import TableRecord, TableStatus


class TableExists(ValueError):
    """The channel already has an open (lobby or playing) table; ``existing`` is that table."""

    def __init__(self, existing: TableRecord) -> None:
        self.existing = existing
        super().__init__(
            f"channel {existing.channel_id} already has an open table "
            f"(id {existing.id}, {existing.status})"
        )


class TableNotFound(LookupError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        super().__init__(f"no table with id {table_id}")


class StaleVersion(RuntimeError):
    """The table is not as the caller last read it: another write got there first.

    Either its version moved past ``expected_version`` (another action was saved), or its status
    no longer allows the write (the game already started, finished or was ended). The caller should
    reload the table and decide again. ``expected_version`` is ``None`` for writes that only check
    the status.
    """

    def __init__(
        self,
        table_id: int,
        *,
        expected_version: int | None,
        actual_version: int,
        status: TableStatus,
        wanted_status: TableStatus,
    ) -> None:
        self.table_id = table_id
        self.expected_version = expected_version
        self.actual_version = actual_version
        self.status = status
        self.wanted_status = wanted_status
        if status != wanted_status:
            reason = f"it is {status}, not {wanted_status}"
        else:
            reason = f"it is at version {actual_version}, not {expected_version}"
        super().__init__(f"table {table_id} changed: {reason}")


class StoreBusy(ValueError):
    """Another program held the database longer than a player may wait; nothing was written.

    A ``ValueError`` with a message for the player, so the bot answers it as a polite refusal
    ("try again") instead of an apology for a bug.
    """

    def __init__(self) -> None:
        super().__init__(
            "The game's records are busy for a moment (a backup or maintenance), so nothing "
            "was changed. Please try again in a few seconds."
        )


class ShardTaken(RuntimeError):
    """Another process already owns a shard this process was started for."""

    def __init__(self, shard_id: int, shard_count: int, waited: float) -> None:
        self.shard_id = shard_id
        self.shard_count = shard_count
        self.waited = waited
        super().__init__(
            f"shard {shard_id} of {shard_count} is already run by another process "
            f"(waited {waited:.0f} s for it to stop); check SHANGHAI_SHARD_IDS of each process"
        )


class FenceLost(RuntimeError):
    """This process lost its shards to another process (its fence connection dropped and the
    other took the locks); nothing more is written, because the other process drives them."""

    def __init__(self, shards: object) -> None:
        self.shards = shards
        super().__init__(
            f"this process no longer owns {shards}: another process took them; restart it with "
            "shards no other process runs"
        )
