"""Log configuration: ``SHANGHAI_LOG_LEVEL`` sets the level, the chatty libraries stay quiet.

The setting is a level for everything (``INFO``, ``DEBUG`` ...), optionally followed by
``logger=LEVEL`` pairs: ``DEBUG`` shows the bot's own debug lines, ``INFO,aiosqlite=DEBUG``
also the database driver's. The drivers are held at WARNING unless named, because at DEBUG
aiosqlite logs every statement with its parameters, and those are hands and stock orders.
discord.py's HTTP logger is held at WARNING too: at INFO it names every route it calls.

What the bot itself logs names guilds, channels and tables by id and never carries a hand, a
token or message text (``tests/bot/test_logs.py`` plays a whole game and greps its log).
"""

from __future__ import annotations

import logging
import re
from typing import Any, Protocol

#: Loggers that would write secrets or hands at DEBUG or noise at INFO, unless named.
QUIET = ("aiosqlite", "asyncpg", "discord.http", "discord.gateway")
LEVELS = ("CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_PAIR = re.compile(r"^[A-Za-z_][\w.]*=[A-Za-z]+$")


def parse_levels(text: str) -> tuple[str, dict[str, str]]:
    """``"INFO,aiosqlite=DEBUG"`` as the root level and the levels of named loggers.

    ``ValueError`` names the part that is not a level, so a typo is refused at start-up rather
    than silently logging at the wrong level.
    """
    root = "INFO"
    named: dict[str, str] = {}
    for index, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part:
            if not _PAIR.match(part):
                raise ValueError(f"{part!r} is not logger=LEVEL")
            name, _, level = part.partition("=")
            named[name] = _level(level)
        elif index == 0:
            root = _level(part)
        else:
            raise ValueError(f"{part!r}: only the first part may be a bare level")
    return root, named


def _level(text: str) -> str:
    level = text.strip().upper()
    if level not in LEVELS:
        raise ValueError(f"{text!r} is not one of {', '.join(LEVELS)}")
    return level


def configure(text: str) -> None:
    """Set up the root handler and the levels ``text`` (``SHANGHAI_LOG_LEVEL``) asks for."""
    root, named = parse_levels(text)
    logging.basicConfig(level=root, format=FORMAT, force=True)
    hold_quiet(named)


def hold_quiet(named: dict[str, str]) -> None:
    """The ``QUIET`` loggers at WARNING unless ``named``; the ``named`` ones at their level."""
    for name in QUIET:
        logging.getLogger(name).setLevel(named.get(name, "WARNING"))
    for name, level in named.items():
        logging.getLogger(name).setLevel(level)


class _AtTable(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def record(self) -> Any: ...


def at_table(table: _AtTable) -> str:
    """How a log line names a table: its guild and its id (``guild 12 table 7``)."""
    return f"guild {table.record.guild_id} table {table.id}"


def at_ids(guild_id: int | None, table_id: int | None) -> str:
    """``at_table`` from bare ids (either may be unknown)."""
    return f"guild {guild_id if guild_id is not None else '?'} table {table_id}"
