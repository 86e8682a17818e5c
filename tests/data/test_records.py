"""Records: JSON round trips, and agreement with the engine on what a game kind is."""

from __future__ import annotations

from dataclasses import fields, replace
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


def _every_field_set() -> AwayState:
    """A record whose every field differs from its default (a field added later included)."""
    values: dict[str, object] = {}
    for spec in fields(AwayState):
        kind = type(spec.default)
        values[spec.name] = {int: 7, bool: True, str: "x", float: 7.5}[kind]
    return AwayState(**values)  # type: ignore[arg-type]


def test_the_stored_record_keeps_every_field_but_the_ones_the_table_keeps() -> None:
    state = _every_field_set()
    stored = state.stored(held="draw", buy="never")
    assert stored == replace(state, held="draw", buy="never")
    removed = state.stored(held="", buy="", removed_as=1_000)
    assert removed == replace(state, timeouts=1_000, away=True, held="", buy="")
    assert AwayState.from_json(stored.to_json()) == stored


def test_a_counted_action_keeps_every_other_field() -> None:
    state = _every_field_set()
    assert state.counted(by_bot=False) == replace(state, own=state.own + 1)
    assert state.counted(by_bot=True) == replace(state, auto=state.auto + 1)
