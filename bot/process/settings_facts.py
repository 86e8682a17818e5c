"""What the command line knows about the settings and the database without starting the bot:
shared by ``bot.process.cli`` (the subcommands) and ``bot.process.check`` (``check``), so neither
imports the
other.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pydantic import SecretStr, ValidationError

from bot.process.settings import Settings

#: The exit status of a problem the operator must fix, printed as one line on stderr.
EXIT_CONFIG = 2


def settings_without_token() -> tuple[Settings | None, bool, str]:
    """Settings for commands that need no token (check, try): (settings, token set, problem)."""
    try:
        return Settings(), True, ""  # type: ignore[call-arg]
    except ValidationError as error:
        bad = [e for e in error.errors() if "discord_token" not in str(e["loc"]).lower()]
        if bad:
            fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in bad)
            return None, False, f"invalid setting(s): {fields}; see .env.example"
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
