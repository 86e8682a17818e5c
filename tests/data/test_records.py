"""Records: JSON round trips, and agreement with the engine on what a game kind is."""

from __future__ import annotations

from typing import get_args

from data import AwayState, GameKind, PlayerStats, Seat, lower_is_better


def test_game_kinds_match_the_engine() -> None:
    # Imported here so that a broken engine fails this test only, not the whole storage suite.
    from engine.rules import GameKind as EngineGameKind

    assert set(get_args(GameKind)) == set(get_args(EngineGameKind))


def test_seat_json_round_trip() -> None:
    for seat in (Seat(1, "Ann"), Seat(-3, "Robo", is_computer=True, level="hard")):
        assert Seat.from_json(seat.to_json()) == seat


def test_seat_json_defaults() -> None:
    assert Seat.from_json({"user_id": 5, "name": "Old row"}) == Seat(5, "Old row")


def test_away_json_round_trip() -> None:
    for away in (AwayState(), AwayState(timeouts=2, away=True)):
        assert AwayState.from_json(away.to_json()) == away


def test_lower_is_better_per_game() -> None:
    assert lower_is_better("shanghai") is True
    assert lower_is_better("rummy") is False


def test_win_rate() -> None:
    stats = PlayerStats(1, "Ann", "shanghai", 4, 1, 10.0, 0, 0, 0, 0)
    assert stats.win_rate == 0.25
