"""What the command line knows about the settings and the database without starting the bot:
shared by ``bot.process.cli`` (the subcommands) and ``bot.process.check`` (``check``), so neither
imports the
other.
"""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

from pydantic import SecretStr, ValidationError

from bot.process.settings import Settings
from bot.process.settings_problems import explain

#: The exit status of a problem the operator must fix, printed as one line on stderr.
EXIT_CONFIG = 2


def settings_without_token() -> tuple[Settings | None, bool, str]:
    """Settings for commands that need no token (check, try): (settings, token set, problem)."""
    try:
        return Settings(), True, ""  # type: ignore[call-arg]
    except ValidationError as error:
        bad = [e for e in error.errors() if "discord_token" not in str(e["loc"]).lower()]
        if bad:
            return None, False, f"invalid setting(s): {explain(bad)}; see .env.example"
    return Settings(discord_token=SecretStr("")), False, ""


def sqlite_facts(path: Path) -> tuple[int, int] | None:
    """(schema version, open tables) of an existing SQLite database, read-only; ``None`` if
    the file does not exist. ``sqlite3.Error`` if it is not a readable database."""
    if not path.exists():
        return None
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        open_tables = 0
        if "tables" in names:
            open_tables = int(
                db.execute(
                    "SELECT count(*) FROM tables WHERE status IN ('lobby', 'playing')"
                ).fetchone()[0]
            )
    return version, open_tables


class MetricsProblem(Exception):
    """Metrics were asked for (``SHANGHAI_METRICS_PORT``) and cannot be served; one line."""


def metrics_problem(settings: Settings) -> str | None:
    """Why the metrics that ``settings`` ask for cannot be served, or ``None``.

    Listening is tried and let go at once: a port another process holds, or an address that is
    not this host's, is found before the bot starts rather than halfway through it.
    """
    if settings.metrics_port is None:
        return None
    try:
        import prometheus_client  # noqa: F401 - only whether it imports
    except ImportError:
        return (
            "SHANGHAI_METRICS_PORT is set but prometheus-client is not installed "
            "(pip install '.[metrics]', or unset SHANGHAI_METRICS_PORT)"
        )
    return listen_problem(settings.metrics_address, settings.metrics_port)


def listen_problem(address: str, port: int) -> str | None:
    """Why nothing can listen on ``address``:``port`` (TCP), or ``None``."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As the metrics' server does (http.server): a port left in TIME_WAIT is usable.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as error:
            reason = error.strerror or type(error).__name__
            return (
                f"cannot listen on {address}:{port} ({reason}); check SHANGHAI_METRICS_ADDRESS "
                "and SHANGHAI_METRICS_PORT"
            )
    return None
