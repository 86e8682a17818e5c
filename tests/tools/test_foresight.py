"""``tools.foresight``: a lap is played on a copy (the real game untouched), foresees the card
the seat really draws next, and the sampled mode plays without the real game at all."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path

from engine.actions import Discard
from engine.game import Game
from engine.players.strategy import NormalStrategy
from engine.rules import Rules
from tools.foresight import (
    ForesightExpert,
    Tally,
    as_expert,
    best_deficiency,
    lap_value,
    play_to_the_draw_of,
    summary_lines,
)
from tools.simulate import GameRecord, play_game


def _play_until_a_play_step(turns: int) -> Game:
    """A 4-player game of normal players, stopped at a play step after ``turns`` turns of a
    seat not yet down."""
    game = Game.new([f"seat{s}" for s in range(4)], Rules.preset("standard"), 31)
    normal = NormalStrategy()
    rng = random.Random(0)
    seen = 0
    while True:
        player = game.players[game.current]
        if game.step == "play" and not game.down[game.current]:
            seen += 1
            if seen > turns:
                return game
        game.apply(player, normal.choose(game.view(player), game.legal_actions(player), rng))


def test_a_lap_leaves_the_real_game_as_it_was() -> None:
    game = _play_until_a_play_step(5)
    before = game.to_json()
    seat = game.current
    for card in dict.fromkeys(game.hands[seat]):
        lap_value(game, seat, card, False, Tally())
    assert game.to_json() == before


def test_the_lap_foresees_the_stock_card_the_seat_draws_next() -> None:
    """``stock`` mode's value is the deficiency after the very card the seat then draws."""
    for turns in (2, 5, 9):
        game = _play_until_a_play_step(turns)
        seat = game.current
        card = game.hands[seat][0]
        value = lap_value(game, seat, card, True, Tally())
        game.apply(game.players[seat], Discard(card))
        assert play_to_the_draw_of(game, seat)  # the real game, played on as the lap was
        view = game.view(game.players[seat])
        assert value == best_deficiency(list(view.hand or ()), view, game.stock[-1], True)


def test_the_sampled_mode_plays_without_the_real_game() -> None:
    """No ``on_start``: the seat never sees the game, yet searches its close discards."""
    rules = Rules.preset("standard").with_options(num_deals=2)
    oracle = ForesightExpert("sampled", samples=2, width=3)
    strategies = [oracle, NormalStrategy(), NormalStrategy(), NormalStrategy()]
    record = play_game(rules, strategies, 5)
    assert oracle.game is None
    assert oracle.tally.searched > 0 and len(oracle.tally.seconds) == oracle.tally.searched
    assert record.strategies[0] == "foresight"


def test_its_records_pair_with_an_experts_run(tmp_path: Path) -> None:
    def record(name: str, totals: tuple[int, ...], winner: int) -> GameRecord:
        names = (name, "normal", "normal", "normal")
        return GameRecord(names, totals, (winner,), (1, 1, 1, 1), 10, 0, 900, seed=7)

    mine = tmp_path / "foresight.jsonl"
    theirs = tmp_path / "expert.jsonl"
    mine.write_text(json.dumps(asdict(record("foresight", (300, 400, 500, 600), 0))) + "\n")
    theirs.write_text(json.dumps(asdict(record("expert", (450, 400, 500, 600), 1))) + "\n")
    assert as_expert([record("foresight", (1, 2, 3, 4), 0)])[0].strategies[0] == "expert"
    lines = summary_lines([str(mine)], [str(theirs)])
    assert any(line.startswith("paired, expert, 1 games: wins +100.0%") for line in lines)
    assert any("mean total -150.0" in line for line in lines)
