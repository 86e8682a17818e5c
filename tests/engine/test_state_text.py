"""A saved state's text is ``json.dumps`` of the whole state, whichever parts ``to_json``
kept from the save before: checked at every step of random games, across a copy, a restore,
a new deal and a history emptied and refilled in place."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import Game, Rules
from engine.players.random_play import random_step


def whole_state(game: Game) -> str:
    """The state encoded in one piece, as every save did before ``to_json`` kept parts."""
    history = game.history
    pile = [[m.seat, m.kind, str(m.card)] for m in history if m.kind in _PILE]
    plays = [
        [
            index,
            m.seat,
            m.kind,
            None if m.card is None else str(m.card),
            [str(meld) for meld in m.melds],
            m.meld,
            None if m.wild is None else str(m.wild),
        ]
        for index, m in enumerate(history)
        if m.kind not in _PILE
    ]
    state: dict[str, Any] = json.loads(game.to_json())
    state.pop("history")
    state.pop("plays", None)
    secret = state.pop("secret", None)
    seeds = state.pop("deal_seeds", None)
    lanes = state.pop("lanes", None)
    rules = game.rules.model_dump(mode="json")
    if rules["stock_draws"] == "shared":  # newer than saved games: left out at its default
        del rules["stock_draws"]
    state["rules"] = rules
    state["history"] = pile
    if plays:
        state["plays"] = plays
    if secret is not None:
        state["secret"] = secret
    if seeds is not None:
        state["deal_seeds"] = seeds
    if lanes is not None:
        state["lanes"] = lanes
    order = ["v", "rules", *[k for k in state if k not in ("v", "rules")]]
    return json.dumps({k: state[k] for k in order}, separators=(",", ":"))


_PILE = {"turned", "took", "bought", "discarded"}


@pytest.mark.parametrize(
    ("preset", "stock_draws"),
    [("standard", "shared"), ("rummy", "shared"), ("standard", "per_seat"), ("rummy", "per_seat")],
)
def test_the_text_of_every_step_is_the_whole_state_encoded_at_once(
    preset: str, stock_draws: str
) -> None:
    rng = random.Random(7)
    rules = Rules.preset(preset).with_options(stock_draws=stock_draws)
    for seed in range(2):
        game = Game.new(["a", "b", "c", "d"], rules, seed=seed, secret=bytes([seed]) * 32)
        saved_before: list[str] = []
        for step in range(600):
            if game.is_over:
                break
            text = game.to_json()
            assert text == whole_state(game), f"step {step}"
            assert json.loads(text)["history"] == json.loads(whole_state(game))["history"]
            saved_before.append(text)
            if step % 97 == 5:  # a restored game and a copy encode their own history
                restored = Game.from_json(text)
                assert restored.to_json() == text
                assert game.copy().to_json() == text
            game.apply(*random_step(game, rng))
        assert len(saved_before) > 100
        assert len(set(saved_before)) > 100  # the game moved on


def test_a_history_emptied_and_refilled_in_place_is_encoded_anew() -> None:
    game = Game.new(["a", "b", "c"], Rules.preset("standard"), seed=4)
    rng = random.Random(1)
    while len(game.history) < 6:
        game.apply(*random_step(game, rng))
    first = game.to_json()
    moves = list(game.history)
    game.history.clear()
    game.history.extend(reversed(moves))
    assert game.to_json() != first
    assert game.to_json() == whole_state(game)
