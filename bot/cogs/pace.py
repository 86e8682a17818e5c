"""The pace options that ``/shanghai new``, ``/rummy new`` and ``/shanghai settings`` share:
their descriptions, their choices and the bot's own defaults (``bot/service/pace.py``)."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.service.pace import DEFAULT_TURN_HOURS

PACE_DESCRIPTION = "Live (everyone at once) or relaxed (a turn may take hours)"
TURN_HOURS_DESCRIPTION = "Hours per turn at a relaxed table (1-72, default 24)"
BUY_WAIT_DESCRIPTION = "Relaxed: minutes a buy waits at most for those who asked to be asked"
PACE_CHOICES = [
    app_commands.Choice(name="live: everyone plays at once", value="live"),
    app_commands.Choice(name="relaxed: play over days, told when it's your turn", value="relaxed"),
]
#: What a new table gets when neither its host nor its server chose.
PACE_FALLBACK: dict[str, Any] = {"pace": "live", "turn_hours": DEFAULT_TURN_HOURS}
