"""Issue 29.1: every legal play is reachable from the hand, in every preset.

Whole games through simcord, each person clicking only what their own hand message shows
(``tools.reachable``); at every decision point every action of ``Game.legal_actions`` that
the hand's controls cannot make is an *unreachable play*. There must be none. The normal
suite plays one deal of each Shanghai preset and a short Rummy game; the slow variant plays
every preset in full.
"""

from __future__ import annotations

import time

import pytest
import simcord

from tools.reachable import Counts, play_game

PRESETS = ("standard", "preset_000", "preset_004", "rummy")


def _check(counts: Counts, started: float) -> None:
    print(
        f"{counts.preset}: {counts.decisions} decisions, {counts.actions} plays, "
        f"{counts.clicks} clicks, {len(counts.unreachable)} unreachable, "
        f"{time.perf_counter() - started:.1f} s"
    )
    assert counts.actions >= 20, "too little was played to say anything"
    assert counts.unreachable == [], counts.unreachable[:20]


@pytest.mark.parametrize("preset", PRESETS)
async def test_a_deal_through_the_hand_offers_every_legal_play(
    env: simcord.Env, preset: str
) -> None:
    started = time.perf_counter()
    counts = await play_game(env, preset, people=3, deals=1, seed=1)
    _check(counts, started)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
async def test_whole_games_through_the_hand_offer_every_legal_play(
    env: simcord.Env, preset: str, seed: int
) -> None:
    started = time.perf_counter()
    counts = await play_game(env, preset, people=3, seed=seed, full=True)
    _check(counts, started)
    assert preset == "rummy" or counts.deals == 10
