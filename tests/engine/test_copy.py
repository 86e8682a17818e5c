"""``Game.copy`` (issue 28: cheap copies for search): an independent game that plays on
exactly as a JSON restore of the same state."""

from __future__ import annotations

import random
import timeit

import pytest

from engine import Game, Rules
from engine.players.random_play import random_step


@pytest.mark.parametrize("preset", ["standard", "preset_000", "preset_004", "rummy"])
def test_a_copy_plays_on_as_a_restore_and_leaves_the_original_alone(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game.new(["a", "b", "c", "d"], rules, 28)
    rng = random.Random(28)
    for cut in (0, 150, 400, 900):
        while not game.is_over and sum(len(row) for row in game.score_sheet) < cut:
            game.apply(*random_step(game, rng))
        for _ in range(cut % 97):
            if not game.is_over:
                game.apply(*random_step(game, rng))
        before = game.to_json()
        copy, restored = game.copy(), Game.from_json(before)
        assert copy.to_json() == before
        for _ in range(600):  # the copy and the restore, side by side
            if copy.is_over:
                break
            player, action = random_step(copy, rng)
            assert copy.legal_actions(player) == restored.legal_actions(player)
            assert copy.apply(player, action) == restored.apply(player, action)
        assert copy.to_json() == restored.to_json()
        assert game.to_json() == before  # playing the copy changed nothing here


def test_a_copy_is_cheaper_than_a_json_round_trip() -> None:
    game = Game.new([f"p{i}" for i in range(8)], Rules.preset("standard"), 3)
    rng = random.Random(3)
    for _ in range(400):
        game.apply(*random_step(game, rng))
    copying = min(timeit.repeat(game.copy, number=200, repeat=3))
    restoring = min(timeit.repeat(lambda: Game.from_json(game.to_json()), number=200, repeat=3))
    assert copying * 5 < restoring
