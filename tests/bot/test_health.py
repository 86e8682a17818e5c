"""The heartbeat and ``bot.process.health``'s verdicts (the live process is in test_shutdown.py)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.process.health import keep_beating, problem


class _Shard:
    def __init__(self) -> None:
        self.closed = False

    def is_closed(self) -> bool:
        return self.closed


class _Bot:
    def __init__(self) -> None:
        self.ready = False
        self.shards = {0: _Shard(), 1: _Shard()}

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return False


def test_fresh_old_and_missing_heartbeats(tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    assert "no heartbeat" in (problem(beat) or "")
    beat.touch()
    assert problem(beat) is None
    os.utime(beat, (0, beat.stat().st_mtime - 600))
    assert "600 s old" in (problem(beat) or "")


async def test_beats_only_while_ready_and_removes_the_file_when_stopped(tmp_path: Path) -> None:
    bot, beat = _Bot(), tmp_path / "var" / "heartbeat"
    task = asyncio.create_task(keep_beating(bot, beat, every=0.01))
    await asyncio.sleep(0.05)
    assert not beat.exists()  # not connected yet: no heartbeat
    bot.ready = True
    await asyncio.sleep(0.05)
    assert beat.exists() and problem(beat) is None
    bot.shards[1].closed = True  # one shard lost its connection: ready, but not connected
    os.utime(beat, (0, 0))
    await asyncio.sleep(0.05)
    assert beat.stat().st_mtime == 0
    bot.shards[1].closed = False
    await asyncio.sleep(0.05)
    assert problem(beat) is None
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert not beat.exists()


async def test_an_unwritable_heartbeat_is_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "var").write_text("a file where the folder should be")
    bot = _Bot()
    bot.ready = True
    task = asyncio.create_task(keep_beating(bot, tmp_path / "var" / "heartbeat", every=0.01))
    await asyncio.sleep(0.1)
    assert not task.done()  # the heartbeat goes on trying; the bot is not taken down
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    warnings = [r for r in caplog.records if "cannot write the heartbeat" in r.getMessage()]
    assert len(warnings) == 1


@pytest.mark.parametrize(
    ("environ", "dotenv"),
    [
        ({}, None),
        ({"SHANGHAI_HEARTBEAT": "/run/beat"}, "SHANGHAI_HEARTBEAT=/elsewhere\n"),
        ({"shanghai_heartbeat": "lower/case"}, None),
        ({}, "# a comment\nSHANGHAI_HEARTBEAT='quoted path/beat'\n"),
        ({}, 'export SHANGHAI_HEARTBEAT="x/y"\nSHANGHAI_HEARTBEAT=z/w # last wins\n'),
        ({}, "SHANGHAI_HEARTBEATS=no\nDISCORD_TOKEN=abc\n"),
    ],
)
def test_the_light_probe_finds_the_heartbeat_as_the_settings_do(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    environ: dict[str, str],
    dotenv: str | None,
) -> None:
    import os

    from bot.process.health import heartbeat_path
    from bot.process.settings import Settings

    monkeypatch.chdir(tmp_path)
    for name in list(os.environ):
        if name.upper().startswith("SHANGHAI_"):
            monkeypatch.delenv(name)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    if dotenv is not None:
        (tmp_path / ".env").write_text(dotenv)
    expected = Settings(discord_token="x").heartbeat  # type: ignore[arg-type]
    assert heartbeat_path() == expected


def test_the_probe_imports_neither_discord_nor_pydantic(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys, runpy; sys.argv = ['bot.process.health'];\n"
        "try:\n    runpy.run_module('bot.process.health', run_name='__main__')\n"
        "except SystemExit: pass\n"
        "print(sorted(m for m in ('discord', 'pydantic', 'aiosqlite', 'PIL') if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stdout + result.stderr
