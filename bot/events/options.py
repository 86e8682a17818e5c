"""The options of an event's tables: the event's own choices, never a server's defaults, so
every table of an event plays the same game however the server is set up (and a duplicate
round's tables can be compared deal by deal)."""

from __future__ import annotations

from typing import Any

from bot.service.guild_settings import GuildDefaults, table_options
from bot.service.live import rules_for
from data.events import EventRecord


def event_table_options(event: EventRecord) -> dict[str, Any]:
    """The options of an event's table: the event's choices, no server defaults."""
    chosen = event.options
    deals = chosen.get("deals")
    return table_options(
        GuildDefaults(),
        {"preset": "standard"},
        preset=chosen.get("preset"),
        buy_seconds=chosen.get("buy_seconds"),
        turn_seconds=chosen.get("turn_seconds"),
        language=chosen.get("language"),
        rules={"num_deals": int(deals)} if deals else {},
        casual=chosen.get("ranked", True) is False,
    )


def deals_of(event: EventRecord) -> int:
    """How many deals each game of the event has."""
    return rules_for(event_table_options(event)).num_deals
