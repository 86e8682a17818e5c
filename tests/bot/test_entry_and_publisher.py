"""``python -m bot`` refusals, settings from the environment, and edit coalescing."""

from __future__ import annotations

import asyncio
import itertools
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot import Settings
from bot.channel.publisher import Publisher
from bot.service import Change
from bot.views.table import plain_layout

from .helpers import stand_in_table

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k != "DISCORD_TOKEN" and not k.startswith("SHANGHAI_")
    }
    clean["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "not-a-token"}, "does not look like a Discord bot token"),
        (
            {"DISCORD_TOKEN": "a" * 24 + ".bcdefg." + "c" * 27, "SHANGHAI_BUY_SECONDS": "soon"},
            "invalid setting(s): SHANGHAI_BUY_SECONDS: not a number",
        ),
    ],
)
def test_entry_point_refuses_with_one_line(
    tmp_path: Path, env: dict[str, str], expected: str
) -> None:
    result = run_bot(tmp_path, **env)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0]
    assert "Traceback" not in result.stderr


def test_settings_from_environment_and_keywords(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "s3cr3t-value")
    monkeypatch.setenv("SHANGHAI_TURN_SECONDS", "45")
    monkeypatch.setenv("SHANGHAI_DEV_GUILD", "1234")
    settings = Settings()  # type: ignore[call-arg]
    assert settings.discord_token.get_secret_value() == "s3cr3t-value"
    assert settings.turn_seconds == 45 and settings.buy_seconds == 8
    assert settings.dev_guild == 1234 and str(settings.database) == "var/shanghai.sqlite3"
    assert "s3cr3t" not in repr(settings)
    direct = Settings(discord_token="x", seed=7, buy_seconds=3)
    assert direct.seed == 7 and direct.buy_seconds == 3


class FakeChannel:
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


async def test_bursts_become_one_edit_and_one_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    channel = FakeChannel()
    bot = SimpleNamespace(get_channel=lambda _id: channel)
    publisher = Publisher(bot, interval=1.0)
    drawn = itertools.count()  # each drawing differs, so no edit is skipped as unchanged
    monkeypatch.setattr(
        "bot.channel.publisher.render_table", lambda table, **_: plain_layout(f"{next(drawn)}")
    )
    table = stand_in_table()  # the table is still open
    publisher._lines = lambda change: ["line"]  # type: ignore[method-assign]
    publisher.table_changed(Change(table, "act"))  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    assert channel.edits == 1 and len(channel.sent) == 1  # after a quiet spell: at once
    for _ in range(9):
        publisher.table_changed(Change(table, "act"))  # type: ignore[arg-type]
        await asyncio.sleep(0)
    assert channel.edits == 1  # held until the interval has passed
    await asyncio.sleep(1.2)
    assert channel.edits == 2  # nine changes, one edit
    assert len(channel.sent) == 2 and channel.sent[1].count("line") == 9


async def test_a_table_whose_people_all_follow_their_hands_is_redrawn_less_often() -> None:
    """Issue 10: when every person gets their turn and the buy window's Buy / Pass in their
    open hand, the table message is only read, so changes wait ``quiet_interval``; as soon as
    one person does not follow, the usual pace returns."""
    following = {1: True, 2: True}
    bot = SimpleNamespace(
        get_channel=lambda _id: None,
        hands=SimpleNamespace(follows=lambda _table, user: following[user]),
    )
    publisher = Publisher(bot, interval=0.1, quiet_interval=0.5)
    shows: list[float] = []
    loop = asyncio.get_running_loop()

    async def show(box: Any, table: Any, lines: list[str]) -> None:
        shows.append(loop.time())

    publisher._show_game = show  # type: ignore[method-assign]
    publisher._lines = lambda change: []  # type: ignore[method-assign]
    seats = (SimpleNamespace(user_id=1), SimpleNamespace(user_id=2), SimpleNamespace(user_id=-1))
    record = SimpleNamespace(message_id=5, seats=seats, host_id=1)
    view = SimpleNamespace(is_over=False)
    table = SimpleNamespace(
        id=3,
        channel_id=9,
        record=record,
        names=[],
        view=view,
        playing=True,
        closed=False,
        is_computer=lambda seat: seat == 2,
        is_away=lambda seat: False,
        asked=(),
        untold_turn=None,
    )

    async def changes(count: int) -> None:
        for _ in range(count):
            publisher.table_changed(Change(table, "start"))  # type: ignore[arg-type]
            await asyncio.sleep(0.15)  # more than ``interval`` apart

    await changes(4)  # 0.6 s: at once, then once more after the quiet 0.5 s
    assert len(shows) == 2
    await asyncio.sleep(0.5)
    following[2] = False  # one person's hand no longer follows them
    shows.clear()
    await changes(4)
    assert len(shows) == 4  # every change at the usual pace
