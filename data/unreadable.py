"""Rows the store cannot decode into records, at start-up.

A table row whose seats, options or away flags no longer decode (a hand edit, a bug of an
older version) used to make ``open_tables`` raise, and with it the bot's start-up: every table
in every server stayed down for one bad row. ``decode_open`` decodes each row on its own and
names the ones that fail, which the store then ends (``end_table``: no results, the channel is
free) with their id in the log. Rows whose record decodes but whose game does not are the
service's business (``bot.quarantine``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from .records import TableRecord

log = logging.getLogger(__name__)


def decode_open(
    rows: Iterable[Any], decode: Callable[[Any], TableRecord]
) -> tuple[list[TableRecord], list[int]]:
    """The records of ``rows`` that decode, and the ids of those that do not (logged)."""
    records: list[TableRecord] = []
    broken: list[int] = []
    for row in rows:
        try:
            records.append(decode(row))
        except Exception as error:
            log.error(
                "table %s cannot be read (%s: %s); ending it without results",
                row["id"],
                type(error).__name__,
                str(error)[:120],
            )
            broken.append(int(row["id"]))
    return records, broken
