"""A relaxed game over a simulated week (``tools.relaxed_week``): four people in four time
zones, one to three sittings a day each, twelve-hour nights, two restarts a day. The game
completes; the people who wait barely click; each turn start is told exactly once and
reminded at most once; no message older than an hour is edited with its controls; no action
is lost across the restarts; the thread always holds one message with live table controls."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.discord_api import DEFAULT_SPEC
from tools.relaxed_week import run_week


@pytest.mark.slow
async def test_a_relaxed_game_over_a_week(tmp_path: Path) -> None:
    week = await run_week(1, tmp_path, turn_hours=2, days=7)
    assert week.completed, week
    assert week.restarts >= 2 * int(week.days)
    assert week.person_actions > 100  # people played it, the computer only stood in
    assert week.waiting_clicks / week.turns <= 0.1
    assert week.turn_starts and week.told_twice == 0 and week.told_never == 0
    assert week.most_reminders <= 1
    assert week.old_edits == 0
    assert week.lost_actions == 0
    assert week.most_live_tables == 1 and week.fewest_live_tables == 1
    if DEFAULT_SPEC.exists():  # Discord's description is on development machines, not in CI
        assert week.api_checked and week.api_checked > 100
        assert week.api_invalid == []
