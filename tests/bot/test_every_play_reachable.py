"""Issue 29.1: every legal play is reachable from the hand, in every preset.

Whole games through simcord, each person clicking only what their own hand message shows
(``tools.reachable``); at every decision point every action of ``Game.legal_actions`` that
the hand's controls cannot make is an *unreachable play*. There must be none. The quick games
(the normal suite) are shortened to two deals; the slow variant plays every preset in full.
"""

from __future__ import annotations

import time

import pytest
import simcord

from tools.reachable import play_game

PRESETS = ("standard", "preset_000", "preset_004", "rummy")


@pytest.mark.parametrize("preset", PRESETS)
async def test_a_short_game_through_the_hand_offers_every_legal_play(
    env: simcord.Env, preset: str
) -> None:
    started = time.perf_counter()
    counts = await play_game(env, preset, people=3, deals=2, seed=1)
    print(f"{preset}: {counts.decisions} decisions, {counts.actions} plays, "
          f"{counts.clicks} clicks, {time.perf_counter() - started:.1f} s")
    assert counts.actions > 10 and counts.deals >= 2 or preset == "rummy"
    assert counts.unreachable == [], counts.unreachable[:20]
