"""A test's hold on how long the SQLite store's writes wait for another program's lock.

The store's write deadlines read ``data.sqlite_commit.clock`` (``time.perf_counter`` in the
bot). ``LockClock`` stands in for it: it moves only when the test moves it, and it notes the
deadline of every group of writes that starts waiting for the lock (``retrying``), so a test
waits for that moment instead of sleeping, and steps the clock past a deadline instead of
waiting it out. A busy machine then changes how long a test takes, never what it finds.
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

import data.sqlite_commit


class LockClock:
    """The store's deadline clock, stepped by the test. ``runs_out``: the clock jumps to each
    waiting group's deadline as it starts to wait (a lock held for longer than any write may
    wait), so a test through the whole bot sees the refusal without stepping anything."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, runs_out: bool = False) -> None:
        self.now = 0.0
        self.retrying: list[float] = []
        real = data.sqlite_commit.begin_by

        def noted(conn: sqlite3.Connection, deadline: float) -> None:
            self.retrying.append(deadline)
            if runs_out:
                self.now = max(self.now, deadline)
            real(conn, deadline)

        monkeypatch.setattr(data.sqlite_commit, "clock", self)
        monkeypatch.setattr(data.sqlite_commit, "begin_by", noted)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def until_retrying(self, count: int = 1) -> None:
        """Until ``count`` groups have started waiting for the lock (a poll, not a margin)."""
        while len(self.retrying) < count:
            await asyncio.sleep(0.005)
