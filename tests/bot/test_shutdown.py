"""Stopping the bot: SIGTERM/SIGINT end the process cleanly and lose nothing; late clicks are
answered "restarting" and change nothing; pending channel updates are flushed."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import simcord

from bot.channel.publisher import Publisher
from bot.process.app import RESTARTING
from bot.process.lifecycle import serve
from bot.service import Change
from bot.views.table import plain_layout
from tests.clock import FakeClock

from .helpers import open_table, stand_in_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_stop_signal_flushes_and_exits_zero(tmp_path: Path, signum: signal.Signals) -> None:
    """The real shutdown path (``bot.process.lifecycle.serve`` and ``ShanghaiBot.close``) in a
    process
    of its own, with simcord standing in for Discord; see ``shutdown_child.py``."""
    database, report = tmp_path / "db.sqlite3", tmp_path / "report.json"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.shutdown_child", str(database), str(report)],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 120)
        assert ready, "the child bot did not get ready within 2 minutes"
        assert child.stdout.readline().strip() == "READY", child.stderr and child.stderr.read()
        assert health(tmp_path / "heartbeat").returncode == 0  # the running bot beats
        sent = time.monotonic()
        child.send_signal(signum)
        code = child.wait(timeout=30)
        elapsed = time.monotonic() - sent
    finally:
        child.kill()
    stderr = child.stderr.read() if child.stderr else ""
    assert code == 0, stderr
    assert elapsed < 8, f"took {elapsed:.1f} s to stop"
    assert "Traceback" not in stderr
    seen = json.loads(report.read_text())
    before, after = seen["before"], seen["after"]
    # Before the signal the channel showed the table as Start's own answer drew it (issue
    # 24.5: at once), but not yet its picture nor the "your turn" ping: the pacing held them.
    assert before["gallery"] == [] and before["texts"] == []
    # The flushed edit brought the picture, which shows the seats: its alt text names them.
    assert len(after["gallery"]) == 1
    pictured = " ".join(after["alts"])
    assert all(name in pictured for name in ("alice", "bob", "carol"))
    # One ping (the lobby message, moved away from, keeps one line so it is never empty).
    assert len([text for text in after["texts"] if "<@" in text]) == 1
    # Everything was committed, and the database was closed cleanly.
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        status, seats = db.execute("SELECT status, seats FROM tables").fetchone()
    assert status == "playing" and len(json.loads(seats)) == 3
    assert not Path(f"{database}-wal").exists() or Path(f"{database}-wal").stat().st_size == 0
    # A stopped bot is unhealthy at once; the automatic backup made at start-up is there.
    stopped = health(tmp_path / "heartbeat")
    assert stopped.returncode == 1 and stopped.stderr.startswith("unhealthy: no heartbeat")
    assert len(list((tmp_path / "backups").glob("shanghai-*.sqlite3"))) == 1


def health(heartbeat: Path) -> subprocess.CompletedProcess[str]:
    """``python -m bot.process.health`` as the container's HEALTHCHECK runs it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHANGHAI_", "DISCORD_"))}
    env |= {"PYTHONPATH": str(ROOT), "SHANGHAI_HEARTBEAT": str(heartbeat)}
    return subprocess.run(
        [sys.executable, "-m", "bot.process.health"],
        cwd=heartbeat.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def test_clicks_after_shutdown_began_are_refused_politely(env: simcord.Env) -> None:
    world = await open_table(env, 2)
    newcomer = world.guild.add_member(env.create_user("carol"))
    env.bot.accepting = False  # what ShanghaiBot.close sets first
    result = await newcomer.click(world.message(), label="Join")
    simcord.assert_responded(result, contains=RESTARTING, ephemeral=True)
    assert world.table.names == ["alice", "bob"]
    refused = await world.players[0].slash(world.channel, "shanghai new")
    simcord.assert_responded(refused, contains=RESTARTING, ephemeral=True)


class _Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edits = 0

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class Partial:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits += 1

        return Partial()

    async def send(self, text: str, **kwargs: Any) -> None:
        self.sent.append(text)


async def test_flush_sends_what_the_pacing_holds_back(monkeypatch: pytest.MonkeyPatch) -> None:
    channel = _Channel()
    bot = SimpleNamespace(get_channel=lambda _id: channel)
    publisher = Publisher(bot, interval=3600.0)
    drawn = itertools.count()  # each drawing differs, so no edit is skipped as unchanged
    monkeypatch.setattr(
        "bot.channel.publisher.render_table", lambda table, **_: plain_layout(f"{next(drawn)}")
    )
    table = stand_in_table()  # the table is still open, and nobody is asked about a card
    publisher._lines = lambda change: ["line"]  # type: ignore[method-assign]
    publisher.table_changed(Change(table, "act"))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    for _ in range(3):
        publisher.table_changed(Change(table, "act"))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    assert channel.edits == 1 and len(channel.sent) == 1  # held for an hour
    await asyncio.wait_for(publisher.flush(), 2)
    assert channel.edits == 2 and channel.sent[1].count("line") == 3


async def test_wind_down_gives_up_on_a_hanging_channel_within_the_grace(
    env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord not answering must not keep the process from stopping: the store still closes."""
    await open_table(env, 2)
    bot = env.bot

    async def hangs() -> None:
        await asyncio.Event().wait()

    monkeypatch.setattr(bot.publisher, "flush", hangs)
    monkeypatch.setattr("bot.process.app.SHUTDOWN_GRACE", 0.5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await asyncio.wait_for(bot._wind_down(), 5)
    assert loop.time() - started < 2
    with pytest.raises(Exception, match="closed"):
        await bot.store.open_tables()


async def test_signals_without_loop_handlers_still_stop_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the event loop cannot install signal handlers (Windows), plain ones do the job."""
    loop = asyncio.get_running_loop()

    def unsupported(*args: Any) -> None:
        raise NotImplementedError

    monkeypatch.setattr(loop, "add_signal_handler", unsupported)
    monkeypatch.setattr(loop, "remove_signal_handler", unsupported)
    closed = asyncio.Event()

    class Bot:
        settings = SimpleNamespace(heartbeat=tmp_path / "beat", backup_dir=None, database="x")

        def is_ready(self) -> bool:
            return False

        def is_closed(self) -> bool:
            return closed.is_set()

        async def close(self) -> None:
            closed.set()

    async def connect() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.Event().wait()

    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        await asyncio.wait_for(serve(Bot(), connect), 5)  # type: ignore[arg-type]
        assert closed.is_set()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # handed back
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


async def test_closing_the_service_lets_a_timers_write_finish_first(tmp_path: Path) -> None:
    """Issue 25.7: a timer in the middle of its write is not cancelled under a store about to
    close ("Task exception was never retrieved ... no active connection"): ``close`` waits
    for it, and the write lands."""
    from bot.service import TableService
    from data import SqliteStore

    store = await SqliteStore.open(tmp_path / "db.sqlite3")
    writes: list[int] = []
    entered = asyncio.Event()
    real_save = store.save_action

    async def slow_save(*args: Any, **kwargs: Any) -> int:
        entered.set()
        await asyncio.sleep(0.2)
        version = await real_save(*args, **kwargs)
        writes.append(version)
        return version

    store.save_action = slow_save  # type: ignore[method-assign]
    clock = FakeClock()
    service = TableService(store, seed=2, clock=clock, turn_seconds=5, buy_seconds=1)
    table = await service.open_table(1, 2, 100, "a", {"preset": "standard"})
    await service.join(table.id, 101, "b")
    live = await service.start(table.id, 100)
    clock.advance(60)  # the turn limit passed: the timer plays the seat, writing slowly
    service.timers.arm(live)
    await asyncio.wait_for(entered.wait(), 5)
    assert live.timer_busy
    await service.close()
    assert writes, "the timer's write was cut off"
    await store.close()
