"""The duplicate-strength simulation: a strength ordering counts right and wrong pairs, and a
small event plays through both scorings, its duplicate tables dealt alike."""

from __future__ import annotations

from fractions import Fraction

from bot.events.standings import Standing
from tools.duplicate_strength import concordance, mean_half, play_event, run_event


def standing(rank: int, player: int) -> Standing:
    return Standing(rank, player, Fraction(0), 0, 1)


def test_concordance_counts_pairs_the_right_way_round() -> None:
    strengths = {1: "expert", 2: "normal", 3: "easy"}
    right = [standing(1, 1), standing(2, 2), standing(3, 3)]
    assert concordance(right, strengths) == {
        "expert>normal": 1.0,
        "expert>easy": 1.0,
        "normal>easy": 1.0,
        "all": 1.0,
    }
    wrong = [standing(1, 3), standing(2, 2), standing(3, 1)]
    assert concordance(wrong, strengths)["all"] == 0.0
    shared = [standing(1, 1), standing(1, 2), standing(3, 3)]
    assert concordance(shared, strengths)["expert>normal"] == 0.5


def test_a_small_event_plays_both_ways() -> None:
    strengths = {player: ("easy", "normal")[player % 2] for player in range(1, 9)}
    ordered, games = play_event(strengths, rounds=1, seed=3, duplicate=True, deals=1)
    assert games == 2 and sorted(s.player for s in ordered) == list(range(1, 9))
    # One deal at two tables of four: each of the four boards shares out one point (half as
    # many as the tables that played it), and every seat is a person's.
    assert sum(s.points for s in ordered) == 4
    ordinary, _ = play_event(strengths, rounds=1, seed=3, duplicate=False, deals=1)
    assert sum(s.points for s in ordinary) == 2 * (5 + 3 + 2 + 1)
    outcome = run_event((3, 8, 1, 1, False))
    assert 0.0 <= outcome.ordinary["all"] <= 1.0 and outcome.games == 4


def test_mean_half_is_a_normal_interval() -> None:
    mean, half = mean_half([0.0, 1.0, 0.0, 1.0])
    assert mean == 0.5 and abs(half - 1.96 * (1 / 3) ** 0.5 / 2) < 1e-9
