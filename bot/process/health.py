"""Liveness: the running bot touches a heartbeat file; ``python -m bot.process.health`` checks its
age.

A container's ``HEALTHCHECK`` (and any monitor) runs ``python -m bot.process.health``: exit status 0
when the heartbeat (``SHANGHAI_HEARTBEAT``, default ``var/heartbeat``) was touched within
``STALE_AFTER`` seconds, 1 with a one-line reason otherwise. The bot touches it every
``BEAT_SECONDS`` while it is connected to Discord and ready, so a bot that is up but cannot
reach Discord turns unhealthy too. A clean shutdown removes the file.

A file rather than an HTTP port: nothing to expose, and it works the same under Docker,
systemd and a plain shell. The probe itself imports the standard library only (it finds
``SHANGHAI_HEARTBEAT`` in the environment or ``.env`` the way the settings do, see
``heartbeat_path``): it costs a few tens of milliseconds, not the bot's start-up.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

BEAT_SECONDS = 15.0
STALE_AFTER = 90.0


class _Connected(Protocol):
    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


def connected(bot: _Connected) -> bool:
    """Ready, not closed, and every gateway connection (each shard's) open right now.

    ``is_ready`` alone stays true while discord.py reconnects after a network loss, so the
    shards' own connections decide.
    """
    if not bot.is_ready() or bot.is_closed():
        return False
    shards: dict[int, Any] = getattr(bot, "shards", None) or {}
    if shards:
        return all(not shard.is_closed() for shard in shards.values())
    ws = getattr(bot, "ws", None)
    return ws is not None and bool(getattr(ws, "open", False))


def touch(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


async def keep_beating(bot: _Connected, path: Path, every: float = BEAT_SECONDS) -> None:
    """Touch ``path`` every ``every`` seconds while ``bot`` is connected; remove it when
    cancelled. A heartbeat that cannot be written is logged once (the bot itself goes on)."""
    import asyncio  # here, not at the top: the probe (``main``) needs no event loop

    failing = False
    try:
        while True:
            if connected(bot):
                try:
                    touch(path)
                    failing = False
                except OSError as error:
                    if not failing:
                        log.warning("cannot write the heartbeat %s: %s", path, error)
                    failing = True
            await asyncio.sleep(every)
    finally:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def problem(path: Path, now: float | None = None, stale_after: float = STALE_AFTER) -> str | None:
    """Why the bot does not look alive, or ``None`` if its heartbeat is fresh."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except FileNotFoundError:
        return f"no heartbeat at {path}: the bot is not running, or not connected yet"
    except OSError as error:
        return f"cannot read the heartbeat {path}: {error.strerror or error}"
    if age > stale_after:
        return f"heartbeat {path} is {age:.0f} s old: the bot is stuck or not connected"
    return None


#: ``Settings.heartbeat``'s default and its variable (a test holds them equal).
DEFAULT_HEARTBEAT = Path("var/heartbeat")
HEARTBEAT_VARIABLE = "SHANGHAI_HEARTBEAT"


def heartbeat_path(environ: Mapping[str, str] | None = None, env_file: Path = Path(".env")) -> Path:
    """Where the bot writes its heartbeat, found as ``Settings`` finds it, without pydantic:
    the environment (names are case-insensitive there), then ``.env``, then the default."""
    for name, value in (os.environ if environ is None else environ).items():
        if name.upper() == HEARTBEAT_VARIABLE:
            return Path(value)
    try:
        lines = env_file.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    found: str | None = None
    for line in lines:
        name, equals, value = line.strip().removeprefix("export ").partition("=")
        if not equals or name.strip().upper() != HEARTBEAT_VARIABLE:
            continue
        value = value.strip()
        if value[:1] in ("'", '"') and value.endswith(value[0]) and len(value) > 1:
            value = value[1:-1]
        else:
            value = value.split(" #", 1)[0].strip()
        found = value  # the last assignment wins, as in python-dotenv
    return Path(found) if found else DEFAULT_HEARTBEAT


def main() -> int:
    reason = problem(heartbeat_path())
    if reason is not None:
        print(f"unhealthy: {reason}", file=sys.stderr)
        return 1
    print("healthy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
