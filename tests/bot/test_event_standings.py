"""Event points by place, shared ties, the tie-break, and a final table."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events.standings import (
    PLACE_POINTS,
    Finish,
    places_from_totals,
    points_text,
    sit_out_points,
    standings,
    table_points,
    winners,
    with_final,
)


def test_points_by_place() -> None:
    table = [Finish(1, 1, 10), Finish(2, 2, 40), Finish(3, 3, 90), Finish(4, 4, 200)]
    assert table_points(table) == {1: 5, 2: 3, 3: 2, 4: 1}


def test_tied_players_share_the_points_of_the_places_they_cover() -> None:
    table = [Finish(1, 1, 10), Finish(2, 1, 10), Finish(3, 3, 50), Finish(4, 3, 50)]
    assert table_points(table) == {1: 4, 2: 4, 3: Fraction(3, 2), 4: Fraction(3, 2)}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 300), min_size=3, max_size=6))
def test_a_table_hands_out_exactly_the_points_of_its_places(scores: list[int]) -> None:
    finishes = places_from_totals(dict(enumerate(scores)))
    points = table_points(finishes)
    assert sum(points.values()) == sum(PLACE_POINTS[: len(scores)])
    # A lower score never earns fewer points.
    for a in finishes:
        for b in finishes:
            if a.total < b.total:
                assert points[a.player] >= points[b.player]
            if a.total == b.total:
                assert points[a.player] == points[b.player]


def test_sit_out_earns_the_average_of_a_table() -> None:
    assert sit_out_points(4) == Fraction(11, 4)
    assert sit_out_points(5) == Fraction(11, 5)


def test_standings_sort_by_points_then_average_score_and_share_ranks() -> None:
    round_one = [
        [Finish(1, 1, 20), Finish(2, 2, 50), Finish(3, 3, 80)],
        [Finish(4, 1, 30), Finish(5, 2, 60), Finish(6, 3, 90)],
    ]
    table = standings([1, 2, 3, 4, 5, 6], round_one, [], 3)
    assert [s.player for s in table] == [1, 4, 2, 5, 3, 6]
    assert [s.rank for s in table] == [1, 2, 3, 4, 5, 6]
    level = standings([1, 2, 3, 4], [[Finish(1, 1, 20), Finish(2, 2, 50), Finish(3, 3, 80)]], [], 3)
    # Player 4 has not played: no points, and no average to compare, so last.
    assert [(s.player, s.rank) for s in level] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    tied = standings([1, 2], [[Finish(1, 1, 20), Finish(2, 1, 20)]], [], 3)
    assert [s.rank for s in tied] == [1, 1]
    assert winners(tied) == [1, 2]


def test_sit_out_counts_points_but_not_against_the_average() -> None:
    tables = [[Finish(1, 1, 30), Finish(2, 2, 60), Finish(3, 3, 90)]]
    table = standings([1, 2, 3, 4], tables, [4], 3)
    by_player = {s.player: s for s in table}
    assert by_player[4].points == sit_out_points(3)
    assert by_player[4].tables == 0
    assert by_player[1].average == 30


def test_the_final_table_decides_the_winner() -> None:
    tables = [[Finish(1, 1, 10), Finish(2, 2, 20), Finish(3, 3, 30), Finish(4, 4, 40)]]
    before = standings([1, 2, 3, 4, 5], tables, [5], 4)
    final = [Finish(3, 1, 5), Finish(1, 2, 50), Finish(2, 2, 50)]
    after = with_final(before, final)
    assert [(s.player, s.rank) for s in after] == [(3, 1), (1, 2), (2, 2), (5, 4), (4, 5)]
    assert winners(after) == [3]


def test_a_removed_player_ranks_after_everyone_still_in_and_never_wins() -> None:
    tables = [[Finish(1, 1, 10), Finish(2, 2, 20), Finish(3, 3, 30)], [Finish(4, 1, 15)]]
    # Player 1 has the most points, and player 4 the second most, but both were removed.
    table = standings([1, 2, 3, 4, 5], tables, [], 3, removed={1, 4})
    assert [(s.player, s.rank, s.removed) for s in table] == [
        (2, 1, False),
        (3, 2, False),
        (5, 3, False),  # not played yet, and still ahead of the removed
        (1, 4, True),
        (4, 5, True),
    ]
    assert table[3].points == 5  # their points stand
    assert winners(table) == [2]
    # Removed during the final: they keep no place at its head.
    after = with_final(table, [Finish(2, 1, 5), Finish(3, 2, 9)])
    assert [s.player for s in after] == [2, 3, 5, 1, 4]
    after = with_final(standings([1, 2, 3], tables, [], 3, removed={2}), tables[0])
    assert [(s.player, s.rank) for s in after] == [(1, 1), (3, 2), (2, 3)]
    # With everyone removed, nobody wins.
    assert winners(standings([1, 2], tables, [], 3, removed={1, 2})) == []


def test_points_text() -> None:
    assert points_text(Fraction(5)) == "5"
    assert points_text(Fraction(3, 2)) == "1.5"
    assert points_text(Fraction(10, 3)) == "3.33"
