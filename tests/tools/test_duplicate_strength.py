"""The duplicate-strength simulation: a strength ordering counts right and wrong pairs, a
small event plays through every scoring (the same games scored ordinarily too), its duplicate
tables dealt alike, and the paired bootstrap interval brackets the mean."""

from __future__ import annotations

import hashlib
from fractions import Fraction

from bot.events.duplicate import TableDeals
from bot.events.standings import Standing
from engine.rules import Rules
from tools.duplicate_strength import (
    GRADED,
    LEVELS,
    bootstrap,
    concordance,
    make_player,
    mean_half,
    pair_keys,
    play_event,
    play_table,
    relative_points,
    run_event,
)

SECRET_A = hashlib.sha256(b"a").digest()
SECRET_B = hashlib.sha256(b"b").digest()


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
    # One deal at two tables of four, every seat a person's: on each board the two tables'
    # differences from each other cancel out.
    assert sum(s.points for s in ordered) == 0
    ordinary, _ = play_event(strengths, rounds=1, seed=3, duplicate=False, deals=1)
    assert sum(s.points for s in ordinary) == 2 * (5 + 3 + 2 + 1)
    # The same duplicate games scored ordinarily: places at each table earn event points.
    others: dict[str, list[Standing]] = {}
    play_event(strengths, rounds=1, seed=3, duplicate=True, deals=1, alternatives=others)
    assert sum(s.points for s in others["places"]) == 2 * (5 + 3 + 2 + 1)
    outcome = run_event((3, 8, 1, 1, False, False, LEVELS, "per_seat"))
    assert outcome.ordinary is None and outcome.games == 2
    # The same duplicate games scored the other ways, for the comparison.
    assert set(outcome.others) == {"places", "matchpoints", "root", "relative", "ranked"}
    both = run_event((3, 8, 1, 1, False, True, LEVELS, "per_seat"))
    assert both.ordinary is not None and 0.0 <= both.ordinary["all"] <= 1.0
    assert both.games == 4 and both.duplicate == outcome.duplicate


def test_tables_given_the_same_secret_and_seed_are_dealt_alike() -> None:
    rules = Rules.preset("standard").with_options(num_deals=1)
    levels = ["easy", "normal", "expert", "normal"]
    one = play_table(rules, levels, 7, SECRET_A)
    assert play_table(rules, levels, 7, SECRET_A) == one
    assert play_table(rules, levels, 7, SECRET_B) != one


def test_mean_half_is_a_normal_interval() -> None:
    mean, half = mean_half([0.0, 1.0, 0.0, 1.0])
    assert mean == 0.5 and abs(half - 1.96 * (1 / 3) ** 0.5 / 2) < 1e-9


def test_the_bootstrap_interval_brackets_the_mean_and_narrows_with_more_events() -> None:
    few = [0.0, 1.0] * 5
    many = [0.0, 1.0] * 50
    low, high = bootstrap(few)
    assert low < 0.5 < high
    wide = high - low
    low, high = bootstrap(many)
    assert low < 0.5 < high and high - low < wide
    assert bootstrap([0.25] * 7) == (0.25, 0.25)


def test_relative_points_take_out_how_fast_each_table_went() -> None:
    # Table 1's deal ended fast (everyone low), table 2's slowly (everyone high). Seat 0
    # did as well against its own table at both: relative to their tables, nobody gains.
    fast = TableDeals(1, (1, 2), ((0, 20),))
    slow = TableDeals(2, (3, 4), ((60, 80),))
    assert relative_points([fast, slow], 1) == {p: Fraction(0) for p in (1, 2, 3, 4)}
    # Seat 0 at table 2 is 60 below its table's mean where seat 0 at table 1 is 10 below.
    slow = TableDeals(2, (3, 4), ((0, 120),))
    points = relative_points([fast, slow], 1)
    assert points[3] == 50 and points[1] == -50 and points[4] == -50 and points[2] == 50
    # A computer (0) earns nothing; a board nobody else played gains nothing.
    assert relative_points([TableDeals(1, (1, 0), ((5, 50),))], 1) == {1: Fraction(0)}


def test_graded_levels_play_and_are_reported_pair_by_pair() -> None:
    assert pair_keys(LEVELS) == ("all", "normal>easy", "expert>normal", "expert>easy")
    assert pair_keys(GRADED)[1:4] == (
        "blend:0.33>easy",
        "blend:0.67>blend:0.33",
        "normal>blend:0.67",
    )
    blend = make_player("blend:0.5")
    assert blend.name == "blend:0.5"
    rules = Rules.preset("standard").with_options(num_deals=1)
    sheet = play_table(rules, list(GRADED), 7, SECRET_A)
    assert len(sheet) == 1 and len(sheet[0]) == 4
    strengths = {1: "normal", 2: "blend:0.67", 3: "easy"}
    right = [standing(1, 1), standing(2, 2), standing(3, 3)]
    assert concordance(right, strengths, GRADED)["all"] == 1.0
    wrong = [standing(1, 3), standing(2, 2), standing(3, 1)]
    assert concordance(wrong, strengths, GRADED)["normal>easy"] == 0.0


def test_the_duplicate_games_draw_as_asked_and_ordinary_ones_share_the_stock() -> None:
    strengths = {player: ("easy", "normal")[player % 2] for player in range(1, 9)}
    laned = run_event((3, 8, 1, 1, False, False, LEVELS, "per_seat"))
    shared = run_event((3, 8, 1, 1, False, False, LEVELS, "shared"))
    # The same players, seeds and seating: only the draws differ, and with them the games.
    assert laned.games == shared.games == 2
    assert laned.others["places"] != shared.others["places"] or laned.duplicate != shared.duplicate
    ordinary, _ = play_event(strengths, rounds=1, seed=3, duplicate=False, deals=1)
    again, _ = play_event(
        strengths, rounds=1, seed=3, duplicate=False, deals=1, stock_draws="shared"
    )
    assert ordinary == again
