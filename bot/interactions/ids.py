"""Ids read from a custom_id or a form: kept when they fit, else ``NO_ID``.

A custom_id comes back from the client, and a modified client can send any digits. Discord
ids and the stores' row ids are positive and fit a signed 64-bit integer (SQLite's INTEGER,
PostgreSQL's bigint); a larger one makes the database driver raise ``OverflowError``, which
the error handler can only take for a bug. Every parser reads its ids here, and one that does
not fit becomes ``NO_ID``: no table, member or user has it, so the lookup that follows finds
nothing and the click gets that lookup's polite private refusal.

The parsers run in ``DynamicItem.from_custom_id``, where discord.py logs any exception as an
error and leaves the click unanswered; hence a value to look up rather than an exception.
"""

from __future__ import annotations

from typing import Final

#: Every usable id is below this: the largest signed 64-bit integer, plus one.
LIMIT: Final = 2**63
#: What an id that does not fit parses to; never a row's nor a Discord object's id.
NO_ID: Final = 0


def parse_id(text: str) -> int:
    """``text`` as an id if it is one (digits, 0 < id < 2**63), else ``NO_ID``."""
    if not text.isascii() or not text.isdigit() or len(text) > len(str(LIMIT)):
        return NO_ID
    value = int(text)
    return value if 0 < value < LIMIT else NO_ID


def usable(value: int) -> bool:
    """Whether ``value`` (parsed by ``parse_id``) names something that may exist."""
    return value != NO_ID
