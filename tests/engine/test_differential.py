"""The differential test (issue 28): the faster engine answers exactly as before.

``fixtures/differential.json`` holds, for random games in every preset and at every table
size, running digests of everything the engine said at each step (legal actions of every
seat, events, views, JSON, refusals of probe actions), recorded from the engine after S49a
and before the speed work; ``differential.py`` says how. The quick test replays the first
``QUICK_STEPS`` actions of one game per table (about 25,000 positions); the slow one replays
every recorded game to its end (about 200,000 positions).
"""

from __future__ import annotations

import json

import pytest

from tests.engine.differential import CHECKPOINT, FIXTURE, record, tables

QUICK_STEPS = 1_000
RECORDED: dict[str, list[object]] = json.loads(FIXTURE.read_text())


def _replay(key: str, max_steps: int | None = None) -> None:
    preset, players, seed = key.split(":")
    expected = RECORDED[key]
    steps = int(str(expected[0]))
    checkpoints = [str(c) for c in expected[1:]]
    if max_steps is not None and steps > max_steps:
        got_steps, got = record(preset, int(players), int(seed), max_steps)
        assert got_steps == max_steps
        want = checkpoints[: max_steps // CHECKPOINT]
        assert got[: len(want)] == want, _first_difference(want, got)
        return
    got_steps, got = record(preset, int(players), int(seed))
    assert got[:-1] == checkpoints[:-1], _first_difference(checkpoints, got)
    assert (got_steps, got[-1]) == (steps, checkpoints[-1])


def _first_difference(want: list[str], got: list[str]) -> str:
    for index, (a, b) in enumerate(zip(want, got, strict=False)):
        if a != b:
            start, end = index * CHECKPOINT, (index + 1) * CHECKPOINT
            return f"answers differ between steps {start} and {end}"
    return f"{len(got)} checkpoints instead of {len(want)}"


def test_fixture_covers_every_preset_and_table_size() -> None:
    keys = {f"{p}:{n}:{s}" for p, n, s in tables(2)}
    assert keys == set(RECORDED)
    assert sum(int(str(entry[0])) for entry in RECORDED.values()) > 100_000


@pytest.mark.parametrize("key", [f"{p}:{n}:{s}" for p, n, s in tables(1)])
def test_first_steps_answer_as_recorded(key: str) -> None:
    _replay(key, QUICK_STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(RECORDED))
def test_whole_games_answer_as_recorded(key: str) -> None:
    _replay(key)
