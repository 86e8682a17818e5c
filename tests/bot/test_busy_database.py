"""Issue 16.5: another program holding the database (a backup, the sqlite3 shell) must not make
a click fail ("This interaction failed" after 3 s) nor freeze the leaderboard."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
import simcord

from bot import Settings
from data.store import PLAYER_WAIT_SECONDS
from tests.lock_clock import LockClock

from .conftest import labels

#: Discord fails an interaction that is not answered within 3 s; the store gives up first.
DISCORD_SECONDS = 3.0


async def test_a_click_while_the_database_is_locked_is_answered_politely_in_time(
    env: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock is held for longer than a click may wait: the store's deadline clock
    (``LockClock``) runs out as soon as the click starts to wait, so the refusal comes from
    the store's own limit, not from a race against the machine's speed."""
    clock = LockClock(monkeypatch, runs_out=True)
    assert PLAYER_WAIT_SECONDS < DISCORD_SECONDS
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    opened = await alice.slash(channel, "shanghai new")
    table = opened.response.message
    assert "Join" in labels(table)

    shell = sqlite3.connect(str(settings.database), isolation_level=None)
    try:
        shell.execute("BEGIN IMMEDIATE")  # what the sqlite3 shell or a long backup step does
        refused = await bob.click(table, label="Join")
        simcord.assert_responded(refused, contains="try again", ephemeral=True)
        assert clock.retrying and clock.retrying[-1] == PLAYER_WAIT_SECONDS  # its own limit

        # The leaderboard reads past the lock: answered with the board while it is held.
        board = await alice.slash(channel, "shanghai leaderboard")
        assert board.acknowledged and "try again" not in str(board.response.content)
    finally:
        shell.rollback()
        shell.close()

    # Nothing was half-done: once the other program lets go, the same click works.
    live = env.bot.service.tables
    assert all(len(t.record.seats) == 1 for t in live.values())
    joined = await bob.click(table, label="Join")
    assert joined.acknowledged
    assert [len(t.record.seats) for t in live.values()] == [2]
