"""Seating a round of an event: table sizes, sit-outs, and the order tables are cut from."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events.seating import (
    MAX_TABLE,
    MIN_TABLE,
    SeatingError,
    final_table,
    mixed,
    seat_round,
    table_sizes,
)

sizes = st.integers(MIN_TABLE, MAX_TABLE)


def brute_force_fewest_out(players: int, size: int) -> int:
    """The fewest sit-outs any mix of tables of ``size`` and ``size - 1`` (none under 3) allows."""
    if players < size - 1:
        return 0  # one table of them all
    allowed = {size, size - 1} - {s for s in (size - 1,) if s < MIN_TABLE}
    best = players
    for full in range(players // size + 1):
        for small in range(players // max(1, size - 1) + 1):
            seated = full * size + (small * (size - 1) if size - 1 in allowed else 0)
            if seated <= players:
                best = min(best, players - seated)
    return best


@pytest.mark.parametrize(
    ("players", "size", "expected"),
    [
        (13, 5, (5, 4, 4)),
        (13, 4, (4, 3, 3, 3)),
        (12, 4, (4, 4, 4)),
        (20, 5, (5, 5, 5, 5)),
        (7, 4, (4, 3)),
        (13, 6, (6, 6)),  # nothing of 6s and 5s makes 13: one sits out
        (7, 3, (3, 3)),
        (3, 6, (3,)),  # fewer than even the smaller table: all at one
        (5, 6, (5,)),
    ],
)
def test_table_sizes_examples(players: int, size: int, expected: tuple[int, ...]) -> None:
    assert table_sizes(players, size) == expected


def test_too_few_players_or_a_bad_size_is_refused() -> None:
    with pytest.raises(SeatingError):
        table_sizes(2, 4)
    with pytest.raises(SeatingError):
        table_sizes(10, 7)
    with pytest.raises(SeatingError):
        table_sizes(10, 2)
    with pytest.raises(SeatingError):
        seat_round([1, 2, 3, 3], 3)


@settings(max_examples=300, deadline=None)
@given(players=st.integers(MIN_TABLE, 80), size=sizes)
def test_table_sizes_are_k_or_k_minus_one_and_seat_as_many_as_possible(
    players: int, size: int
) -> None:
    found = table_sizes(players, size)
    assert all(MIN_TABLE <= s <= size for s in found)
    if players >= size - 1:
        assert all(s in (size, size - 1) for s in found)
    else:
        assert found == (players,)
    assert list(found) == sorted(found, reverse=True)  # the smaller tables come last
    assert players - sum(found) == brute_force_fewest_out(players, size)


@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(MIN_TABLE, 40),
    size=sizes,
    rounds=st.integers(1, 8),
    data=st.data(),
)
def test_rounds_seat_everyone_once_and_sit_outs_rotate(
    players: int, size: int, rounds: int, data: st.DataObject
) -> None:
    everyone = list(range(100, 100 + players))
    sat_out: list[int] = []
    for _ in range(rounds):
        order = data.draw(st.permutations(everyone))
        seating = seat_round(order, size, sat_out)
        seated = seating.seated
        assert len(seated) == len(set(seated))  # nobody twice in a round
        assert set(seated) | set(seating.sitting_out) == set(everyone)
        assert not set(seated) & set(seating.sitting_out)
        assert all(MIN_TABLE <= len(t) <= size for t in seating.tables)
        assert len(seating.sitting_out) == brute_force_fewest_out(players, size)
        before = Counter(sat_out)
        for player in seating.sitting_out:
            # A player sits out again only when everyone not sitting out has done so as often.
            assert all(before[player] <= before[other] for other in seated)
        sat_out.extend(seating.sitting_out)
    counts = Counter(sat_out)
    if counts:
        assert max(counts.values()) - min(counts.get(p, 0) for p in everyone) <= 1


def test_tables_are_cut_in_order_and_the_lowest_sit_out() -> None:
    order = list(range(1, 14))  # 13 players, best first
    seating = seat_round(order, 6)
    assert seating.tables == ((1, 2, 3, 4, 5, 6), (7, 8, 9, 10, 11, 12))
    assert seating.sitting_out == (13,)
    again = seat_round(order, 6, sat_out_before=[13])
    assert again.sitting_out == (12,)
    assert 13 in again.seated


def test_thirteen_at_tables_of_five() -> None:
    seating = seat_round(list(range(1, 14)), 5)
    assert seating.tables == ((1, 2, 3, 4, 5), (6, 7, 8, 9), (10, 11, 12, 13))
    assert seating.sitting_out == ()


def test_final_table_is_the_top_of_the_order() -> None:
    assert final_table([5, 4, 3, 2, 1], 4) == (5, 4, 3, 2)
    assert final_table([5, 4, 3], 4) == (5, 4, 3)


def test_computers_take_the_seats_a_count_leaves_empty() -> None:
    # Nobody sits out: the players spread over as few tables as hold them.
    four = seat_round([1, 2, 3, 4], 3, computers=True)
    assert four.tables == ((1, 2), (3, 4)) and four.computers == (1, 1)
    assert four.sitting_out == ()
    thirteen = seat_round(list(range(1, 14)), 6, computers=True)
    assert [len(t) for t in thirteen.tables] == [5, 4, 4] and thirteen.computers == (0, 1, 1)
    # Where the count divides into full and one-smaller tables, no computer sits.
    even = seat_round(list(range(1, 14)), 5, computers=True)
    assert [len(t) for t in even.tables] == [5, 4, 4] and not any(even.computers)


def test_full_tables_are_filled_to_their_size() -> None:
    full = seat_round(list(range(1, 14)), 4, full=True)
    assert [len(t) for t in full.tables] == [4, 3, 3, 3] and full.computers == (0, 1, 1, 1)
    assert [len(t) + c for t, c in zip(full.tables, full.computers, strict=True)] == [4] * 4


@pytest.mark.parametrize(
    ("order", "size", "full", "computers"),
    [
        ([1, 2], 3, False, 1),
        ([1, 2], 6, False, 1),  # up to the fewest a table seats, not to the table size
        ([1], 4, False, 2),
        ([1, 2], 5, True, 3),  # full tables: up to the table size
        ([1], 3, True, 2),
    ],
)
def test_one_or_two_players_sit_with_computers_up_to_a_table(
    order: list[int], size: int, full: bool, computers: int
) -> None:
    seating = seat_round(order, size, computers=True, full=full)
    assert seating.tables == (tuple(order),) and seating.sitting_out == ()
    assert seating.computers == (computers,)


def test_nobody_to_seat_or_too_few_without_computers_is_refused() -> None:
    with pytest.raises(SeatingError):
        seat_round([], 4, computers=True)
    with pytest.raises(SeatingError):
        seat_round([1, 2], 4)  # without computers two cannot make a table


def test_a_mixed_order_seats_one_player_of_each_band_at_every_table() -> None:
    order = list(range(1, 14))  # thirteen, best first, at tables of four
    seating = seat_round(mixed(order, 4), 4, computers=True, full=True)
    assert seating.tables == ((1, 5, 9, 13), (2, 6, 10), (3, 7, 11), (4, 8, 12))
    assert seating.computers == (0, 1, 1, 1)
    assert mixed([7, 3, 5], 4) == [7, 3, 5]
